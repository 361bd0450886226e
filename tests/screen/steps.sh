#!/bin/sh
#
# steps: the terminal UI's screens, drawn without a terminal and compared
# with checked-in ones (tig's `steps ... assert_equals` style).
#
# Each set of steps is a key script (gpulens --script, see the man page):
# keys, named actions (":action NAME") and ":dump NAME" steps. gpulens runs
# it headless (standard output is not a terminal: the screen is a virtual
# one of GPULENS_TUI_SIZE), and every dump, out/SET/NAME.screen, must equal
# tests/screen/golden/SET/NAME.screen; a mismatch prints the diff. On top of
# the whole-screen comparison, expect() states what a screen must show (the
# property each golden is there for), so that a golden rewritten with
# SCREEN_UPDATE=1 cannot silently lose it.
#
# The trace is `gpulens demo --events 20000 --seed 1` (equal options give
# equal files), opened from the test's own directory so that the title is
# the same everywhere. Sets: 80x24 and 120x40 in UTF-8, 120x40 in ASCII
# (LANG=C), a trace with load warnings, a trace whose names hold terminal
# escapes (UTF-8 and ASCII; python3 plants them), and real profiles from
# $GPULENS_FIXTURES (checked with expect only, never frozen; skipped
# without them). What needs a real terminal (restoring it, signals,
# resizing, colours, escapes not reaching it) is in tui_screen.sh,
# tui_modes_cli.sh and tui_escape_cli.sh.
#
# Environment: GPULENS (default ./gpulens), GPULENS_SRCDIR, SCREEN_UPDATE=1
# rewrites the goldens of the sets that ran (then review `git diff`).
#
set -u

