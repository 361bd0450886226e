#!/bin/sh
# comm_cli: the message sizes and bandwidths of `gpulens comm --json`
# against tests/comm_cli.py's reading of the same JSON:
#   - a generated Kineto trace (gpulens demo --format kineto writes the
#     collective args on its NCCL kernels): every group agrees and some
#     kernel has a size;
#   - a generated Nsight Systems trace, which records no message sizes:
#     every row's total_bytes and bandwidths are null;
#   - every real trace under $GPULENS_FIXTURES/kineto (skipped, exit 77,
#     when the fixtures are absent): every group agrees, and the three
#     traces whose kernels carry the args have sizes.
. "${GPULENS_SRCDIR:-.}/tests/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
CHECK="$GPULENS_SRCDIR/tests/comm_cli.py"
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
pass
