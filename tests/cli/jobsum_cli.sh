#!/bin/sh
#
# jobsum_cli: `comm` and `diff` of a job answered from its ranks'
# summaries equal the answers of the merged models.
#
# A generated 12-rank Kineto job (gpulens demo --format kineto, one file
# per rank; ranks 8 to 11 share GPU ids with ranks 0 to 3, so the merge
# renumbers their devices): `comm --summaries` (summaries made on the
# way, then those `prep` wrote) equals `comm` of the merge, row by row
# and field by field, auxiliary data included, and says it came from the
# summaries; window and filter options are refused with exit 2 and
# --full merges.
#
# diff: job B is job A with the straggler three times slower (demo
# --slowdown 3): `diff --summaries A B` gives the kernel, comm, memcpy,
# memset and iteration rows of `diff A B` of the merges with the same
# counts and totals, the iteration row whole, and the same auxiliary
# side figures, deltas, kernel overlap and windows; what it leaves out is
# what the summaries do not keep: the NVTX rows (so keys and unchanged
# count fewer) and the per-iteration medians of the other rows (null).
# The change is found: the iterations and AllReduce take longer, and the
# gate (--exit-on-regression) breaks on it.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
D=$TMPD
N=${JOBSUM_RANKS:-12}
export XDG_CACHE_HOME=$D/cache

# mkjob DIR [DEMO OPTIONS]: one trace per rank.
mkjob() {
	mkdir -p "$1"
	j=$1
	shift
	r=0
	while [ $r -lt "$N" ]; do
		"$G" demo --format kineto --gpus "$N" --rank $r --events 1500 \
		    "$@" --out "$j/rank$r.json" >/dev/null 2>&1 ||
		    fail "demo --format kineto --rank $r $*"
		r=$((r + 1))
	done
}

# same A B: rows (by key, and in order) and auxiliary data are equal.
same() {
	python3 - "$1" "$2" <<'PY' || fail "$1 and $2 differ"
import json, sys
a = json.load(open(sys.argv[1]))["data"]
b = json.load(open(sys.argv[2]))["data"]
if a["auxiliary"] != b["auxiliary"]:
    print("auxiliary:", a["auxiliary"], b["auxiliary"]); sys.exit(1)
ka = [r["key"] for r in a["rows"]]
kb = [r["key"] for r in b["rows"]]
if ka != kb:
    print("keys:", ka[:5], kb[:5]); sys.exit(1)
for x, y in zip(a["rows"], b["rows"]):
    if x != y:
        print(x["key"], {k: (x[k], y.get(k)) for k in x if x[k] != y.get(k)})
        sys.exit(1)
PY
}

mkjob "$D/a"

# comm: the merge, then summaries made now, then prep's.
expect_rc 0 "$G" comm --limit 0 --json "$D/a"
cp "$TMPD/out" "$D/comm.full"
check_json comm "$D/comm.full" "len(rows) >= 2 * $N and \
'from_summaries' not in d['meta']['warning_codes'] and \
any(r['device'] is not None and r['device'] >= 1000 for r in rows) and \
any(r['kind'] == 'nvtx' for r in rows) and \
all(r['total_bytes'] is not None for r in rows if r['kind'] == 'kernel')"
expect_rc 0 "$G" comm --limit 0 --summaries --json "$D/a"
cp "$TMPD/out" "$D/comm.sum"
check_json comm "$D/comm.sum" "d['meta']['warning_codes'] == \
['from_summaries', 'summaries_made'] and d['source']['kind'] is None"
same "$D/comm.full" "$D/comm.sum"
expect_rc 0 "$G" prep "$D/a"
expect_rc 0 "$G" comm --limit 0 --summaries --json "$D/a"
check_json comm "$TMPD/out" "d['meta']['warning_codes'] == \
['from_summaries']"
same "$D/comm.full" "$TMPD/out"
# The table is the same too.
expect_rc 0 "$G" comm "$D/a"
cp "$TMPD/out" "$D/comm.full.txt"
expect_rc 0 "$G" comm --summaries "$D/a"
cmp -s "$D/comm.full.txt" "$TMPD/out" ||
    fail "comm tables differ: $(diff "$D/comm.full.txt" "$TMPD/out" | head)"
