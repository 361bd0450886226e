#!/bin/sh
#
# ranksum_cli: a large job is compared from its ranks' summaries with the
# answer of the merged model, and `prep` of a directory, sharded (--shard
# I/N, the SLURM_ARRAY_* variables) or on workers (--jobs), writes the
# same caches and summaries, byte for byte, as a plain prep.
#
# A generated 64-rank Kineto job (gpulens demo --format kineto, one file
# per rank, a straggler, 8 ranks per host: host_name node00..node07):
# `ranks DIR --summaries` (from the summaries that prep wrote, then from
# summaries it makes itself) equals `ranks DIR` (64 traces: merged), rows
# (hosts included) and auxiliary data; --rank R keeps R's row and names
# its trace; a changed trace's summary is not served. Two Nsight Systems
# exports whose TARGET_INFO_SYSTEM_ENV names two hosts: each rank's host,
# the same from the summaries and from the merge. Shards
# 0/4..3/4 and SLURM_ARRAY_TASK_ID=1..4 with SLURM_ARRAY_TASK_MIN=1 cover
# every trace once; bad shards exit 2.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
D=$TMPD
J=$D/job
N=${RANKSUM_RANKS:-64}
mkdir -p "$J"
r=0
while [ $r -lt "$N" ]; do
	"$G" demo --format kineto --gpus "$N" --rank $r --events 1500 \
	    --out "$J/rank$r.json" >/dev/null 2>&1 ||
	    fail "demo --format kineto --rank $r"
	r=$((r + 1))
