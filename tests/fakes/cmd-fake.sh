#!/usr/bin/env bash
# A fake command-line perft for the tests, printing the output format of
# FAKE_FORMAT (qperft or gigantua) with counts from the real perft binary
# ($PERFT_BIN). Arguments follow that program: qperft DEPTH FEN,
# gigantua FEN DEPTH. FAKE_MODE (once deeper than one ply):
#   crash       exits with status 1 after a line
#   spam        prints `yes spam` forever
#   background  prints its count and exits, leaving a child that holds its
#               output open (its pid in $FAKE_PIDFILE)
#   escape      the same, but the child leaves the process group (setsid)
#               and writes to stderr forever (its pid in $FAKE_PIDFILE)
#   stderrlog   prints its count, closes stdout, then logs 20,000 lines to
#               stderr before exiting
# and at any depth:
#   no960       reads Shredder-FEN castling letters (Chess960) as no castling
#               rights, as an engine without Chess960 might, unless told
#               FAKE_CHESS960=true
set -u
format="${FAKE_FORMAT:-qperft}"
if [ "$format" = qperft ]; then depth="$1"; fen="$2"; else fen="$1"; depth="$2"; fi
mode="${FAKE_MODE:-honest}"
if [ "$mode" = no960 ] && [ "${FAKE_CHESS960:-false}" != true ]; then
    read -r board side castling rest <<< "$fen"
    case "$castling" in *[A-Ha-h]*) fen="$board $side - $rest" ;; esac
fi
if [ "$depth" -gt 1 ]; then
    case "$mode" in
        crash) echo "Segmentation fault (pretend)" >&2; exit 1 ;;
        spam) exec yes spam ;;
        background) sleep 1000 & echo $! > "$FAKE_PIDFILE" ;;
        escape) setsid sh -c 'echo $$ > "$0"; while :; do echo spam >&2; sleep 0.005; done' "$FAKE_PIDFILE" & ;;
    esac
fi
if [ "$format" = qperft ]; then
    echo "Quick Perft by H.G. Muller"
    echo "Perft mode: No hashing"
    echo ""
    for ((i = 1; i <= depth; i++)); do
        printf 'perft(%2d)= %12d ( 0.001 sec)\n' "$i" "$("$PERFT_BIN" run "$i" --fen "$fen" -q -t 1)"
    done
else
    echo "Depth: $depth - $fen"
    for ((i = 1; i <= depth; i++)); do
        echo "Perft $i: $("$PERFT_BIN" run "$i" --fen "$fen" -q -t 1) 1ms 100.5 MNodes/s"
    done
    echo ""
    printf 'Press any key to exit...'
    read -r -n 1 _ || true
fi
if [ "$mode" = stderrlog ] && [ "$depth" -gt 1 ]; then
    exec 1>&-
    for ((i = 0; i < 20000; i++)); do echo "log line $i" >&2; done
fi
