#!/bin/sh
# ranksetup_cli: a rank's setup as a framework writes it into NVTX
# ("rank=N; pp=R/S dp=R/S ..."): `ranks` shows it (nvtx_rank, parallel),
# and one trace per rank without rank metadata takes its rank from it
# rather than from the file order. Malformed setups are passed over.
# The traces are built here: PyTorch profiler JSON, one per rank.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
python3 - "$TMPD" <<'PY' || fail "building the traces"
import json, os, sys
d = sys.argv[1]
def mk(fn, pid, text):
    ev = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
        "args": {"name": "python"}}]
    ev.append({"ph": "X", "cat": "user_annotation", "name": text,
        "pid": pid, "tid": pid, "ts": 1000.0, "dur": 1.0})
    for i in range(3):
        t = 1010.0 + i * 20
        ev.append({"ph": "X", "cat": "user_annotation",
            "name": "ProfilerStep#%d" % i, "pid": pid, "tid": pid, "ts": t,
            "dur": 18.0})
        ev.append({"ph": "X", "cat": "cuda_runtime",
            "name": "cudaLaunchKernel", "pid": pid, "tid": pid, "ts": t + 1,
            "dur": 3.0, "args": {"correlation": i + 1}})
        ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0,
            "tid": 7, "ts": t + 5, "dur": 10.0,
            "args": {"device": 0, "stream": 7, "correlation": i + 1}})
    json.dump({"traceEvents": ev}, open(os.path.join(d, fn), "w"))
# File order a, b, c; the NVTX ranks say c, a, b.
mk("a.json", 100, "rank=1; pp=1/2 dp=0/3 tp=1/2")
mk("b.json", 200, "rank=2;pp=0/2,dp=2/3 tp=2/2 cp=x/2")
mk("c.json", 300, "init rank=0 pp=0/2 dp=0/3 tp=0/2")
mk("d.json", 400, "rank=seven pp=0/2")
PY
expect_rc 0 "$G" ranks "$TMPD/a.json" "$TMPD/b.json" "$TMPD/c.json" --json
check_json ranks "$TMPD/out" '[(r["rank"], r["pid"], r["nvtx_rank"], r["parallel"]) for r in rows] == [(0, 300, 0, "pp=0/2 dp=0/3 tp=0/2"), (1, 100, 1, "pp=1/2 dp=0/3 tp=1/2"), (2, 200, 2, "pp=0/2 dp=2/3")]'
# Not a setup (rank=seven): no NVTX rank, the file order decides.
expect_rc 0 "$G" ranks "$TMPD/d.json" "$TMPD/a.json" --json
check_json ranks "$TMPD/out" '[(r["rank"], r["pid"], r["nvtx_rank"], r["parallel"]) for r in rows] == [(0, 400, None, None), (1, 100, 1, "pp=1/2 dp=0/3 tp=1/2")]'
pass
