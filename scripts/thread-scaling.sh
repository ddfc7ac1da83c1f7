#!/usr/bin/env bash
# Measures how perft scales with threads, and how `check --jobs` scales
# with engine processes, on this machine. Prints a Markdown table per part.
#
# Usage: scripts/thread-scaling.sh [PERFT] [STOCKFISH] [MAX_THREADS]
#   PERFT      the perft binary (default: target/release/perft)
#   STOCKFISH  a UCI engine for the --jobs part (default: /usr/games/stockfish;
#              skipped when missing)
#   MAX_THREADS  the largest thread count tried (default: the number of cores)
# Each figure is the best of three runs; the machine should be otherwise idle.
set -euo pipefail
cd "$(dirname "$0")/.."
perft="${1:-target/release/perft}"
stockfish="${2:-/usr/games/stockfish}"
cores="$(nproc)"
max="${3:-$cores}"

counts=()
t=1
while [ "$t" -le "$max" ]; do counts+=("$t"); t=$((t * 2)); done
[ "${counts[-1]}" -ne "$max" ] && counts+=("$max")

best_of_three() { # command... -> prints the least wall time in seconds
    local best=0
    for _ in 1 2 3; do
        local start end
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1
        end=$(date +%s%N)
        if [ "$best" -eq 0 ] || [ $((end - start)) -lt "$best" ]; then best=$((end - start)); fi
    done
    awk -v ns="$best" 'BEGIN { printf "%.4f\n", ns / 1e9 }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $cores cores"
echo
echo "perft run 7 (start position, 3,195,901,860 nodes, bulk, no hash):"
echo
echo "| threads | seconds | Mnps | speed-up |"
echo "|---|---|---|---|"
base=""
for t in "${counts[@]}"; do
    s=$(best_of_three "$perft" run 7 -t "$t" -q --hash 0)
    base=${base:-$s}
    awk -v t="$t" -v s="$s" -v b="$base" 'BEGIN { printf "| %d | %.2f | %.0f | %.2fx |\n", t, s, 3195901860 / s / 1e6, b / s }'
done

if [ -x "$stockfish" ]; then
    echo
    echo "perft check --jobs N against $stockfish (positions/standard.epd, counts up to 20 million, 1 thread each):"
    echo
    echo "| jobs | seconds | speed-up |"
    echo "|---|---|---|"
    base=""
    for j in "${counts[@]}"; do
        s=$(best_of_three "$perft" check --engine "sf=uci:$stockfish" positions/standard.epd --relaxed \
            --max-nodes 20000000 --jobs "$j" -t 1 --no-json)
        base=${base:-$s}
        awk -v j="$j" -v s="$s" -v b="$base" 'BEGIN { printf "| %d | %.2f | %.2fx |\n", j, s, b / s }'
    done
fi
