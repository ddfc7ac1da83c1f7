#!/usr/bin/env bash
# Races this perft against Stockfish (Debian's package, installed if missing)
# and the cozy-chess crate on the bench set, one thread each, and writes the
# JSON report and an HTML chart into results/. Extra arguments go to
# `perft compare` (for example --repeat 5, --threads 2, --positions FILE).
set -euo pipefail
cd "$(dirname "$0")/.."

stockfish="${STOCKFISH:-/usr/games/stockfish}"
if [ ! -x "$stockfish" ]; then
    echo "Stockfish not found at $stockfish; installing Debian's package" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y stockfish || { $sudo apt-get update && $sudo apt-get install -y stockfish; }
    stockfish=/usr/games/stockfish
fi

cargo build --release --quiet
cargo build --release --quiet --example cozy-perft

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
report="results/compare-stockfish-$stamp.json"
chart="results/compare-stockfish-$stamp.html"
status=0
./target/release/perft compare \
    --engine "stockfish=uci:$stockfish" \
    --engine "cozy-chess=cmd:target/release/examples/cozy-perft {depth} {fen}" \
    --json "$report" "$@" || status=$?
if [ -f "$report" ]; then
    ./target/release/perft report "$report" --out "$chart"
fi
exit "$status"
