#!/usr/bin/env bash
# Installs the Debian packages Pajama needs to build, run and test, when any is missing.
# Uses apt-get (after apt-get update); sudo only when not root (scripts/apt-install-missing.sh).
set -euo pipefail

packages=(
  pkg-config
  libncurses-dev      # the TUI (ncursesw)
  libsndfile1-dev     # sound decoding
  libpulse-dev        # sound playback
  libpng-dev          # picture decoding: PNG
  libjpeg-dev         # JPEG (libjpeg-turbo; the CJPEG shim)
  libwebp-dev         # WebP, and the first frame of an animated one (libwebpdemux; the CWebP shim)
  libgif-dev          # GIF (giflib; the CGIF shim)
  libchafa-dev        # pictures as terminal cells
  zlib1g-dev          # kitty pictures sent compressed (o=z; the CDeflate shim)
  libssl-dev          # certificates and SHA-256 (OpenSSL libcrypto; the CCertificate shim)
  libespeak-ng-dev    # read aloud (speech synthesised in process)
  libjavascriptcoregtk-4.1-dev  # SugarCube stories' JavaScript (JavaScriptCore; the CJavaScriptCore shim)
  pulseaudio          # a private sound server for the tests
  pulseaudio-utils    # pactl, parec
  sox libsox-fmt-all  # making and measuring test sounds
  espeak-ng           # spoken test sounds
  opus-tools lame     # Ogg Opus and MP3 test sounds (decoder tests)
  nginx libnginx-mod-nchan  # `pajama relay`: a relay node is Debian's nginx with the nchan module (docs/coreading.md, "Relays")
  redis-server        # relay nodes sharing sessions (--redis), and the relay tests' private Redis
  tmux                # end-to-end tests drive the real binary in tmux
  xvfb x11-apps xdotool  # pictures in pixels checked on real terminals: a private X server, xwd, keys and resizes
  xterm kitty mlterm  # the terminals of those tests (xterm -ti vt340 and mlterm: sixel; kitty: its graphics protocol)
  libsixel-bin        # img2sixel, the reference sixel encoder pajama-bench compares with
  python3             # scripts/check-stories.py (story checks, run by hand; the tests need no Python)
  python3-venv        # a venv for bink, the reference ink runtime (the ink corpus test, scripts/ink-bink.sh)
  python3-pil         # pajama-bench's pictures in every format, scripts/make-picture-fixtures.py (the tests need none)
)

"$(dirname "$0")/apt-install-missing.sh" "${packages[@]}"

# bink (PyPI), the reference ink runtime the ink corpus test compares PajamaInk with, live
# (InkPublishedCorpusEndToEndTests; scripts/ink-bink.sh): in a venv under .build, as ink-bink.sh keeps it.
cd "$(dirname "$0")/.."
venv=.build/bink-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import bink" 2>/dev/null || "$venv/bin/pip" install -q "bink==0.7.1"
