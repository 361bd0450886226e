#!/bin/sh
#
# multi_input_cli: several traces given together must make one job. Two
# PyTorch profiler ranks whose clocks are decades apart (the generator's
# --clock-back), or an Nsight Systems export given with a PyTorch trace,
# exit 2 naming the odd file and why; a genuine pair of ranks loads, and
# the JSON envelope lists every input in trace.inputs (trace.path stays
# the first, as the schema and the man page say). Nsight Systems exports are aligned on the UTC time each
# states for its time 0. With the fixtures: nsys-ai/mock.sqlite with
# hta/triton_example is refused, hta/trace_filter__sampled_rank-0/1 load.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
D=$TMPD

# jget FILE EXPR: a Python expression over the JSON document d.
jget() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
print($2)" "$1"
}

demo() {
	"$G" demo "$@" >"$D/demo.log" 2>&1 ||
	    fail "gpulens demo $*: $(cat "$D/demo.log")"
}

demo --format kineto --gpus 2 --rank 0 --events 3000 --out "$D/r0.json"
demo --format kineto --gpus 2 --rank 1 --events 3000 --out "$D/r1.json"
demo --format kineto --gpus 2 --rank 1 --events 3000 --clock-back 1.6e9 \
    --out "$D/old1.json"
demo --events 3000 --gpus 1 --out "$D/n.sqlite"

# A genuine pair: one job of two ranks, both inputs listed.
expect_rc 0 "$G" --no-cache ranks "$D/r0.json" "$D/r1.json" --json
[ "$(jget "$D/out" "len(d['data']['rows'])")" = 2 ] ||
    fail "the pair is not two ranks: $(cat "$D/out")"
[ "$(jget "$D/out" "d['trace']['inputs']")" = \
    "['$D/r0.json', '$D/r1.json']" ] ||
    fail "trace.inputs: $(jget "$D/out" "d['trace']")"
[ "$(jget "$D/out" "d['trace']['path']")" = "$D/r0.json" ] ||
    fail "trace.path is not the first input"
# The schema and the man page say that trace.path is only the first.
"$G" schema ranks >"$D/schema.json" || fail "schema ranks"
jget "$D/schema.json" "d['properties']['trace']['properties']['path']['description']" |
    grep -q "first input only.*trace.inputs lists every file" ||
    fail "the schema does not describe trace.path"
grep -q "^names only the first of them" "$GPULENS_SRCDIR/man/gpulens.1" ||
    fail "the man page does not say trace.path is only the first input"
# A directory stands for its files.
mkdir "$D/job" && cp "$D/r0.json" "$D/r1.json" "$D/job/" ||
    fail "cannot make the job directory"
expect_rc 0 "$G" --no-cache stats "$D/job" --json
[ "$(jget "$D/out" "d['trace']['inputs']")" = \
    "['$D/job/r0.json', '$D/job/r1.json']" ] ||
    fail "trace.inputs of a directory: $(jget "$D/out" "d['trace']")"
# One trace: trace.inputs is that trace.
expect_rc 0 "$G" --no-cache stats "$D/r0.json" --json
[ "$(jget "$D/out" "d['trace']['inputs']")" = "['$D/r0.json']" ] ||
    fail "trace.inputs of one trace: $(jget "$D/out" "d['trace']")"

# Clocks decades apart: refused, naming the odd rank, either order.
expect_rc 2 "$G" --no-cache stats "$D/r0.json" "$D/old1.json"
grep -q "old1.json's clock starts 5[0-9] years before the other's" \
    "$D/err" || fail "clock: $(cat "$D/err")"
expect_rc 2 "$G" --no-cache stats "$D/old1.json" "$D/r0.json"
grep -q "r0.json's clock starts 5[0-9] years after the other's" \
    "$D/err" || fail "clock, reversed: $(cat "$D/err")"
cp "$D/old1.json" "$D/job/" || fail "cannot copy"
expect_rc 2 "$G" --no-cache summary "$D/job" --json
[ "$(jget "$D/out" "d['error']['code']")" = bad_input ] ||
    fail "clock --json: $(cat "$D/out")"
