#!/usr/bin/env bash
# The release binary needs no Swift toolchain: ldd lists no libswift*, no Foundation or Dispatch library and
# nothing under the toolchain's folder, only Debian's own libraries; and it carries no ICU data (34 MB that
# Foundation's internationalisation brought, cut in session 9: nothing in the product may import Foundation;
# docs/install.md, "Size"). Prints the libraries and the size.
set -euo pipefail
BIN=${1:?usage: check-static.sh BIN}
libs=$(ldd "$BIN")
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)")")")
if grep -Eq "libswift|libFoundation|libdispatch|libBlocksRuntime|$toolchain|not found" <<<"$libs"; then
  echo "check-static: $BIN still needs the Swift toolchain's libraries:" >&2
  echo "$libs" >&2
  exit 1
fi
# ICU's data is one symbol, icudt<version>_dat, linked with lib_FoundationICU.a.
if grep -aqE "icudt[0-9]+_dat" "$BIN"; then
  echo "check-static: $BIN carries ICU's data: something in the product imports Foundation (docs/install.md, \"Size\")" >&2
  exit 1
fi
echo "$BIN: $(du -h "$BIN" | cut -f1), links only system libraries: $(awk '{print $1}' <<<"$libs" | tr '\n' ' ')"
