#!/usr/bin/env bash
# A fake Slurm for the tests of scripts/slurm/submit.sh, called as `sbatch` or `scontrol`
# (links to this file named so, first on PATH).
#   scontrol show config  prints `MaxArraySize = $FAKE_MAX_ARRAY_SIZE` (nothing when unset)
#   sbatch ARGS           appends `offset=$PERFT_INDEX_OFFSET ARGS` to $FAKE_SLURM_LOG and
#                         prints a job id (101, 102, ...). With --array=LIST (A or A-B items,
#                         an optional %N) it runs the batch script once per index, in order,
#                         with SLURM_ARRAY_TASK_ID set, as Slurm's tasks would; --wrap jobs
#                         (the merge) are only recorded.
set -euo pipefail
case $(basename "$0") in
    scontrol)
        if [ -n "${FAKE_MAX_ARRAY_SIZE:-}" ]; then echo "MaxArraySize            = $FAKE_MAX_ARRAY_SIZE"; fi
        exit 0 ;;
    sbatch) ;;
    *) echo "slurm-fake.sh: call me as sbatch or scontrol" >&2; exit 2 ;;
esac
log=${FAKE_SLURM_LOG:?}
id=$(( $( (cat "$log" 2>/dev/null || true) | wc -l) + 101 ))
echo "offset=${PERFT_INDEX_OFFSET-unset} $*" >> "$log"
array="" script=""
for arg in "$@"; do
    case $arg in
        --array=*) array=${arg#*=} ;;
        -*) ;;
        *) script=$arg ;;
    esac
done
if [ -n "$array" ]; then
    IFS=, read -r -a items <<< "${array%\%*}"
    for item in "${items[@]}"; do
        for ((i = ${item%-*}; i <= ${item#*-}; i++)); do
            SLURM_ARRAY_TASK_ID=$i bash "$script" > /dev/null
        done
    done
fi
echo "$id;fake"
