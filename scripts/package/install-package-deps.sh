#!/usr/bin/env bash
# The Debian packages make deb and make check-install need beyond scripts/install-deps.sh: dpkg-dev
# (dpkg-shlibdeps), binutils (strip), lintian, man-db and groff-base (man renders the pages), bash-completion
# (the completion check). apt-get after apt-get update, sudo only when not root, as install-deps.sh.
set -euo pipefail
packages=(dpkg-dev binutils lintian man-db groff-base bash-completion tmux python3 xz-utils)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
