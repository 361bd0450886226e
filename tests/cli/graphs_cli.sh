#!/bin/sh
# graphs_cli: `gpulens graphs` against answers computed independently with
# python3 (sqlite3, json) over the same files:
#   - generated nsys traces with graph launches traced by node (plant graph)
#     and as whole graphs (plant graph-whole): one replay per
#     cudaGraphLaunch, its kernels those with the call's correlation id and
#     process, its graph the rows' graphId;
#   - launch, inspect and correlate treat replayed kernels through their
#     graph launch (one launch latency per replay), stats attributes them
#     to the launch call's NVTX range;
#   - rocmProfileData's mytrace.rpd.gz (20 hipGraphLaunch calls whose
#     ops hold the 7,720 Task kernels) and the vLLM Kineto trace that
#     replays a hipGraph, from $GPULENS_FIXTURES when present;
#   - an Nsight Compute report is refused with a clear message;
#   - the timeline brackets the vLLM replay on its stream row.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
N="$TMPD/node.sqlite"
W="$TMPD/whole.sqlite"
expect_rc 0 "$G" demo --out "$N" --events 20000 --gpus 2 --plant graph
expect_rc 0 "$G" demo --out "$W" --events 20000 --gpus 2 --plant graph-whole

# Node mode: replays, kernels, graph ids and spans against SQL.
expect_rc 0 "$G" graphs "$N" --limit 0 --json
check_json graphs "$TMPD/out" 'd["data"]["count"] > 0'
python3 - "$N" "$TMPD/out" <<'PY' || fail "graphs, node mode"
from clicheck import db_and_doc
db, d = db_and_doc()
rows = d["data"]["rows"]
calls = db.execute("""SELECT r.correlationId, r.globalTid >> 24, r.end
    FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId
    WHERE s.value LIKE 'cudaGraphLaunch%'""").fetchall()
want = {}
for corr, pid, cend in calls:
    ks = db.execute("""SELECT start, end, graphId FROM
        CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId = ? AND
        globalPid >> 24 = ?""", (corr, pid)).fetchall()
    assert ks and all(k[2] is not None for k in ks), (corr, ks)
    want[(pid & 0xFFFFFF, corr)] = (len(ks), min(k[0] for k in ks),
        max(k[1] for k in ks), ks[0][2], min(k[0] for k in ks) - cend)
assert len(rows) == len(want), (len(rows), len(want))
origin = d["trace_span"]["origin_ns"]
for r in rows:
    n, s, e, gid, lat = want[(r["pid"], r["corr"])]
    assert r["ops"] == n == r["kernels"], r
    assert r["start_ns"] + origin == s and r["end_ns"] + origin == e, r
    assert r["graph"] == gid and r["graph_source"] == "trace", r
    assert r["launch_latency_ns"] == lat, r
    assert r["nvtx_range"] == "optimizer_step", r
    assert not r["whole"] and r["launch_api"].startswith("cudaGraphLaunch")
    assert r["busy_ns"] + r["gap_ns"] == r["span_ns"], r
aux = d["data"]["auxiliary"]
assert aux["replays"] == len(want) == aux["launched_replays"], aux
assert aux["replayed_ops"] == sum(v[0] for v in want.values()), aux
PY
expect_rc 0 "$G" graphs "$N" --group-by graph --json
check_json graphs "$TMPD/out" 'len(rows) == 2 and sorted(r["graph"] for r in rows) == [1, 2] and all(r["replays"] == r["launched"] > 0 for r in rows)'

# launch: one sample per replay; the other replayed kernels counted apart.
expect_rc 0 "$G" launch "$N" --group-by api --json
python3 - "$N" "$TMPD/out" <<'PY' || fail "launch over graph replays"
from clicheck import db_and_doc
db, d = db_and_doc()
nl = db.execute("""SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r
    JOIN StringIds s ON s.id = r.nameId
    WHERE s.value LIKE 'cudaGraphLaunch%'""").fetchone()[0]
nk = db.execute("""SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL
    WHERE graphId IS NOT NULL""").fetchone()[0]
row = [r for r in d["data"]["rows"] if r["api"] == "cudaGraphLaunch"][0]
assert row["count"] == nl, (row, nl)
assert d["data"]["auxiliary"]["replayed_kernels"] == nk - nl, d
PY
# inspect and correlate: a replay's second kernel has no launch latency.
expect_rc 0 "$G" graphs "$N" --limit 1 --json
call=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][0]["launch_api_id"])' "$TMPD/out")
expect_rc 0 "$G" correlate "$N" "$call" --json
check_json correlate "$TMPD/out" '[r["queue_delay_ns"] is None for r in rows if r["link"] == "api-gpu"] == [False] + [True] * (len([r for r in rows if r["link"] == "api-gpu"]) - 1) and len(rows) >= 3'
second=$(python3 -c 'import json,sys; print([r["to_id"] for r in json.load(open(sys.argv[1]))["data"]["rows"] if r["link"] == "api-gpu"][1])' "$TMPD/out")
expect_rc 0 "$G" inspect "$N" "$second" --json
check_json inspect "$TMPD/out" 'rows[0]["launch_latency_ns"] is None and rows[0]["replay_index"] == 1 and rows[0]["graph_id"] in (1, 2) and rows[0]["nvtx_range"] == "optimizer_step"'
# stats: the replayed kernels belong to the launch call's range.
expect_rc 0 "$G" stats "$N" --type kernel --group-by nvtx-path --json --limit 0
check_json stats "$TMPD/out" 'any(r["nvtx_path"].endswith("optimizer_step") for r in rows)'

