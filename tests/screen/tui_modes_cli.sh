#!/bin/sh
#
# tui_modes_cli: the TUI in the terminal modes it must support, inside a
# private tmux server (capture-pane -e shows the attributes it drew with):
#   - 256 colours (TERM=xterm-256color), 8 colours (TERM=xterm: no 256-
#     colour codes), NO_COLOR (attributes only, no colour at all; the
#     selected event's bar not inverted), and TERM=screen; each quits
#     with the terminal restored;
#   - a resize while running: the status line follows the new last line;
#   - SIGTERM, SIGINT and a crash (SIGSEGV) restore the terminal too;
#   - a truncated trace is refused with a message and status 2, the
#     terminal untouched.
# What is drawn (a trace's load warnings and W, real profiles from
# $GPULENS_FIXTURES) is checked without a terminal by steps.sh.
#
. "${GPULENS_SRCDIR:-.}/tests/screen/tuilib.sh"

esc=$(printf '\033')
trace=$tmp/demo.sqlite
demo_trace "$trace" 5000

# colours LABEL ENV: opens the demo with ENV and leaves the screen with
# attributes in $tmp/screen.
colours() {
	if ! start 100 30 "env LANG=$utf8 LC_ALL=$utf8 $2 '$GPULENS' '$trace'"; then
		fail "$1: cannot start tmux"
		return 1
	fi
	if ! wait_for ' cursor \+'; then
		fail "$1: no status line"
		return 1
	fi
	settle
	capture -e
	return 0
}

if colours "256 colours" "TERM=xterm-256color"; then
	grep -q "${esc}\[[0-9;]*38;5;" "$tmp/screen" ||
	    fail "256 colours: no 256-colour codes"
	quit_check "256 colours"
fi
if colours "8 colours" "TERM=xterm"; then
	grep -q "${esc}\[[0-9;]*38;5;" "$tmp/screen" &&
	    fail "8 colours: 256-colour codes on an 8-colour terminal"
	grep -Eq "${esc}\[([0-9;]*;)?3[0-7]m" "$tmp/screen" ||
	    fail "8 colours: no colour codes"
	quit_check "8 colours"
fi
if colours "NO_COLOR" "TERM=xterm-256color NO_COLOR=1"; then
	grep -Eq "${esc}\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5|48;5)[;m]" \
	    "$tmp/screen" && fail "NO_COLOR: colour codes drawn"
	grep -Eq "${esc}\[([0-9;]*;)?7[;m]" "$tmp/screen" ||
	    fail "NO_COLOR: no reverse video (status line)"
	quit_check "NO_COLOR"
fi
# The selected event is underlined, never inverted: in NO_COLOR a busy bar
# is reverse video, and inverting it again drew the selected kernel as a
# gap. Zoomed to the first stream's first event (a kernel or a copy, named
# in its box), the attributes in force where its name is drawn include
# reverse video.
if colours "selection" "TERM=xterm-256color NO_COLOR=1"; then
	keys j Tab z
	sleep 1
	settle
	capture
	sel=$(sed -n 's/.* sel [a-z]* \[\{0,1\}\([A-Za-z0-9_]\{4\}\).*/\1/p' \
	    "$tmp/screen" | tail -n 1)
	capture -e
	row=$(sed -n 3p "$tmp/screen")
	case $row in
	*?"$sel"*)
		[ -n "$sel" ] || fail "selection: no event selected"
		# Replays the attributes set before the name: reverse
		# video (7) must be on when it is drawn.
		rev=0
		for sgr in $(printf '%s\n' "${row%%"$sel"*}" |
		    grep -o "${esc}\[[0-9;]*m" | cut -c3- | tr -d m); do
			case "$sgr" in
			''|0|0\;*) rev=0 ;;
			esac
			case ";$sgr;" in
			*\;7\;*) rev=1 ;;
			*\;27\;*) rev=0 ;;
			esac
		done
		[ "$rev" = 1 ] ||
		    fail "selection: the selected bar is drawn inverted"
		echo "checked: selection ($sel)" ;;
	*)	fail "selection: '$sel' not drawn on row 3" ;;
	esac
	quit_check "selection"
fi
if colours "TERM=screen" "TERM=screen"; then
	grep -q 'GPU 0' "$tmp/screen" || fail "TERM=screen: no GPU row"
	quit_check "TERM=screen"
fi

# A resize while running: the status line follows the new last line.
start 80 24 "env LANG=$utf8 TERM=xterm-256color '$GPULENS' '$trace'" ||
    fail "resize: cannot start tmux"
if wait_for ' cursor \+'; then
	tm resize-window -t screen -x 132 -y 40 >/dev/null 2>&1 ||
	    tm resize-pane -t screen -x 132 -y 40 >/dev/null 2>&1
	end=$(($(date +%s) + TIMEOUT))
	while :; do
		capture
		if [ "$(wc -l <"$tmp/screen")" -eq 40 ] &&
		    tail -n 1 "$tmp/screen" | grep -q ' cursor +'; then
			break
		fi
		if [ "$(date +%s)" -ge "$end" ]; then
			fail "resize: no status line on the new last line"
			break
		fi
		sleep 0.1
	done
	keys 3
	wait_for 'Kernels:' || fail "resize: no kernel table after it"
	quit_check "resize"
else
	fail "resize: no status line"
fi

# Signals: the terminal comes back, also from a crash (SEGV).
for sig in TERM INT SEGV; do
	label="SIG$sig"
	start 80 24 "env LANG=$utf8 TERM=xterm-256color '$GPULENS' '$trace'" ||
	    { fail "$label: cannot start tmux"; continue; }
	wait_for ' cursor \+' || { fail "$label: no status line"; continue; }
	pid=$(tm display-message -p -t screen '#{pane_pid}')
	# The pane's shell runs gpulens as its child.
	child=$(ps -o pid= --ppid "$pid" 2>/dev/null | head -n 1 | tr -d ' ')
	if [ -z "$child" ]; then
		fail "$label: cannot find the gpulens process"
		continue
	fi
	kill -s "$sig" "$child"
	if ! wait_for 'GPULENS-EXIT='; then
		fail "$label: gpulens did not exit"
		continue
	fi
	st=$(tm display-message -p -t screen \
	    '#{alternate_on} #{cursor_flag} #{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}')
	[ "$st" = "0 1 000" ] ||
	    fail "$label: terminal not restored (alternate, cursor, mouse: $st)"
	echo "checked: $label"
done

# A truncated trace: refused before the terminal is taken.
head -c 200000 "$trace" >"$tmp/cut.sqlite"
start 80 24 "env LANG=$utf8 TERM=xterm-256color '$GPULENS' --no-cache '$tmp/cut.sqlite'"
if wait_for 'GPULENS-EXIT='; then
	grep -q 'GPULENS-EXIT=2' "$tmp/screen" ||
	    fail "truncated: exit status is not 2"
	grep -q 'truncated' "$tmp/screen" ||
	    fail "truncated: no message saying why"
	[ "$(tm display-message -p -t screen '#{alternate_on}')" = 0 ] ||
	    fail "truncated: left in the alternate screen"
else
	fail "truncated: gpulens did not exit"
fi

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "ok: terminal modes"
exit 0
