#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer executable (Sources/Executables/pajama-fuzz over PajamaFuzz: `pajama-fuzz TARGET`)
# with -sanitize=fuzzer,address in .build-fuzz, then runs each for FUZZ_SECONDS (default 60) under nice -n 19, one at a time, and prints
# the executions and findings of each. FUZZ_TARGETS picks some ("story sound"). Exits 1 on a finding.
#
# What stays, all under .build-fuzz/ (ignored by git): seeds/NAME (scripts/fuzz-seeds.sh, made when
# missing), corpus/NAME (what the fuzzer found worth keeping; grows from run to run), findings/NAME (the
# inputs that crashed, leaked or timed out; replay one with the plain build: .build/debug/pajama-fuzz NAME FILE)
# and logs/NAME.log. See docs/security.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."
all="story theme settings progress picture jpeg webp gif sound session"
targets=${FUZZ_TARGETS:-$all}
seconds=${FUZZ_SECONDS:-60}
swift=${SWIFT:-swift}
scratch=.build-fuzz

for target in $targets; do
    case " $all " in *" $target "*) ;; *) echo "fuzz: no target \"$target\" (the targets: $all)" >&2; exit 2 ;; esac
done

# Linked with the toolchain's lld (a toolset, so the compile commands stay the same): libFuzzer's archive
# brings a `main` of its own, which lld lets SwiftPM's `--defsym main=pajama_fuzz_main` replace, while
# ld.gold stops with an internal error on the duplicate.
mkdir -p "$scratch"
lld=$(dirname "$(readlink -f "$(command -v "$swift")")")/ld.lld
printf '{ "schemaVersion": "1.0", "linker": { "path": "%s" } }\n' "$lld" > "$scratch/toolset.json"
nice -n 19 "$swift" build --scratch-path "$scratch" --product pajama-fuzz --toolset "$scratch/toolset.json" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
[ -d "$scratch/seeds" ] || scripts/fuzz-seeds.sh >/dev/null

# Swift's own crash backtracer would race libFuzzer's handler (and ASan's), and no input would be saved.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/fuzz-lsan.supp:print_suppressions=0}
# GLib's slice allocator (bookworm's 2.74; from 2.76 on it is plain malloc) gives every thread that frees a
# slice a 2 KB magazine table of its own, freed only when the thread exits. chafa draws on a GLib thread pool
# whose workers come and go (about 20 for each picture fuzz-picture draws), and now and then LeakSanitizer's
# per-input check meets one mid-way and reports its table as leaked (docs/security.md, "Fuzzing"). With
# always-malloc, GLib's documented setting for memory checkers, no worker has such a table, and every slice
# is a malloc LeakSanitizer sees on its own.
export G_SLICE=${G_SLICE:-always-malloc}
found=0
rows=()
for target in $targets; do
    mkdir -p "$scratch/corpus/$target" "$scratch/findings/$target" "$scratch/logs"
    log="$scratch/logs/$target.log"
    before=$(ls "$scratch/findings/$target" | wc -l)
    dict=()
    case $target in picture|jpeg|webp|gif|sound) ;; *) dict=(-dict=scripts/fuzz-json.dict) ;; esac
    # story and progress run Swift tasks, whose allocations outlive an input, so libFuzzer's leak check
    # after each such input (LeakSanitizer stopping the process) would take most of the time: there, leaks
    # are checked once, when the run ends (any leak is then a finding, without its input).
    leaks=()
    case $target in story|progress) leaks=(-detect_leaks=0) ;; esac
    status=0
    nice -n 19 "$scratch/debug/pajama-fuzz" "$target" "${dict[@]}" "${leaks[@]}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 \
        -print_final_stats=1 -artifact_prefix="$scratch/findings/$target/" \
        "$scratch/corpus/$target" "$scratch/seeds/$target" >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    findings=$(( $(ls "$scratch/findings/$target" | wc -l) - before ))
    # A crash before libFuzzer's own report (no artifact written) is a finding too.
    if [ "$status" -ne 0 ] && [ "$findings" -eq 0 ]; then findings=1; fi
    [ "$findings" -eq 0 ] || found=1
    rows+=("$(printf '%-9s %8s %12s %8s %7s %9s' "$target" "${seconds}s" "${executions:-?}" "${rate:-?}" \
        "$(ls "$scratch/corpus/$target" | wc -l)" "$findings")")
done

printf '%-9s %8s %12s %8s %7s %9s\n' target time executions "exec/s" corpus findings
printf '%s\n' "${rows[@]}"
if [ "$found" -ne 0 ]; then
    echo "fuzz: findings in $scratch/findings/ (logs in $scratch/logs/)" >&2
    exit 1
fi
