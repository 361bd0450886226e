#!/bin/sh
# ncu_tui_base_cli: the report view's baseline column, on the project's
# report (fixtures/ncu/gemm.ncu-rep), driven by a key script. B on launch 0
# and G to launch 2: each metric row shows the baseline's value and the
# change, and the change equals what `gpulens diff --launch 0 --launch 2`
# says of the same metric (one comparison, report/rdiff.c). Two reports
# open the second against the first (the same report twice: every metric
# unchanged); three are refused.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
P=$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep
cat >"$TMPD/script" <<EOS
B
G
:dump $TMPD/screen1
:quit
EOS
tui_script "TUI" "$P"
screen_has "Metrics of launch 2 vs launch 0" "$TMPD/screen1" "separator"
screen_has "\[baseline\] void gemm_tn_kernel" "$TMPD/screen1" "baseline mark"
screen_has "vs launch 0" "$TMPD/screen1" "status"
"$G" diff --json --launch 0 --launch 2 "$P" >"$TMPD/diff.json" ||
    fail "diff failed"
# Every metric the verb reports as changed shows the same change, to 0.1%;
# a metric it leaves out (unchanged) shows "=".
python3 - "$TMPD/diff.json" "$TMPD/screen1" <<'PY' || fail "TUI and diff disagree"
import json, re, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
screen = open(sys.argv[2]).read().splitlines()
def line(metric):
    for l in screen:
        if re.search(r"\b" + re.escape(metric) + r"\b", l):
            return l
    return None
seen = 0
for r in rows:
    l = line(r["metric"])
    if l is None:
        continue          # scrolled off or shortened by the label
    want = "%+.1f%%" % r["change_pct"]
    if not l.rstrip().endswith(want):
        sys.exit("%s: screen %r, diff %s" % (r["metric"], l, want))
    seen += 1
changed = {r["metric"] for r in rows}
l = line("launch__block_size")
if l is None or "launch__block_size" in changed or not l.rstrip().endswith("="):
    sys.exit("launch__block_size: %r" % l)
if seen < 5:
    sys.exit("only %d metrics compared on screen" % seen)
PY
cat >"$TMPD/script" <<EOS
:dump $TMPD/screen2
:quit
EOS
tui_script "TUI on two reports" "$P" "$P"
screen_has "Metrics of launch 0 vs baseline 0" "$TMPD/screen2" "two reports"
grep "gpu__time_duration.sum" "$TMPD/screen2" | grep -q " =$" ||
    fail "a report against itself: $(cat "$TMPD/screen2")"
head -n 1 "$TMPD/screen2" | grep -q "3 launches  vs " ||
    fail "title: $(head -n 1 "$TMPD/screen2")"
GPULENS_TUI_SIZE=100x30 "$G" --script "$TMPD/script" "$P" "$P" "$P" \
    </dev/null >"$TMPD/tui.out" 2>&1 && fail "three reports opened"
grep -q "3 reports" "$TMPD/tui.out" || fail "refusal: $(cat "$TMPD/tui.out")"
pass
