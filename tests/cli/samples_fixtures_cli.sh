#!/bin/sh
# samples_fixtures_cli: on the real Nsight Systems exports that hold CPU
# samples, `samples` equals SQL over COMPOSITE_EVENTS and
# SAMPLING_CALLCHAINS (samples per thread; per function and module, self =
# samples whose stackDepth 0 frame it is, total = samples with it at any
# depth), and `inspect` of an API or OS runtime call shows the rows of its
# CUDA_CALLCHAINS or OSRT_CALLCHAINS chain. Skips without
# $GPULENS_FIXTURES.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
[ -n "${GPULENS_FIXTURES:-}" ] && [ -d "$GPULENS_FIXTURES/nsys" ] ||
    skip "GPULENS_FIXTURES not set"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"

for f in pipit/perlmutter-cloverleaf-cuda.sqlite \
    nsightful/power_iteration__baseline.sqlite \
    pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite; do
	F="$GPULENS_FIXTURES/nsys/$f"
	[ -f "$F" ] || skip "$f missing"
	"$GPULENS" --no-cache samples --json --limit 0 "$F" >"$TMPD/fn.json" ||
	    fail "$f: samples"
	"$GPULENS" --no-cache samples --json --group-by tid "$F" \
	    >"$TMPD/tid.json" || fail "$f: samples --group-by tid"
	python3 - "$F" "$TMPD/fn.json" "$TMPD/tid.json" <<'PY' ||
import json, sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
fn = json.load(open(sys.argv[2]))["data"]
tid = json.load(open(sys.argv[3]))["data"]
ok = True

want = sorted(db.execute("""SELECT globalTid % 16777216,
    globalTid / 16777216 % 16777216, count(*) FROM COMPOSITE_EVENTS
    GROUP BY globalTid""").fetchall())
got = sorted((r["tid"], r["pid"], r["self"]) for r in tid["rows"])
if got != want:
    print("per thread:", got, want); ok = False
n = db.execute("SELECT count(*) FROM COMPOSITE_EVENTS").fetchone()[0]
if fn["auxiliary"]["samples"] != n or n == 0:
    print("samples:", fn["auxiliary"]["samples"], n); ok = False

self = dict(((s, m), c) for s, m, c in db.execute("""SELECT s.value,
    m.value, count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON
    s.id = c.symbol JOIN StringIds m ON m.id = c.module
    WHERE c.stackDepth = 0 GROUP BY 1, 2"""))
total = dict(((s, m), c) for s, m, c in db.execute("""SELECT s.value,
    m.value, count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c JOIN StringIds
    s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module GROUP BY 1, 2"""))
got = dict(((r["function"], r["module"]), (r["self"], r["total"]))
    for r in fn["rows"])
want = dict((k, (self.get(k, 0), total[k])) for k in total)
if got != want:
    diff = [(k, got.get(k), want.get(k)) for k in set(got) | set(want)
        if got.get(k) != want.get(k)]
    print("functions:", diff[:5]); ok = False
# The top functions by self, in order (ties by total, then name).
top = sorted(want.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
if [(r["function"], r["module"]) for r in fn["rows"][:10]] != \
    [k for k, v in top[:10]]:
    print("top:", fn["rows"][:3], top[:3]); ok = False
sys.exit(0 if ok else 1)
PY
	fail "$f: samples differ from SQL"
done

# inspect: a runtime call's chain (saxpy numbers them from 0, its
# CUDA_CALLCHAINS from 1: the chain of callchainId k has id k + 1) and an
# OS runtime call's (callchainId is the chain's id).
chain_check() {	# FILE TABLE SEARCH-TYPE CHAIN-ID-SQL
	F="$GPULENS_FIXTURES/nsys/$1"
	"$GPULENS" --no-cache search --json --type "$3" --limit 0 "$F" \
	    >"$TMPD/s.json" || fail "$1: search"
	python3 - "$F" "$TMPD/s.json" "$2" "$4" "$GPULENS" <<'PY' ||
import json, sqlite3, subprocess, sys
F, S, table, expr, gl = sys.argv[1:]
db = sqlite3.connect("file:" + F + "?mode=ro", uri=True)
rows = json.load(open(S))["data"]["rows"]
src = "CUPTI_ACTIVITY_KIND_RUNTIME" if table == "CUDA_CALLCHAINS" else "OSRT_API"
checked = 0
for r in rows:
    cid = db.execute("SELECT %s FROM %s WHERE rowid = ?" % (expr, src),
        (r["source_rowid"],)).fetchone()[0]
    want = [(s, m) for s, m in db.execute("""SELECT s.value, m.value FROM
        %s c JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON
        m.id = c.module WHERE c.id = ? ORDER BY c.stackDepth""" % table,
        (cid,))] if cid is not None else []
    if not want and checked >= 3:
        continue
    out = json.loads(subprocess.run([gl, "--no-cache", "inspect", "--json",
        F, str(r["id"])], capture_output=True, check=True).stdout)
    got = [(f["function"], f["module"])
        for f in out["data"]["rows"][0].get("callchain", [])]
    if got != want:
        print(r["id"], got[:2], want[:2]); sys.exit(1)
    if want:
        checked += 1
    if checked >= 6:
        break
sys.exit(0 if checked > 0 else 1)
PY
	fail "$1: call chains differ from $2"
}
chain_check pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite CUDA_CALLCHAINS api \
    "callchainId + 1"
chain_check pipit/perlmutter-cloverleaf-cuda.sqlite OSRT_CALLCHAINS osrt \
    "callchainId"
find "$GPULENS_FIXTURES" -name '.*' | grep -q . && fail "files left in fixtures"
pass