GPULENS=${GPULENS:-./gpulens}
src=${GPULENS_SRCDIR:-.}
case $GPULENS in
/*) ;;
*) GPULENS=$(pwd)/$GPULENS ;;
esac
case $src in
/*) ;;
*) src=$(pwd)/$src ;;
esac
golden=$src/tests/screen/golden
if [ ! -x "$GPULENS" ]; then
	echo "FAIL: $GPULENS is not an executable (set GPULENS)"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/steps.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
mkdir out

fails=0
nchecks=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# A UTF-8 locale that exists here, for the UTF-8 sets (their goldens are
# drawn with the UTF-8 glyphs).
utf8=C.UTF-8
if ! locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
	utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
	[ -n "$utf8" ] || utf8=C.UTF-8
fi
if [ "$(LC_ALL=$utf8 locale charmap 2>/dev/null)" != UTF-8 ]; then
	echo "SKIP: no UTF-8 locale here"
	exit 77
fi

if ! "$GPULENS" demo --out demo.sqlite --events 20000 --seed 1 \
    >demo.log 2>&1; then
	echo "FAIL: gpulens demo --out demo.sqlite --events 20000 --seed 1"
	cat demo.log
	exit 1
fi

# The heaviest kernel by total time, as the stats verb says (the start of
# its full name, which the kernel table's footer shows for the first row).
top=$("$GPULENS" --no-cache stats --format csv --fields name --limit 1 \
    demo.sqlite 2>/dev/null | sed -n 2p | sed 's/^"//' | cut -c1-20)
[ -n "$top" ] || fail "gpulens stats names no kernel"

sets=
# steps SET SIZE LANG TRACE: runs the key script on standard input, its
# ":dump NAME" steps writing out/SET/NAME.screen. (Not at the end of a
# pipeline: it counts the sets and the failures.)
steps() {
	mkdir -p "out/$1"
	sets="$sets $1"
	sed "s|^:dump \\(.*\\)|:dump out/$1/\\1.screen|" >"$1.script"
	if ! env GPULENS_TUI_SIZE="$2" LANG="$3" LC_ALL="$3" \
	    "$GPULENS" --no-cache --script "$1.script" "$4" \
	    >"$1.log" 2>&1; then
		fail "$1: gpulens --script failed"
		cat "$1.log"
	fi
}

# expect SET/NAME RE WHAT: the screen has a line matching RE (grep -E).
expect() {
	nchecks=$((nchecks + 1))
	if [ ! -f "out/$1.screen" ]; then
		fail "$1: no screen (for: $3)"
	elif ! grep -Eq -- "$2" "out/$1.screen"; then
		fail "$1: $3 (no line matches '$2')"
		cat "out/$1.screen"
	fi
}

# expect_not SET/NAME RE WHAT: no line matches RE.
expect_not() {
	nchecks=$((nchecks + 1))
	if [ ! -f "out/$1.screen" ] || grep -Eq -- "$2" "out/$1.screen"; then
		fail "$1: $3"
	fi
}

# expect_row SET/NAME ROW RE WHAT: row ROW (1 is the top) matches RE.
expect_row() {
	nchecks=$((nchecks + 1))
	if ! sed -n "${2}p" "out/$1.screen" 2>/dev/null | grep -Eq -- "$3"; then
		fail "$1: $4 (row $2 does not match '$3')"
		sed -n "${2}p" "out/$1.screen" 2>/dev/null
	fi
}

# same SET/A SET/B WHAT: two screens are equal.
same() {
	nchecks=$((nchecks + 1))
	cmp -s "out/$1.screen" "out/$2.screen" ||
	    fail "$3: $1 and $2 differ"
}

# ---- the timeline, search, go to, range statistics ----------------------

timeline_steps() {
	cat <<'EOF'
:dump timeline
# the first stream row, its next event (a kernel), zoomed to it
j
TAB
:dump select
z
:dump zoom
# search event names; n is the next match
0
/
n
c
c
l
ENTER
:dump search
n
:dump search-next
# go to a time, mark a range there and at another time: its statistics
ESC
0
g
1
0
0
m
s
ENTER
:dump goto
[
g
3
0
0
m
s
ENTER
]
:dump range
ESC
:dump range-closed
EOF
}

# ---- the NVTX tree, the kernel table, the findings panel ---------------

views_steps() {
	cat <<'EOF'
2
:dump nvtx
j
RIGHT
:dump nvtx-open
ENTER
:dump nvtx-jump
3
:dump kernels
ENTER
:dump kernels-jump
3
/
f
l
a
s
h
ENTER
:dump kernels-filter
ESC
s
:dump kernels-sort
4
:dump findings
j
:dump findings-next
ENTER
:dump findings-jump
EOF
}

# ---- the help overlay ------------------------------------------------------

# help_steps PAGES: the help, and its pages 2 .. PAGES.
help_steps() {
	echo '?'
	echo ':dump help'
	p=2
	while [ $p -le "$1" ]; do
		echo SPACE
		echo ":dump help-$p"
		p=$((p + 1))
	done
	cat <<'EOF'
x
2
?
:dump help-nvtx
x
3
?
:dump help-kernels
x
4
?
:dump help-findings
q
EOF
}

# ---- named actions: the same screens as their keys ------------------------

keys_steps() {
	cat <<'EOF'
j
j
TAB
+
+
l
2
j
RIGHT
1
:dump keys
EOF
}

actions_steps() {
	cat <<'EOF'
:action row-down
:action row-down
:action event-next
:action zoom-in
:action zoom-in
:action pan-right
:action view-nvtx
:action row-down
:action expand
:action view-timeline
:dump actions
EOF
}

for size in 80x24 120x40; do
	w=${size%x*}
	h=${size#*x}
	[ "$size" = 80x24 ] && pages=4 || pages=1
	{ timeline_steps; views_steps; help_steps $pages; } >all.in
	steps "$size" "$size" "$utf8" demo.sqlite <all.in
	s=$size
	# The timeline: ruler, device and stream rows, the status line.
	expect_row "$s/timeline" 1 '[0-9](ns|us|ms|s)' "no time ruler"
	expect "$s/timeline" '^. GPU [0-9]' "no GPU device row"
	expect "$s/timeline" 'Stream [0-9]' "no GPU stream row"
	expect_row "$s/timeline" "$h" ' cursor \+.*window' \
	    "the last line is not the status line"
	expect "$s/select" 'sel kernel ' "Tab selected no kernel"
	expect "$s/select" 'grid [0-9]+x[0-9]+x[0-9]' "no grid in the detail pane"
	expect "$s/select" 'launch cu' "no launching call in the detail pane"
	# Zoomed to the kernel, its name is drawn inside its box, on a
	# timeline row (right of the label column).
	nchecks=$((nchecks + 1))
	name=$(sed -n "${h}p" "out/$s/select.screen" |
	    sed -n 's/.*sel kernel \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' |
	    cut -c1-6)
	if [ -z "$name" ] || ! head -n $((h - 8)) "out/$s/zoom.screen" |
	    cut -c22- | grep -Fq -- "$name"; then
		fail "$s/zoom: kernel '$name' not drawn in a box"
	fi
	expect "$s/search" 'match [0-9]+ of [0-9]+' "/ nccl found no match"
	expect "$s/search" '^  kernel +nccl' "/ nccl selected no nccl kernel"
	nchecks=$((nchecks + 1))
	m1=$(sed -n 's/.*match \([0-9]*\) of.*/\1/p' "out/$s/search.screen")
	m2=$(sed -n 's/.*match \([0-9]*\) of.*/\1/p' \
	    "out/$s/search-next.screen")
	[ -n "$m1" ] && [ "$m2" = $((m1 + 1)) ] ||
	    fail "$s/search-next: n found no next match ($m1, then $m2)"
	expect "$s/goto" 'cursor \+100' "g 100ms did not move there"
	expect "$s/range" 'Range \+100' "] shows no range statistics"
	expect "$s/range" 'GPU 0 stream' "range statistics lack the streams"
	expect "$s/range" 'Top kernels' "range statistics lack the kernels"
	expect_not "$s/range-closed" 'Range \+100' "range statistics stay"
	# The NVTX tree: a thread root, the step family, opening it, a jump.
	expect_row "$s/nvtx" 1 'NVTX tree:' "2 shows no NVTX tree"
	expect "$s/nvtx" '(▾|-) tid [0-9]+ python3' "no thread root"
	expect "$s/nvtx" 'ProfilerStep#\*' "no ProfilerStep#* node"
	expect "$s/nvtx-open" '^ *(▸|\+) forward' \
	    "Right does not open ProfilerStep#* (no forward child)"
	expect "$s/nvtx-jump" 'instance 1/20 of Profile' \
	    "Enter does not jump to the first step"
	expect "$s/nvtx-jump" 'nvtx +ProfilerStep#0' \
	    "the jump does not select the range"
	# The kernel table: the heaviest kernel first (the footer names the
	# first row in full), a jump, the filter, sorting.
	expect_row "$s/kernels" 1 'Kernels: [0-9]+ names' "3 shows no kernel table"
	nchecks=$((nchecks + 1))
	sed -n "$((h - 1))p" "out/$s/kernels.screen" | grep -Fq -- "$top" ||
	    fail "$s/kernels: the first row is not '$top'"
	expect "$s/kernels-jump" 'instance 1/[0-9]+' \
	    "Enter does not jump to an instance"
	expect_row "$s/kernels-filter" 1 'filter "flash"' "no filter in the title"
	expect_not "$s/kernels-filter" 'nvjet' "the filter kept other kernels"
	expect "$s/kernels-sort" 'sorted by count, descending' "s does not sort"
	# The findings panel, the next finding and its evidence.
	expect_row "$s/findings" 1 'Findings: [0-9]+' "4 shows no findings"
	expect "$s/findings" '1 high +straggler' "the first finding is not the straggler"
	expect "$s/findings" 'Next step:' "the details have no next step"
	expect "$s/findings-next" 'finding 2 of [0-9]+' "j does not select finding 2"
	expect "$s/findings-jump" 'finding 2 of [0-9]+: exposed_comm' \
	    "Enter does not show the evidence"
	# Where it fits, the finding's typed evidence: the items `findings`
	# prints for it, in its order (excess_pct as the verb gives it).
	if [ "$size" = 120x40 ]; then
		expect "$s/findings" 'Evidence values:' "no evidence values"
		nchecks=$((nchecks + 1))
		x=$("$GPULENS" findings demo.sqlite --json |
		    sed -n 's/.*"excess_pct":[[:space:]]*\([0-9.]*\).*/\1/p')
		x=$(printf '%.1f' "$x")
		grep -Fq "device 3, compute_ns 544.0ms, median_compute_ns 411.3ms, excess_pct $x%" \
		    "out/$s/findings.screen" ||
		    fail "$s/findings: the evidence is not the verb's ($x%)"
	fi
	# The help: every view's keys, then the keys of every view.
	expect "$s/help" 'Keys.*any key closes' "? shows no help"
	expect "$s/help" 'Left h +pan left' "the help lacks the timeline's keys"
	expect "$s/help-nvtx" 'Right l +expand' "the help lacks the tree's keys"
	expect "$s/help-kernels" '/ +filter by name' "the help lacks the table's keys"
	expect "$s/help-findings" 'Enter Space +show the evidence' \
	    "the help lacks the findings' keys"
	expect "$s/help-findings" 'q +quit' "the help does not list q"
	if [ "$size" = 80x24 ]; then
		expect "$s/help" 'Keys 1/4 \(Space: next page' "no help pages"
		expect "$s/help-2" 'Keys 2/4 \(Space: next page' "no page 2"
		expect "$s/help-3" 'q +quit' "page 3 does not list q"
		expect "$s/help-3" 'Colours' "the timeline's help has no legend"
		expect "$s/help-4" 'Keys 4/4 \(any key closes' "no page 4"
		expect "$s/help-4" ' +NVTX range' "the legend lacks NVTX"
	else
		expect "$s/help" 'Keys \(any key closes\)' \
		    "the help does not fit one page"
		expect "$s/help" 'q +quit' "the help does not list q"
		expect "$s/help" 'Q +quit gpulens' "the help does not list Q"
		expect "$s/help" 'sync wait \(in a stream row: shaded\)' \
		    "the timeline's help has no legend"
	fi
	keys_steps >keys.in
	steps "keys-$size" "$size" "$utf8" demo.sqlite <keys.in
	actions_steps >actions.in
	steps "actions-$size" "$size" "$utf8" demo.sqlite <actions.in
	same "keys-$size/keys" "actions-$size/actions" \
	    "named actions do not do what their keys do"
