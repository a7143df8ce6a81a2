#!/usr/bin/env bash
# The Debian packages make deb and make check-install need beyond scripts/install-deps.sh: dpkg-dev
# (dpkg-shlibdeps), binutils (strip), lintian, man-db and groff-base (man renders the pages), bash-completion
# (the completion check). apt-get after apt-get update, sudo only when not root, as install-deps.sh.
set -euo pipefail
packages=(dpkg-dev binutils lintian man-db groff-base bash-completion tmux python3 xz-utils)
exec "$(dirname "$0")/../apt-install-missing.sh" "${packages[@]}"
