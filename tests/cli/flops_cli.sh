#!/bin/sh
# flops_cli: `gpulens flops`. On a generated Kineto trace (no shapes):
# the no_flops warning, --flops-per-iter gives each iteration those FLOPs
# and the MFU --peak-tflops implies, bad options are usage errors. On the
# real Kineto fixtures: tests/cli/flops_shapes.py recomputes every
# operator's FLOPs from its Input Dims (TraceLens's formulas) and wants
# gpulens's, and the counted total; a warm cache load answers the same as
# the cold one. Every answer validates against `gpulens schema flops`.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
K="$TMPD/k.json"
"$G" demo --format kineto --events 20000 --out "$K" >/dev/null 2>&1 || fail "demo --format kineto"
expect_rc 0 "$G" flops --json --no-cache "$K"
cp "$TMPD/out" "$TMPD/f.json"
check_json flops "$TMPD/f.json" 'len(rows) > 0 and "no_flops" in d["meta"]["warning_codes"] and all(r["flops"] == 0 for r in rows)'
expect_rc 0 "$G" flops --json --no-cache --flops-per-iter 1e12 --peak-tflops 100 "$K"
cp "$TMPD/out" "$TMPD/f2.json"
check_json flops "$TMPD/f2.json" 'len(rows) > 0 and all(r["flops"] == 10**12 and abs(r["tflops"] - 1e12 / r["duration_ns"] / 1e3) < 1e-3 and abs(r["mfu_pct"] - 100 * 1e12 / 1e5 / r["duration_ns"]) < 1e-3 for r in rows)'
for by in nvtx kernel op; do
	expect_rc 0 "$G" flops --json --no-cache --by $by "$K"
	cp "$TMPD/out" "$TMPD/f3.json"
	check_json flops "$TMPD/f3.json" 'len(rows) == 0'
done
expect_rc 2 "$G" flops --by nope "$K"
grep -q "bad value for --by" "$TMPD/err" || fail "bad --by message"
expect_rc 2 "$G" flops --peak-tflops -1 "$K"
expect_rc 2 "$G" flops --by op --flops-per-iter 5 "$K"
# Odd arguments: no crash, no record from shapes that do not fit, a flops
# argument beyond 1e24 ignored, a sane one preferred to the shapes.
python3 - "$TMPD/odd.json" <<'PY'
import json, sys
ops = [("aten::mm", {"Input Dims": [[99999999999999999999, 2], [2, 3]]}),
       ("aten::mm", {"Input Dims": [[-1, 2], [2, 3]]}),
       ("aten::addmm", {"Input Dims": [[2, 2]]}),
       ("aten::matmul", {"Input Dims": [list(range(1, 11))] * 2}),
       ("aten::convolution", {"Input Dims": [[1, 3, 8, 8], [4, 3, 3, 3], []],
        "Concrete Inputs": ["", "", "", "[0, 0]", "", "", "False", "", "1"]}),
       ("aten::linear", {"flops": 1e308}),
       ("aten::mm", {"flops": 1000, "Input Dims": [[2, 3], [3, 4]],
        "Input type": ["c10::Half", "c10::Half"]}),
       ("aten::bmm", {"Input Dims": [[2, 3, 4], [2, 4, 5]],
        "Input type": ["float", "float"]})]
ev = [{"ph": "X", "cat": "cpu_op", "name": n, "pid": 1, "tid": 1,
       "ts": 10 * i, "dur": 5, "args": a} for i, (n, a) in enumerate(ops)]
open(sys.argv[1], "w").write(json.dumps({"traceEvents": ev}))
PY
expect_rc 0 "$G" flops --json --no-cache --by op "$TMPD/odd.json"
cp "$TMPD/out" "$TMPD/odd-out.json"
check_json flops "$TMPD/odd-out.json" 'sorted((r["name"], r["flops"], r["source"], r["dtype"]) for r in rows) == [("aten::bmm", 240, "shapes", "fp32"), ("aten::mm", 1000, "arg", "fp16")] and d["data"]["auxiliary"]["total_flops"] == 1240'
if [ -n "$GPULENS_FIXTURES" ] && [ -d "$GPULENS_FIXTURES/kineto/tracelens" ]; then
	Q=$GPULENS_FIXTURES/kineto/tracelens/h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
	python3 "$GPULENS_SRCDIR/tests/cli/flops_shapes.py" "$G" "$Q" 434 ||
	    fail "FLOPs of the H100 Qwen trace"
	python3 "$GPULENS_SRCDIR/tests/cli/flops_shapes.py" "$G" \
	    "$GPULENS_FIXTURES/kineto/hta/trace_diff__control__control.json.gz" 2394 ||
	    fail "FLOPs of the HTA trace_diff control trace"
	python3 "$GPULENS_SRCDIR/tests/cli/flops_shapes.py" "$G" \
	    "$GPULENS_FIXTURES/kineto/tracelens/b200__eager_trace.json.gz" 219 ||
	    fail "FLOPs of the B200 trace"
	python3 "$GPULENS_SRCDIR/tests/cli/flops_shapes.py" "$G" \
	    "$GPULENS_FIXTURES/kineto/tracelens/mi300__resnet_act_checkpoint.json.gz" ||
	    fail "FLOPs of the MI300 ResNet trace (convolutions)"
	# H100 SXM peaks, MFU per iteration; the same answer from a warm cache.
	X="$TMPD/xdg"
	mkdir -p "$X"
	for by in iter nvtx kernel op; do
		XDG_CACHE_HOME="$X" "$G" flops --json --by $by --limit 0 "$Q" >"$TMPD/cold.json" || fail "cold $by"
		XDG_CACHE_HOME="$X" "$G" flops --json --by $by --limit 0 "$Q" >"$TMPD/warm.json" || fail "warm $by"
		cmp -s "$TMPD/cold.json" "$TMPD/warm.json" || fail "warm cache answers differently (--by $by)"
	done
	ls "$X"/gpulens/* >/dev/null 2>&1 || fail "no cache was written"
	check_json flops "$TMPD/warm.json" 'len(rows) == 506 and d["data"]["auxiliary"]["devices"][0]["peak_row"] == "H100 SXM"'
	"$G" flops --json --no-cache "$Q" >"$TMPD/it.json" || fail "iter"
	check_json flops "$TMPD/it.json" 'len(rows) == 1 and 0 < rows[0]["mfu_pct"] < 100 and rows[0]["flops"] > 0'
fi
pass
