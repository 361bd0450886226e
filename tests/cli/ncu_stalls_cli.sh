#!/bin/sh
# ncu_stalls_cli: warp-stalls on Nsight Compute reports with PC sampling.
#   - tests/cli/ncu_stalls_check.py compares the samples and not-issued
#     samples of every launch and stall reason, and every instruction's
#     samples, with its own walk of the report's wire format: on the
#     project's fixtures/ncu/pcsamp.ncu-rep (62 and 149 samples), on the
#     sglang-fork report of $GPULENS_FIXTURES (launches 0 and 2: 2,613
#     and 6,072 samples), and on $GPULENS_NCU_SRC_REPORT when set (a
#     report of a kernel built with -lineinfo);
#   - --by line on the fixture: samples per source line of the cubin's
#     line table; a report without one warns no_line_info;
#   - errors: a bad --by, a launch id out of range.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
S=$GPULENS_SRCDIR
P=$S/fixtures/ncu/pcsamp.ncu-rep
CHECK=$S/tests/cli/ncu_stalls_check.py
python3 "$CHECK" "$G" "$P" 0:62,1:149 || fail "pcsamp.ncu-rep"

expect_rc 0 "$G" warp-stalls "$P" --by line --launch 0 --json
check_json warp-stalls "$TMPD/out" \
    '[(r["line"], r["samples"], r["not_issued"], r["top_reason"]) for r in rows] == [(5, 35, 23, "long_scoreboard"), (4, 11, 3, "wait"), (6, 9, 2, "selected"), (7, 5, 1, "selected"), (3, 2, 0, "selected")] and rows[0]["file"] == "/src/stencil.cu" and rows[0]["stalls"] == {"long_scoreboard": 28, "wait": 2, "selected": 5}'
expect_rc 0 "$G" warp-stalls "$P" --json
check_json warp-stalls "$TMPD/out" \
    'len(rows) == 6 and rows[0]["reason"] == "long_scoreboard" and abs(rows[0]["samples_pct"] - 100 * 28 / 62) < 1e-9 and d["meta"]["next"]'
expect_rc 0 "$G" warp-stalls "$P" --by pc --launch 1 --json
check_json warp-stalls "$TMPD/out" \
    'rows[0]["offset"] == 64 and rows[0]["pc"] == "0x7f0000001040" and rows[0]["line"] == 5'
expect_rc 0 "$G" warp-stalls "$P"
grep -q "long_scoreboard" "$TMPD/out" || fail "table: no reason"
expect_rc 2 "$G" warp-stalls "$P" --by kernel
grep -q "reason, pc or line" "$TMPD/err" || fail "--by kernel: $(cat "$TMPD/err")"
expect_rc 2 "$G" warp-stalls "$P" --launch 7
grep -q "2 launches" "$TMPD/err" || fail "--launch 7: $(cat "$TMPD/err")"
expect_rc 2 "$G" warp-stalls "$P" --launch x
# A report without PC sampling: no rows, a warning.
expect_rc 0 "$G" warp-stalls "$S/fixtures/ncu/gemm.ncu-rep" --json
check_json warp-stalls "$TMPD/out" \
    'rows == [] and "no_pc_sampling" in d["meta"]["warning_codes"]'

if [ -n "$GPULENS_NCU_SRC_REPORT" ] && [ -f "$GPULENS_NCU_SRC_REPORT" ]; then
	python3 "$CHECK" "$G" "$GPULENS_NCU_SRC_REPORT" ||
	    fail "$GPULENS_NCU_SRC_REPORT"
fi
R=${GPULENS_FIXTURES:-}/ncu/sglang-fork/profile.ncu-rep
[ -n "$GPULENS_FIXTURES" ] && [ -f "$R" ] ||
    skip "GPULENS_FIXTURES unset or without ncu/sglang-fork"
python3 "$CHECK" "$G" "$R" 0:2613,2:6072 || fail "sglang-fork"
expect_rc 0 "$G" warp-stalls "$R" --by line --json --no-cache
check_json warp-stalls "$TMPD/out" \
    'rows == [] and "no_line_info" in d["meta"]["warning_codes"]'
pass
