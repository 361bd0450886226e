#!/bin/sh
#
# threads_cli: thread scheduling (SCHED_EVENTS) and the host time blocked on
# the GPU, checked against SQL over the trace's own tables (python3).
#   - threads: per thread, running time, context switches (sched-ins) and
#     CPUs inside a window equal what pairing each sched-in with the next
#     sched-out of the same thread gives, clipped to the window; over the
#     whole table, a middle third, with --pid, and with --nvtx (each
#     thread's window is the union of its process's range instances).
#   - summary.sync_blocked_ns is the union over every thread of the
#     blocking calls (*Synchronize*, synchronous cudaMemcpy); launch's
#     sync_threads give each thread's union; cuda_api_sync's evidence
#     carries the same total.
#   - metrics --type cpu-sched answers as threads;
#   - A warm load (cache) answers as a cold one; info no longer lists
#     SCHED_EVENTS as not loaded; a trace without it answers no rows with
#     the no_sched warning.
#   - The same on the real captures with SCHED_EVENTS (pipit cloverleaf and
#     saxpy, nsightful power_iteration, both fuser reports), skipped
#     without $GPULENS_FIXTURES.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
t=$TMPD/sched.sqlite
"$G" demo --out "$t" --events 6000 --gpus 2 --plant sched,sync,memcpy-sync \
    >"$TMPD/demo.log" 2>&1 || fail "gpulens demo: $(cat "$TMPD/demo.log")"

cat >"$TMPD/check.py" <<'EOF2'
import sqlite3, sys
from functools import partial

import clicheck

G, path, cached = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
run = partial(clicheck.gpulens_json, G, cached)
fail = partial(clicheck.fail, path)

# Runs per thread: a sched-in and the next sched-out.
runs = {}
state = {}
last = db.execute("SELECT max(start) FROM SCHED_EVENTS").fetchone()[0]
for g, s, cpu, i in db.execute("SELECT globalTid, start, cpu, isSchedIn "
        "FROM SCHED_EVENTS WHERE globalTid IS NOT NULL "
        "ORDER BY globalTid, start, rowid"):
    if i and g not in state:
        state[g] = (s, cpu)
    elif not i and g in state:
        s0, c0 = state.pop(g)
        runs.setdefault(g, []).append((s0, s, c0))
for g, (s0, c0) in state.items():
    runs.setdefault(g, []).append((s0, last, c0))

def expect(t0, t1, pid=None, wins=None):
    res = {}
    for g, rr in runs.items():
        p, tid = (g >> 24) & 0xFFFFFF, g & 0xFFFFFF
        if pid is not None and p != pid:
            continue
        w = [(t0, t1)] if wins is None else [
            (max(a, t0), min(b, t1)) for a, b in wins.get(p, [])
            if min(b, t1) > max(a, t0)]
        if not w:
            continue
        run_ns = sw = 0
        cpus = set()
        for s, e, c in rr:
            inside = sum(max(0, min(e, b) - max(s, a)) for a, b in w)
            start_in = any(a <= s < b for a, b in w)
            sw += start_in
            if inside or start_in:
                cpus.add(c)
            run_ns += inside
        if run_ns or sw:
            res[(p, tid)] = (run_ns, sw, len(cpus), sum(b - a for a, b in w))
    return res

def got(d):
    return {(r["pid"], r["tid"]): (r["running_ns"], r["switches"], r["ncpus"],
            r["window_ns"]) for r in d["data"]["rows"]}

lo = min(s for rr in runs.values() for s, e, c in rr)
hi = max(e for rr in runs.values() for s, e, c in rr) + 1
third = (hi - lo) // 3
for a, b in ((lo, hi), (lo + third, lo + 2 * third)):
    d = run("threads", "--json", "--limit", "0", "--from", "@%d" % a,
            "--to", "@%d" % b, path)
    if got(d) != expect(a, b):
        fail("threads [%d, %d): %s != %s" % (a, b, sorted(got(d).items())[:3],
             sorted(expect(a, b).items())[:3]))
    for r in d["data"]["rows"]:
        if r["running_ns"] + r["not_running_ns"] != r["window_ns"] or \
           not 0 <= r["running_pct"] <= 100:
            fail("row figures do not add up: %r" % r)
