#!/bin/sh
#
# multi_host_cli: a job of several traces merged into one model keeps each
# trace's host tables (model/merge-host.c): thread scheduling, CPU samples
# and their call chains, the call chains of API calls, GPU counters and MPI
# calls. Three generated traces (demo --plant samples,sched,sync,mpi,
# gpu-metrics, seeds 1 to 3: the same pids and thread ids, as processes on
# different nodes have) loaded as one job (a directory):
#   - threads: the merged rows are the rows of each trace alone (pid, tid,
#     running time, switches, CPUs in the same absolute window), and their
#     keys are unique (a thread id an earlier trace has gets k << 56 added);
#   - samples --group-by tid: the per-thread sample counts of the merge are
#     those of each trace alone (keys unique: threads of equal tid and pid
#     are told apart by gtid); by function, the sums of them;
#   - inspect sample:N: sample N of the merge is sample N - (samples of the
#     earlier traces) of its trace alone (thread, call chain);
#   - an API call's call chain survives: findings cites call sites and
#     inspect of the cited call shows its chain;
#   - counters and mpi: the merge's figures are those of the traces
#     (counters: each GPU's counters as alone; mpi: counts summed);
#   - with warm caches the merge answers the same.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
J=$TMPD/job
mkdir "$J" || fail "mkdir"
for s in 1 2 3; do
	"$G" demo --out "$J/r$s.sqlite" --events 4000 --gpus 1 --seed $s \
	    --plant samples,sched,sync,mpi,gpu-metrics >"$TMPD/demo.log" 2>&1 ||
	    fail "gpulens demo: $(cat "$TMPD/demo.log")"
done

cat >"$TMPD/check.py" <<'EOF2'
import sys
from collections import Counter
from functools import partial

import clicheck
from clicheck import fail

G, J = sys.argv[1], sys.argv[2]
files = ["%s/r%d.sqlite" % (J, s) for s in (1, 2, 3)]

run = partial(clicheck.gpulens_json, G)

WIN = ["--from", "@0", "--to", "@100000000000", "--limit", "0"]


def same_merged(what, tally):
    """Fails unless tally (a Counter of a trace's rows) of the merge is not
    empty and is the sum of the tallies of the traces."""
    merged = tally(J)
    alone = Counter()
    for f in files:
        alone += tally(f)
    if not merged or merged != alone:
        fail("%s: merge %s, traces %s" % (what, sorted(merged.items()),
             sorted(alone.items())))


for cached in (False, True):
    # Scheduling.
    def th(p):
        rows = run(cached, "threads", p, "--json", *WIN)["data"]["rows"]
        return rows, Counter((r["pid"], r["tid"], r["running_ns"],
                              r["switches"], r["cpus"]) for r in rows)
    rows, merged = th(J)
    alone = Counter()
    for f in files:
        alone += th(f)[1]
    if not rows or merged != alone:
        fail("threads: merge %s, traces %s" % (sorted(merged),
             sorted(alone)))
    if len({r["key"] for r in rows}) != len(rows):
        fail("threads: keys not unique")
    # Samples per thread and per function.
    def sm(p, by):
        rows = run(cached, "samples", p, "--json", "--group-by", by,
                   "--limit", "0")["data"]["rows"]
        if len({r["key"] for r in rows}) != len(rows):
            fail("samples by %s of %s: keys not unique" % (by, p))
        if by == "tid":
            return Counter((r["pid"], r["tid"], r["self"]) for r in rows)
        return Counter({(r["function"], r["module"]): r["self"]
                        for r in rows})
    for by in ("tid", "function"):
        same_merged("samples by " + by, partial(sm, by=by))
    # inspect sample:N.
    base = 0
    for f in files:
        n = sum(r["self"] for r in run(cached, "samples", f, "--json",
                "--group-by", "tid", "--limit", "0")["data"]["rows"])
        for k in (0, n // 2, n - 1):
            a = run(cached, "inspect", f, "sample:%d" % k,
                    "--json")["data"]["rows"][0]
            b = run(cached, "inspect", J, "sample:%d" % (base + k),
                    "--json")["data"]["rows"][0]
            for key in ("pid", "tid", "callchain"):
                if a.get(key) != b.get(key):
                    fail("sample %d of %s: %s %s, merged sample %d: %s" %
                         (k, f, key, a.get(key), base + k, b.get(key)))
        base += n
    # An API call's chain.
    fd = run(cached, "findings", J, "--json")["data"]["rows"]
    cs = [a.get("call_site") for r in fd if r["type"] == "cuda_api_sync"
          for a in r["evidence"]["apis"]]
    cs = [c for c in cs if c]
    if not cs:
        fail("no call site in the merge's findings")
    row = run(cached, "inspect", J, "ev:%d" % cs[0]["event"],
              "--json")["data"]["rows"][0]
    fr = [x["function"] for x in row.get("callchain", [])]
    if cs[0]["function"] not in fr:
        fail("inspect of the cited call: chain %s" % fr)
    # Counters and MPI.
    def ctr(p):     # devices are renumbered in the merge
        return Counter((r["counter"], r["samples"], r["mean"]) for r in
                       run(cached, "counters", p, "--json", "--limit",
                           "0")["data"]["rows"])
    same_merged("counters", ctr)
    def mpi(p):
        return Counter({r["name"]: r["count"] for r in
                        run(cached, "mpi", p, "--json", "--limit",
                            "0")["data"]["rows"]})
    same_merged("mpi", mpi)
print("ok")
EOF2

python3 "$TMPD/check.py" "$G" "$J" || fail "the merge lost host data"
pass
