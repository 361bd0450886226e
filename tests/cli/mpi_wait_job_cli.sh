#!/bin/sh
#
# mpi_wait_job_cli: ranks' MPI wait (mpi_wait_ns, mpi_wait_pct) of a job of
# one trace per rank is the same whether the traces are merged into one
# model (ranks DIR) or answered from the per-rank summaries (ranks
# --summaries DIR), and equals what was planted. The job: a generated
# 8-GPU trace (demo --plant mpi: rank r waits GEN_MPI_ROUNDS = 10 rounds of
# 250 + 50 (r + 1) us in MPI calls outside set-up, gen-mpi.c) split into
# one Nsight Systems export per rank (every row of another process
# removed), so each rank's figures differ. Also with warm caches and
# summaries (a second run), and the spread of the waits in the auxiliary
# data agrees.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
N=8
"$G" demo --out "$TMPD/all.sqlite" --events 8000 --gpus $N --plant mpi \
    >"$TMPD/demo.log" 2>&1 || fail "gpulens demo: $(cat "$TMPD/demo.log")"
J=$TMPD/job
mkdir "$J" || fail "mkdir"

# One export per rank: the rows of that rank's process only.
python3 - "$TMPD/all.sqlite" "$J" <<'EOF2' || fail "cannot split the job"
import sqlite3, sys
src, out = sys.argv[1], sys.argv[2]
db = sqlite3.connect(src)
pids = [g >> 24 & 0xFFFFFF for (g,) in
        db.execute("SELECT globalTid FROM MPI_RANKS ORDER BY rank")]
tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master "
          "WHERE type = 'table'")]
for r, pid in enumerate(pids):
    d = sqlite3.connect("%s/rank%d.sqlite" % (out, r))
    db.backup(d)
    for t in tables:
        cols = [c[1] for c in d.execute("PRAGMA table_info(%s)" % t)]
        for c in cols:
            if c in ("globalTid", "globalPid"):
                d.execute("DELETE FROM %s WHERE (%s >> 24) & 16777215 != ?"
                          % (t, c), (pid,))
            elif c in ("pid", "processId"):
                d.execute("DELETE FROM %s WHERE %s != ?" % (t, c), (pid,))
    d.commit()
    d.close()
EOF2

cat >"$TMPD/check.py" <<'EOF2'
import sys
from functools import partial

import clicheck
from clicheck import fail

G, J, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
ROUNDS = 10
run = partial(clicheck.gpulens_json, G, True)

merged = run("--no-cache", "ranks", J, "--json", "--limit", "0")
cold = run("ranks", "--summaries", J, "--json", "--limit", "0")
warm = run("ranks", "--summaries", J, "--json", "--limit", "0")
for name, d in (("merge", merged), ("summaries", cold),
                ("warm summaries", warm)):
    rows = d["data"]["rows"]
    if sorted(r["rank"] for r in rows) != list(range(N)):
        fail("%s: ranks %s" % (name, [r["rank"] for r in rows]))
    for r in rows:
        want = ROUNDS * (250 + 50 * (r["rank"] + 1)) * 1000
        if r.get("mpi_wait_ns") != want:
            fail("%s: rank %d: mpi_wait_ns %s, planted %d" % (name,
                 r["rank"], r.get("mpi_wait_ns"), want))
by = {r["rank"]: r for r in merged["data"]["rows"]}
for d in (cold, warm):
    for r in d["data"]["rows"]:
        m = by[r["rank"]]
        for k in ("mpi_wait_ns", "span_ns"):
            if r[k] != m[k]:
                fail("rank %d: %s %s from summaries, %s merged" %
                     (r["rank"], k, r[k], m[k]))
        if abs(r["mpi_wait_pct"] - m["mpi_wait_pct"]) > 1e-3:
            fail("rank %d: mpi_wait_pct %s from summaries, %s merged" %
                 (r["rank"], r["mpi_wait_pct"], m["mpi_wait_pct"]))
    a = d["data"]["auxiliary"].get("mpi_wait_spread_pct")
    b = merged["data"]["auxiliary"].get("mpi_wait_spread_pct")
    if a is None or b is None or abs(a - b) > 1e-3:
        fail("mpi_wait_spread_pct %s from summaries, %s merged" % (a, b))
print("ok")
EOF2
python3 "$TMPD/check.py" "$G" "$J" $N || fail "MPI wait"
pass