pid = sorted(runs)[0] >> 24 & 0xFFFFFF
d = run("threads", "--json", "--limit", "0", "--pid", str(pid),
        "--from", "@%d" % lo, "--to", "@%d" % hi, path)
if got(d) != expect(lo, hi, pid=pid) or not d["data"]["rows"]:
    fail("threads --pid %d" % pid)

# The default window is the trace span.
d = run("threads", "--json", "--limit", "0", path)
o = d["trace_span"]["origin_ns"]
e = o + d["trace_span"]["span_ns"] + 1
if got(d) != expect(o, e):
    fail("threads over the span")

if len(sys.argv) > 4:
    rng = sys.argv[4]
    wins = {}
    for s, e2, g in db.execute("SELECT n.start, n.end, n.globalTid FROM "
            "NVTX_EVENTS n WHERE n.text = ? AND n.end IS NOT NULL", (rng,)):
        wins.setdefault((g >> 24) & 0xFFFFFF, []).append((s, e2))
    for p in wins:
        wins[p].sort()
        m = []
        for a, b in wins[p]:
            if m and a <= m[-1][1]:
                m[-1] = (m[-1][0], max(m[-1][1], b))
            else:
                m.append((a, b))
        wins[p] = m
    d = run("threads", "--json", "--limit", "0", "--nvtx", rng, path)
    if got(d) != expect(o, e, wins=wins) or not d["data"]["rows"]:
        fail("threads --nvtx %s: %s != %s" % (rng, got(d),
             expect(o, e, wins=wins)))

# Host time blocked on the GPU: the blocking calls, as SQL names them.
names = {i: v for i, v in db.execute("SELECT id, value FROM StringIds")}
calls = {}
for s, e2, g, nid in db.execute("SELECT start, end, globalTid, nameId FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME WHERE end IS NOT NULL"):
    if clicheck.blocks_host(names.get(nid, "")):
        calls.setdefault(g, []).append((s, e2))
def union(iv):
    tot, cur = 0, None
    for a, b in sorted(iv):
        if cur and a <= cur[1]:
            cur[1] = max(cur[1], b)
        else:
            if cur:
                tot += cur[1] - cur[0]
            cur = [a, b]
    return tot + (cur[1] - cur[0] if cur else 0)
allc = [iv for v in calls.values() for iv in v]
d = run("summary", "--json", path)
aux = d["data"]["auxiliary"]
if aux["sync_blocked_ns"] != union(allc) or aux["sync_calls"] != len(allc):
    fail("summary sync_blocked_ns %d (%d calls) != %d (%d)" % (
         aux["sync_blocked_ns"], aux["sync_calls"], union(allc), len(allc)))
d = run("launch", "--json", path)
per = {(r["pid"], r["tid"]): r["blocked_ns"]
       for r in d["data"]["auxiliary"]["sync_threads"]}
want = {((g >> 24) & 0xFFFFFF, g & 0xFFFFFF): union(v)
        for g, v in calls.items()}
if per != want or d["data"]["auxiliary"]["sync_blocked_ns"] != union(allc):
    fail("launch sync_threads %s != %s" % (per, want))
print("ok", path, len(runs), "threads", len(allc), "blocking calls")
EOF2

