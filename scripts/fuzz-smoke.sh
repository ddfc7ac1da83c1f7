#!/usr/bin/env bash
# Runs each cargo-fuzz target for a bounded time (default 60 s each) and
# prints the executions reached. Seeds the FEN corpus with the bundled
# suites' positions. Needs cargo-fuzz (`cargo install cargo-fuzz`); on a
# stable toolchain RUSTC_BOOTSTRAP=1 lets it use the nightly-only flags.
# Usage: scripts/fuzz-smoke.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
export RUSTC_BOOTSTRAP=1

mkdir -p fuzz/corpus/fen fuzz/corpus/play fuzz/corpus/count
# One seed file per position (first 300 of each suite), named by line; the
# counting target reads a FEN after a first byte with its high bit set (the
# low bits pick the depth).
for suite in positions/*.epd; do
    name="$(basename "$suite" .epd)"
    awk -F';' -v n="$name" '!/^#/ && NF && NR <= 300 { f = "fuzz/corpus/fen/" n "-" NR; printf "%s", $1 > f; close(f) }' "$suite"
    awk -F';' -v n="$name" '!/^#/ && NF && NR <= 100 { f = "fuzz/corpus/count/" n "-" NR; printf "\202%s", $1 > f; close(f) }' "$suite"
done

cargo fuzz build
status=0
for target in fen play count; do
    log="fuzz/fuzz-$target.log"
    if cargo fuzz run "$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 >"$log" 2>&1; then
        runs="$(grep -o 'Done [0-9]* runs' "$log" | tail -1 || true)"
        echo "fuzz $target: ${runs:-finished} in ${seconds} s"
    else
        echo "fuzz $target: FAILED (see $log)"
        tail -40 "$log"
        status=1
    fi
done
exit $status
