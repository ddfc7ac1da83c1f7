#!/usr/bin/env bash
# Runs the counting paths of the release binary under valgrind's memcheck,
# once per CPU kernel valgrind can execute (baseline, v2, v3: valgrind has no
# AVX-512), and fails on the first memory error.
#
#   scripts/memcheck.sh [PERFT_BINARY]     (default: target/release/perft)
#
# Covered: bulk counting, hashed counting on 2 threads, --full, --stats, a
# Chess960 position, an en-passant suite (many small counts), and one unit of
# a split plan. Depths are small: memcheck runs about 50 times slower.
set -euo pipefail
cd "$(dirname "$0")/.."

perft=${1:-target/release/perft}
if ! command -v valgrind >/dev/null; then
    echo "memcheck: valgrind is not installed (Debian: apt-get install valgrind)" >&2
    exit 2
fi
[ -x "$perft" ] || { echo "memcheck: no binary at $perft (cargo build --release)" >&2; exit 2; }

# No suppressions: every error fails the run.
memcheck() { valgrind --quiet --error-exitcode=99 --track-origins=yes "$perft" "$@"; }

kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
chess960="bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

runs=0
for kernel in baseline v2 v3; do
    export PERFT_CPU=$kernel
    # What valgrind's CPU offers decides: a kernel it cannot run is refused.
    if ! valgrind --quiet "$perft" --version >/dev/null 2>&1; then
        echo "memcheck: kernel $kernel not available under valgrind here, skipped"
        continue
    fi
    echo "memcheck: kernel $kernel"
    check() {
        local what=$1
        shift
        local start=$SECONDS
        if ! out=$(memcheck "$@" 2>&1); then
            echo "$out" >&2
            echo "memcheck: FAILED: kernel $kernel, $what: perft $*" >&2
            exit 1
        fi
        runs=$((runs + 1))
        printf '  %-28s ok (%ss)\n' "$what" $((SECONDS - start))
    }
    check "bulk, Kiwipete d4" run 4 -t 1 -q --fen "$kiwipete"
    check "hashed, 2 threads, d5" run 5 --hash 8 -t 2 -q
    check "--full, d4" run 4 --full -t 1 -q --fen "$kiwipete"
    check "--stats, d4" run 4 --stats -t 1 -q
    check "Chess960, d4" run 4 -t 1 -q --chess960 --fen "$chess960"
    check "en-passant suite" suite positions/ferdy-enpassant.epd --max-nodes 20000 -t 2 --no-json
    rm -rf "$work/plan"
    "$perft" split --depth 5 --ply 2 --units 4 --out "$work/plan" -t 2 >/dev/null
    check "unit of a split plan" unit "$work/plan" --index 1 --hash 8 -t 2
done
unset PERFT_CPU
if [ "$runs" -eq 0 ]; then
    echo "memcheck: no kernel could run under valgrind" >&2
    exit 1
fi
echo "memcheck: $runs runs, no errors"
