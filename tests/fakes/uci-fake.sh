#!/usr/bin/env bash
# A fake UCI engine for the tests. Counts come from the real perft binary
# ($PERFT_BIN); FAKE_MODE decides how it misbehaves once asked to count
# deeper than one ply (depth 1 of the start position must work, since that is
# how start-up time is measured):
#   honest   answers correctly
#   crash    dies (SIGSEGV) instead of answering
#   hang     never answers
#   midhang  prints two lines of its divide, then never answers
#   liar     reports one node too many
#   garbage  prints binary junk and an unreadable total
#   slowstart  takes 3 s to answer `uci`
#   flood    answers with `a2a3: 1` forever
#   spam     prints `info string spam` about 500 times a second, forever
#   forker   starts a child that sleeps (its pid in $FAKE_PIDFILE), then hangs
set -u
mode="${FAKE_MODE:-honest}"
fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
moves=""
while IFS= read -r line; do
    case "$line" in
        uci)
            [ "$mode" = slowstart ] && sleep 3
            echo "id name fake-$mode"; echo "option name UCI_Chess960 type check default false"; echo "uciok" ;;
        isready) echo "readyok" ;;
        "position startpos"*) fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            moves="${line#position startpos}"; moves="${moves# moves }" ;;
        "position fen "*)
            rest="${line#position fen }"
            fen="${rest%% moves *}"
            if [ "$rest" != "$fen" ]; then moves="${rest#* moves }"; else moves=""; fi ;;
        "go perft "*)
            depth="${line#go perft }"
            if [ "$depth" -gt 1 ]; then
                case "$mode" in
                    crash) kill -SEGV $$ ;;
                    hang) sleep 1000 ;;
                    midhang) echo "a2a3: 380"; echo "b2b3: 420"; sleep 1000 ;;
                    garbage) printf '\x01\xff\xfe garbage \x00 here\n'; echo "Nodes searched: lots"; continue ;;
                    flood) while :; do echo "a2a3: 1"; done ;;
                    spam) while :; do echo "info string spam"; sleep 0.002; done ;;
                    forker) sleep 1000 & echo $! > "$FAKE_PIDFILE"; sleep 1000 ;;
                esac
            fi
            args=(run "$depth" --fen "$fen" --quiet --threads 1)
            [ -n "$moves" ] && args+=(--moves $moves)
            nodes=$("$PERFT_BIN" "${args[@]}")
            [ "$mode" = liar ] && [ "$depth" -gt 1 ] && nodes=$((nodes + 1))
            echo "info string counting"
            echo ""
            echo "Nodes searched: $nodes"
            echo "" ;;
        quit) exit 0 ;;
    esac
done
