#!/bin/sh
#
# tui_screen: the TUI in a real terminal (a private tmux server), on a trace
# made by `gpulens demo`: it takes the terminal (the alternate screen, the
# status line on the pane's last line), and `q` gives it back: exit status
# 0, the alternate screen and mouse reporting off, the shell's screen as it
# was. Quitting is checked from the timeline at 80x24 in UTF-8, from the
# help overlay at 200x50 in ASCII (LANG=C), and from the NVTX tree at
# 120x40.
#
# What the views draw (the timeline, search, the NVTX tree, the kernel
# table, the findings, the help) is compared without a terminal, screen by
# screen, by steps.sh.
#
# Environment: GPULENS (default ./gpulens), GPULENS_SCREEN_TIMEOUT (seconds
# to wait for each expected screen, default 20). Exits 77 (automake SKIP)
# when tmux is missing.
#
. "${GPULENS_SRCDIR:-.}/tests/screen/tuilib.sh"

trace=$tmp/demo.sqlite
demo_trace "$trace" 5000

# run W H LANG KEYS WAIT [CLOSE]: opens the trace in a W x H pane, waits
# for the status line, types KEYS and waits for WAIT (a pattern); with
# CLOSE, types it and waits for WAIT to go (a box closes; q in a box must
# not quit); then quits.
run() {
	w=$1
	h=$2
	lang=$3
	label="${w}x$h LANG=$lang${4:+ after '$4'}"
	if ! start "$w" "$h" "env LANG=$lang LC_ALL=$lang TERM=xterm-256color '$GPULENS' '$trace'"; then
		fail "$label: cannot start tmux"
		return
	fi
	if ! wait_for ' cursor \+'; then
		fail "$label: no status line (cursor time)"
		return
	fi
	settle
	[ "$(tm display-message -p -t screen '#{alternate_on}')" = 1 ] ||
	    fail "$label: not in the alternate screen"
	tail -n 1 "$tmp/screen" | grep -q ' cursor +' ||
	    fail "$label: the status line is not on the pane's last line"
	if [ -n "$4" ]; then
		for k in $4; do
			keys "$k"
		done
		wait_for "$5" || fail "$label: no '$5' after '$4'"
	fi
	if [ -n "${6:-}" ]; then
		keys "$6"
		wait_gone "$5" || fail "$label: '$6' does not close it"
		grep -q 'GPULENS-EXIT=' "$tmp/screen" &&
		    fail "$label: '$6' quits instead of closing the box"
	fi
	quit_check "$label" || return
	if grep -q ' cursor +' "$tmp/screen"; then
		fail "$label: the TUI is still on screen after exit"
	fi
	[ $fails = 0 ] && echo "ok: $label"
}

set -f
run 80 24 "$utf8" "" ""
run 200 50 C "?" 'Keys.*any key closes' q
run 120 40 "$utf8" "2" 'NVTX tree:'
set +f

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
exit 0
