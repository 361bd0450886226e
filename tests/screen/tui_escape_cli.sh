#!/bin/sh
#
# tui_escape_cli: names holding terminal escape sequences never reach the
# terminal. A demo trace gets, through sqlite3, a kernel name and an NVTX
# range name made of an OSC title change, BEL, a clear-screen CSI, an
# "exit alternate screen" CSI, backspaces, a C1 CSI, a right-to-left
# override and an invalid UTF-8 byte. The TUI shows them in the kernel
# table, the timeline's detail pane and the NVTX tree, in UTF-8 and in
# ASCII, in a real terminal: tmux's pane state (title, alternate screen,
# cursor) must stay what the TUI set, before and after quitting. That the
# names are drawn as visible text (\x1b ...) is checked on the drawn
# screens, without a terminal, by steps.sh.
#
. "${GPULENS_SRCDIR:-.}/tests/screen/tuilib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "SKIP: the sqlite3 command is not installed"
	exit 77
fi
trace=$tmp/evil.sqlite
if ! "$GPULENS" demo --out "$trace" --events 5000 >"$tmp/demo.log" 2>&1; then
	echo "FAIL: gpulens demo"
	cat "$tmp/demo.log"
	exit 1
fi
evil="'evil'||char(27)||']0;PWNED'||char(7)||char(27)||'[2J'||char(27)||'[?1049l'||char(8)||char(8)||char(155)||'31m'||char(8238)||'rev'||CAST(X'FF' AS TEXT)||'end'"
if ! sqlite3 "$trace" "
    UPDATE StringIds SET value = $evil WHERE id IN
	(SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start
	 LIMIT 1);
    UPDATE StringIds SET value = $evil || '-short' WHERE id IN
	(SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start
	 LIMIT 1);
    UPDATE NVTX_EVENTS SET text = $evil WHERE text = 'init';"; then
	echo "FAIL: cannot plant the names"
	exit 1
fi

# state: title, alternate screen, cursor position of the pane.
state() {
	tm display-message -p -t screen \
	    '#{pane_title}|#{alternate_on}|#{cursor_x},#{cursor_y}'
}

run() {
	lang=$1
	label="LANG=$lang"
	start 120 30 "env LANG=$lang LC_ALL=$lang TERM=xterm-256color '$GPULENS' --no-cache '$trace'" ||
	    { fail "$label: cannot start tmux"; return; }
	wait_for ' cursor \+' || { fail "$label: no status line"; return; }
	settle
	before=$(state)
	case $before in
	*PWNED*) fail "$label: the title changed already" ;;
	*"|1|"*) ;;
	*) fail "$label: not in the alternate screen: $before" ;;
	esac
	# The kernel table, filtered to the planted kernel.
	keys 3 /
	typed evil
	keys Enter
	wait_for 'evil' || fail "$label: the evil kernel is not listed"
	# The footer names the selected kernel in full once the filtered
	# table has been drawn (under load that is a frame or two later).
	wait_for 'evil\\x1b\]0;PWNED\\x07\\x1b\[2J\\x1b\[\?1049l\\x08\\x08' ||
	    fail "$label: the footer does not name the evil kernel"
	settle
	[ "$(state)" = "$before" ] ||
	    fail "$label: the kernel table changed the terminal: $(state)"
	# The timeline: the kernel's detail pane and status line.
	keys Enter
	wait_for 'instance [0-9]*/[0-9]' || fail "$label: no jump to the kernel"
	settle
	[ "$(state)" = "$before" ] ||
	    fail "$label: the detail pane changed the terminal: $(state)"
	# The NVTX tree holds the planted range on each main thread.
	keys 2
	wait_for 'NVTX tree' || fail "$label: no NVTX tree"
	settle
	after=$(state)
	[ "$after" = "$before" ] ||
	    fail "$label: the terminal state changed: '$before' -> '$after'"
	quit_check "$label"
	case $(state) in
	*PWNED*) fail "$label: the title changed" ;;
	esac
}

run "$utf8"
run C

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "ok: escapes stay text"
exit 0