jget "$D/out" "d['error']['message']" | grep -q "old1.json's clock" ||
    fail "clock --json message: $(cat "$D/out")"
[ "$(jget "$D/out" "len(d['trace']['inputs'])")" = 3 ] ||
    fail "an error envelope does not list the inputs: $(cat "$D/out")"
expect_rc 2 "$G" --no-cache ranks "$D/r0.json" "$D/r1.json" "$D/old1.json"
grep -q "old1.json's clock starts 5[0-9] years before the others'" \
    "$D/err" || fail "clock of three: $(cat "$D/err")"

# Different kinds: refused, naming the odd one.
expect_rc 2 "$G" --no-cache stats "$D/n.sqlite" "$D/r0.json"
grep -q "r0.json is a PyTorch profiler trace, the other is an Nsight \
Systems export" "$D/err" || fail "kind: $(cat "$D/err")"
expect_rc 2 "$G" --no-cache stats "$D/r0.json" "$D/n.sqlite" "$D/r1.json"
grep -q "n.sqlite is an Nsight Systems export, the others are PyTorch \
profiler traces" "$D/err" || fail "kind of three: $(cat "$D/err")"

# Nsight Systems exports are aligned on their UTC epochs: 10 s later is
# 10 s later on the merged clock; two hours later is another job.
if python3 -c "import sqlite3" 2>/dev/null; then
	cp "$D/n.sqlite" "$D/late.sqlite" && cp "$D/n.sqlite" "$D/far.sqlite" ||
	    fail "cannot copy"
	python3 - "$D" <<'EOF' || fail "cannot edit the UTC epochs"
import sqlite3, sys
for f, s in (("late", 10), ("far", 7200)):
    c = sqlite3.connect(sys.argv[1] + "/" + f + ".sqlite")
    c.execute("UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = "
              "utcEpochNs + ?", (s * 1000000000,))
    c.commit()
EOF
	expect_rc 0 "$G" --no-cache info "$D/n.sqlite" --json
	one=$(jget "$D/out" "d['trace_span']['span_ns']")
	expect_rc 0 "$G" --no-cache info "$D/n.sqlite" "$D/late.sqlite" --json
	two=$(jget "$D/out" "d['trace_span']['span_ns']")
	[ "$two" -eq $((one + 10000000000)) ] ||
	    fail "nsys alignment: span $two, expected $one + 10 s"
	expect_rc 2 "$G" --no-cache info "$D/n.sqlite" "$D/far.sqlite"
	grep -q "far.sqlite's clock starts 2.0 hours after the other's" \
	    "$D/err" || fail "nsys clock: $(cat "$D/err")"
fi

# Real fixtures.
if [ -n "${GPULENS_FIXTURES:-}" ] && [ -d "$GPULENS_FIXTURES/kineto/hta" ]
then
	F=$GPULENS_FIXTURES
	expect_rc 2 "$G" --no-cache stats "$F/nsys/nsys-ai/mock.sqlite" \
	    "$F/kineto/hta/triton_example__triton_example.json.gz"
	grep -q "triton_example__triton_example.json.gz is a PyTorch profiler \
trace, the other is an Nsight Systems export" "$D/err" ||
	    fail "fixtures, kinds: $(cat "$D/err")"
	a=$F/kineto/hta/trace_filter__sampled_rank-0.json.gz
	b=$F/kineto/hta/trace_filter__sampled_rank-1.json.gz
	expect_rc 0 "$G" --no-cache stats "$a" "$b" --json
	[ "$(jget "$D/out" "d['trace']['inputs']")" = "['$a', '$b']" ] ||
	    fail "fixtures, inputs: $(jget "$D/out" "d['trace']")"
	[ "$(jget "$D/out" "d['trace_span']['span_ns'] < 3600e9")" = True ] ||
	    fail "fixtures, span: $(jget "$D/out" "d['trace_span']")"
	expect_rc 2 "$G" --no-cache stats "$a" \
	    "$F/kineto/hta/triton_example__triton_example.json.gz"
	grep -q "triton_example.json.gz's clock starts .* after the other's" \
	    "$D/err" || fail "fixtures, clocks: $(cat "$D/err")"
else
	echo "fixtures absent: only generated traces checked"
fi
pass
