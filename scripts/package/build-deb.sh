#!/usr/bin/env bash
# make deb: dist/pajama_<version>_<arch>.deb from the static release build, with dpkg-deb.
#   the files: install.sh with PREFIX=/usr into a staging root (no manifest: dpkg keeps its own list)
#   Depends: computed from the binary by dpkg-shlibdeps; Recommends: a sound server (reading works without)
#   /usr/share/doc/pajama: copyright (packaging/debian/copyright) and changelog.gz (packaging/debian/changelog)
# COMPRESSION: dpkg-deb's -Z (xz, the default: the smallest package; CI's throwaway package says gzip,
#   25 s less for a debug binary). Prints the package's path; LINTIAN=yes (default when lintian is there) runs lintian and fails on an error.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build-static/release/pajama}
GENERATED=${GENERATED:-.build-package/generated}
OUT=${OUT:-dist}
STAGE=.build-package/deb

version=$("$BIN" --version | sed -n 's/^pajama //p')
[ -n "$version" ] || { echo "deb: cannot read the version from $BIN --version" >&2; exit 2; }
changelog_version=$(sed -n '1s/^pajama (\([^)]*\)).*/\1/p' packaging/debian/changelog)
[ "$changelog_version" = "$version" ] || {
  echo "deb: packaging/debian/changelog's first entry is $changelog_version, the binary says $version: add an entry" >&2; exit 2; }
arch=$(dpkg --print-architecture)

rm -rf "$STAGE"
mkdir -p "$STAGE/root"
PREFIX=/usr DESTDIR="$PWD/$STAGE/root" MANIFEST=no BIN="$BIN" GENERATED="$GENERATED" scripts/package/install.sh >/dev/null
doc="$STAGE/root/usr/share/doc/pajama"
install -d -m 0755 "$doc"
install -m 0644 packaging/debian/copyright "$doc/copyright"
gzip -9n < packaging/debian/changelog > "$doc/changelog.gz"
# Overrides, each with its reason (packaging/debian/lintian-overrides).
install -d -m 0755 "$STAGE/root/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$STAGE/root/usr/share/lintian/overrides/pajama"
chmod 0644 "$doc/changelog.gz"

# dpkg-shlibdeps reads a source package's debian/control: a minimal one in the staging folder.
mkdir -p "$STAGE/debian"
printf 'Source: pajama\n\nPackage: pajama\nArchitecture: any\n' > "$STAGE/debian/control"
depends=$(cd "$STAGE" && dpkg-shlibdeps -O -e root/usr/bin/pajama 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependency of the binary" >&2; exit 1; }
rm -rf "$STAGE/debian"

size=$(du -sk --apparent-size "$STAGE/root" | cut -f1)
install -d -m 0755 "$STAGE/root/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@SIZE@/$size/" \
  packaging/debian/control.in > "$STAGE/root/DEBIAN/control"
# Every file listed with its checksum, as dpkg --verify and debsums use.
(cd "$STAGE/root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$STAGE/root/DEBIAN/md5sums"
chmod 0644 "$STAGE/root/DEBIAN/control" "$STAGE/root/DEBIAN/md5sums"

mkdir -p "$OUT"
deb="$OUT/pajama_${version}_${arch}.deb"
rm -f "$deb"
compression=${COMPRESSION:-xz}
level=()
[ "$compression" = gzip ] && level=(-z1)
dpkg-deb --root-owner-group "-Z$compression" "${level[@]}" --build "$STAGE/root" "$deb" >/dev/null
echo "built $deb ($(du -h "$deb" | cut -f1)); Depends: $depends" >&2

if [ "${LINTIAN:-$(command -v lintian >/dev/null && echo yes || echo no)}" = yes ]; then
  # Errors fail the build; warnings and notes are printed (docs/install.md says which remain and why).
  lintian --fail-on error "$deb" >&2
fi
echo "$deb"
