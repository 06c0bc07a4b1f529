#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for testing `flux sweep slurm` against the real
# daemons: scripts/slurm-local.sh start|stop|env [DIR]. Needs Debian's slurm-wlm and munge
# (scripts/install-deps.sh) and root; installs nothing. Everything lives in DIR (default
# /tmp/flux-slurm-local): a generated slurm.conf for localhost (one node with this machine's CPUs
# and memory, select/cons_tres, proctrack/linuxproc and no cgroups, so it runs in a container),
# a fresh munge key and socket, the daemons' state, spool, logs and pid files. `start` prints the
# line to export (SLURM_CONF=DIR/slurm.conf) and exits 0 once the node is idle, or prints why the
# daemons could not start and exits 1. `stop` cancels the jobs, stops munged, slurmctld and slurmd
# and removes DIR.
set -euo pipefail
cmd=${1:-}
DIR=${2:-${FLUX_SLURM_DIR:-/tmp/flux-slurm-local}}
CTLD_PORT=${FLUX_SLURM_PORT:-16817}
NODE=fluxnode

fail() { echo "slurm-local: $*" >&2; exit 1; }

stop_pidfile() {
  local f=$1 pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f" 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  [ -d "$DIR" ] || return 0
  if [ -f "$DIR/slurm.conf" ] && [ -S "$DIR/munge.socket" ]; then
    export SLURM_CONF=$DIR/slurm.conf
    timeout 10 scancel --quiet --user "$(id -un)" 2>/dev/null || true
    # Cancelled jobs end before the daemons go, so no job process outlives its slurmstepd.
    for _ in $(seq 100); do
      [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  stop_pidfile "$DIR/slurmd.pid"
  stop_pidfile "$DIR/slurmctld.pid"
  stop_pidfile "$DIR/munged.pid"
  rm -rf "$DIR"
}

start() {
  [ "$(id -u)" = 0 ] || fail "needs root (slurmd runs jobs as their users)"
  for b in munged slurmctld slurmd sbatch sinfo scancel; do
    command -v "$b" >/dev/null || fail "$b not found: install slurm-wlm and munge (scripts/install-deps.sh)"
  done
  [ ! -e "$DIR/slurmctld.pid" ] || fail "already running in $DIR (stop it first)"
  rm -rf "$DIR"
  mkdir -p "$DIR"/{state,spool,munge}
  chmod 700 "$DIR"
  local cpus mem host
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
  host=$(hostname -s)
  dd if=/dev/urandom of="$DIR/munge.key" bs=1024 count=1 status=none
  chmod 400 "$DIR/munge.key"
  munged --force --key-file="$DIR/munge.key" --socket="$DIR/munge.socket" \
    --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" --seed-file="$DIR/munge/seed" ||
    fail "munged did not start: $(tail -n 3 "$DIR/munged.log" 2>/dev/null | tr '\n' ' ')"
  cat >"$DIR/slurm.conf" <<CONF
ClusterName=fluxlocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$((CTLD_PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MaxArraySize=10001
NodeName=$NODE NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$DIR/slurm.conf
  slurmctld -c || fail "slurmctld did not start: $(tail -n 3 "$DIR/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
  slurmd -N "$NODE" || fail "slurmd did not start: $(tail -n 3 "$DIR/slurmd.log" 2>/dev/null | tr '\n' ' ')"
  for _ in $(seq 60); do
    case "$(sinfo -h -n "$NODE" -o %T 2>/dev/null)" in
      idle*) echo "export SLURM_CONF=$DIR/slurm.conf"; return 0 ;;
    esac
    sleep 0.5
  done
  fail "the node did not come up: $(sinfo -h -o '%T %E' 2>&1 | head -n 1); slurmd: $(tail -n 2 "$DIR/slurmd.log" 2>/dev/null | tr '\n' ' ')"
}

case "$cmd" in
  start) start || { status=$?; stop; exit $status; } ;;
  stop) stop ;;
  env) echo "export SLURM_CONF=$DIR/slurm.conf" ;;
  *) echo "usage: $0 start|stop|env [DIR]" >&2; exit 2 ;;
esac
