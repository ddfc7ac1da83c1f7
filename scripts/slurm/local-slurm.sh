#!/bin/bash
# Throwaway single-node Slurm (munge + slurmctld + slurmd) for CI, as root, without systemd:
# the project's own copy of the recipe in shared/slurm (Debian packages, ports 16817/16818).
#   local-slurm.sh start   install if needed, write config, start daemons, wait for the node
#   local-slurm.sh stop    stop the daemons by PID (pid files), leave logs
# Clients need:  export SLURM_CONF=$SLURM_CI_DIR/slurm.conf
# Notes: munged wants its socket directory 0755 and its key 0400 in a 0700 directory; no
# accounting (sacct does not work: track tasks by their result files); the scheduler settings
# below start array tasks at once instead of in waves 3 s apart; stopped daemons may linger as
# zombies when PID 1 does not reap them (they hold nothing).
set -euo pipefail
D=${SLURM_CI_DIR:-/tmp/perft-slurm-ci}
CTLD_PORT=${SLURM_CI_CTLD_PORT:-16817}
SLURMD_PORT=${SLURM_CI_SLURMD_PORT:-16818}
CPUS=${SLURM_CI_CPUS:-$(nproc)}
export SLURM_CONF=$D/slurm.conf

start() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "local-slurm.sh runs the daemons as root; run it as root" >&2
    return 2
  fi
  if [ -s "$D/run/slurmctld.pid" ] && kill -0 "$(cat "$D/run/slurmctld.pid")" 2>/dev/null; then
    stop   # a previous run's daemons: start afresh
  fi
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      slurmctld slurmd slurm-client munge >/dev/null
  fi
  mkdir -p "$D"/{key,run,state,spool,log}
  chmod 700 "$D/key"; chmod 755 "$D" "$D/run"   # munged: socket dir must be 755, key private
  [ -s "$D/key/munge.key" ] || { dd if=/dev/urandom of="$D/key/munge.key" bs=1024 count=1 status=none; chmod 400 "$D/key/munge.key"; }
  munged --socket="$D/run/munge.socket" --key-file="$D/key/munge.key" \
         --pid-file="$D/run/munged.pid" --log-file="$D/log/munged.log" --seed-file="$D/key/munged.seed"
  local h; h=$(hostname -s)
  cat > "$SLURM_CONF" <<EOF
ClusterName=ci
SlurmctldHost=$h(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/run/munge.socket
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$h NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld
  slurmd
  for _ in $(seq 60); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
    sleep 0.5
  done
  echo "slurm node did not come up; logs in $D/log" >&2; tail -n 20 "$D"/log/*.log >&2; return 1
}

stop() {
  local f pid
  for f in slurmd slurmctld munged; do
    [ -s "$D/run/$f.pid" ] || continue
    pid=$(cat "$D/run/$f.pid")
    kill "$pid" 2>/dev/null || true
    # gone, or a zombie (PID 1 in a container may not reap daemons)
    for _ in $(seq 50); do
      [ -e "/proc/$pid" ] && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || break
      sleep 0.1
    done
    rm -f "$D/run/$f.pid"
  done
}

case "${1:-}" in start) start ;; stop) stop ;; *) echo "usage: $0 start|stop" >&2; exit 2 ;; esac
