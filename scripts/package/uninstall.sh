#!/usr/bin/env bash
# Removes exactly what install.sh wrote (make uninstall), with the same PREFIX and DESTDIR: the files its
# manifest lists, then the folders it lists (those install made), only when they are empty. A file that is
# gone already is said and skipped; nothing not in the manifest is touched.
set -euo pipefail

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
root="$DESTDIR"
manifest="$root$PREFIX/share/pajama/install-manifest.txt"
[ -f "$manifest" ] || { echo "uninstall: no $manifest: pajama was not installed in ${root:-}$PREFIX by make install" >&2; exit 1; }

mapfile -t paths < "$manifest"
removed=0
# Files first (the manifest last of all), then folders deepest first.
for path in "${paths[@]}"; do
  case "$path" in
    */) ;;
    "$PREFIX/share/pajama/install-manifest.txt") ;;
    /*) if [ -e "$root$path" ] || [ -L "$root$path" ]; then rm -f -- "$root$path"; removed=$((removed + 1)); else echo "uninstall: $root$path was gone already" >&2; fi ;;
    *) echo "uninstall: refusing the manifest line '$path' (not an absolute path)" >&2; exit 1 ;;
  esac
done
rm -f -- "$manifest"; removed=$((removed + 1))
for ((i = ${#paths[@]} - 1; i >= 0; i--)); do
  path=${paths[i]}
  case "$path" in
    /*/) if [ -d "$root$path" ]; then
           if rmdir -- "$root$path" 2>/dev/null; then removed=$((removed + 1)); else echo "uninstall: kept $root$path (not empty: it holds files pajama did not install)" >&2; fi
         fi ;;
  esac
done
echo "uninstalled pajama from ${root:-}$PREFIX ($removed paths removed)"
