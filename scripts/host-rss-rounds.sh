#!/bin/bash
# The co-reading host's memory over rounds of joins (issue 42, item 7; docs/security.md, "Memory over many
# joins"): a real host (`pajama-bench --host-only`) and, each round, a crowd of N followers in a child of
# their own (`pajama-bench --crowd`) that joins, is welcomed, and is ended. Prints the host's RSS at each
# round's peak and 6 s after its crowd left; with gdb installed and STATS_AT="R1 R2 ...", glibc's own count
# of the bytes in use after those rounds (malloc_stats, into the host's standard error).
#   N=2000 ROUNDS=8 STATS_AT="2 8" scripts/host-rss-rounds.sh     (after swift build)
set -u
BENCH=${BENCH:-$(dirname "$0")/../.build/debug/pajama-bench}
N=${N:-2000}; ROUNDS=${ROUNDS:-5}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
trap 'kill $HOST 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/story/beats"
echo '{"format":1,"id":"shared","title":"Shared","version":"2","startBeatId":"start"}' > "$work/story/story.json"
echo '{"id":"start","pages":[{"id":"p1","type":"text","lines":["one"]}]}' > "$work/story/beats/start.json"
export PAJAMA_TOKEN=rss-token-0123456789abcdef
"$BENCH" --host-only "$work/story" --host-max-followers $((N * 2)) > "$work/host.out" 2> "$work/host.err" &
HOST=$!
for _ in $(seq 100); do grep -q "port " "$work/host.out" && break; sleep 0.1; done
PORT=$(awk '/port /{print $2}' "$work/host.out")
rss() { awk '/VmRSS/{printf "%.0f MB", $2/1024}' /proc/$HOST/status; }
stats() {
    gdb -p $HOST -batch -ex 'call (void)malloc_stats()' > /dev/null 2>&1
    echo "  malloc in use after round $1: $(grep "in use bytes" "$work/host.err" | tail -1 | awk '{printf "%.1f MB", $5/1048576}')"
}
echo "host pid $HOST port $PORT: RSS $(rss) at the start"
for r in $(seq "$ROUNDS"); do
    "$BENCH" --crowd "http://127.0.0.1:$PORT/" --crowd-size "$N" > "$work/crowd.out" 2>/dev/null &
    CROWD=$!
    for _ in $(seq 1200); do tail -1 "$work/crowd.out" | grep -q "^settled $N " && break; sleep 0.1; done
    peak=$(rss)
    kill $CROWD; wait $CROWD 2>/dev/null
    sleep 6
    echo "round $r: $(tail -1 "$work/crowd.out" | awk '{print $2 " welcomed, " $4 " failed"}'); RSS $peak at the peak, $(rss) after"
    case " ${STATS_AT:-} " in *" $r "*) stats "$r";; esac
done
