#!/usr/bin/env bash
# CI: perft split/unit/merge on a real single-node Slurm (started here, stopped at the end).
# Splits the start position (depth 6, ply 3, 8 units), runs the units through submit.sh as
# three job arrays (PERFT_MAX_ARRAY=3: indexes 0-2 with offsets 0, 3 and 6, as a plan larger
# than MaxArraySize goes), loses one result and resubmits just that unit, runs the second key
# set, and merges both key sets: the total must be perft(6) = 119060324 exactly. Builds
# nothing: uses $PERFT_BIN, default target/release/perft. Needs root (apt-get, the daemons).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/scripts/slurm
export SLURM_CI_DIR=${SLURM_CI_DIR:-/tmp/perft-slurm-ci}
export PERFT_BIN=${PERFT_BIN:-$repo/target/release/perft}
[ -x "$PERFT_BIN" ] || { echo "ci-test.sh: $PERFT_BIN missing: cargo build --release first" >&2; exit 2; }
work=$(mktemp -d /tmp/perft-slurm-test.XXXXXX)
cleanup() {
    local status=$?
    "$here/local-slurm.sh" stop || true
    if [ "$status" -ne 0 ]; then
        echo "--- failed; job logs:" >&2
        tail -n 5 "$work"/plan/logs/* >&2 2>/dev/null || true
        tail -n 20 "$SLURM_CI_DIR"/log/*.log >&2 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
t0=$SECONDS
log() { printf '[%3ss] %s\n' "$((SECONDS - t0))" "$*"; }

"$here/local-slurm.sh" start
export SLURM_CONF=$SLURM_CI_DIR/slurm.conf
log "slurm up: $(sinfo -h -o '%n %T %c CPUs')"

plan=$work/plan
"$PERFT_BIN" split --startpos --depth 6 --ply 3 --units 8 --out "$plan"

# Waits (polling files: no accounting here) until every unit in LIST has a result under key
# set K and the queue is empty (the merge job done too), at most 120 s. An squeue that fails
# says nothing about the queue: it counts as "not yet", never as empty.
wait_units() {
    local keys=$1 list=$2 i missing queue
    for _ in $(seq 600); do
        missing=0
        for i in $list; do
            [ -s "$plan/results/unit-$(printf %06d "$i").k$keys.json" ] || missing=1
        done
        if [ "$missing" = 0 ] && queue=$(squeue -h 2>"$work/squeue.err") && [ -z "$queue" ]; then
            return 0
        fi
        sleep 0.2
    done
    echo "timed out waiting for units $list (key set $keys); queue:" >&2
    squeue >&2 || cat "$work/squeue.err" >&2
    return 1
}

export PERFT_MAX_ARRAY=3
submit() { "$here/submit.sh" "$plan" --hash 16 --cpus-per-task=1 "$@"; }

log "key set 1: every unit, in arrays of at most $PERFT_MAX_ARRAY tasks"
out=$(submit --keys 1)
echo "$out"
[ "$(echo "$out" | grep -c '^array job: ')" = 3 ] || { echo "expected 3 array jobs" >&2; exit 1; }
merge_job=$(echo "$out" | sed -n 's/^merge job: \([0-9]*\).*/\1/p')
wait_units 1 "$(seq 0 7)"
grep -q "^Nodes searched: 119060324$" "$plan/logs/merge-$merge_job.k1.out" \
    || { echo "the merge job did not print the total" >&2; cat "$plan/logs/merge-$merge_job.k1.out" >&2; exit 1; }
log "merge job after the 3 arrays: Nodes searched: 119060324"

log "a lost result: unit 5 deleted, merge says so, resubmitted alone"
rm "$plan/results/unit-000005.k1.json"
set +e
lost=$("$PERFT_BIN" merge "$plan")
status=$?
set -e
[ "$status" = 3 ] && echo "$lost" | grep -qx "missing: 5" \
    || { echo "merge should exit 3 with 'missing: 5', got $status: $lost" >&2; exit 1; }
submit --keys 1 --array "$(echo "$lost" | sed -n 's/^missing: //p')"
wait_units 1 5

log "key set 2: every unit"
submit --keys 2
wait_units 2 "$(seq 0 7)"

log "merge of both key sets"
"$PERFT_BIN" merge "$plan" --keys 1,2 | tee "$work/merge.out"
grep -qx "Nodes searched: 119060324" "$work/merge.out"
grep -q "key sets 1,2 agree" "$work/merge.out"
log "done in $((SECONDS - t0)) s"
echo "1 passed, 0 failed"