# Whole-graph mode: one record per replay, no kernels.
expect_rc 0 "$G" graphs "$W" --limit 0 --json
check_json graphs "$TMPD/out" 'd["data"]["count"] > 0'
python3 - "$W" "$TMPD/out" <<'PY' || fail "graphs, whole mode"
from clicheck import db_and_doc
db, d = db_and_doc()
rows = d["data"]["rows"]
g = db.execute("""SELECT start, end, graphId FROM
    CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start""").fetchall()
assert len(rows) == len(g) > 0, (len(rows), len(g))
origin = d["trace_span"]["origin_ns"]
got = sorted((r["start_ns"] + origin, r["end_ns"] + origin, r["graph"])
    for r in rows)
assert got == sorted(g), (got[:3], g[:3])
assert all(r["whole"] and r["ops"] == 1 and r["kernels"] == 0 and
    r["launch_api"] is not None for r in rows)
PY

# A generated Kineto trace: one replay of KGEN_GRAPH_KERNELS (3) kernels
# per iteration, one graph.
K="$TMPD/k.json"
expect_rc 0 "$G" demo --format kineto --out "$K" --events 40000 --plant graph
expect_rc 0 "$G" graphs "$K" --json
python3 - "$K" "$TMPD/out" <<'PY' || fail "graphs, generated Kineto trace"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
d = json.load(open(sys.argv[2]))
steps = [e for e in ev if e.get("cat") == "user_annotation" and
    e["name"].startswith("ProfilerStep#")]
rows = d["data"]["rows"]
assert len(rows) == len(steps) > 1, (len(rows), len(steps))
assert all(r["kernels"] == 3 and r["graph"] == 1 and
    r["graph_source"] == "signature" and
    r["launch_api"] == "cudaGraphLaunch" for r in rows), rows
PY

# An Nsight Compute report: its graph workloads (none in this one, with a
# warning), in the report form's envelope.
"$G" graphs --json "$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep" >"$TMPD/ncu.json" ||
    fail "graphs on a report"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "report-graphs" and d["data"]["count"] == 0, d
assert d["meta"]["warnings"], d["meta"]' "$TMPD/ncu.json" || fail "graphs on a report: $(cat "$TMPD/ncu.json")"

# Real traces.
if fixture R rocpd/rocmProfileData/mytrace.rpd.gz "mytrace.rpd.gz (RPD check)"
then
	expect_rc 0 "$G" graphs "$R" --limit 0 --json
	check_json graphs "$TMPD/out" 'd["data"]["count"] == 20'
	gzip -dc "$R" >"$TMPD/my.rpd"
	python3 - "$TMPD/my.rpd" "$TMPD/out" <<'PY' || fail "graphs, mytrace.rpd"
from clicheck import db_and_doc
db, d = db_and_doc()
q = """SELECT a.id, sum(t.string = 'Task'), count(*) FROM rocpd_api_ops ao
    JOIN rocpd_api a ON a.id = ao.api_id
    JOIN rocpd_string s ON s.id = a.apiName_id
    JOIN rocpd_op o ON o.id = ao.op_id
    JOIN rocpd_string t ON t.id = o.opType_id
    WHERE s.string = 'hipGraphLaunch' GROUP BY a.id ORDER BY a.start"""
want = db.execute(q).fetchall()
ntask = db.execute("""SELECT count(*) FROM rocpd_op o JOIN rocpd_string t
    ON t.id = o.opType_id WHERE t.string = 'Task'""").fetchone()[0]
rows = sorted(d["data"]["rows"], key=lambda r: r["start_ns"])
assert len(rows) == len(want) == 20, (len(rows), len(want))
assert sum(r["kernels"] for r in rows) == ntask == 7720
assert [(r["kernels"], r["ops"]) for r in rows] == [(w[1], w[2])
    for w in want], ([(r["kernels"], r["ops"]) for r in rows][:3], want[:3])
assert all(r["launch_api"] == "hipGraphLaunch" for r in rows)
PY
fi
if fixture V kineto/tracelens/inference__vllm_decode_full__graph_execution.json.gz \
    "vLLM trace (Kineto check)"; then
	expect_rc 0 "$G" graphs "$V" --json
	python3 - "$V" "$TMPD/out" <<'PY' || fail "graphs, vLLM trace"
from clicheck import events_and_doc
ev, d = events_and_doc()
calls = [e for e in ev if e.get("name", "").startswith("hipGraphLaunch")]
want = []
for c in calls:
    k = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy",
        "gpu_memset") and e.get("args", {}).get("correlation") ==
        c["args"]["correlation"]]
    want.append((len(k), sum(e.get("cat") == "kernel" for e in k)))
rows = d["data"]["rows"]
assert [(r["ops"], r["kernels"]) for r in rows] == want, (rows, want)
assert want and want[0][1] == 421
PY
	# The timeline brackets the replay on its stream's row (drawn
	# headless: standard output is not a terminal).
	printf ':dump %s\n:quit\n' "$TMPD/screen" >"$TMPD/keys"
	GPULENS_TUI_SIZE=160x30 LANG=C.UTF-8 LC_ALL=C.UTF-8 "$G" \
	    --script "$TMPD/keys" "$V" </dev/null >/dev/null 2>&1 ||
	    fail "the timeline did not run"
	grep -q '^  Stream 0 .*\[.*\]' "$TMPD/screen" ||
	    fail "no replay brackets: $(head -4 "$TMPD/screen")"
fi
pass
