#!/bin/sh
# iters_cli: the iteration definition (gpulens(1), ITERATIONS) end to end:
#   - a generated trace: every rank has iterations, --pid, --rank and
#     --device keep one, each iteration's kernels equal `search --type
#     kernel` in its window for its process, copies and memsets apart, and
#     an unknown --pid fails with exit 2;
#   - the real traces under $GPULENS_FIXTURES (skipped, exit 77, when
#     absent): power_iteration's marker is the user's "Step * to *" (not
#     CUB's cub::DeviceReduce::Sum) and its steady window one step;
#     h100_2gpu_1s's is no PyTorch operator; both ranks of mfu_2gpu_before
#     get iterations and `ranks` spreads them by 0.5%; nccl_parser_config's
#     kernels per step equal window's and search's; trace_diff__control's
#     iterations hold no more kernels than the trace.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
export GPULENS

# kernels of iteration rows ($1: iters JSON) = search in their windows.
check_search() {
	python3 - "$1" "$2" <<'PY' || fail "$2: kernels differ from search"
import json, subprocess, sys, os
g = os.environ["GPULENS"]
rows = json.load(open(sys.argv[1]))["data"]["rows"]
assert rows, "no iterations"
for r in rows[:4]:
    n = {}
    for kind in ("kernel", "memcpy", "memset"):
        out = subprocess.run([g, "--no-cache", "search", "--json", "--limit",
            "1", "--type", kind, "--pid", str(r["pid"]), "--from",
            "%dns" % r["start_ns"], "--to",
            "%dns" % (r["start_ns"] + r["duration_ns"]), sys.argv[2]],
            check=True, capture_output=True).stdout
        n[kind] = json.loads(out)["data"]["auxiliary"]["total_matched"]
    assert (r["kernels"], r["copies"], r["memsets"]) == \
        (n["kernel"], n["memcpy"], n["memset"]), (r, n)
PY
}

"$GPULENS" demo --events 20000 --gpus 2 --out "$TMPD/demo.sqlite" ||
    fail "demo"
D="$TMPD/demo.sqlite"
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 "$D"
cp "$TMPD/out" "$TMPD/all.json"
python3 - "$TMPD/all.json" <<'PY' || fail "demo: not every rank has iterations"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
pids = {r["pid"] for r in d["rows"]}
assert len(pids) == 2, pids
assert d["auxiliary"]["marker"] == "ProfilerStep#*", d["auxiliary"]
assert all(r["copies"] > 0 for r in d["rows"]), d["rows"][0]
PY
check_search "$TMPD/all.json" "$D"
pid=$(python3 -c 'import json,sys; print(max(r["pid"] for r in json.load(open(sys.argv[1]))["data"]["rows"]))' "$TMPD/all.json")
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 --pid "$pid" "$D"
python3 - "$TMPD/out" "$pid" <<'PY' || fail "demo: --pid"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
assert rows and {r["pid"] for r in rows} == {int(sys.argv[2])}, rows
PY
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 --rank 0 "$D"
python3 - "$TMPD/out" <<'PY' || fail "demo: --rank"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
# No rank in the trace: rank 0 is its first process with GPU work.
assert rows and len({r["pid"] for r in rows}) == 1, rows
PY
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 --device 1 "$D"
python3 - "$TMPD/out" <<'PY' || fail "demo: --device"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
assert rows and len({r["pid"] for r in rows}) == 1, rows
assert all(r["gpus"] == 1 for r in rows), rows
PY
expect_rc 2 "$GPULENS" --no-cache iters --pid 999999 "$D"
expect_rc 2 "$GPULENS" --no-cache iters --rank x "$D"

F="$GPULENS_FIXTURES"
[ -n "$F" ] && [ -d "$F/nsys" ] ||
    skip "GPULENS_FIXTURES absent: real traces not checked (the generated one passed)"

P="$F/nsys/nsightful/power_iteration__baseline.sqlite"
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 "$P"
python3 - "$TMPD/out" <<'PY' || fail "power_iteration: marker"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
a = d["auxiliary"]
assert a["method"] == "nvtx" and a["marker"] == "Step * to *", a
assert a["iterations"] == 44, a
assert d["rows"][0]["name"] == "Step 0 to 10", d["rows"][0]
PY
expect_rc 0 "$GPULENS" --no-cache window --json "$P"
python3 - "$TMPD/out" <<'PY' || fail "power_iteration: window"
import json, sys
r = json.load(open(sys.argv[1]))["data"]["rows"][0]
assert r["marker"] == "Step * to *", r
assert 30e6 < r["duration_ns"] < 50e6, r
PY

H="$F/nsys/nsys-ai/h100_2gpu_1s.sqlite"
expect_rc 0 "$GPULENS" --no-cache iters --json "$H"
python3 - "$TMPD/out" <<'PY' || fail "h100_2gpu_1s: an operator as marker"
import json, sys
a = json.load(open(sys.argv[1]))["data"]["auxiliary"]
assert not a["marker"].startswith("aten::") and "op_id" not in a["marker"], a
PY

M="$F/nsys/nsys-ai/mfu_2gpu_before.sqlite"
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 "$M"
python3 - "$TMPD/out" <<'PY' || fail "mfu: a rank without iterations"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
assert {r["pid"] for r in rows} == {144, 145}, {r["pid"] for r in rows}
PY
expect_rc 0 "$GPULENS" --no-cache ranks --json "$M"
python3 - "$TMPD/out" <<'PY' || fail "mfu: ranks spread"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
assert all(r["iters"] > 0 for r in d["rows"]), d["rows"]
assert d["auxiliary"]["iter_spread_pct"] < 2, d["auxiliary"]
PY

N="$F/kineto/hta/nccl_parser_config__nccl_data.json.gz"
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 "$N"
cp "$TMPD/out" "$TMPD/n.json"
check_search "$TMPD/n.json" "$N"
expect_rc 0 "$GPULENS" --no-cache window --json "$N"
python3 - "$TMPD/n.json" "$TMPD/out" <<'PY' || fail "nccl_parser_config: window and iters disagree"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
w = json.load(open(sys.argv[2]))["data"]["rows"][0]
it = [r for r in rows if r["start_ns"] == w["start_ns"]]
assert len(it) == 1 and it[0]["kernels"] == w["kernels"] == 900, (it, w)
PY

C="$F/kineto/hta/trace_diff__control__control.json.gz"
expect_rc 0 "$GPULENS" --no-cache iters --json --limit 0 "$C"
cp "$TMPD/out" "$TMPD/c.json"
expect_rc 0 "$GPULENS" --no-cache search --json --limit 1 --type kernel "$C"
python3 - "$TMPD/c.json" "$TMPD/out" <<'PY' || fail "trace_diff__control: more kernels in iterations than in the trace"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
total = json.load(open(sys.argv[2]))["data"]["auxiliary"]["total_matched"]
assert len(rows) == 6 and sum(r["kernels"] for r in rows) <= total, \
    (sum(r["kernels"] for r in rows), total)
PY
pass
