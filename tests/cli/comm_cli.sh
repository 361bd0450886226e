#!/bin/sh
# comm_cli: the message sizes and bandwidths of `gpulens comm --json`
# against tests/cli/comm_cli.py's reading of the same JSON:
#   - a generated Kineto trace (gpulens demo --format kineto writes the
#     collective args on its NCCL kernels): every group agrees and some
#     kernel has a size;
#   - the CPU-side rows of every real trace count its NCCL annotations and
#     operators, and no Python frame;
#   - a generated Nsight Systems trace, which records no message sizes:
#     every row's total_bytes and bandwidths are null;
#   - every real trace under $GPULENS_FIXTURES/kineto (skipped, exit 77,
#     when the fixtures are absent): every group agrees, the three traces
#     whose kernels carry the args have sizes, and so do the five older
#     ones whose NCCL annotations record their tensors' shapes (sizes
#     from the annotation around each launch); in the two traces with
#     both, the annotations' messages are the args'; inspect shows one
#     NCCL kernel's message fields as the JSON has them, and one older
#     kernel's as its annotation has them.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
CHECK="$GPULENS_SRCDIR/tests/cli/comm_cli.py"
export GPULENS

"$GPULENS" demo --format kineto --gpus 2 --events 3000 \
    --out "$TMPD/demo.pt.trace.json" || fail "demo --format kineto"
python3 "$CHECK" --quiet --expect-sized "$TMPD/demo.pt.trace.json" ||
    fail "generated Kineto trace: comm and the JSON disagree"

"$GPULENS" demo --events 3000 --gpus 2 --out "$TMPD/demo.sqlite" ||
    fail "demo"
expect_rc 0 "$GPULENS" --no-cache comm "$TMPD/demo.sqlite" --json --limit 0
python3 - "$TMPD/out" <<'PY' || fail "nsys: comm reports sizes it cannot know"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
assert any(r["kind"] == "kernel" for r in rows), rows
for r in rows:
    assert r["sized_count"] == 0, r
    for k in ("total_bytes", "algbw_gbps", "busbw_gbps", "median_algbw_gbps",
              "median_busbw_gbps", "group_size", "process_group"):
        assert r[k] is None, (k, r)
PY

K="$GPULENS_FIXTURES/kineto"
[ -n "$GPULENS_FIXTURES" ] && [ -d "$K" ] ||
    skip "GPULENS_FIXTURES ($K) absent: real traces not checked (the generated ones passed)"
set -- "$K"/*/*.json.gz
[ -f "$1" ] || fail "no traces in $K"
python3 "$CHECK" "$@" || fail "real traces: comm and the JSON disagree"
python3 "$CHECK" --quiet --expect-sized \
    "$K/hta/nccl_parser_config__nccl_data.json.gz" \
    "$K/tracelens/b200__eager_trace.json.gz" \
    "$K/tracelens/mi300__resnet_act_checkpoint.json.gz" ||
    fail "traces with collective args: no sizes"
python3 "$CHECK" --quiet --expect-sized \
    "$K/hta/negative_queue_length_values_check__rank0.json.gz" \
    "$K/hta/trace_diff__control__control.json.gz" \
    "$K/hta/trace_diff__test__test.json.gz" \
    "$K/hta/trace_filter__sampled_rank-0.json.gz" \
    "$K/hta/trace_filter__sampled_rank-1.json.gz" ||
    fail "traces with sized NCCL annotations: no sizes"
python3 "$CHECK" --agree \
    "$K/tracelens/b200__eager_trace.json.gz" \
    "$K/tracelens/mi300__resnet_act_checkpoint.json.gz" ||
    fail "annotations and collective args disagree"
# The CPU-side rows count the trace's NCCL/RCCL annotations and operators,
# and no Python frame, whatever its function is called (b200's vLLM
# "pynccl_allocator.py(48): is_symmetric_memory_enabled").
for t in "$K"/*/*.json.gz; do
	expect_rc 0 "$GPULENS" comm --json --limit 0 "$t"
	python3 - "$t" "$TMPD/out" <<'PY' || fail "$t: the CPU-side collectives are not the trace's annotations"
import gzip, json, re, sys
doc = json.load(gzip.open(sys.argv[1]))
ev = doc["traceEvents"] if isinstance(doc, dict) else doc
want = sum(1 for e in ev if e.get("ph") == "X" and
           e.get("cat") in ("user_annotation", "cpu_op") and
           re.search(r"[nr]ccl", e.get("name", ""), re.I))
rows = json.load(open(sys.argv[2]))["data"]["rows"]
got = sum(r["count"] for r in rows if r["kind"] == "nvtx")
assert got == want, (got, want)
PY
done
# inspect shows one kernel's message as the JSON records it.
N="$K/hta/nccl_parser_config__nccl_data.json.gz"
expect_rc 0 "$GPULENS" search --json --name 'ncclKernel_AllReduce*' \
    --limit 1 "$N"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][0]["id"])' "$TMPD/out") ||
    fail "no AllReduce kernel found"
expect_rc 0 "$GPULENS" inspect --json "$N" "$id"
python3 - "$N" "$TMPD/out" <<'PY' || fail "inspect: the message disagrees with the JSON"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"]
      if e.get("cat") == "kernel" and
      e.get("name", "").startswith("ncclKernel_AllReduce")]
a = min(ev, key=lambda e: e["ts"])["args"]
r = json.load(open(sys.argv[2]))["data"]["rows"][0]
want = {"comm_collective": a["Collective name"], "comm_dtype": a["dtype"],
        "comm_element_bytes": 4, "comm_in_elements": a["In msg nelems"],
        "comm_out_elements": a["Out msg nelems"],
        "comm_group_size": a["Group size"],
        "comm_process_group": a["Process Group Name"],
        "comm_process_group_desc": a["Process Group Description"],
        "comm_process_group_ranks": a["Process Group Ranks"]}
got = {k: r[k] for k in want}
assert got == want, (got, want)
PY
# An older kernel: its annotation's message, marked as such.
D="$K/hta/trace_diff__control__control.json.gz"
expect_rc 0 "$GPULENS" search --json --name 'ncclKernel_AllReduce*' \
    --limit 1 "$D"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][0]["id"])' "$TMPD/out") ||
    fail "no AllReduce kernel found"
expect_rc 0 "$GPULENS" inspect --json "$D" "$id"
python3 - "$TMPD/out" <<'PY' || fail "inspect: an older kernel's message"
import json, sys
r = json.load(open(sys.argv[1]))["data"]["rows"][0]
want = {"comm_collective": "all_reduce", "comm_dtype": "float",
        "comm_element_bytes": 4, "comm_in_elements": 45310188,
        "comm_out_elements": None, "comm_group_size": None,
        "comm_process_group": None, "comm_source": "annotation"}
got = {k: r.get(k, "missing") for k in want}
assert got == want, (got, want)
PY
pass
