#!/bin/sh
# ncu_source_cli: source-metrics and sources on the project's report with
# source counters (fixtures/ncu/pcsamp.ncu-rep: a cubin with a line table,
# one imported source file, eight instructions of 16 bytes).
#   - source-metrics --by pc: a row per instruction with its line and
#     counters; --by line and --by file sum them (the file's samples are
#     the launch's, 149); aux.disassemble names the command;
#   - sources: module, sm_90, the cubin's size, line table yes; --extract
#     writes the cubin (an ELF image of that size);
#   - errors: no --launch, a bad --by.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
P=$GPULENS_SRCDIR/fixtures/ncu/pcsamp.ncu-rep
expect_rc 0 "$G" source-metrics "$P" --launch 0 --json
check_json source-metrics "$TMPD/out" \
    'len(rows) == 8 and [r["line"] for r in rows] == [3, 4, 4, 5, 5, 6, 6, 7] and rows[3]["offset"] == 48 and rows[3]["samples"] == 17 and rows[3]["inst_executed"] == 2048 and rows[3]["counters"]["smsp__pcsamp_warps_issue_stalled_long_scoreboard"] == 14 and "nvdisasm -c -g -fun _Z7stencilPKfPfi DIR/module-0.cubin" in d["data"]["auxiliary"]["disassemble"]'
expect_rc 0 "$G" source-metrics "$P" --launch 1 --by line --json
check_json source-metrics "$TMPD/out" \
    '[(r["line"], r["instructions"], r["samples"]) for r in rows] == [(3, 1, 5), (4, 2, 26), (5, 2, 86), (6, 2, 21), (7, 1, 11)]'
expect_rc 0 "$G" source-metrics "$P" --launch 1 --by file --json
check_json source-metrics "$TMPD/out" \
    'len(rows) == 1 and rows[0]["file"] == "/src/stencil.cu" and rows[0]["samples"] == 149 and rows[0]["inst_executed"] == 40960'
expect_rc 2 "$G" source-metrics "$P"
grep -q -- "--launch ID is needed" "$TMPD/err" || fail "no --launch: $(cat "$TMPD/err")"
expect_rc 2 "$G" source-metrics "$P" --launch 0 --by reason
expect_rc 0 "$G" source-metrics "$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep" --launch 0 --json
check_json source-metrics "$TMPD/out" \
    'rows == [] and "no_source_counters" in d["meta"]["warning_codes"]'

mkdir "$TMPD/cubins"
expect_rc 0 "$G" sources "$P" --json --extract "$TMPD/cubins"
check_json sources "$TMPD/out" \
    'len(rows) == 2 and rows[0]["sm"] == "sm_90" and rows[0]["has_lines"] and rows[0]["source_files"] == 1 and rows[0]["function"] == "_Z7stencilPKfPfi" and rows[0]["function_bytes"] == 128 and not rows[0]["has_sass_text"]'
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][0]["cubin_bytes"])' "$TMPD/out")
[ "$(wc -c <"$TMPD/cubins/module-0.cubin")" -eq "$n" ] || fail "--extract: size"
head -c 4 "$TMPD/cubins/module-0.cubin" | grep -q ELF || fail "--extract: not ELF"
expect_rc 0 "$G" sources "$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep" --json
check_json sources "$TMPD/out" \
    'len(rows) == 3 and rows[0]["module"] is None and "no_sources" in d["meta"]["warning_codes"]'

# graphs and ranges: empty answers with a warning on a report of kernels,
# a refusal on a timeline.
expect_rc 0 "$G" graphs "$P" --json
check_json report-graphs "$TMPD/out" 'rows == [] and "no_graphs" in d["meta"]["warning_codes"]'
expect_rc 0 "$G" ranges "$P" --json
check_json ranges "$TMPD/out" 'rows == [] and "no_ranges" in d["meta"]["warning_codes"]'
# graphs takes timelines too (their graph replays); ranges is for reports.
expect_rc 2 "$G" ranges "$GPULENS_SRCDIR/fixtures/nsys/export-2021.sqlite"
grep -q "reads Nsight Compute reports" "$TMPD/err" || fail "ranges on a timeline: $(cat "$TMPD/err")"
pass
