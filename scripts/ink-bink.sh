#!/usr/bin/env bash
# Differential test of PajamaInk against bink (PyPI: Python bindings of blade-ink, a port of the official ink
# runtime), on the conformance corpus: see docs/ink.md. bink is installed for this test only, into a venv under
# .build/. Extra arguments go to scripts/ink-bink.py (--verbose, --only SUBSTRING). With --published DIR, the
# published games under DIR instead (../shared/corpora/ink, or another folder of games kept locally).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${INK_CONFORMANCE_DIR:-../shared/ink-conformance}"
if [[ " $* " == *" --published "* ]]; then
  corpus=""
elif [ ! -d "$corpus/compiled" ]; then
  echo "ink-bink: no conformance corpus at $corpus (put it beside the project or set INK_CONFORMANCE_DIR)" >&2
  exit 2
fi
venv=.build/bink-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import bink" 2>/dev/null || "$venv/bin/pip" install -q "bink==0.7.1"
swift build --product pajama-ink-play
exec "$venv/bin/python" scripts/ink-bink.py "$(swift build --show-bin-path)/pajama-ink-play" ${corpus:+"$corpus"} "$@"
