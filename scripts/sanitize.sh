#!/usr/bin/env bash
# The whole test suite under a sanitizer: `scripts/sanitize.sh thread` or `scripts/sanitize.sh address`
# (`make tsan`, `make asan`). Builds into .build-tsan or .build-asan, runs the unit tests, then the end-to-end
# tests against the sanitized binaries (PAJAMA_BIN_DIR), every process writing its reports to
# .build-<kind>/reports/. Prints how long each step took and a summary; exits non-zero when a test failed or
# any report was written. Runs under `nice -n 19` (the machine is shared). See docs/security.md, "Sanitizers".
set -uo pipefail

kind="${1:-}"
case "$kind" in
    thread) short=tsan ;;
    address) short=asan ;;
    *) echo "usage: $0 thread|address" >&2; exit 64 ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
swift="${SWIFT:-swift}"
scratch="$root/.build-$short"
reports="$scratch/reports"
suppressions="$root/scripts/sanitizers/$short.supp"
rm -rf "$reports"
mkdir -p "$reports"

# Every process started below inherits these (the tmux servers of the end-to-end tests pass them on to
# the reader): a report goes to reports/<kind>.<pid>, and the run goes on after one, so one run finds all.
case "$kind" in
    thread)
        export TSAN_OPTIONS="log_path=$reports/tsan halt_on_error=0 second_deadlock_stack=1 suppressions=$suppressions"
        ;;
    address)
        export ASAN_OPTIONS="log_path=$reports/asan halt_on_error=0 detect_stack_use_after_return=1 detect_leaks=1"
        export LSAN_OPTIONS="suppressions=$suppressions print_suppressions=0"
        ;;
esac
export PAJAMA_BIN_DIR="$scratch/debug"

flags=(--sanitize="$kind" --scratch-path "$scratch")
status=0
step() {
    local name="$1"
    shift
    local start=$SECONDS
    echo "== $name: $*"
    nice -n 19 "$@"
    local result=$?
    echo "== $name: exit $result after $((SECONDS - start)) s"
    [ "$result" -eq 0 ] || status=1
    timings+=("$name: $((SECONDS - start)) s (exit $result)")
}
timings=()

step build "$swift" build --build-tests "${flags[@]}"
if [ "$status" -eq 0 ]; then
    step unit "$swift" test --skip-build "${flags[@]}" --skip '^EndToEndTests\.'
    step end-to-end "$swift" test --skip-build "${flags[@]}" --filter '^EndToEndTests\.'
fi

echo
echo "== $kind sanitizer summary"
printf '   %s\n' "${timings[@]}"
shopt -s nullglob
files=("$reports"/*)
if [ "${#files[@]}" -eq 0 ]; then
    echo "   no reports"
else
    status=1
    echo "   ${#files[@]} report file(s) in $reports:"
    # One line per kind of report and where it was found (the first frame in our code).
    for file in "${files[@]}"; do
        grep -h '^SUMMARY:' "$file" | sed 's/^SUMMARY: //'
    done | sort | uniq -c | sort -rn | sed 's/^/   /'
fi
exit "$status"
