#!/bin/sh
# ncu_tui_src_cli: the report view's source pane, on the project's report
# with PC sampling (fixtures/ncu/pcsamp.ncu-rep), driven by a key script:
# Tab twice from the metrics shows the stalls of the selected launch by
# source line, the longest bar (stencil.cu:5, 35 samples, 23 not issued,
# long_scoreboard) first; launch 1 gives 86; a third Tab returns to the
# metrics; a report without PC sampling says so.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
P=$GPULENS_SRCDIR/fixtures/ncu/pcsamp.ncu-rep
cat >"$TMPD/script" <<EOS
TAB
TAB
:dump $TMPD/screen1
j
:dump $TMPD/screen2
TAB
:dump $TMPD/screen3
:quit
EOS
GPULENS_TUI_SIZE=100x30 "$G" --script "$TMPD/script" "$P" </dev/null \
    >"$TMPD/tui.out" 2>&1 || fail "TUI: $(cat "$TMPD/tui.out")"
grep -q "Stalls by source line of launch 0" "$TMPD/screen1" ||
    fail "source pane: $(cat "$TMPD/screen1")"
grep "stencil.cu:5 " "$TMPD/screen1" | grep -q "35     23 n/i  long_scoreboard" ||
    fail "source pane line 5: $(cat "$TMPD/screen1")"
grep -q "\[source\]" "$TMPD/screen1" || fail "status: $(cat "$TMPD/screen1")"
head -n 12 "$TMPD/screen1" | grep -n "stencil.cu" | head -1 | grep -q "stencil.cu:5 " ||
    fail "source pane order: $(cat "$TMPD/screen1")"
grep "stencil.cu:5 " "$TMPD/screen2" | grep -q " 86 " ||
    fail "launch 1: $(cat "$TMPD/screen2")"
grep -q "Metrics of launch 1" "$TMPD/screen3" ||
    fail "back to metrics: $(cat "$TMPD/screen3")"
cat >"$TMPD/script" <<EOS
TAB
TAB
:dump $TMPD/screen4
:quit
EOS
GPULENS_TUI_SIZE=100x30 "$G" --script "$TMPD/script" \
    "$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep" </dev/null \
    >"$TMPD/tui.out" 2>&1 || fail "TUI on gemm: $(cat "$TMPD/tui.out")"
grep -q "No PC sampling for this launch" "$TMPD/screen4" ||
    fail "no sampling: $(cat "$TMPD/screen4")"
pass
