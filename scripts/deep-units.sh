#!/usr/bin/env bash
# A deep count of the start position as work units on this one machine, to compare with one
# `perft run` (scripts/deep.sh): `perft split --depth D --ply PLY --units UNITS`, then WORKERS
# local workers, each running one `perft unit` at a time on one thread with a table of HASH
# MiB, `perft status` every STATUS_EVERY seconds while they count, and `perft merge`, checked
# against the published total. Writes results/units-d<D>-<timestamp>.json (the merge report),
# results/units-d<D>-<timestamp>.status.txt (the status lines) and a summary,
# results/units-<timestamp>.json, with the wall time of split, units and merge.
#
# The plan lives in results/units-d<D>/ until the count finishes exact. A run stopped by
# Ctrl-C or SIGTERM keeps it, each unit's finished positions journaled, and the same command
# run again resumes from it.
#
# The workers' tables add up: HASH times WORKERS must fit in fast memory (on a VM whose host
# pages memory in, `perft run --hash auto` says how much that is). Default HASH: 1024.
# PERFT_BIN: the binary to run (default: build target/release/perft); RESULTS: where to write
# (default: results).
#
#   WORKERS=2 HASH=1800 scripts/deep-units.sh 11    perft(11) as 8 units of ply 5, two workers
#   UNITS=4 PLY=4 scripts/deep-units.sh 9
set -euo pipefail
cd "$(dirname "$0")/.."

depth="${1:-9}"
workers="${WORKERS:-2}"
hash="${HASH:-1024}"
units="${UNITS:-8}"
if [ "$depth" -ge 10 ]; then ply="${PLY:-5}"; else ply="${PLY:-4}"; fi
status_every="${STATUS_EVERY:-300}"
# shellcheck source=scripts/startpos-counts.sh
source scripts/startpos-counts.sh

if [ -n "${PERFT_BIN:-}" ]; then
    perft=$PERFT_BIN
else
    cargo build --release --quiet
    perft=./target/release/perft
fi
results="${RESULTS:-results}"
mkdir -p "$results"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
plan="$results/units-d$depth"
report="$results/units-d$depth-$stamp.json"
status_log="$results/units-d$depth-$stamp.status.txt"
started="${EPOCHREALTIME:-$(date +%s)}"
now() { awk "BEGIN { printf \"%.1f\", ${EPOCHREALTIME:-$(date +%s)} - $started }"; }

resumed=false
if [ -f "$plan/manifest.json" ]; then
    echo "perft($depth): resuming the plan in $plan"
    resumed=true
else
    rm -rf "$plan"
    "$perft" split --startpos --depth "$depth" --ply "$ply" --units "$units" --out "$plan"
fi
units=$(sed -n 's/^ *"unit_count": *\([0-9]*\),*$/\1/p' "$plan/manifest.json" | head -1)

# The workers: xargs hands out unit indexes, one at a time per worker, in their own process
# group so that a stop reaches every unit (each journals its positions and exits 143).
seq 0 $((units - 1)) | setsid xargs -P "$workers" -I{} \
    "$perft" unit "$plan" --index {} -t 1 --hash "$hash" >/dev/null &
pool=$!
stop() {
    kill -TERM -- "-$pool" 2>/dev/null || true
    while pgrep -g "$pool" >/dev/null; do sleep 0.2; done
    exit 143
}
trap stop INT TERM
take_status() { { echo "--- $(now) s"; "$perft" status "$plan" --watch 0 || true; } >>"$status_log" 2>&1; }
while kill -0 "$pool" 2>/dev/null; do
    for ((i = 0; i < status_every; i++)); do
        kill -0 "$pool" 2>/dev/null || break
        sleep 1
    done
    kill -0 "$pool" 2>/dev/null && take_status
done
trap - INT TERM
take_status
wait "$pool" || { echo "a unit failed: run the same command again to resume" >&2; exit 1; }

"$perft" merge "$plan" --json "$report" >/dev/null
wall=$(now)
nodes=$(report_nodes "$report")
ok=true
if [ -n "${expected[$depth]:-}" ] && [ "$nodes" != "${expected[$depth]}" ]; then
    echo "perft($depth) = $nodes, not ${expected[$depth]}; the plan stays in $plan" >&2
    ok=false
else
    rm -rf "$plan"
fi
summary="$results/units-$stamp.json"
printf '{"kind": "deep-units", "timestamp": "%s", "depth": %s, "nodes": "%s", "exact": %s, "wall_s": %s, "resumed": %s, "ply": %s, "units": %s, "workers": %s, "hash_mb_per_worker": %s, "report": "%s", "status_log": "%s"}\n' \
    "$stamp" "$depth" "$nodes" "$ok" "$wall" "$resumed" "$ply" "$units" "$workers" "$hash" "$report" "$status_log" \
    >"$summary.tmp" && mv "$summary.tmp" "$summary"
echo "perft($depth) = $nodes in $wall s wall ($units units, $workers workers): $summary"
[ "$ok" = true ]
