#!/bin/sh
#
# mpi_tables_cli: MPI calls from the MPI_* tables of newer Nsight Systems
# exports. On a generated trace with the mpi plant, `gpulens mpi` (per
# operation, per rank, per rank and operation) equals python3's sqlite3
# over MPI_P2P_EVENTS, MPI_COLLECTIVES_EVENTS, MPI_START_WAIT_EVENTS and
# MPI_OTHER_EVENTS: counts, totals and bytes (size, else recvSize), ranks
# from MPI_RANKS, source "mpi-tables"; `ranks` shows each rank's MPI wait
# (time in MPI calls other than set-up) and its spread; a warm (cached)
# load answers as a cold one. On the pipit saxpy capture (NVTX domain MPI,
# skipped without the fixtures) the call counts equal the NVTX rows and
# the answer has no bytes.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
t=$TMPD/mpi.sqlite
"$G" demo --out "$t" --events 4000 --gpus 3 --plant mpi \
    >"$TMPD/demo.log" 2>&1 || fail "gpulens demo: $(cat "$TMPD/demo.log")"

for by in op rank rank-op; do
	"$G" --no-cache mpi --json --limit 0 --by $by "$t" >"$TMPD/$by.json" \
	    2>"$TMPD/err" || fail "mpi --by $by: $(cat "$TMPD/err")"
	check_json mpi "$TMPD/$by.json" 'len(rows) > 0'
done
"$G" mpi --json --limit 0 --by rank-op "$t" >/dev/null 2>&1 || fail "mpi (fill)"
"$G" mpi --json --limit 0 --by rank-op "$t" >"$TMPD/warm.json" || fail "mpi (warm)"
"$G" --no-cache ranks --json "$t" >"$TMPD/ranks.json" || fail "ranks"
check_json ranks "$TMPD/ranks.json" 'all("mpi_wait_ns" in r for r in rows)'

python3 - "$t" "$TMPD" <<'EOF' || fail "mpi disagrees with SQL over the MPI tables (above)"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); d = sys.argv[2]
def load(n): return json.load(open("%s/%s.json" % (d, n)))
rank = dict(db.execute("SELECT globalTid, rank FROM MPI_RANKS"))
calls = []
for tab, sz in (("MPI_P2P_EVENTS", "size"), ("MPI_COLLECTIVES_EVENTS",
        "coalesce(nullif(size, 0), recvSize)"), ("MPI_START_WAIT_EVENTS", "NULL"),
        ("MPI_OTHER_EVENTS", "NULL")):
    calls += db.execute("SELECT globalTid, s.value, e.end - e.start, %s FROM %s e "
        "JOIN StringIds s ON s.id = e.textId" % (sz, tab)).fetchall()
bad = []
want = {}
for tid, name, dur, b in calls:
    w = want.setdefault((rank[tid], name), [0, 0, 0, 0])
    w[0] += 1; w[1] += dur
    if b: w[2] += b; w[3] += 1
ro = load("rank-op")
got = {(r["rank"], r["name"]): r for r in ro["data"]["rows"]}
if set(got) != set(want): bad.append(("keys", sorted(got), sorted(want)))
for k, (c, tot, b, nb) in want.items():
    r = got.get(k, {})
    if (r.get("count"), r.get("total_ns"), r.get("bytes")) != (c, tot, b if nb else None):
        bad.append(("rank-op", k, r, c, tot, b))
if ro["data"]["auxiliary"].get("source") != "mpi-tables": bad.append(("source", ro["data"]["auxiliary"]))
if load("warm")["data"] != ro["data"]: bad.append("warm != cold")
op = {r["name"]: r for r in load("op")["data"]["rows"]}
n = len(rank)
if (op["MPI_Allreduce"]["count"], op["MPI_Allreduce"]["bytes"], op["MPI_Allreduce"]["bytes_mean"]) != \
        (10 * n, 10 * n * 1048576, 1048576) or "bytes" in op["MPI_Wait"]:
    bad.append(("op", op["MPI_Allreduce"], op["MPI_Wait"]))
# per rank: MPI time outside set-up = 10 x (250 + 50 (r + 1)) us
rk = {r["rank"]: r for r in load("rank")["data"]["rows"]}
for r in range(n):
    w = 10 * (250 + 50 * (r + 1)) * 1000
    if rk[r]["mpi_ns"] != w or rk[r]["wait_ns"] != 10 * 50000 * (r + 1) or \
            rk[r]["bytes"] != 10 * (1048576 + 2 * 4096):
        bad.append(("rank", r, rk[r], w))
ranks = load("ranks")
rr = {r["pid"]: r for r in ranks["data"]["rows"]}
for r in range(n):
    w = 10 * (250 + 50 * (r + 1)) * 1000
    pid = rk[r]["pid"]
    if rr[pid]["mpi_wait_ns"] != w or abs(rr[pid]["mpi_wait_pct"] -
            100.0 * w / rr[pid]["span_ns"]) > 1e-3:
        bad.append(("ranks", r, rr[pid], w))
ws = sorted(10 * (250 + 50 * (r + 1)) * 1000 for r in range(n))
if abs(ranks["data"]["auxiliary"]["mpi_wait_spread_pct"] - 100.0 * (ws[-1] - ws[0]) / ws[n // 2]) > 1e-3:
    bad.append(("spread", ranks["data"]["auxiliary"]))
for x in bad: print(x)
sys.exit(1 if bad else 0)
EOF

if fixture F nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
    "the saxpy comparison's fixture"; then
	"$G" mpi --json --limit 0 "$F" >"$TMPD/saxpy.json" || fail "mpi on saxpy"
	"$G" ranks --json "$F" >"$TMPD/sranks.json" 2>/dev/null || fail "ranks on saxpy"
	python3 - "$F" "$TMPD/saxpy.json" "$TMPD/sranks.json" <<'EOF' || fail "saxpy: mpi calls disagree with the NVTX rows"
import json, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
n = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND domainId IN "
    "(SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'MPI')").fetchone()[0]
d = json.load(open(sys.argv[2]))["data"]
assert n > 0 and d["auxiliary"]["calls"] == n and sum(r["count"] for r in d["rows"]) == n, (n, d["auxiliary"])
assert "source" not in d["auxiliary"] and all("bytes" not in r for r in d["rows"]), d
r = json.load(open(sys.argv[3]))["data"]["rows"]
assert len(r) == 1 and r[0]["mpi_wait_ns"] > 0, r
EOF
fi
pass
