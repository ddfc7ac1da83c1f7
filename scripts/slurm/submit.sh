#!/usr/bin/env bash
# Submits a perft plan's units as Slurm job arrays, and a merge job that runs when every task
# of every array has succeeded.
#
#   scripts/slurm/submit.sh PLAN [--array LIST] [--keys K] [--hash MB] [sbatch options...]
#
#   PLAN          a plan directory made by `perft split`, on a file system every node sees
#   --array LIST  the units to run (`0-63`, `5`, `3,17,250-260` as `perft merge` prints them;
#                 a `%N` suffix runs at most N tasks of each array at once);
#                 default: every unit, 0 to N-1
#   --keys K      the Zobrist key set of the units' hash tables: 1 (default) or 2
#   --hash MB     hash table per task, MiB (default 256)
#   anything else goes to every sbatch call (--partition, --time, --cpus-per-task, --mem, ...)
#
# Slurm refuses array indexes of MaxArraySize (default 1001) or more, so the units go in
# arrays of at most PERFT_MAX_ARRAY tasks (default: MaxArraySize from `scontrol show config`,
# else 1000): array k covers units k*C to k*C+C-1 as indexes 0 to C-1, and its tasks get
# PERFT_INDEX_OFFSET=k*C, which `perft unit` adds to SLURM_ARRAY_TASK_ID. The merge job waits
# for all of them (afterok). The perft binary: $PERFT_BIN, else `perft` on PATH, else
# target/release/perft of this repository. Logs go to PLAN/logs/. Prints the job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '5,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "submit.sh: $*" >&2; exit 2; }
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
case $keys in 1|2) ;; *) die "--keys must be 1 or 2, not '$keys'" ;; esac
manifest=$plan/manifest.json
[ -f "$manifest" ] || die "$manifest not found: make the plan with perft split"
units=$(sed -n 's/^ *"unit_count": *\([0-9][0-9]*\).*/\1/p' "$manifest")
[ -n "$units" ] && [ "$units" -ge 1 ] || die "no unit_count in $manifest"
[ -n "$array" ] || array="0-$((units - 1))"

# Tasks per array: PERFT_MAX_ARRAY, else the cluster's MaxArraySize, else 1000.
chunk=${PERFT_MAX_ARRAY:-}
if [ -z "$chunk" ]; then
    chunk=$(scontrol show config 2>/dev/null | sed -n 's/^MaxArraySize *= *\([0-9][0-9]*\).*/\1/p' || true)
    chunk=${chunk:-1000}
fi
[[ $chunk =~ ^[0-9]+$ ]] && [ "$chunk" -ge 1 ] \
    || die "tasks per array (PERFT_MAX_ARRAY or MaxArraySize) must be a whole number from 1, not '$chunk'"

# LIST (with an optional %N throttle) cut at multiples of $chunk: rel[k] holds array k's
# indexes (units minus k*chunk), abs[k] its units.
throttle=""
case $array in *%*) throttle=%${array##*%}; array=${array%\%*} ;; esac
[[ -z $throttle || $throttle =~ ^%[0-9]+$ ]] || die "bad throttle '$throttle' in --array"
rel=() abs=()
IFS=, read -r -a items <<< "$array"
for item in ${items[@]+"${items[@]}"}; do
    [[ $item =~ ^([0-9]+)(-([0-9]+))?$ ]] || die "bad --array item '$item' (want I or A-B)"
    lo=$((10#${BASH_REMATCH[1]})) hi=$((10#${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}))
    [ "$lo" -le "$hi" ] || die "bad --array range '$item'"
    [ "$hi" -lt "$units" ] || die "--array $item: the plan has $units units, 0 to $((units - 1))"
    while [ "$lo" -le "$hi" ]; do
        k=$((lo / chunk)) end=$(( (lo / chunk + 1) * chunk - 1 ))
        [ "$end" -le "$hi" ] || end=$hi
        part=$((lo - k * chunk)) whole=$lo
        [ "$end" = "$lo" ] || { part+="-$((end - k * chunk))"; whole+="-$end"; }
        rel[k]=${rel[k]:+${rel[k]},}$part
        abs[k]=${abs[k]:+${abs[k]},}$whole
        lo=$((end + 1))
    done
done
[ ${#rel[@]} -ge 1 ] || die "--array '$array' names no units"

if [ -n "${PERFT_BIN:-}" ]; then
    bin=$PERFT_BIN
elif command -v perft >/dev/null; then
    bin=$(command -v perft)
else
    bin=$(cd "$here/../.." && pwd)/target/release/perft
fi
[ -x "$bin" ] || die "perft binary $bin not found or not executable (set PERFT_BIN)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
plan=$(cd "$plan" && pwd)
mkdir -p "$plan/logs"

export PERFT_PLAN=$plan PERFT_KEYS=$keys PERFT_HASH=$hash PERFT_BIN=$bin
ids=()
for k in "${!rel[@]}"; do
    offset=$((k * chunk))
    log=$plan/logs/unit-%a.k$keys.out
    [ "$offset" = 0 ] || log=$plan/logs/unit-$offset+%a.k$keys.out
    id=$(PERFT_INDEX_OFFSET=$offset sbatch --parsable --array="${rel[k]}$throttle" --export=ALL \
        --output="$log" ${extra[@]+"${extra[@]}"} "$here/unit.sbatch")
    id=${id%%;*}
    ids+=("$id")
    echo "array job: $id (units ${abs[k]} of $units as array ${rel[k]}$throttle + offset $offset, key set $keys, $bin)"
done
dependency=afterok$(printf ':%s' "${ids[@]}")
merge_id=$(sbatch --parsable --job-name=perft-merge --dependency="$dependency" \
    --kill-on-invalid-dep=yes --export=ALL --output="$plan/logs/merge-%j.k$keys.out" ${extra[@]+"${extra[@]}"} \
    --wrap="exec \"$bin\" merge \"$plan\" --keys $keys --json \"$plan/merge.k$keys.json\"")
merge_id=${merge_id%%;*}
echo "merge job: $merge_id (after every task of ${#ids[@]} array job(s) succeeds; output in $plan/logs/merge-$merge_id.k$keys.out)"