done

# ---- a wide screen: the label column, kernel names, the selection ---------

# The label column: sized to the screen and the labels (no "Stream 4294…"
# cut at 20 columns on 200), then narrower and wider by key and by name.
# The selected event: brackets on the ruler, its bar never inverted. The
# kernel table: demangled names with template arguments elided when they do
# not fit, then whole, then short.
steps wide 200x40 "$utf8" demo.sqlite <<'EOF2'
:dump timeline
{
:dump narrower
}
}
:dump wider
:action label-narrower
:action label-narrower
:action label-narrower
:dump narrowest
j
TAB
:dump select
3
:dump kernels
n
:dump kernels-full
n
:dump kernels-short
:action name-form
:dump kernels-elided
EOF2
# The column of the "│" that ends the label column on row 2.
labcol() {
	echo $(($(sed -n 2p "out/wide/$1.screen" | sed 's/│.*//' |
	    LC_ALL=$utf8 wc -m) - 1))
}
nchecks=$((nchecks + 1))
lw=$(labcol timeline)
ln=$(labcol narrower)
lr=$(labcol wider)
ls=$(labcol narrowest)
[ "$lw" -gt 20 ] && [ "$lw" -le 40 ] ||
    fail "wide/timeline: label column $lw columns on 200 (want 21..40)"
[ "$ln" -eq $((lw - 4)) ] && [ "$lr" -eq $((lw + 4)) ] &&
    [ "$ls" -eq $((lw - 8)) ] ||
    fail "wide: { and } do not move the label column by 4 ($lw $ln $lr $ls)"
expect_not wide/timeline 'Stream [0-9]*…' "stream labels cut on 200 columns"
expect wide/narrower 'label column [0-9]+ columns' "{ says nothing"
expect_row wide/select 1 '\[.?\]|\[[^]]*\]' \
    "the selected event is not bracketed on the ruler"
nchecks=$((nchecks + 1))
sed -n 1p out/wide/timeline.screen | grep -q '[][]' &&
    fail "wide/timeline: brackets on the ruler without a selection"
expect wide/kernels '<\.\.\.>' "no template arguments elided at 200 columns"
expect wide/kernels-full 'full names' "n does not say the form"
expect_not wide/kernels-full '<\.\.\.>' "full names still elided"
expect wide/kernels-short 'short names' "n n does not show short names"
nchecks=$((nchecks + 1))
sed -n 3,37p out/wide/kernels-short.screen | grep -q '(' &&
    fail "wide/kernels-short: short names have argument lists"
expect wide/kernels-elided 'elided names' "name-form does not cycle back"
expect wide/kernels-elided '<\.\.\.>' "name-form does not elide again"

# ---- ASCII (LANG=C) --------------------------------------------------------

