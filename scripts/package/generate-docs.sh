#!/usr/bin/env bash
# Man pages and shell completions, generated from the command definitions by swift-argument-parser:
#   usage: TOOL=GENERATE_MANUAL scripts/package/generate-docs.sh BIN OUT
# OUT/man/*.1: generate-manual (argument-parser's own tool, what its GenerateManual plugin runs) reads
#   `BIN --experimental-dump-help` and writes one page per command (pajama.1, pajama.read.1, ...); the
#   sections argument-parser knows nothing of (keys, files, environment, exit status) are added to pajama.1
#   from README.md's tables and scripts/package/pajama.1.exit-status (man-sections.py).
# OUT/completions: `BIN --generate-completion-script bash|zsh|fish`.
# TOOL is argument-parser's generate-manual from BIN's own build (the Makefile builds the product beside BIN,
# with BIN's flags: seconds, the argument-parser modules are already compiled there), so the dump format and
# the tool always agree. Why not the plugin: docs/install.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:?usage: generate-docs.sh BIN OUT}
OUT=${2:?usage: generate-docs.sh BIN OUT}
tool=${TOOL:?generate-docs: TOOL names the generate-manual binary (make builds it beside BIN)}
[ -x "$tool" ] || { echo "generate-docs: $tool is not an executable (swift build --product generate-manual)" >&2; exit 2; }

rm -rf "$OUT"
mkdir -p "$OUT/man" "$OUT/completions"
# The date of the last commit, not today: the same sources give the same pages (reproducible packages).
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
"$tool" "$BIN" --multi-page --date "$date" --section 1 --authors "The Pajama authors" -o "$OUT/man"
rm -f "$OUT/man/pajama.help.1"   # argument-parser's built-in help command: `pajama help X` is `pajama X --help`
"$BIN" --experimental-dump-help > "$OUT/dump-help.json"
python3 scripts/package/man-sections.py README.md scripts/package/pajama.1.exit-status "$OUT/dump-help.json" "$OUT/man/pajama.1"

# bash-completion sources the file: no #! line (lintian: bash-completion-with-hashbang).
"$BIN" --generate-completion-script bash | sed '1{/^#!/d}' > "$OUT/completions/pajama.bash"
"$BIN" --generate-completion-script zsh > "$OUT/completions/_pajama"
"$BIN" --generate-completion-script fish > "$OUT/completions/pajama.fish"
for file in "$OUT"/man/*.1 "$OUT"/completions/*; do
  [ -s "$file" ] || { echo "generate-docs: $file is empty" >&2; exit 1; }
done
echo "generated $(ls "$OUT/man" | wc -l) man pages and 3 completion scripts in $OUT" >&2
