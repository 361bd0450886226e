#!/bin/sh
# queue_cli: `gpulens queue` (launch queue length and HTA's idle breakdown
# per stream). On a generated Kineto trace: schema, values checked by hand
# from kgen's plan; on the real Kineto fixtures: tests/cli/queue_hta.py
# recomputes HTA's method from the JSON and wants the same numbers.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
K="$TMPD/k.json"
"$G" demo --format kineto --events 20000 --gpus 2 --out "$K" >/dev/null 2>&1 || fail "demo --format kineto"
expect_rc 0 "$G" queue --json --no-cache "$K"
cp "$TMPD/out" "$TMPD/q.json"
check_json queue "$TMPD/q.json" 'len(rows) > 0 and all(r["idle_ns"] == r["host_wait_ns"] + r["kernel_wait_ns"] + r["other_ns"] for r in rows) and all(r["max_queue"] >= r["min_queue"] for r in rows)'
python3 "$GPULENS_SRCDIR/tests/cli/queue_hta.py" "$G" "$K" || fail "HTA method on the generated trace"
# Options: a full queue of 1 counts every stretch with a launch waiting.
expect_rc 0 "$G" queue --json --no-cache --max-queue 1 --kernel-delay 0 "$K"
cp "$TMPD/out" "$TMPD/q1.json"
check_json queue "$TMPD/q1.json" 'd["data"]["auxiliary"]["max_queue_length"] == 1 and d["data"]["auxiliary"]["kernel_delay_ns"] == 0'
expect_rc 2 "$G" queue --max-queue x "$K"
grep -q "bad value for --max-queue" "$TMPD/err" || fail "bad --max-queue message"
if [ -n "$GPULENS_FIXTURES" ] && [ -d "$GPULENS_FIXTURES/kineto/hta" ]; then
	H=$GPULENS_FIXTURES/kineto/hta
	python3 "$GPULENS_SRCDIR/tests/cli/queue_hta.py" "$G" \
	    "$H/critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz" \
	    "$H/critical_path__cuda_event_sync_multi_stream__event_sync_trace.json.gz" \
	    "$H/cupti_profiler__benchmark_result_924719_1679055439_trace.json.gz" \
	    "$H/negative_queue_length_values_check__rank0.json.gz" \
	    "$H/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" \
	    "$H/trace_diff__control__control.json.gz" \
	    "$H/trace_filter__sampled_rank-0.json.gz" \
	    "$H/amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz" \
	    "$H/triton_example__triton_example.json.gz" ||
	    fail "HTA method on the Kineto fixtures"
fi
pass