{ timeline_steps; views_steps; echo '?'; echo ':dump help'; } >ascii.in
steps ascii-120x40 120x40 C demo.sqlite <ascii.in
for f in out/ascii-120x40/*.screen; do
	nchecks=$((nchecks + 1))
	if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$f"; then
		fail "$f: non-ASCII output in the ASCII mode"
	fi
done
expect ascii-120x40/timeline '^[-+] GPU [0-9]' "no GPU row in ASCII"
expect ascii-120x40/nvtx '^[-+] tid [0-9]+ python3' "no thread root in ASCII"
expect ascii-120x40/zoom 'sel kernel' "no kernel selected in ASCII"
expect_row ascii-120x40/select 1 '\[' "no selection mark on the ASCII ruler"

# ---- load warnings ---------------------------------------------------------

# A trace whose reader warns: string ids missing. python3 changes the copy.
py=$(command -v python3 2>/dev/null)
# sql_edit SRC DST WHAT: copies the trace SRC to DST and runs on it the
# python3 statements given on stdin, with c a sqlite3 connection to DST,
# then commits; fails with WHAT.
sql_edit() {
	cp "$1" "$2" || fail "$3"
	{
		printf 'import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n'
		cat
		printf 'c.commit()\n'
	} | "$py" - "$2" || fail "$3"
}
if [ -n "$py" ]; then
	sql_edit demo.sqlite partial.sqlite "cannot make the partial trace" \
	    <<'EOF'
c.execute("DELETE FROM StringIds WHERE id IN (SELECT shortName FROM "
    "CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 5)")
EOF
	steps warnings 80x24 "$utf8" partial.sqlite <<'EOF'
:dump opened
W
:dump list
x
:dump closed
W
q
:dump closed-q
EOF
	expect warnings/opened 'load warning.*\(W lists them\)' \
	    "no warning on the status line"
	expect warnings/list 'Load warnings' "W does not list the warnings"
	expect warnings/list 'string ids missing' "the warning text is not listed"
	expect_not warnings/closed 'Load warnings' "the warnings do not close"
	expect_row warnings/closed-q 24 ' cursor \+' "q in the warnings quits"
	expect_not warnings/closed-q 'Load warnings' "q does not close the warnings"
	# Narrower than the warning: wrapped, not cut.
	steps warnings-60 60x24 "$utf8" partial.sqlite <<'EOF'
W
:dump list
EOF
	expect warnings-60/list 'string ids missing' "the warning is not listed"
	expect warnings-60/list 'empty names\)' "the warning is cut, not wrapped"
else
	echo "note: python3 missing: the warnings and escapes sets are skipped"
fi

# ---- names holding terminal escapes ------------------------------------------

# A kernel name and an NVTX range name made of an OSC title change, BEL, a
# clear-screen CSI, an "exit alternate screen" CSI, backspaces, a C1 CSI, a
# right-to-left override and an invalid UTF-8 byte: shown as visible text.
if [ -n "$py" ]; then
	sql_edit demo.sqlite evil.sqlite "cannot plant the names" <<'EOF'
evil = (b"evil\x1b]0;PWNED\x07\x1b[2J\x1b[?1049l\x08\x08\xc2\x9b31m"
    b"\xe2\x80\xaerev\xffend")
c.text_factory = bytes
for col, suffix in (("demangledName", b""), ("shortName", b"-short")):
    c.execute("UPDATE StringIds SET value = CAST(? AS TEXT) WHERE id IN "
        "(SELECT %s FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start "
        "LIMIT 1)" % col, (evil + suffix,))
c.execute("UPDATE NVTX_EVENTS SET text = CAST(? AS TEXT) WHERE text = "
    "'init'", (evil,))
EOF
	for lang in utf8 ascii; do
		[ $lang = utf8 ] && l=$utf8 || l=C
		steps "escape-$lang" 120x40 "$l" evil.sqlite <<'EOF'
3
/
e
v
i
l
ENTER
:dump kernels
ENTER
:dump timeline
2
:dump nvtx
EOF
		s=escape-$lang
		esc='evil\x1b]0;PWNED\x07\x1b[2J\x1b[?1049l\x08\x08'
		nchecks=$((nchecks + 3))
		grep -Fq "$esc" "out/$s/kernels.screen" ||
		    fail "$s: the kernel table does not show the name escaped"
		grep -Fq 'evil\x1b]0;PWNED' "out/$s/timeline.screen" ||
		    fail "$s: the detail pane does not show the name escaped"
		grep -Fq 'evil\x1b]0;PWNED' "out/$s/nvtx.screen" ||
		    fail "$s: the NVTX tree does not show the name escaped"
		expect "$s/timeline" 'instance 1/[0-9]' "no jump to the kernel"
		nchecks=$((nchecks + 1))
		if [ $lang = ascii ]; then
			grep -Fq '\u009b31m\u202erev?end' "out/$s/kernels.screen" ||
			    fail "$s: C1, bidi or bad byte not shown in ASCII"
			for f in out/$s/*.screen; do
				nchecks=$((nchecks + 1))
				LC_ALL=C grep -q "$(printf '[\200-\377]')" "$f" &&
				    fail "$f: non-ASCII output in the ASCII mode"
			done
		else
			grep -Fq '\u009b31m\u202erev�end' "out/$s/kernels.screen" ||
			    fail "$s: C1, bidi or bad byte not shown"
		fi
		# Nothing raw: no ESC, BEL, BS or C1 byte in any screen.
		for f in out/$s/*.screen; do
			nchecks=$((nchecks + 1))
			LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" \
			    "$f" && fail "$f: a raw control character"
			grep -q "$(printf '\302[\200-\237]')" "$f" &&
			    fail "$f: a raw C1 control"
		done
	done
fi

# ---- boxes close on q and Esc; Home/End; the wheel; findings; f prompt --

# In every box (help, range statistics, bookmarks) q and Esc close the box
# and never quit: a q that quit would leave the later dumps unwritten.
steps boxes 80x24 "$utf8" demo.sqlite <<'EOF'
?
q
:dump help-q
[
l
l
]
:dump range
q
:dump range-q
m
'
:dump bookmarks
q
:dump bookmarks-q
'
ESC
:dump bookmarks-esc
?
ESC
:dump help-esc
EOF
for d in help-q range-q bookmarks-q bookmarks-esc help-esc; do
	expect_row "boxes/$d" 24 ' cursor \+' "$d: not back on the timeline"
	expect_not "boxes/$d" 'Keys|Range \+|Bookmarks' "$d: the box stays"
done
expect boxes/range 'Range \+' "] shows no range statistics"
expect boxes/bookmarks 'Bookmarks' "' shows no bookmark list"

# Home and End: the trace's start and end, cursor and window, at full zoom
# as zoomed in; the wheel zooms around the pointer's time (column 70 of 80
# is about 5/6 of the way: the cursor goes there, not to the left edge).
steps nav 80x24 "$utf8" demo.sqlite <<'EOF'
END
:dump end-full
HOME
:dump home-full
+
+
+
END
:dump end-zoomed
HOME
:dump home-zoomed
0
WHEEL_UP 70 10
:dump wheel
EOF
expect nav/end-full ' cursor \+909ms +window 908\.7ms' \
    "End at full zoom does not go to the trace end"
expect nav/home-full ' cursor \+0ms +window 908\.7ms' "Home does not go to the trace start"
expect nav/end-zoomed ' cursor \+909ms +window 113\.6ms' \
    "End zoomed in does not go to the trace end"
expect nav/home-zoomed ' cursor \+0ms +window 113\.6ms' \
    "Home zoomed in does not go to the trace start"
expect nav/wheel ' cursor \+7[0-9][0-9]ms +window 454\.3ms' \
    "the wheel does not zoom around the pointer"

# A finding without an event (the third) clears the selection and the
# detail pane that the first finding's event left; the f prompt starts
# empty, the filter in force in its label.
steps findings-range 80x24 "$utf8" demo.sqlite <<'EOF'
4
ENTER
:dump event
4
j
j
ENTER
:dump range
f
1
0
u
s
ENTER
f
:dump prompt
EOF
expect findings-range/event '^  kernel +nccl' "finding 1 selects no event"
expect_not findings-range/range '^  kernel ' \
    "a finding without an event keeps the previous detail pane"
expect_row findings-range/prompt 24 '^ ?min duration \(now 10\.00us; empty: all\): *$' \
    "the f prompt is not empty"

# ---- the Nsight Compute report view ------------------------------------

# The project's report fixture (fixtures/mk_ncu.py), written again with
# ncu's markup in a rule message: links and section references show as
# their text, values as scaled units; a trace's 5 and a report's 1 say
# why there is no such view.
if [ -n "$py" ] && [ -f "$src/fixtures/mk_ncu.py" ]; then
	"$py" - "$src/fixtures" markup.ncu-rep <<'EOF' ||
import sys
sys.path.insert(0, sys.argv[1])
import mk_ncu
r = list(mk_ncu.RULES[0])
r[5] = ("Compute is more heavily utilized than Memory: Look at the "
    "@section:ComputeWorkloadAnalysis:Compute Workload Analysis@ section. "
    "See the @url:CUDA Best Practices Guide:https://docs.nvidia.com/cuda/"
    "cuda-c-best-practices-guide/index.html#occupancy@ for more.")
mk_ncu.RULES[0] = tuple(r)
# A breakdown entry as ncu writes them: its value names the metrics that
# make up another one.
bd = "breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed"
mk_ncu.ROOF.append(bd)
values, pmv = mk_ncu.values, mk_ncu.pmv
mk_ncu.values = lambda l: dict(values(l), **{bd: ("sm__inst_executed_pipe_"
    "lsu.avg.pct_of_peak_sustained_active", "s")})
mk_ncu.pmv = lambda v, k: mk_ncu.fbytes(1, v) if k == "s" else pmv(v, k)
open(sys.argv[2], "wb").write(mk_ncu.ncurep())
EOF
	    fail "cannot write the report with markup"
	steps report 80x24 "$utf8" markup.ncu-rep <<'EOF'
:dump metrics
PGDN
:dump metrics-2
r
:dump rules
1
:dump no-timeline
EOF
	expect report/metrics 'Duration .* 812\.54 +us' "the duration is not in us"
	expect report/metrics-2 'dram__cycles_elapsed.* 2\.62 +GHz' \
	    "a clock is not in GHz"
	expect report/metrics-2 'dram__bytes\.sum  +100\.66 +MB' \
	    "bytes are not scaled"
	expect report/metrics-2 'bytes\.sum\.per_second +123\.89 +GB/s' \
	    "a rate is not scaled"
	expect report/metrics-2 '^   Compute \(SM\) Throughput breakdown  +sm__inst_executed_pipe_lsu' \
	    "a breakdown entry is not named after its metric"
	for d in metrics metrics-2; do
		expect_not "report/$d" '[a-z_.]+[0-9]{4,}' \
		    "$d: a metric name runs into its value"
	done
	expect report/rules 'Look at the Compute Workload *$' \
	    "a section reference is not its name"
	expect report/rules '^ +Analysis section\. See the CUDA Best Practices Guide for more\.' \
	    "a link is not its text"
	expect_not report/rules '@(url|section):' "the markup shows raw"
	expect report/no-timeline 'report has no timeline' \
	    "1 on a report does not say why nothing changes"
	steps no-report 80x24 "$utf8" demo.sqlite <<'EOF'
5
:dump timeline
EOF
	expect no-report/timeline 'no ncu report \(open X\.ncu-rep\)' \
	    "5 on a trace does not say there is no report"
fi

# ---- bookmarks kept between sessions -------------------------------------

# Kept in the cache directory ($XDG_CACHE_HOME/gpulens), keyed by the
# trace like its model cache, never beside the trace; restored on open.
# An unusable cache directory (a file stands there) does not fail the TUI.
# (Not frozen: these run with a cache.)
# cached NAME CACHE: the script on stdin, its dumps out/bm/NAME-*.screen.
cached() {
	mkdir -p out/bm
	sed "s|^:dump \\(.*\\)|:dump out/bm/$1-\\1.screen|" >"bm-$1.script"
	if ! env GPULENS_TUI_SIZE=80x24 LANG="$utf8" LC_ALL="$utf8" \
	    XDG_CACHE_HOME="$2" "$GPULENS" --script "bm-$1.script" \
	    bm/demo.sqlite >"bm-$1.log" 2>&1; then
		fail "bookmarks $1: gpulens --script failed"
		cat "bm-$1.log"
	fi
}
mkdir -p bm cache
cp demo.sqlite bm/demo.sqlite
cached first "$tmp/cache" <<'EOF'
g
1
0
0
m
s
ENTER
m
:dump set
EOF
cached second "$tmp/cache" <<'EOF'
'
:dump list
EOF
expect bm/first-set 'bookmark 1 at \+100' "m sets no bookmark"
expect bm/second-list 'Bookmarks' "' shows no list"
expect bm/second-list '1 +\+100' "the bookmark is not kept between sessions"
nchecks=$((nchecks + 2))
ls "$tmp/cache/gpulens/"*.bookmarks >/dev/null 2>&1 ||
    fail "no bookmarks file in the cache directory"
ls -a bm | grep -v '^\.\.\?$' | grep -qv '^demo\.sqlite$' &&
    fail "a file was written beside the trace: $(ls -a bm)"
: >notadir
cached unusable "$tmp/notadir" <<'EOF'
m
:dump set
'
:dump list
EOF
expect bm/unusable-set 'bookmarks not saved' \
    "an unusable cache directory: no word on the bookmark"
expect bm/unusable-list '1 +\+' "the session's bookmark is lost"

# ---- several traces as one job; verb or path -------------------------------

mkdir -p job
for r in 0 1; do
	"$GPULENS" demo --format kineto --gpus 2 --rank $r --events 2000 \
	    --out "job/rank-$r.pt.trace.json" >/dev/null 2>&1 ||
	    fail "demo --format kineto rank $r"
done
printf ':dump out/job.screen\n' >job.script
nchecks=$((nchecks + 1))
env GPULENS_TUI_SIZE=120x40 LANG="$utf8" LC_ALL="$utf8" "$GPULENS" \
    --no-cache --script job.script job/rank-0.pt.trace.json \
    job/rank-1.pt.trace.json >job.log 2>&1 ||
    { fail "two traces do not open as one job"; cat job.log; }
expect job 'pid [0-9]+ rank 0' "no rank 0 in the job"
expect job 'pid [0-9]+ rank 1' "no rank 1 in the job"
# A directory named like a verb: ./ranks opens it, `ranks` is the verb.
mkdir -p ranks
cp job/*.json ranks/
printf ':dump out/ranks-dir.screen\n' >ranks.script
nchecks=$((nchecks + 2))
env GPULENS_TUI_SIZE=80x24 "$GPULENS" --no-cache --script ranks.script \
    ./ranks >ranks.log 2>&1 || { fail "./ranks does not open"; }
"$GPULENS" --no-cache ranks ranks --json >ranks.json 2>&1 ||
    fail "'ranks ranks' does not run the verb"
expect ranks-dir 'GPU' "./ranks shows no timeline"
nchecks=$((nchecks + 1))
"$GPULENS" --no-cache job/rank-0.pt.trace.json job/nosuch >nosuch.log 2>&1
[ $? -eq 2 ] && grep -q "nosuch': no such file" nosuch.log ||
    { fail "a missing second trace: no clear error"; cat nosuch.log; }

# A kernel whose trace gives no register count (rocprofv3, RPD, a Kineto
# trace without "registers per thread"): "regs -", not "regs 0".
if [ -n "$py" ]; then
	"$py" - job/rank-0.pt.trace.json noregs.pt.trace.json <<'EOF' ||
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    e.get("args", {}).pop("registers per thread", None)
json.dump(d, open(sys.argv[2], "w"))
EOF
	    fail "cannot write the trace without registers"
	printf '3\nENTER\n:dump out/noregs.screen\n' >noregs.script
	nchecks=$((nchecks + 1))
	env GPULENS_TUI_SIZE=120x40 LANG="$utf8" LC_ALL="$utf8" "$GPULENS" \
	    --no-cache --script noregs.script noregs.pt.trace.json \
	    >noregs.log 2>&1 || { fail "noregs: gpulens failed"; cat noregs.log; }
	expect noregs 'instance [0-9]+/' "no jump to a kernel"
	expect noregs ' regs -( |$)' "a kernel without a register count"
	expect_not noregs ' regs 0( |$)' "no register count shows as 0"
fi

# ---- two GPUs at 80x24: every device on the first screen; S ----------------

# The timeline opens compact (no per-stream sync rows, overlapping events
# of a stream on one row), so a 2-GPU, 2-process trace shows both devices
# with all their streams and the first process's NVTX rows at 80x24; S
# (toggle-sync) brings the sync rows back and toggle-sync hides them again.
if "$GPULENS" demo --out gpus2.sqlite --gpus 2 --events 20000 --seed 1 \
    >gpus2.log 2>&1; then
	steps gpus2 80x24 "$utf8" gpus2.sqlite <<'EOF'
:dump first
S
:dump sync
:action toggle-sync
:dump back
EOF
	s=gpus2
	expect_row "$s/first" 2 '^. GPU 0 ' "GPU 0 is not the first row"
	expect "$s/first" '^. GPU 1 ' "GPU 1 is not on the first screen"
	expect "$s/first" '^  Stream 15 ' "GPU 1's stream is not on the screen"
	expect "$s/first" '^ +NVTX ' "no NVTX row on the first screen"
	expect_not "$s/first" ' sync +│' "a sync row in the compact view"
	expect "$s/sync" '^  Stream 7 sync ' "S shows no sync row"
	expect "$s/sync" 'sync and overlap rows shown' "S says nothing"
	expect "$s/back" 'sync and overlap rows hidden' "toggle-sync says nothing"
	nchecks=$((nchecks + 1))
	head -n 23 "out/$s/first.screen" >first23
	head -n 23 "out/$s/back.screen" >back23
	cmp -s first23 back23 ||
	    fail "$s: toggling twice does not give the first screen back"
else
	fail "gpulens demo --gpus 2 failed"
	cat gpus2.log
fi

# ---- ranks: each rank's GPUs, then its processes ---------------------------

# A 2-rank Kineto job written by demo: GPU 0 (labelled rank 0), its
# process, then GPU 1 (rank 1). Fold all (C) to see the order at a glance.
if "$GPULENS" demo --format kineto-merged --out bygpu.json --gpus 2 \
    --events 20000 --seed 1 >bygpu.log 2>&1 &&
    "$GPULENS" --no-cache info bygpu.json >/dev/null 2>&1; then
	steps ranks 80x24 "$utf8" bygpu.json <<'EOF'
:dump first
C
:dump folded
EOF
	s=ranks
	expect_row "$s/first" 2 '^. GPU 0 rank 0 ' "GPU 0 is not labelled rank 0"
	expect_row "$s/folded" 2 '^. GPU 0 rank 0 ' "rank 0's GPU is not first"
	expect_row "$s/folded" 3 '^. pid [0-9]+ rank 0' \
	    "rank 0's process does not follow its GPU"
	expect_row "$s/folded" 4 '^. GPU 1 rank 1 ' \
	    "rank 1's GPU does not follow rank 0's process"
	expect_row "$s/folded" 5 '^. pid [0-9]+ rank 1' \
	    "rank 1's process does not follow its GPU"
else
	echo "note: this build does not read Kineto traces: ranks skipped"
fi

# ---- following a launch ----------------------------------------------------

# An NCCL kernel (searched for), o to the cuLaunchKernelEx that launched it
# (on tid 3440's API row), % back to the kernel (its call's row carries the
# flow mark), then the NCCL range above that call and o to its GPU work.
steps follow 120x50 "$utf8" demo.sqlite <<'EOF'
/
n
c
c
l
D
e
v
ENTER
:dump kernel
o
:dump call
%
:dump back
:action follow-launch
k
ENTER
:dump range
o
:dump work
EOF
s=follow
expect "$s/kernel" '^  kernel  ncclDevKernel_AllReduce' "no NCCL kernel selected"
expect "$s/kernel" '^    CUDA API +◂│' \
    "the launching call's row has no flow mark"
expect_row "$s/call" 50 'sel api cuLaunchKernelEx' \
    "o does not go to the launching call"
expect "$s/call" 'gpu ops 1 \(first: ncclDevKernel_AllReduce' \
    "the call's detail does not name the kernel"
expect_not "$s/call" '◂│' "a flow mark while an API call is selected"
expect_row "$s/back" 50 'sel kernel ncclDev' "% does not come back"
expect "$s/back" '^    CUDA API +◂│' "no flow mark after coming back"
expect_row "$s/range" 50 'sel nvtx ncclAllReduce' "no NCCL range selected"
expect_row "$s/work" 50 "the range's GPU work: 1 operation " \
    "o on the range does not show its GPU work"
expect "$s/work" '^  kernel  ncclDevKernel_AllReduce' \
    "o on the range does not select its kernel"

# ---- the jump list ---------------------------------------------------------

# A search (match 53), n (match 54), u u back to before the search, U U
# forward again; a launch followed and u; a finding shown and u.
steps jumps 80x24 "$utf8" demo.sqlite <<'EOF'
/
n
c
c
l
D
e
v
ENTER
:dump match
n
:dump next
u
:dump back1
u
:dump back2
U
:action jump-forward
:dump fwd
o
:dump call
u
:dump call-back
4
ENTER
1
:dump finding
u
:dump finding-back
U
U
:dump end
EOF
s=jumps
expect_row "$s/match" 24 'match 53 of 164' "no first match"
expect "$s/match" 'start \+460\.486443ms' "the first match is not selected"
expect "$s/next" 'start \+460\.784581ms' "n does not select the next match"
expect_row "$s/back1" 24 'jump 2 of 3' "u says no jump"
expect "$s/back1" 'start \+460\.486443ms' "u does not go back to match 53"
expect "$s/back2" 'No event selected' "u u does not go back before the search"
expect_row "$s/back2" 24 'jump 1 of 3' "u u says no jump"
expect "$s/fwd" 'start \+460\.784581ms' "U U does not come back to match 54"
expect_row "$s/call" 24 'sel api cuLaunc' "o does not follow"
expect "$s/call-back" 'start \+460\.784581ms' "u does not undo o"
expect_row "$s/finding" 24 'sel kernel' "the finding shows no kernel"
expect "$s/finding-back" 'start \+460\.784581ms' "u does not undo a finding"
expect_row "$s/end" 24 'no later jump' "U past the newest jump"

# ---- the NVTX breadcrumb ---------------------------------------------------

# The NVTX ancestry of the event under the cursor heads the detail pane's
# rule, at 80x24 too: a kernel (its launching call's ranges), the cursor on
# an API call with no selection, an ASCII terminal.
steps crumb 80x24 "$utf8" demo.sqlite <<'EOF'
j
TAB
TAB
TAB
TAB
:dump kernel
ESC
+
+
+
+
+
+
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
DOWN
:dump cursor
EOF
s=crumb
expect_row "$s/kernel" 18 '^─ layers\.2\.backward › attention ─ Stream 7' \
    "no breadcrumb over the selected kernel's detail"
expect_row "$s/cursor" 18 '^─ ProfilerStep#6 ─ CUDA API:' \
    "no breadcrumb for the call under the cursor"
printf 'j\nTAB\nTAB\nTAB\nTAB\n:dump out/crumb/ascii.screen\n' >crumb-a.script
env GPULENS_TUI_SIZE=80x24 LANG=C LC_ALL=C "$GPULENS" --no-cache \
    --script crumb-a.script demo.sqlite >crumb-a.log 2>&1 ||
    fail "crumb: the ASCII run failed"
expect_row "$s/ascii" 18 '^- layers\.2\.backward > attention - Stream 7' \
    "no ASCII breadcrumb"

# ---- mouse clicks in the tables; Enter in the kernel table -----------------

# A click selects a table row, a click on the selected row does what Enter
# does; Enter in the kernel table goes to the kernel's next instance from
# the timeline's cursor, then to the one after it.
steps clicks 80x24 "$utf8" demo.sqlite <<'EOF'
3
CLICK 10 5
:dump kernels
CLICK 10 5
:dump shown
3
ENTER
:dump next
4
CLICK 5 4
:dump findings
CLICK 5 4
:dump evidence
2
CLICK 5 5
:dump nvtx
CLICK 5 5
:dump nvtx-shown
EOF
s=clicks
expect_row "$s/kernels" 23 '^─ nvjet_tst_128x256_64x4' \
    "a click does not select the kernel row"
expect_row "$s/shown" 24 'instance 147/480 of nvjet_' \
    "a click on the selected row does not show the instance after the cursor"
expect_row "$s/next" 24 'instance 148/480 of nvjet_' \
    "Enter does not go to the next instance"
expect_row "$s/findings" 24 'finding 4 of ' "a click does not select the finding"
expect_row "$s/evidence" 24 'finding 4 of 9: gpu_gaps \(4: ba' \
    "a click on the selected finding does not show it"
expect_row "$s/nvtx-shown" 24 'instance 1/1 of checkpoint' \
    "a click on the selected NVTX row does not show it"

# ---- two GPUs and two processes on one 80x24 screen ------------------------

# nvtx_after SET/NAME PID: the screen has a row for process PID followed,
# before the next process, by an NVTX row.
nvtx_after() {
	nchecks=$((nchecks + 1))
	awk -v p="$2" '
	    $0 ~ ("^[^ ]+ pid " p " ") { on = 1; next }
	    on && /^[^ ]+ pid / { on = 0 }
	    on && /^ +NVTX/ { found = 1 }
	    END { exit !found }' "out/$1.screen" 2>/dev/null ||
	    fail "$1: process $2 has no NVTX row on the screen"
}

# The 2-GPU demo cut to the shape of a data-parallel job (python3): one
# stream per GPU, no copies or sync waits, one thread per process. Both
# GPUs, their streams, both processes and each one's NVTX rows fit on the
# first 80x24 screen, the sync waits inside the stream rows.
if [ -n "$py" ]; then
	sql_edit gpus2.sqlite dp2.sqlite "cannot shape the 2-GPU trace" <<'EOF'
c.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId NOT IN "
    "(SELECT MIN(streamId) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId)")
for t in ("MEMCPY", "MEMSET"):
    c.execute("DELETE FROM CUPTI_ACTIVITY_KIND_" + t)
for t in ("NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME"):
    c.execute("DELETE FROM " + t + " WHERE globalTid % 16777216 != "
        "(globalTid / 16777216) % 16777216")
EOF
	steps dp2 80x24 "$utf8" dp2.sqlite <<'EOF'
:dump first
EOF
	s=dp2
	expect_row "$s/first" 2 '^. GPU 0 ' "GPU 0 is not the first row"
	expect "$s/first" '^. GPU 1 ' "GPU 1 is not on the first screen"
	expect "$s/first" '^  Stream 15 ' "GPU 1's stream is not on the screen"
	expect "$s/first" '^  Stream 7 .*░' "no sync wait drawn in a stream row"
	expect_not "$s/first" ' sync +│' "a sync row in the compact view"
	nvtx_after "$s/first" 3140
	nvtx_after "$s/first" 4140
fi

# ---- keys that change nothing draw nothing -----------------------------------
# GPULENS_TIMING's tui-frame lines end with the frame's damage bits: zooming
# out or going to the whole trace with the whole trace in view, or paging
# left again at the trace's start (the first PgUp takes the cursor there),
# must redraw nothing (0), at any size of trace (a whole-trace frame costs
# the most); a real move must redraw the window.
printf '%s\n' - 0 PGUP PGUP + - - >noop.script
if env GPULENS_TIMING=1 GPULENS_TUI_SIZE=120x40 LANG="$utf8" LC_ALL="$utf8" \
    "$GPULENS" --no-cache --script noop.script demo.sqlite \
    >/dev/null 2>noop.log; then
	dmg=$(awk '$1 == "tui-frame" && $2 > 0 { printf "%s%s", s, $6; s = " " }' \
	    noop.log)
	nchecks=$((nchecks + 1))
	case $dmg in
	"0 0 0x"[1-9a-f]*" 0 0x"[1-9a-f]*" 0x"[1-9a-f]*" 0") ;;
	*) fail "noop: frame damage '$dmg', want: 0 0 (nothing moved), a" \
	    "redraw for the first PgUp, 0 for the second, a redraw for +" \
	    "and -, 0 for - at the whole trace" ;;
	esac
else
	fail "noop: gpulens --script failed"
	cat noop.log
fi

# ---- goldens -------------------------------------------------------------

if [ "${SCREEN_UPDATE:-0}" = 1 ]; then
	for s in $sets; do
		rm -rf "${golden:?}/$s"
		mkdir -p "$golden/$s"
		cp "out/$s/"*.screen "$golden/$s/"
	done
	echo "updated the goldens of:$sets"
else
	for s in $sets; do
		for f in "out/$s/"*.screen; do
			[ -f "$f" ] || continue
			nchecks=$((nchecks + 1))
			g=$golden/$s/${f##*/}
			if [ ! -f "$g" ]; then
				fail "$s/${f##*/}: no golden (SCREEN_UPDATE=1 writes it)"
			elif ! cmp -s "$g" "$f"; then
				fail "$s/${f##*/} differs from its golden:"
				diff -u "$g" "$f"
			fi
		done
		for g in "$golden/$s/"*.screen; do
			[ -f "$g" ] || continue
			[ -f "out/$s/${g##*/}" ] ||
			    fail "$s/${g##*/}: a golden no step dumps"
		done
	done
