#!/bin/sh
#
# counters_screen: the GPU metrics rows of the timeline, on a generated
# trace with the gpu-metrics plant (two GPUs). Headless (--script with
# :dump): each GPU group ends with a row that draws the first counter in
# name order ("DRAM Read Bandwidth [Throughput %]") as a sparkline, which
# shows the planted 50 ms hole halfway through GPU 0's samples as blank
# cells and none on GPU 1; M (counter-next) draws the next counter ("GPC
# Clock Frequency [MHz]") and says so in the status line; the same in
# ASCII (LANG=C) draws only ASCII. A trace without metrics has no such row.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"

G=$GPULENS
case $G in /*) ;; *) G=$(pwd)/$G ;; esac
cd "$TMPD" || fail "cd"
"$G" --no-cache demo --out m.sqlite --events 20000 --gpus 2 \
    --plant gpu-metrics >demo.log 2>&1 || fail "demo: $(cat demo.log)"
"$G" --no-cache demo --out p.sqlite --events 20000 --gpus 2 >demo.log 2>&1 ||
    fail "demo: $(cat demo.log)"
printf ':dump %s/a.screen\nM\n:dump %s/b.screen\n' "$TMPD" "$TMPD" >s.script
for lang in C.UTF-8 C; do
	rm -f a.screen b.screen
	GPULENS_TUI_SIZE=120x40 LANG=$lang LC_ALL=$lang "$G" --no-cache \
	    --script s.script m.sqlite </dev/null >/dev/null 2>err ||
	    fail "$lang: --script: $(cat err)"
	[ -f a.screen ] && [ -f b.screen ] || fail "$lang: no screens"
	python3 - a.screen <<'EOF' || fail "$lang: the counter rows (above)"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
for gpu in (0, 1):
    on, last = False, None
    for ln in lines:
        if not ln.startswith("  ") and ("GPU %d " % gpu) in ln:
            on = True
            continue
        if on and not ln.startswith("  "):
            break
        if on:
            last = ln
    assert last and last.startswith("  DRAM Read Bandwid"), (gpu, last)
    lanes = last.split("\u2502" if "\u2502" in last else "|", 1)[1]
    assert lanes.strip(), (gpu, lanes)
    mid = lanes[40:65]
    if gpu == 0:
        assert " " in mid, ("GPU 0: the gap is not blank", lanes)
    else:
        assert " " not in lanes[2:-2], ("GPU 1: blank cells", lanes)
EOF
	grep -q "^  GPC Clock Frequen" b.screen || fail "$lang: M did not switch the counter"
	grep -q "GPU metrics row: GPC Clock Frequency" b.screen ||
	    fail "$lang: M says nothing"
	if [ $lang = C ] && LC_ALL=C grep -q '[^ -~]' a.screen; then
		fail "ASCII: non-ASCII on the screen"
	fi
done
printf ':dump %s/p.screen\n' "$TMPD" >p.script
GPULENS_TUI_SIZE=120x40 "$G" --no-cache --script p.script p.sqlite </dev/null \
    >/dev/null 2>&1 || fail "--script without metrics"
grep -q "DRAM\|metrics" p.screen && fail "a counter row without metrics"
pass