done
# hosts DIR N: rank R's trace names host node(R / 8).
hosts() {
	python3 - "$1" "$2" <<'PY' || fail "cannot name the hosts"
import sys
for r in range(int(sys.argv[2])):
    p = "%s/rank%d.json" % (sys.argv[1], r)
    s = open(p).read()
    open(p, "w").write('{"host_name": "node%02d", ' % (r // 8) + s[1:])
PY
}
hosts "$J" "$N"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN

# same A B: the rows and auxiliary data of two ranks answers are equal.
same() {
	python3 - "$1" "$2" <<'PY' || fail "$1 and $2 differ"
import json, sys
a = json.load(open(sys.argv[1]))["data"]
b = json.load(open(sys.argv[2]))["data"]
b["auxiliary"].pop("rank_trace", None)
if a["auxiliary"] != b["auxiliary"]:
    print("auxiliary:", a["auxiliary"], b["auxiliary"]); sys.exit(1)
if len(a["rows"]) != len(b["rows"]):
    print("rows:", len(a["rows"]), len(b["rows"])); sys.exit(1)
for x, y in zip(a["rows"], b["rows"]):
    if x != y:
        print({k: (x[k], y.get(k)) for k in x if x[k] != y.get(k)})
        sys.exit(1)
PY
}

# cache_list DIR: the files of a cache directory with their hashes.
cache_list() {
	(cd "$1/gpulens" && ls | grep -v '\.tmp-' | LC_ALL=C sort |
	    xargs sha256sum)
}

# A plain prep: one cache and one summary per rank.
export XDG_CACHE_HOME=$D/plain
expect_rc 0 "$G" prep --json "$J"
check_json prep "$TMPD/out" "len(rows) == $N and \
d['data']['auxiliary']['summaries'] == $N and \
d['data']['auxiliary']['shard'] == '0/1' and \
all(r['action'] == 'written' for r in rows)"
[ "$(ls "$D/plain/gpulens" | grep -c '\.ranksum$')" = "$N" ] ||
    fail "prep did not write $N summaries: $(ls "$D/plain/gpulens")"
cache_list "$D/plain" >"$D/plain.list"

# Merged (64 traces) against the summaries prep wrote.
expect_rc 0 "$G" ranks --limit 0 --json "$J"
cp "$TMPD/out" "$D/full.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
a=d['data']['auxiliary']; assert a['ranks'] == $N and \
a['collectives_matched'] > 0 and a['straggler'] == $N - 1, a; \
assert all(r['host'] == 'node%02d' % (r['rank'] // 8) \
for r in d['data']['rows']), d['data']['rows'][0]" \
    "$D/full.json" || fail "the merged answer is not a $N-rank job"
expect_rc 0 "$G" ranks --limit 0 --summaries --json "$J"
cp "$TMPD/out" "$D/sum.json"
grep -q summaries_made "$D/sum.json" &&
    fail "prep's summaries were not used: $(head -c 300 "$D/sum.json")"
same "$D/full.json" "$D/sum.json"
# --full merges whatever the size: the same again.
expect_rc 0 "$G" ranks --limit 0 --full --json "$J"
same "$D/full.json" "$TMPD/out"

# Without prep: the summaries are made (and said so), with the answer.
export XDG_CACHE_HOME=$D/fresh
expect_rc 0 "$G" ranks --limit 0 --summaries --json "$J"
grep -q summaries_made "$TMPD/out" || fail "no summaries_made warning"
same "$D/full.json" "$TMPD/out"
# --no-cache: made in memory, nothing written.
export XDG_CACHE_HOME=$D/none
expect_rc 0 "$G" --no-cache ranks --limit 0 --summaries --json "$J"
same "$D/full.json" "$TMPD/out"
[ -e "$D/none/gpulens" ] && fail "--no-cache wrote $(ls "$D/none/gpulens")"

# Drill in: --rank R keeps its row and names its trace.
export XDG_CACHE_HOME=$D/plain
expect_rc 0 "$G" ranks --summaries --rank 5 --json "$J"
check_json ranks "$TMPD/out" "len(rows) == 1 and rows[0]['rank'] == 5 and \
d['data']['auxiliary']['rank_trace'] == '$J/rank5.json'"
expect_rc 0 "$G" ranks --rank 5 --json "$J"
check_json ranks "$TMPD/out" "len(rows) == 1 and rows[0]['rank'] == 5"

# Nsight Systems exports: the host of each process's machine.
mkdir "$D/nsys"
for s in 1 2; do
	"$G" demo --gpus 1 --seed $s --events 800 --out "$D/nsys/r$s.sqlite" \
	    >/dev/null 2>&1 || fail "demo --seed $s"
done
python3 - "$D/nsys" <<'PY' || fail "cannot name the nsys hosts"
import sqlite3, sys
for s in (1, 2):
    c = sqlite3.connect("%s/r%d.sqlite" % (sys.argv[1], s))
    c.execute("UPDATE TARGET_INFO_SYSTEM_ENV SET value = ? "
              "WHERE name = 'Hostname'", ("gpu-node-%d" % s,))
    c.commit()
PY
expect_rc 0 "$G" ranks --limit 0 --json "$D/nsys"
cp "$TMPD/out" "$D/nsys-full.json"
check_json ranks "$D/nsys-full.json" "[r['host'] for r in rows] == \
['gpu-node-1', 'gpu-node-2']"
expect_rc 0 "$G" ranks --limit 0 --summaries --json "$D/nsys"
same "$D/nsys-full.json" "$TMPD/out"
expect_rc 0 "$G" ranks --json "$D/nsys/r2.sqlite"
check_json ranks "$TMPD/out" "rows[0]['host'] == 'gpu-node-2'"

# Sharded prep: four shards, each a quarter, the union the plain prep.
export XDG_CACHE_HOME=$D/shard
for i in 0 1 2 3; do
	expect_rc 0 "$G" prep --json --shard $i/4 "$J"
	check_json prep "$TMPD/out" "len(rows) == $N // 4 and \
d['data']['auxiliary']['shard'] == '$i/4'"
done
cache_list "$D/shard" >"$D/shard.list"
cmp -s "$D/plain.list" "$D/shard.list" ||
    fail "sharded prep differs from a plain prep: $(diff "$D/plain.list" "$D/shard.list" | head -5)"

# The Slurm array variables, ids from 1: the same files.
export XDG_CACHE_HOME=$D/env
for i in 1 2 3 4; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 \
	    SLURM_ARRAY_TASK_MIN=1 expect_rc 0 "$G" prep --json "$J"
	check_json prep "$TMPD/out" "len(rows) == $N // 4 and \
d['data']['auxiliary']['shard'] == '$((i - 1))/4'"
done
cache_list "$D/env" >"$D/env.list"
cmp -s "$D/plain.list" "$D/env.list" ||
    fail "SLURM_ARRAY_* prep differs from a plain prep"

# Workers: --jobs 3 preps all of it, the same bytes.
export XDG_CACHE_HOME=$D/jobs
expect_rc 0 "$G" prep --json --jobs 3 "$J"
check_json prep "$TMPD/out" "len(rows) == $N and \
d['data']['auxiliary']['jobs'] == 3"
cache_list "$D/jobs" >"$D/jobs.list"
cmp -s "$D/plain.list" "$D/jobs.list" ||
    fail "prep --jobs 3 differs from a plain prep"
# A second prep reuses every cache and keeps every summary.
expect_rc 0 "$G" prep --json --jobs 2 "$J"
check_json prep "$TMPD/out" "all(r['action'] == 'reused' for r in rows) and \
d['data']['auxiliary']['summaries'] == $N"

# clean removes the summary with the cache.
expect_rc 0 "$G" clean --json "$J/rank0.json"
check_json clean "$TMPD/out" "rows[0]['files'] == 2"

export XDG_CACHE_HOME=$D/plain
# A summary is only served for the trace it was made from.
"$G" demo --format kineto --gpus "$N" --rank 3 --events 1500 --seed 2 \
    --out "$J/rank3.json" >/dev/null 2>&1 || fail "demo --seed 2"
expect_rc 0 "$G" ranks --limit 0 --summaries --json "$J"
grep -q '1 of '"$N"' rank summaries were made' "$TMPD/out" ||
    fail "the changed trace's summary was served: $(grep -o 'summaries[^"]*' "$TMPD/out")"

# A damaged summary (cut short, a byte flipped) is not served: remade.
export XDG_CACHE_HOME=$D/plain
for how in cut flip; do
	f=$(ls "$D/plain/gpulens/"rank7.json-*.ranksum)
	python3 - "$f" "$how" <<'PY' || fail "cannot damage $f"
import sys
p, how = sys.argv[1], sys.argv[2]
b = bytearray(open(p, "rb").read())
if how == "cut":
    b = b[: len(b) - 5]
else:
    b[len(b) // 2] ^= 0x40
open(p, "wb").write(bytes(b))
PY
	expect_rc 0 "$G" ranks --limit 0 --summaries --json "$J"
	grep -q '1 of '"$N"' rank summaries were made' "$TMPD/out" ||
	    fail "a $how summary was served"
done

# Bad shards and workers: exit 2, one line.
for s in 4/4 1/0 x/2 -1/3 1/; do
	expect_rc 2 "$G" prep --shard "$s" "$J"
	grep -q "shard" "$TMPD/err" || fail "--shard $s: $(cat "$TMPD/err")"
done
SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=4 expect_rc 2 "$G" prep "$J"
grep -q "SLURM_ARRAY_TASK_ID=5" "$TMPD/err" || fail "bad env: $(cat "$TMPD/err")"
expect_rc 2 "$G" prep --jobs 0 "$J"
expect_rc 2 "$G" prep --jobs 17 "$J"
expect_rc 2 "$G" prep --json --shard 9/4 "$J"
check_json prep "$TMPD/out" "d['error']['code'] == 'usage'"
pass