# Options that need each event: refused from summaries; --full merges.
expect_rc 2 "$G" comm --summaries --from 1ms "$D/a"
grep -q -- "--full" "$TMPD/err" || fail "no hint: $(cat "$TMPD/err")"
expect_rc 2 "$G" comm --summaries --device 0 "$D/a"
expect_rc 0 "$G" comm --summaries --full --limit 0 --json "$D/a"
same "$D/comm.full" "$TMPD/out"

mkjob "$D/b" --slowdown 3
expect_rc 0 "$G" diff --limit 0 --json "$D/a" "$D/b"
cp "$TMPD/out" "$D/diff.full"
expect_rc 0 "$G" diff --limit 0 --summaries --json "$D/a" "$D/b"
cp "$TMPD/out" "$D/diff.sum"
check_json diff "$D/diff.sum" "d['meta']['warning_codes'] == \
['from_summaries', 'summaries_made'] and \
{r['class'] for r in rows} == {'kernel', 'comm', 'iteration', 'memcpy', 'memset'}"
python3 - "$D/diff.full" "$D/diff.sum" <<'PY' || fail "diff from summaries"
import json, sys
a = json.load(open(sys.argv[1]))["data"]
b = json.load(open(sys.argv[2]))["data"]
med = ("a_iter_median_ns", "b_iter_median_ns", "delta_iter_median_ns")
full = {r["key"]: r for r in a["rows"] if r["class"] != "nvtx"}
nvtx = [r for r in a["rows"] if r["class"] == "nvtx"]
assert nvtx, "the merge has no NVTX rows"
assert set(full) == {r["key"] for r in b["rows"]}, (sorted(full),
    [r["key"] for r in b["rows"]])
for y in b["rows"]:
    x = full[y["key"]]
    for k in x:
        if k in med and y["class"] != "iteration":
            assert y[k] is None, (y["key"], k, y[k])
        else:
            assert x[k] == y[k], (y["key"], k, x[k], y[k])
xa, ya = a["auxiliary"], b["auxiliary"]
for k in ("a", "b", "delta", "delta_pct", "kernel_overlap_pct", "mode",
          "window", "only_a", "only_b"):
    xv, yv = xa[k], ya[k]
    if k in ("a", "b"):
        xv = dict(xv, path=None); yv = dict(yv, path=None)
    assert xv == yv, (k, xv, yv)
assert ya["keys"] == xa["keys"] - len(nvtx), (xa["keys"], ya["keys"])
assert ya["unchanged"] == xa["unchanged"] - sum(
    r["status"] == "same" for r in nvtx)
# The known change.
it = [r for r in b["rows"] if r["class"] == "iteration"][0]
ar = [r for r in b["rows"] if r["key"] == "comm|collective=AllReduce"][0]
assert it["status"] == "more" and it["delta_pct"] > 50, it
assert ar["status"] == "more" and ar["delta_ns"] > 0, ar
assert b["rows"][0]["delta_ns"] > 0
PY
# --full merges whatever the options; --summaries of single traces loads.
expect_rc 0 "$G" diff --full --summaries --limit 0 --json "$D/a" "$D/b"
same "$D/diff.full" "$TMPD/out"
expect_rc 0 "$G" diff --summaries --json "$D/a/rank0.json" "$D/b/rank0.json"
check_json diff "$TMPD/out" "'from_summaries' not in \
d['meta']['warning_codes'] and any(r['class'] == 'nvtx' for r in rows)"
# The gate checks what the summaries give: the iterations grew.
expect_rc 1 "$G" diff --summaries --exit-on-regression 5 --json "$D/a" "$D/b"
check_json diff "$TMPD/out" "d['data']['auxiliary']['gate']['passed'] is False"
expect_rc 0 "$G" diff --summaries --fail-on 'total_ns>+1000%' "$D/a" "$D/b"
expect_rc 2 "$G" diff --summaries --window steady "$D/a" "$D/b"
grep -q -- "--full" "$TMPD/err" || fail "no hint: $(cat "$TMPD/err")"

pass
