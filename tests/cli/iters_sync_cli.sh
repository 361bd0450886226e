#!/bin/sh
#
# iters_sync_cli: per-iteration time blocked on the GPU in `iters`
# (sync_blocked_ns, sync_blocked_pct), checked against SQL over the
# trace's own tables (python3): per iteration, the union over the threads
# of the iteration's process of their blocking API calls (names holding
# "Synchronize", and cudaMemcpy / cuMemcpy / hipMemcpy calls without
# "Async"), clipped to the iteration; the share is of its duration.
#   - a generated trace with planted synchronisation stalls and
#     synchronous copies on two processes (demo --plant sync,memcpy-sync):
#     every iteration blocks, and the figures equal SQL's (so a process's
#     iterations count only its own threads' waits);
#   - with --pid, the rows of that process, unchanged;
#   - a warm load answers the same;
#   - the real nsys exports with synchronous calls and iterations
#     (nsightful power_iteration, pipit saxpy and cloverleaf), skipped
#     without $GPULENS_FIXTURES.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
t=$TMPD/it.sqlite
"$G" demo --out "$t" --events 6000 --gpus 2 --plant sync,memcpy-sync \
    >"$TMPD/demo.log" 2>&1 || fail "gpulens demo: $(cat "$TMPD/demo.log")"

cat >"$TMPD/check.py" <<'EOF2'
import sqlite3, sys
from functools import partial

import clicheck

G, path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)

run = partial(clicheck.gpulens_json, G)
fail = partial(clicheck.fail, path)

calls = {}
for s, e, g, n in db.execute("SELECT r.start, r.end, r.globalTid, s.value "
        "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
        "s.id = r.nameId"):
    if clicheck.blocks_host(n):
        calls.setdefault((g >> 24) & 0xFFFFFF, []).append((s, e))

def union(iv, a, b):
    tot, cs, ce = 0, None, None
    for s, e in sorted((max(s, a), min(e, b)) for s, e in iv
                       if e > a and s < b):
        if cs is None or s > ce:
            if cs is not None:
                tot += ce - cs
            cs, ce = s, e
        elif e > ce:
            ce = e
    return tot + (ce - cs if cs is not None else 0)

def check(rows, what):
    blocked = 0
    for r in rows:
        a = r["start_ns"]
        b = a + r["duration_ns"]
        iv = calls.get(r["pid"], []) if r["pid"] is not None else \
            [x for v in calls.values() for x in v]
        want = union(iv, a, b)
        if r["sync_blocked_ns"] != want:
            fail("%s: %s: sync_blocked_ns %s, SQL %s" % (what, r["key"],
                 r["sync_blocked_ns"], want))
        pct = 100.0 * want / r["duration_ns"] if r["duration_ns"] else 0
        if abs(r["sync_blocked_pct"] - pct) > 1e-3:
            fail("%s: %s: sync_blocked_pct %s, SQL %s" % (what, r["key"],
                 r["sync_blocked_pct"], pct))
        if want > 0:
            blocked += 1
    return blocked

for cached in (False, True):
    rows = run(cached, "iters", "--absolute", "--json", path)["data"]["rows"]
    if not rows:
        fail("no iterations")
    n = check(rows, "iters")
    if mode == "gen":
        if n != len(rows):
            fail("%d of %d planted iterations block" % (n, len(rows)))
        pids = sorted({r["pid"] for r in rows})
        if len(pids) < 2:
            fail("one process")
        one = run(cached, "iters", "--absolute", "--json", "--pid",
                  str(pids[0]), path)["data"]["rows"]
        if [(r["key"], r["sync_blocked_ns"]) for r in one] != \
                [(r["key"], r["sync_blocked_ns"]) for r in rows
                 if r["pid"] == pids[0]]:
            fail("--pid changes the figures")
    elif n == 0:
        fail("no iteration blocks")
print("checked", len(rows), "iterations,", n, "blocked")
EOF2

python3 "$TMPD/check.py" "$G" "$t" gen || fail "generated trace"

if [ -n "${GPULENS_FIXTURES:-}" ] && [ -d "$GPULENS_FIXTURES/nsys" ]; then
	for f in nsightful/power_iteration__baseline.sqlite \
	    pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
	    pipit/perlmutter-cloverleaf-cuda.sqlite; do
		python3 "$TMPD/check.py" "$G" "$GPULENS_FIXTURES/nsys/$f" real ||
		    fail "$f"
	done
else
	echo "SKIP (partly): no real fixtures (\$GPULENS_FIXTURES)" >&2
fi
pass