python3 "$TMPD/check.py" "$G" "$t" 0 mlp || fail "generated trace"
# Warm: the cache was written by the runs above when cached; answer again.
python3 "$TMPD/check.py" "$G" "$t" 1 || fail "generated trace, cold"
python3 "$TMPD/check.py" "$G" "$t" 1 || fail "generated trace, warm"
ls "$XDG_CACHE_HOME"/*/*.gpulens >/dev/null 2>&1 ||
    ls "$XDG_CACHE_HOME"/*.gpulens >/dev/null 2>&1 ||
    find "$XDG_CACHE_HOME" -name '*.gpulens' | grep -q . ||
    fail "no cache file was written"

# The finding carries the measured cost.
"$G" --no-cache findings --json "$t" >"$TMPD/f.json" || fail "findings"
"$G" --no-cache summary --json "$t" >"$TMPD/s.json" || fail "summary"
python3 - "$TMPD/f.json" "$TMPD/s.json" <<'EOF2' || fail "cuda_api_sync evidence"
import json, sys
f = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))["data"]["auxiliary"]
r = [r for r in f["data"]["rows"] if r["type"] == "cuda_api_sync"]
assert r, "no cuda_api_sync finding"
ev = r[0]["evidence"]
assert ev["sync_blocked_ns"] == s["sync_blocked_ns"], (ev, s)
assert ev["sync_threads"] >= 1 and 0 < ev["sync_blocked_pct"] <= 100, ev
EOF2
"$G" --no-cache threads --json "$t" >"$TMPD/t.json" || fail "threads --json"
check_json threads "$TMPD/t.json" 'len(rows) == 4 and d["meta"]["next"]'

# metrics --type cpu-sched is the same answer.
"$G" --no-cache metrics --type cpu-sched --json --limit 0 "$t" >"$TMPD/m.json" ||
    fail "metrics --type cpu-sched"
"$G" --no-cache threads --json --limit 0 "$t" >"$TMPD/t0.json" || fail "threads"
python3 - "$TMPD/m.json" "$TMPD/t0.json" <<'EOF2' || fail "metrics --type cpu-sched differs from threads"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["data"] == b["data"] and a["data"]["rows"], (a, b)
EOF2

# info: SCHED_EVENTS is loaded now.
"$G" --no-cache info "$t" >"$TMPD/info" 2>&1 || fail "info"
grep -q SCHED_EVENTS "$TMPD/info" && fail "info lists SCHED_EVENTS: $(cat "$TMPD/info")"

# Unusable rows (no thread, a text time) are counted in one warning and
# change nothing else (a table without threadState: pipit saxpy, below).
cp "$t" "$TMPD/bad.sqlite"
sql_apply "$TMPD/bad.sqlite" "cannot spoil SCHED_EVENTS" \
    "INSERT INTO SCHED_EVENTS VALUES (5, 1, 1, NULL, 1, NULL)" \
    "INSERT INTO SCHED_EVENTS VALUES ('soon', 1, 0, 1, 1, NULL)"
"$G" --no-cache threads --json --limit 0 "$t" >"$TMPD/good.json" || fail "threads"
"$G" --no-cache threads --json --limit 0 "$TMPD/bad.sqlite" >"$TMPD/bad.json" ||
    fail "threads on spoilt rows"
python3 - "$TMPD/good.json" "$TMPD/bad.json" <<'EOF2' || fail "spoilt rows"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["data"]["rows"] == b["data"]["rows"]
w = [x for x in b["meta"]["warnings"] if "SCHED_EVENTS" in x]
assert w and "2 rows not loaded" in w[0], b["meta"]["warnings"]
assert "records_not_loaded" in b["meta"]["warning_codes"], b["meta"]
EOF2

# Without scheduling data: no rows, a warning.
"$G" --no-cache demo --out "$TMPD/plain.sqlite" --events 2000 >/dev/null 2>&1 ||
    fail "demo"
"$G" --no-cache threads --json "$TMPD/plain.sqlite" >"$TMPD/p.json" ||
    fail "threads on a trace without scheduling"
check_json threads "$TMPD/p.json" \
    'rows == [] and "no_sched" in d["meta"]["warning_codes"]'

if [ -n "${GPULENS_FIXTURES:-}" ] && [ -d "$GPULENS_FIXTURES/nsys" ]; then
	for f in nsys/pipit/perlmutter-cloverleaf-cuda.sqlite \
	    nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
	    nsys/nsightful/power_iteration__baseline.sqlite \
	    nsys/fuser/report1_2025.1.1_h200.sqlite \
	    nsys/fuser/report2_2024.6.2_8xh100.sqlite; do
		if [ ! -f "$GPULENS_FIXTURES/$f" ]; then
			echo "SKIP (partly): fixture $f is missing" >&2
			continue
		fi
		python3 "$TMPD/check.py" "$G" "$GPULENS_FIXTURES/$f" 0 ||
		    fail "$f"
	done
else
	echo "SKIP (partly): no real fixtures (\$GPULENS_FIXTURES)" >&2
fi
pass