fi

# ---- real profiles: expect only ------------------------------------------

# fixture LABEL FILE KERNEL [ROW]: GPU rows (and a ROW, default Stream),
# the NVTX tree, the kernel table with a KERNEL, back to the timeline.
fixture() {
	steps "fixture-$1" 80x24 "$utf8" "$2" <<'EOF'
:dump timeline
2
:dump nvtx
3
:dump kernels
1
:dump back
EOF
	s=fixture-$1
	expect "$s/timeline" '^. GPU ' "no GPU row"
	expect "$s/timeline" "${4:-Stream}" "no ${4:-Stream} row"
	expect "$s/nvtx" 'NVTX tree:' "no NVTX tree"
	expect "$s/kernels" 'Kernels: [1-9][0-9]* names' "no kernel table"
	expect "$s/kernels" "$3" "no '$3' kernel listed"
	expect_row "$s/back" 24 ' cursor \+' "1 does not come back"
}
fx=${GPULENS_FIXTURES:-}
if [ -n "$fx" ] && [ -d "$fx/nsys" ]; then
	sets_before=$sets
	fixture nsys-mfu "$fx/nsys/nsys-ai/mfu_2gpu_before.sqlite" nccl
	# Both GPUs and their streams, both processes and their NVTX rows,
	# on the first 80x24 screen.
	expect fixture-nsys-mfu/timeline '^. GPU 1' "GPU 1 is not on the screen"
	expect fixture-nsys-mfu/timeline '^  Stream 15 ' \
	    "GPU 1's stream is not on the screen"
	nvtx_after fixture-nsys-mfu/timeline 144
	nvtx_after fixture-nsys-mfu/timeline 145
	expect_not fixture-nsys-mfu/timeline ' sync +│' \
	    "a sync row in the compact view"
	fixture nsys-power "$fx/nsys/nsightful/power_iteration__baseline.sqlite" \
	    Kernel
	k="$fx/kineto/hta/nccl_parser_config__nccl_data.json.gz"
	if "$GPULENS" --no-cache info "$k" >/dev/null 2>&1; then
		fixture kineto-nccl "$k" nccl
	else
		echo "note: this build does not read Kineto traces: skipped"
	fi
	a="$fx/rocpd/rocmProfileData/matmul_result.rpd"
	if "$GPULENS" --no-cache info "$a" >/dev/null 2>&1; then
		fixture rpd-matmul "$a" Cijk Queue
	else
		echo "note: this build does not read RPD traces: skipped"
	fi
	sets=$sets_before
else
	echo "note: GPULENS_FIXTURES unset: real profiles not checked"
fi

echo "$nchecks checks"
if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "ok: screens equal their goldens"
exit 0
