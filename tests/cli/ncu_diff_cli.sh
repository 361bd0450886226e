#!/bin/sh
# ncu_diff_cli: diff of Nsight Compute reports and of two launches.
#   - fixtures/ncu/pcsamp.ncu-rep, --launch 0 --launch 1: a row per
#     changed metric with a, b, change and change_pct; the gate
#     (--fail-on METRIC>THR, --exit-on-regression PCT) exits 1 when broken;
#   - a report diffed with itself: no rows, the gate passes;
#   - sglang-fork ($GPULENS_FIXTURES): launches 0 and 2 of
#     distribution_elementwise: every row's a and b equal the values
#     `metrics` prints for those launches, and every numeric metric whose
#     values differ has its row;
#   - errors: one report and not two launches, --launch with two reports,
#     --launch on timelines, a malformed rule.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
S=$GPULENS_SRCDIR
P=$S/fixtures/ncu/pcsamp.ncu-rep
expect_rc 0 "$G" diff "$P" --launch 0 --launch 1 --json
check_json report-diff "$TMPD/out" \
    'd["command"] == "report-diff" and [(r["metric"], r["a"], r["b"], r["change"]) for r in rows] == [("gpu__time_duration.sum", 5000, 11000, 6000), ("launch__grid_size", 64, 160, 96), ("sm__throughput.avg.pct_of_peak_sustained_elapsed", 20, 30, 10), ("smsp__pcsamp_sample_count", 62, 149, 87)] and rows[0]["change_pct"] == 120'
expect_rc 1 "$G" diff "$P" --launch 0 --launch 1 --fail-on 'gpu__time_duration.sum>+100%'
expect_rc 0 "$G" diff "$P" --launch 0 --launch 1 --fail-on 'gpu__time_duration.sum>+150%'
expect_rc 1 "$G" diff "$P" --launch 0 --launch 1 --fail-on 'sm__*>+5'
expect_rc 1 "$G" diff "$P" --launch 0 --launch 1 --exit-on-regression 100
expect_rc 0 "$G" diff "$P" --launch 0 --launch 1 --exit-on-regression 130
expect_rc 0 "$G" diff "$P" "$P" --json --fail-on 'gpu__time_duration.sum>+0%'
check_json report-diff "$TMPD/out" \
    'rows == [] and d["data"]["auxiliary"]["pairs"] == 2 and d["data"]["auxiliary"]["unmatched_launches"] == 0'
expect_rc 2 "$G" diff "$P" --launch 0
grep -q "two launches" "$TMPD/err" || fail "one launch: $(cat "$TMPD/err")"
expect_rc 2 "$G" diff "$P" "$P" --launch 0 --launch 1
expect_rc 2 "$G" diff "$P" --launch 0 --launch 1 --fail-on 'gpu__time_duration.sum'
T=$S/fixtures/nsys/export-2021.sqlite
expect_rc 2 "$G" diff "$T" "$T" --launch 0
grep -q "timelines" "$TMPD/err" || fail "--launch on timelines: $(cat "$TMPD/err")"

R=${GPULENS_FIXTURES:-}/ncu/sglang-fork/profile.ncu-rep
[ -n "$GPULENS_FIXTURES" ] && [ -f "$R" ] ||
    skip "GPULENS_FIXTURES unset or without ncu/sglang-fork"
expect_rc 0 "$G" diff "$R" --launch 0 --launch 2 --json --no-cache --limit 0
cp "$TMPD/out" "$TMPD/diff.json"
expect_rc 0 "$G" metrics "$R" '*' --json --no-cache --limit 0
cp "$TMPD/out" "$TMPD/metrics.json"
python3 - "$TMPD/diff.json" "$TMPD/metrics.json" <<'PY' || fail "sglang-fork: diff and metrics disagree"
import json, sys
d = json.load(open(sys.argv[1]))["data"]["rows"]
m = json.load(open(sys.argv[2]))["data"]["rows"]
val = {}
for r in m:
    v = r["value"]
    if isinstance(v, (int, float)) and not isinstance(v, bool) and \
            abs(v) != float("inf"):
        val[(r["launch_id"], r["name"])] = v
want = {n for (l, n) in val if l == 0 and (2, n) in val and
        val[(0, n)] != val[(2, n)]}
got = {r["metric"] for r in d}
bad = 0
if got != want:
    print("rows differ:", sorted(got ^ want)[:5]); bad = 1
for r in d:
    a, b = val[(0, r["metric"])], val[(2, r["metric"])]
    if r["a"] != a or r["b"] != b or abs(r["change"] - (b - a)) > \
            1e-9 * max(1, abs(a), abs(b)):
        print("value:", r["metric"], r["a"], r["b"], a, b); bad = 1
    if a and abs(r["change_pct"] - 100 * (b - a) / abs(a)) > 1e-6:
        print("pct:", r["metric"]); bad = 1
print(len(d), "changed metrics")
sys.exit(bad)
PY
expect_rc 0 "$G" diff "$R" "$R" --json --no-cache --exit-on-regression 0
check_json report-diff "$TMPD/out" 'rows == [] and d["data"]["auxiliary"]["pairs"] == 5'
pass
