#!/bin/sh
#
# sched_screen: the timeline shades a CPU thread's rows where the thread was
# not running (schedshade.h), drawn without a terminal (--script :dump).
#   - On a trace with scheduling (demo --plant sched), the side thread
#     (pt_autograd), scheduled in only around its first and last calls,
#     shows the shade before its first run, and the main thread's CUDA API
#     row shows it between calls (asleep in its synchronisations).
#   - The same trace without SCHED_EVENTS shows no shade on any CPU row.
#
set -u
GPULENS=${GPULENS:-./gpulens}
case $GPULENS in
/*) ;;
*) GPULENS=$(pwd)/$GPULENS ;;
esac
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: no sqlite3"; exit 77; }
utf8=C.UTF-8
if [ "$(LC_ALL=$utf8 locale charmap 2>/dev/null)" != UTF-8 ]; then
	echo "SKIP: no UTF-8 locale here"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sched.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail() { echo "FAIL: $*"; cat "$2" 2>/dev/null; exit 1; }

"$GPULENS" demo --out s.sqlite --events 20000 --gpus 2 --plant sched \
    >demo.log 2>&1 || fail "gpulens demo" demo.log
cp s.sqlite plain.sqlite
sqlite3 plain.sqlite "DROP TABLE SCHED_EVENTS" || fail "drop" /dev/null
printf ':dump s.screen\nq\n' >a.script
printf ':dump plain.screen\nq\n' >b.script
for x in "a s" "b plain"; do
	set -- $x
	env GPULENS_TUI_SIZE=120x40 LANG=$utf8 LC_ALL=$utf8 "$GPULENS" \
	    --no-cache --script $1.script $2.sqlite >$2.log 2>&1 ||
	    fail "gpulens --script $2" $2.log
done
shade=$(printf '\342\226\221')	# U+2591
# The side thread's header: not running until its first run.
grep -Eq "tid [0-9]+ pt_aut.*│$shade$shade$shade$shade" s.screen ||
    fail "no shade before the side thread's first run" s.screen
# The main thread's CUDA API rows: shaded between calls.
n=$(grep "CUDA API" s.screen | grep -c "$shade")
[ "$n" -ge 2 ] || fail "CUDA API rows not shaded ($n)" s.screen
# Without scheduling data: no CPU row is shaded.
grep -E "NVTX|CUDA API|tid " plain.screen | grep -q "$shade" &&
    fail "CPU rows shaded without scheduling data" plain.screen
echo PASS
