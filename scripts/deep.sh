#!/usr/bin/env bash
# Deep counts of the start position with the automatic hash table: runs
# `perft run D --hash auto` for each depth given (default: 9 10), checks
# each total against the published value, and writes one JSON report per
# depth plus a summary, results/deep-<timestamp>.json, with the wall time
# of the whole process (table set-up and freeing included).
#
# Each count journals its finished subtrees to results/deep-d<D>.journal and
# writes its progress to results/deep-d<D>.progress.json about once a second.
# A count stopped by Ctrl-C or SIGTERM keeps its journal, and the same command
# run again resumes from it; the journal is removed once the count finishes
# exact, and kept as results/deep-d<D>-<timestamp>.journal if it is wrong.
#
#   scripts/deep.sh            perft(9) and perft(10), all cores
#   THREADS=2 scripts/deep.sh 9
#   THREADS=2 scripts/deep.sh 11   36 minutes on two cores and 24 GB of fast memory (resumable: run it again after a stop)
set -euo pipefail
cd "$(dirname "$0")/.."

depths=("$@")
if [ ${#depths[@]} -eq 0 ]; then depths=(9 10); fi
threads="${THREADS:-$(nproc 2>/dev/null || sysctl -n hw.ncpu)}"
# shellcheck source=scripts/startpos-counts.sh
source scripts/startpos-counts.sh

cargo build --release --quiet
mkdir -p results
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
summary="results/deep-$stamp.json"
rows=()
status=0
for depth in "${depths[@]}"; do
    report="results/deep-d$depth-$stamp.json"
    journal="results/deep-d$depth.journal"
    resumed=false
    if [ -s "$journal" ]; then
        echo "perft($depth): resuming from $journal"
        journal_args=(--resume "$journal")
        resumed=true
    else
        journal_args=(--checkpoint "$journal")
    fi
    started="${EPOCHREALTIME:-$(date +%s)}"
    ./target/release/perft run "$depth" --hash auto -t "$threads" "${journal_args[@]}" \
        --progress-json "results/deep-d$depth.progress.json" --json "$report" >/dev/null
    ended="${EPOCHREALTIME:-$(date +%s)}"
    wall=$(awk "BEGIN { printf \"%.2f\", $ended - $started }")
    nodes=$(report_nodes "$report")
    ok=true
    if [ -n "${expected[$depth]:-}" ] && [ "$nodes" != "${expected[$depth]}" ]; then
        echo "perft($depth) = $nodes, not ${expected[$depth]}" >&2
        ok=false
        status=1
        # Keep its subtree counts to find the wrong one, where a rerun cannot resume from them.
        mv "$journal" "results/deep-d$depth-$stamp.journal"
        echo "its subtree counts: results/deep-d$depth-$stamp.journal" >&2
    fi
    rm -f "$journal"
    rows+=("{\"depth\": $depth, \"nodes\": \"$nodes\", \"exact\": $ok, \"wall_s\": $wall, \"resumed\": $resumed, \"threads\": $threads, \"report\": \"$report\"}")
    echo "perft($depth) = $nodes in $wall s wall ($threads threads): $report"
done
{
    echo "{\"kind\": \"deep\", \"timestamp\": \"$stamp\", \"runs\": ["
    (IFS=,; echo "${rows[*]}" | sed 's/},{/},\n{/g')
    echo "]}"
} > "$summary.tmp" && mv "$summary.tmp" "$summary"
echo "Summary: $summary"
exit $status
