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
tui_script "TUI" "$P"
screen_has "Stalls by source line of launch 0" "$TMPD/screen1" "source pane"
grep "stencil.cu:5 " "$TMPD/screen1" | grep -q "35     23 n/i  long_scoreboard" ||
    fail "source pane line 5: $(cat "$TMPD/screen1")"
screen_has "\[source\]" "$TMPD/screen1" "status"
head -n 12 "$TMPD/screen1" | grep -n "stencil.cu" | head -1 | grep -q "stencil.cu:5 " ||
    fail "source pane order: $(cat "$TMPD/screen1")"
grep "stencil.cu:5 " "$TMPD/screen2" | grep -q " 86 " ||
    fail "launch 1: $(cat "$TMPD/screen2")"
screen_has "Metrics of launch 1" "$TMPD/screen3" "back to metrics"
cat >"$TMPD/script" <<EOS
TAB
TAB
:dump $TMPD/screen4
:quit
EOS
tui_script "TUI on gemm" "$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep"
screen_has "No PC sampling for this launch" "$TMPD/screen4" "no sampling"
pass
