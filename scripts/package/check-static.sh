#!/usr/bin/env bash
# The release binary needs no Swift toolchain: ldd lists no libswift*, no Foundation or Dispatch library and
# nothing under the toolchain's folder, only Debian's own libraries. Prints them and the size.
set -euo pipefail
BIN=${1:?usage: check-static.sh BIN}
libs=$(ldd "$BIN")
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)")")")
if grep -Eq "libswift|libFoundation|libdispatch|libBlocksRuntime|$toolchain|not found" <<<"$libs"; then
  echo "check-static: $BIN still needs the Swift toolchain's libraries:" >&2
  echo "$libs" >&2
  exit 1
fi
echo "$BIN: $(du -h "$BIN" | cut -f1), links only system libraries: $(awk '{print $1}' <<<"$libs" | tr '\n' ' ')"
