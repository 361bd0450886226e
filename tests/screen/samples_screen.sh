#!/bin/sh
#
# samples_screen: the CPU sample rows of the terminal UI, drawn without a
# terminal (gpulens --script, as steps.sh does) on a generated trace with
# CPU samples (demo --plant samples): a "CPU samples" density row under
# each sampled thread, the row's sample count in the detail header, Enter
# on it refused (no event), and with a range marked ([ and ]) its top
# functions in the detail pane, whose first equals `samples --from --to`.
#
set -u

GPULENS=${GPULENS:-./gpulens}
case $GPULENS in
/*) ;;
*) GPULENS=$(pwd)/$GPULENS ;;
esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/samples_screen.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fails=0
fail() {
	echo "FAIL: $*"
	[ -f "$2" ] 2>/dev/null && cat "$2"
	fails=$((fails + 1))
}
utf8=C.UTF-8
if ! locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
	utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
	[ -n "$utf8" ] || { echo "SKIP: no UTF-8 locale"; exit 77; }
fi

"$GPULENS" demo --out s.sqlite --events 5000 --gpus 1 --plant samples \
    >demo.log 2>&1 || { echo "FAIL: demo"; cat demo.log; exit 1; }
cat >s.script <<'EOF'
:dump start
j
j
j
j
j
j
:dump row
ENTER
:dump enter
g
1
0
0
m
s
ENTER
[
g
3
0
0
m
s
ENTER
]
ESC
:dump range
EOF
if ! env GPULENS_TUI_SIZE=120x40 LANG="$utf8" LC_ALL="$utf8" \
    "$GPULENS" --no-cache --script s.script s.sqlite >run.log 2>&1; then
	echo "FAIL: gpulens --script"
	cat run.log
	exit 1
fi

# Two sampled threads with trace rows: two density rows, drawn.
n=$(grep -c '^    CPU samples *│[▁▂▃▄▅▆▇█]' start)
[ "$n" -eq 2 ] || fail "start: $n CPU sample rows drawn, expected 2" start
# The main thread's row selected: its samples in the detail header.
all=$(sqlite3 -readonly s.sqlite "SELECT count(*) FROM COMPOSITE_EVENTS
    WHERE globalTid % 16777216 = 3140" 2>/dev/null)
grep -Eq "─ CPU samples: ${all:-[0-9]+} samples, [0-9]+ in window" row ||
    fail "row: no sample count in the detail header" row
grep -q "not an event row" enter || fail "enter: not refused" enter
# The marked range's top functions: the first is samples' first row.
"$GPULENS" --no-cache samples --from 100ms --to 300ms --json --limit 1 \
    s.sqlite >top.json
total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["auxiliary"]["samples"])' top.json)
self=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][0]["self"])' top.json)
func=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][0]["function"])' top.json)
grep -q "CPU samples in the marked range: $total on 3 threads" range ||
    fail "range: not $total samples on 3 threads" range
grep -Eq "^ +$self +[0-9.]+% total +[0-9]+ +$func " range ||
    fail "range: the top function is not '$self $func'" range

# Without the plant: no sample row.
"$GPULENS" demo --out p.sqlite --events 5000 --gpus 1 >/dev/null 2>&1
printf ':dump plain\n' >p.script
env GPULENS_TUI_SIZE=120x40 LANG="$utf8" LC_ALL="$utf8" \
    "$GPULENS" --no-cache --script p.script p.sqlite >/dev/null 2>&1
grep -q "CPU samples" plain && fail "plain: a CPU samples row" plain
[ -f plain ] || fail "plain: no screen"

[ "$fails" -eq 0 ] || exit 1
echo "PASS"
