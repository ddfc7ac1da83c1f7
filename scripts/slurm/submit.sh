#!/usr/bin/env bash
# Submits a perft plan's units as a Slurm job array, and a merge job that runs when every
# task of the array has succeeded.
#
#   scripts/slurm/submit.sh PLAN [--array LIST] [--keys K] [--hash MB] [sbatch options...]
#
#   PLAN          a plan directory made by `perft split`, on a file system every node sees
#   --array LIST  the units to run (`0-63`, `5`, `3,17,250-260` as `perft merge` prints them);
#                 default: every unit, 0 to N-1
#   --keys K      the Zobrist key set of the units' hash tables: 1 (default) or 2
#   --hash MB     hash table per task, MiB (default 256)
#   anything else goes to both sbatch calls (--partition, --time, --cpus-per-task, --mem, ...)
#
# The perft binary: $PERFT_BIN, else `perft` on PATH, else target/release/perft of this
# repository. Logs go to PLAN/logs/. Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
plan=$1
shift
array="" keys=1 hash=256 extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --array) [ $# -ge 2 ] || usage; array=$2; shift 2 ;;
        --array=*) array=${1#*=}; shift ;;
        --keys) [ $# -ge 2 ] || usage; keys=$2; shift 2 ;;
        --keys=*) keys=${1#*=}; shift ;;
        --hash) [ $# -ge 2 ] || usage; hash=$2; shift 2 ;;
        --hash=*) hash=${1#*=}; shift ;;
        -h|--help) usage ;;
        *) extra+=("$1"); shift ;;
    esac
done
case $keys in 1|2) ;; *) echo "submit.sh: --keys must be 1 or 2, not '$keys'" >&2; exit 2 ;; esac
manifest=$plan/manifest.json
[ -f "$manifest" ] || { echo "submit.sh: $manifest not found: make the plan with perft split" >&2; exit 2; }
units=$(sed -n 's/^ *"unit_count": *\([0-9][0-9]*\).*/\1/p' "$manifest")
[ -n "$units" ] || { echo "submit.sh: no unit_count in $manifest" >&2; exit 2; }
[ -n "$array" ] || array="0-$((units - 1))"

if [ -n "${PERFT_BIN:-}" ]; then
    bin=$PERFT_BIN
elif command -v perft >/dev/null; then
    bin=$(command -v perft)
else
    bin=$(cd "$here/../.." && pwd)/target/release/perft
fi
[ -x "$bin" ] || { echo "submit.sh: perft binary $bin not found or not executable (set PERFT_BIN)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
plan=$(cd "$plan" && pwd)
mkdir -p "$plan/logs"

export PERFT_PLAN=$plan PERFT_KEYS=$keys PERFT_HASH=$hash PERFT_BIN=$bin
array_id=$(sbatch --parsable --array="$array" --export=ALL \
    --output="$plan/logs/unit-%a.k$keys.out" "${extra[@]}" "$here/unit.sbatch")
array_id=${array_id%%;*}
merge_id=$(sbatch --parsable --job-name=perft-merge --dependency="afterok:$array_id" \
    --kill-on-invalid-dep=yes --export=ALL --output="$plan/logs/merge-$array_id.k$keys.out" "${extra[@]}" \
    --wrap="exec \"$bin\" merge \"$plan\" --keys $keys --json \"$plan/merge.k$keys.json\"")
merge_id=${merge_id%%;*}
echo "array job: $array_id (units $array of $units, key set $keys, $bin)"
echo "merge job: $merge_id (after every task succeeds; output in $plan/logs/merge-$array_id.k$keys.out)"
