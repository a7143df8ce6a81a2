#!/usr/bin/env bash
# Installs pajama as packagers expect (make install): PREFIX (default /usr/local) and DESTDIR.
#   $DESTDIR$PREFIX/bin/pajama                      the binary (BIN, default the static release build)
#   $DESTDIR$PREFIX/share/pajama/Stories, Themes    the bundled stories and themes
#   $DESTDIR$PREFIX/share/man/man1/*.1              the man pages (GENERATED/man, made by generate-docs.sh)
#   completions: bash, zsh, fish in their usual folders for PREFIX (below)
# Every file and every folder it creates is listed, in order, in the manifest
# $DESTDIR$PREFIX/share/pajama/install-manifest.txt (itself the last line), which uninstall.sh reads: uninstall
# removes exactly what install wrote. MANIFEST=no (the .deb's staging: dpkg keeps its own list) writes none.
set -euo pipefail
cd "$(dirname "$0")/../.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BIN=${BIN:-.build-static/release/pajama}
GENERATED=${GENERATED:-.build-package/generated}
MANIFEST=${MANIFEST:-yes}
STRIP=${STRIP:-yes}

case "$PREFIX" in /*) ;; *) echo "install: PREFIX must be an absolute path (got '$PREFIX')" >&2; exit 2 ;; esac
for needed in "$BIN" "$GENERATED/man/pajama.1" "$GENERATED/completions/pajama.bash"; do
  [ -e "$needed" ] || { echo "install: $needed is missing (make release, then scripts/package/generate-docs.sh)" >&2; exit 2; }
done

# Completion folders: Debian's own for /usr, the ones the shells search under any other prefix.
BASH_COMPLETIONS=${BASH_COMPLETIONS:-$PREFIX/share/bash-completion/completions}
if [ "$PREFIX" = /usr ]; then ZSH_DEFAULT=$PREFIX/share/zsh/vendor-completions; else ZSH_DEFAULT=$PREFIX/share/zsh/site-functions; fi
ZSH_COMPLETIONS=${ZSH_COMPLETIONS:-$ZSH_DEFAULT}
FISH_COMPLETIONS=${FISH_COMPLETIONS:-$PREFIX/share/fish/vendor_completions.d}

root="$DESTDIR"
share="$PREFIX/share/pajama"
manifest_path="$share/install-manifest.txt"
if [ "$MANIFEST" = yes ] && [ -e "$root$manifest_path" ]; then
  echo "install: $root$manifest_path exists: pajama is installed there already (make uninstall first)" >&2
  exit 1
fi
written=()   # paths without DESTDIR, in the order they were made
[ -z "$root" ] || mkdir -p "$root"   # DESTDIR itself is the packager's, not listed

# A folder and each missing parent, recorded when this run made it.
make_dir() {
  local dir=$1 missing=() d=$1
  while [ "$d" != / ] && [ ! -d "$root$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
  for d in "${missing[@]}"; do
    install -d -m 0755 "$root$d"
    written+=("$d/")
  done
}

# A file, refusing to overwrite one that is there (it would not be ours to remove later).
put() {
  local mode=$1 from=$2 to=$3
  make_dir "$(dirname "$to")"
  if [ -e "$root$to" ] || [ -L "$root$to" ]; then
    echo "install: $root$to exists already; not overwriting (remove it, or make uninstall the copy that wrote it)" >&2
    exit 1
  fi
  install -m "$mode" "$from" "$root$to"
  written+=("$to")
}

# Binary: stripped (lintian and packagers expect it; a third of the size).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$BIN" "$tmp/pajama"
[ "$STRIP" = yes ] && strip --strip-unneeded --remove-section=.comment --remove-section=.note "$tmp/pajama"
put 0755 "$tmp/pajama" "$PREFIX/bin/pajama"

# Bundled stories and themes: plain files, 0644, hidden files left out.
for folder in Stories Themes; do
  while IFS= read -r -d '' file; do
    put 0644 "$file" "$share/$file"
  done < <(find "$folder" -type f ! -path '*/.*' -print0 | LC_ALL=C sort -z)
done

for page in "$GENERATED"/man/*.1; do
  gzip -9n < "$page" > "$tmp/$(basename "$page").gz"
  put 0644 "$tmp/$(basename "$page").gz" "$PREFIX/share/man/man1/$(basename "$page").gz"
done
put 0644 "$GENERATED/completions/pajama.bash" "$BASH_COMPLETIONS/pajama"
put 0644 "$GENERATED/completions/_pajama" "$ZSH_COMPLETIONS/_pajama"
put 0644 "$GENERATED/completions/pajama.fish" "$FISH_COMPLETIONS/pajama.fish"

if [ "$MANIFEST" = yes ]; then
  make_dir "$share"
  written+=("$manifest_path")
  printf '%s\n' "${written[@]}" > "$root$manifest_path"
  chmod 0644 "$root$manifest_path"
  echo "installed pajama in ${root:-}$PREFIX (${#written[@]} paths; the list: $root$manifest_path)"
else
  echo "installed pajama in ${root:-}$PREFIX (${#written[@]} paths, no manifest)"
fi
