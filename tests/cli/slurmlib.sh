# slurmlib.sh: a single-node Slurm cluster for a test (sourced after
# testlib.sh): munged, slurmctld and slurmd on localhost, every file in
# one temporary directory, stopped at exit whatever happens.
#   slurm_start DIR   starts it (configuration in DIR); skips (exit 77)
#                     with a message where Slurm or MUNGE is missing, the
#                     test is not root, or the daemons do not come up in
#                     SLURM_START_SECS (default 60) seconds
#   slurm_stop        stops the daemons (the exit trap calls it)
# After slurm_start, SLURM_CONF names the configuration, so sbatch,
# squeue and sinfo talk to this cluster.

SLURM_PIDS=""
SLURM_DIR=""

slurm_stop() {
	for p in $SLURM_PIDS; do
		kill "$p" 2>/dev/null
	done
	# Give each a few seconds, then no choice.
	for p in $SLURM_PIDS; do
		n=0
		while kill -0 "$p" 2>/dev/null && [ $n -lt 50 ]; do
			sleep 0.1; n=$((n + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	SLURM_PIDS=""
}

# slurm_log: the daemons' logs, for a failure message.
slurm_log() {
	for f in "$SLURM_DIR"/munged.log "$SLURM_DIR"/slurmctld.log \
	    "$SLURM_DIR"/slurmd.log; do
		[ -f "$f" ] && { echo "== $f"; tail -n 15 "$f"; }
	done
}

slurm_start() {
	SLURM_DIR=$1
	for b in munged mungekey slurmctld slurmd sbatch sinfo; do
		command -v "$b" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
		command -v "$b" >/dev/null 2>&1 ||
		    skip "$b is not installed (apt-get install slurm-wlm munge)"
	done
	[ "$(id -u)" -eq 0 ] ||
	    skip "not root: the Slurm daemons of this test run as root"
	command -v timeout >/dev/null 2>&1 || skip "timeout(1) missing"
	trap 'slurm_stop; rm -rf "$TMPD"' EXIT
	trap 'exit 1' INT TERM HUP
	d=$SLURM_DIR
	mkdir -p "$d/state" "$d/spool" "$d/munge" || fail "mkdir $d"
	chmod 0700 "$d/munge"
	timeout 20 mungekey -c -f -k "$d/munge/munge.key" >/dev/null 2>&1 ||
	    skip "mungekey cannot make a key"
	chmod 0600 "$d/munge/munge.key"
	sock=$d/munge/munge.sock
	munged -F --force --socket="$sock" --key-file="$d/munge/munge.key" \
	    --pid-file="$d/munge/munged.pid" --log-file="$d/munged.log" \
	    --seed-file="$d/munge/munged.seed" >/dev/null 2>&1 &
	SLURM_PIDS="$SLURM_PIDS $!"
	# Ports of this run: another test's cluster may be up.
	base=$((20000 + ($$ % 20000)))
	cat >"$d/slurm.conf" <<CONF
ClusterName=gpulenstest
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF="$d/slurm.conf"
	n=0
	while [ ! -S "$sock" ] && [ $n -lt 100 ]; do
		sleep 0.1; n=$((n + 1))
	done
	[ -S "$sock" ] || { slurm_log >&2; skip "munged did not start"; }
	slurmctld -D -i -f "$SLURM_CONF" >/dev/null 2>&1 &
	SLURM_PIDS="$SLURM_PIDS $!"
	slurmd -D -N localhost -f "$SLURM_CONF" >/dev/null 2>&1 &
	SLURM_PIDS="$SLURM_PIDS $!"
	secs=${SLURM_START_SECS:-60}
	n=0
	while [ $n -lt $((secs * 2)) ]; do
		st=$(timeout 5 sinfo -h -N -o %t 2>/dev/null | head -n 1)
		case $st in
		idle*|mix*|alloc*) return 0 ;;
		esac
		sleep 0.5; n=$((n + 1))
	done
	slurm_log >&2
	skip "the Slurm daemons did not come up in $secs s (state '$st')"
}
