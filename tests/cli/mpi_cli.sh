#!/bin/sh
#
# mpi_cli: `gpulens mpi` counts MPI calls (NVTX ranges of domain MPI, or
# MPI_/PMPI_ ranges in any domain) and their time, as SQL over NVTX_EVENTS
# counts them.
#   - A generated 2-GPU trace gets, through sqlite3, a domain MPI on both
#     processes with calls of every class (one nested inside another, a
#     PMPI_ call in the default domain, a mark that is no call, a non-MPI
#     range of domain MPI counted as "other"); python3's sqlite3 computes
#     per operation and per rank the counts, totals and a rank's MPI time
#     (set-up left out, nested calls once), and the three --by forms must
#     equal them; --from/--to select calls by their start.
#   - On the real pipit saxpy capture (skipped without the fixtures), the
#     per-operation counts and totals equal SQL over its NVTX_EVENTS.
#   - A trace without MPI calls answers no rows with a warning.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
command -v sqlite3 >/dev/null 2>&1 || skip "the sqlite3 command is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
t=$TMPD/mpi.sqlite
"$G" demo --out "$t" --events 3000 --gpus 2 >"$TMPD/demo.log" 2>&1 ||
    fail "gpulens demo: $(cat "$TMPD/demo.log")"
"$G" --no-cache demo --out "$TMPD/plain.sqlite" --events 2000 >/dev/null 2>&1 ||
    fail "demo"

# Two processes' main threads; calls at offsets from the first event.
python3 - "$t" <<'EOF' || fail "cannot plant MPI calls"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tids = [r[0] for r in db.execute(
    "SELECT DISTINCT globalTid FROM NVTX_EVENTS WHERE text = 'init' ORDER BY globalTid")]
assert len(tids) == 2, tids
t0 = db.execute("SELECT min(start) FROM NVTX_EVENTS").fetchone()[0]
ev = []
def call(tid, name, s, d, dom=77):
    ev.append((t0 + s, t0 + s + d, 59, name, tid, dom))
for k, tid in enumerate(tids):
    db.execute("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId) "
        "VALUES (?, 75, 'MPI', ?, 77)", (t0, tid))
    call(tid, "MPI_Init", 1000, 50000)
    for i in range(5):
        base = 100000 + i * 1000000
        call(tid, "MPI_Send", base, 2000 + 1000 * k)
        call(tid, "MPI_Irecv", base + 5000, 700)
        call(tid, "MPI_Wait", base + 8000, 9000 * (k + 1))
        call(tid, "MPI_Allreduce", base + 30000, 40000 + i * 1000)
    # nested: a Barrier inside a Bcast counts once in the rank's MPI time
    call(tid, "MPI_Bcast", 7000000, 100000)
    call(tid, "MPI_Barrier", 7010000, 20000)
    call(tid, "PMPI_Put", 7200000, 3000, dom=0)
    call(tid, "exchange halo", 7300000, 5000)      # domain MPI, not MPI_*
    call(tid, "MPI_Finalize", 8000000, 60000)
    db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
        "VALUES (?, NULL, 34, 'MPI_Mark', ?, 77)", (t0 + 7400000, tid))
db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
    "VALUES (?, ?, ?, ?, ?, ?)", ev)
db.commit()
EOF

for by in op rank rank-op; do
	"$G" mpi --json --limit 0 --by $by "$t" >"$TMPD/$by.json" 2>"$TMPD/$by.err" ||
	    fail "mpi --by $by: $(cat "$TMPD/$by.err")"
done
"$G" mpi --json --limit 0 --by rank-op --from 5ms --to 7.1ms "$t" \
    >"$TMPD/win.json" || fail "mpi --from --to"

python3 - "$t" "$TMPD" <<'EOF' || fail "mpi disagrees with SQL (above)"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); d = sys.argv[2]
SETUP = ("Init", "Finalize")
t0 = db.execute("SELECT min(start) FROM ("
    "SELECT start FROM NVTX_EVENTS UNION ALL SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL "
    "UNION ALL SELECT start FROM CUPTI_ACTIVITY_KIND_RUNTIME)").fetchone()[0]
rows = db.execute("SELECT globalTid, text, start, end, domainId FROM NVTX_EVENTS "
    "WHERE eventType = 59 AND (domainId = 77 OR text LIKE 'MPI\\_%' ESCAPE '\\' "
    "OR text LIKE 'PMPI\\_%' ESCAPE '\\') ORDER BY globalTid, start").fetchall()
