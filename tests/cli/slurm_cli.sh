#!/bin/sh
#
# slurm_cli: the array prep of a job on a real Slurm. A single-node
# cluster (munged, slurmctld, slurmd on localhost; tests/cli/slurmlib.sh)
# runs `sbatch --wait --array=0-3 --wrap 'gpulens prep --json DIR'` over a
# generated 64-rank Kineto job: each task preps its quarter (its shard
# from SLURM_ARRAY_TASK_ID/COUNT), and together they write the same
# caches and rank summaries, byte for byte, as one plain prep; `ranks`
# then answers from those summaries without making any. Skips where Slurm
# or MUNGE is not installed, the test is not root, or the daemons do not
# come up; every wait is bounded and the daemons are stopped at exit.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
. "${GPULENS_SRCDIR:-.}/tests/cli/slurmlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$(cd "$(dirname "$GPULENS")" && pwd)/$(basename "$GPULENS")
D=$TMPD
J=$D/job
N=64
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN

slurm_start "$D/slurm"

mkdir -p "$J"
r=0
while [ $r -lt $N ]; do
	"$G" demo --format kineto --gpus $N --rank $r --events 1500 \
	    --out "$J/rank$r.json" >/dev/null 2>&1 ||
	    fail "demo --format kineto --rank $r"
	r=$((r + 1))
done

cache_list() {
	(cd "$1/gpulens" && ls | grep -v '\.tmp-' | LC_ALL=C sort |
	    xargs sha256sum)
}

# The array: four tasks, each its shard, into one cache directory.
XDG_CACHE_HOME=$D/array
export XDG_CACHE_HOME
timeout "${SLURM_JOB_SECS:-300}" sbatch --wait --array=0-3 \
    --chdir="$D" -o "$D/task-%a.out" -e "$D/task-%a.err" \
    --wrap "'$G' prep --json '$J'" >"$D/sbatch.out" 2>"$D/sbatch.err"
rc=$?
if [ $rc -ne 0 ]; then
	slurm_log >&2
	cat "$D"/task-*.err >&2 2>/dev/null
	fail "sbatch --wait --array=0-3 exited $rc: $(cat "$D/sbatch.err")"
fi
for i in 0 1 2 3; do
	[ -s "$D/task-$i.out" ] || fail "task $i wrote nothing: $(cat "$D/task-$i.err")"
	check_json prep "$D/task-$i.out" "len(rows) == $N // 4 and \
d['data']['auxiliary']['shard'] == '$i/4' and \
d['data']['auxiliary']['summaries'] == $N // 4 and \
all(r['action'] == 'written' for r in rows)"
done
python3 - "$D" "$N" <<'PY' || fail "the tasks did not cover every trace once"
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
paths = []
for i in range(4):
    paths += [r["path"] for r in json.load(open(f"{d}/task-{i}.out"))["data"]["rows"]]
sys.exit(0 if len(paths) == n and len(set(paths)) == n else 1)
PY

# One plain prep: the same bytes.
XDG_CACHE_HOME=$D/plain
expect_rc 0 "$G" prep --json "$J"
cache_list "$D/array" >"$D/array.list"
cache_list "$D/plain" >"$D/plain.list"
[ "$(grep -c '\.ranksum$' "$D/array.list")" = $N ] ||
    fail "the array wrote $(grep -c '\.ranksum$' "$D/array.list") summaries"
cmp -s "$D/array.list" "$D/plain.list" ||
    fail "the array's caches differ from a plain prep: $(diff "$D/array.list" "$D/plain.list" | head -4)"

# ranks reads the array's summaries and makes none.
XDG_CACHE_HOME=$D/array
expect_rc 0 "$G" ranks --summaries --json "$J"
grep -q summaries_made "$TMPD/out" && fail "ranks made summaries again"
check_json ranks "$TMPD/out" "d['data']['auxiliary']['ranks'] == $N"
pass
