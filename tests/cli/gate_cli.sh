#!/bin/sh
# gate_cli: diff's windows and regression gate. A is a generated 2-GPU
# trace, B the same workload with rank 0's compute planted 10% slower:
# diff A A passes every rule; diff A B fails --exit-on-regression 5 and a
# per-key rule (exit 1, the envelope still printed, auxiliary.gate naming
# the rule and the offending keys, one line on stderr), and B A passes;
# --window steady and --from/--to (both sides or one) set each side's
# window as auxiliary.window reports it; malformed rules and empty
# windows are usage errors.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
A="$TMPD/a.sqlite"
B="$TMPD/b.sqlite"
"$G" demo --out "$A" --events 20000 --gpus 2 --seed 3 --straggler none \
    >/dev/null 2>&1 || fail "demo a"
"$G" demo --out "$B" --events 20000 --gpus 2 --seed 3 --straggler 0 \
    --slowdown 1.1 >/dev/null 2>&1 || fail "demo b"
py() { c=$1; shift; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $c" "$TMPD/out" "$@"; }

# The same capture passes any rule.
expect_rc 0 "$G" diff "$A" "$A" --exit-on-regression 5 --fail-on 'total_ns>+1%' \
    --fail-on 'aux.busy_ns>0' --json
[ "$(py 'print(d["data"]["auxiliary"]["gate"]["passed"])')" = True ] ||
    fail "diff A A: the gate did not pass"
[ -s "$TMPD/err" ] && fail "diff A A complained: $(cat "$TMPD/err")"

# The planted regression fails, with the envelope and the offending keys.
expect_rc 1 "$G" diff "$A" "$B" --exit-on-regression 5 --json
[ "$(py 'print(d["data"]["auxiliary"]["gate"]["passed"])')" = False ] ||
    fail "diff A B: the gate passed"
grep -q "aux.iter_median_ns>+5%" "$TMPD/err" || fail "no stderr line: $(cat "$TMPD/err")"
expect_rc 1 "$G" diff "$A" "$B" --fail-on 'total_ns>+5%' --limit 0 --json
py '
rows = {r["key"]: r for r in d["data"]["rows"]}
rule = d["data"]["auxiliary"]["gate"]["rules"][0]
off = rule["offending"]
assert off and not rule["passed"], rule
for k in off:
    r = rows[k]
    assert r["a_total_ns"] == 0 or r["delta_pct"] > 5, r
for k, r in rows.items():
    if k not in off and r["a_total_ns"] > 0:
        assert r["delta_pct"] <= 5, r
' || fail "offending keys do not match the rows"
# The improvement passes.
expect_rc 0 "$G" diff "$B" "$A" --exit-on-regression 5
# Totals can gate downwards too.
expect_rc 1 "$G" diff "$B" "$A" --fail-on 'aux.busy_ns<-1%'

# Windows: steady on both sides, then explicit bounds.
expect_rc 1 "$G" diff "$A" "$B" --window steady --exit-on-regression 5 --json
py '
w = d["data"]["auxiliary"]["window"]
for s in "ab":
    assert w[s]["method"] == "steady", w
    assert d["data"]["auxiliary"][s]["span_ns"] == w[s]["end_ns"] - w[s]["start_ns"], w
' || fail "steady windows"
expect_rc 0 "$G" diff "$A" "$B" --from 100ms --to 300ms --b-to 250ms --json
py '
w = d["data"]["auxiliary"]["window"]
assert (w["a"]["start_ns"], w["a"]["end_ns"]) == (100000000, 300000000), w
assert (w["b"]["start_ns"], w["b"]["end_ns"]) == (100000000, 250000000), w
' || fail "explicit windows"
# A window holds only what starts in it: the kernels of A over [0, span)
# equal stats' count of kernels, over half of it fewer.
expect_rc 0 "$G" stats "$A" --type kernel --limit 0 --json
k=$(py 'print(sum(r["count"] for r in d["data"]["rows"]))')
expect_rc 0 "$G" diff "$A" "$A" --json
[ "$(py 'print(d["data"]["auxiliary"]["a"]["kernels"])')" = "$k" ] ||
    fail "whole-trace kernels differ from stats"
expect_rc 0 "$G" diff "$A" "$A" --to 200ms --json
[ "$(py 'print(d["data"]["auxiliary"]["a"]["kernels"] < '"$k"')')" = True ] ||
    fail "a window did not narrow the kernels"

# Rows without the sort field's value come last in both directions.
for dir in desc asc; do
	expect_rc 0 "$G" diff "$A" "$B" --a-to 50ms --sort "delta_pct:$dir" \
	    --limit 0 --json
	py '
v = [r["delta_pct"] for r in d["data"]["rows"]]
k = [x is None for x in v]
assert any(k) and not all(k), "no mix of nulls"
assert k == sorted(k), "a null before a value"
s = [x for x in v if x is not None]
assert s == sorted(s, reverse=sys.argv[2] == "desc"), "order"
' "$dir" || fail "--sort delta_pct:$dir: nulls not last"
done

# Usage errors.
expect_rc 2 "$G" diff "$A" "$B" --fail-on 'bogus>1'
grep -q "unknown field" "$TMPD/err" || fail "bogus field: $(cat "$TMPD/err")"
expect_rc 2 "$G" diff "$A" "$B" --fail-on 'total_ns'
expect_rc 2 "$G" diff "$A" "$B" --fail-on 'total_ns>lots'
expect_rc 2 "$G" diff "$A" "$B" --exit-on-regression x
expect_rc 2 "$G" diff "$A" "$B" --window nope
expect_rc 2 "$G" diff "$A" "$B" --from 10s --to 1s
grep -q "window of A is empty" "$TMPD/err" || fail "empty window: $(cat "$TMPD/err")"
pass