tids = sorted({r[0] for r in rows})
def pid(gtid): return (gtid >> 24) & 0xffffff
def rows_of(name): return json.load(open("%s/%s.json" % (d, name)))["data"]["rows"]
bad = []
# --by op
want = {}
for tid, name, s, e, dom in rows:
    w = want.setdefault(name, [0, 0, {}])
    w[0] += 1; w[1] += e - s; w[2][tid] = w[2].get(tid, 0) + e - s
got = {r["name"]: r for r in rows_of("op")}
if set(got) != set(want): bad.append(("op names", sorted(got), sorted(want)))
for n, (c, tot, per) in want.items():
    r = got.get(n, {})
    if (r.get("count"), r.get("total_ns"), r.get("ranks"), r.get("rank_max_ns")) != \
            (c, tot, len(per), max(per.values())):
        bad.append(("op", n, r, c, tot, per))
if got["exchange halo"]["class"] != "other" or got["PMPI_Put"]["class"] != "onesided" \
        or got["MPI_Wait"]["class"] != "wait" or got["MPI_Barrier"]["class"] != "collective":
    bad.append(("classes", {n: r["class"] for n, r in got.items()}))
# --by rank: MPI time = union of the non-set-up calls per thread
rk = {r["pid"]: r for r in rows_of("rank")}
for tid in tids:
    segs = sorted((s, e) for g, n, s, e, dom in rows if g == tid and
                  not any(n.replace("PMPI_", "MPI_").startswith("MPI_" + p) for p in SETUP))
    tot, end = 0, None
    for s, e in segs:
        if end is None or s >= end: tot += e - s; end = e
        elif e > end: tot += e - end; end = e
    calls = sum(1 for r in rows if r[0] == tid)
    r = rk.get(pid(tid), {})
    if (r.get("mpi_ns"), r.get("calls")) != (tot, calls):
        bad.append(("rank", pid(tid), r, tot, calls))
if sorted(r["rank"] for r in rk.values()) != [0, 1]:
    bad.append(("rank numbers", list(rk.values())))
# --by rank-op
ro = {(r["pid"], r["name"]): r for r in rows_of("rank-op")}
for tid in tids:
    for name in {r[1] for r in rows if r[0] == tid}:
        ds = sorted(e - s for g, n, s, e, dom in rows if g == tid and n == name)
        r = ro.get((pid(tid), name), {})
        if (r.get("count"), r.get("total_ns"), r.get("min_ns"), r.get("max_ns")) != \
                (len(ds), sum(ds), ds[0], ds[-1]):
            bad.append(("rank-op", pid(tid), name, r, ds))
# the window selects by start: [5 ms, 7.1 ms) from the origin
win = {(r["pid"], r["name"]): r["count"] for r in rows_of("win")}
wantw = {}
for tid, name, s, e, dom in rows:
    if t0 + 5000000 <= s < t0 + 7100000:
        wantw[(pid(tid), name)] = wantw.get((pid(tid), name), 0) + 1
if win != wantw or not wantw: bad.append(("window", win, wantw))
for b in bad: print(b)
sys.exit(1 if bad else 0)
EOF

"$G" mpi --json "$TMPD/plain.sqlite" >"$TMPD/none.json" || fail "mpi on a trace without MPI"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["data"]["count"] == 0, d["data"]
assert "no_mpi" in d["meta"]["warning_codes"], d["meta"]' "$TMPD/none.json" ||
    fail "no warning without MPI calls"

if fixture F nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
    "the saxpy comparison's fixture"; then
	"$G" mpi --json --limit 0 "$F" >"$TMPD/saxpy.json" || fail "mpi on saxpy"
	python3 - "$F" "$TMPD/saxpy.json" <<'EOF' || fail "saxpy: mpi disagrees with SQL"
import json, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
want = {n: (c, t) for n, c, t in db.execute(
    "SELECT coalesce(e.text, s.value) AS n, count(*), sum(e.end - e.start) "
    "FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId "
    "WHERE e.eventType = 59 AND e.domainId IN (SELECT domainId FROM NVTX_EVENTS "
    "WHERE eventType = 75 AND text = 'MPI') GROUP BY n")}
got = {r["name"]: (r["count"], r["total_ns"]) for r in json.load(open(sys.argv[2]))["data"]["rows"]}
assert want and got == want, (got, want)
EOF
fi
pass
