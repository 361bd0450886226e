#!/bin/sh
#
# tui_screen: drives the built gpulens TUI in a private tmux server, at
# 80x24 (UTF-8) and 200x50 (UTF-8, then ASCII with LANG=C), on a trace made
# by `gpulens demo`, and checks with capture-pane that the device rows, the
# ruler, the status line and a kernel name (selected with Tab, then drawn
# inside its box once zoomed in) are visible, that `?` shows the help, that
# `q` exits with status 0 and that the terminal is restored (alternate
# screen and mouse reporting off).
#
# Environment: GPULENS (default ./gpulens), GPULENS_SCREEN_TIMEOUT (seconds
# to wait for each expected screen, default 20). Exits 77 (automake SKIP)
# when tmux is missing.
#
set -u

GPULENS=${GPULENS:-./gpulens}
TIMEOUT=${GPULENS_SCREEN_TIMEOUT:-20}

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux is not installed"
	exit 77
fi
if [ ! -x "$GPULENS" ]; then
	echo "FAIL: $GPULENS is not an executable (set GPULENS)"
	exit 1
fi
case $GPULENS in
/*) ;;
*) GPULENS=$(pwd)/$GPULENS ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui_screen.XXXXXX") || exit 99
nrun=0
sock=gpulens-screen-$$-$nrun
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

fails=0
fail() {
	echo "FAIL: $*"
	if [ -f "$tmp/screen" ]; then
		echo "---- screen ----"
		cat "$tmp/screen"
		echo "----------------"
	fi
	fails=$((fails + 1))
}

printf 'set -g status off\nset -g escape-time 0\nset -g default-terminal xterm-256color\n' >"$tmp/tmux.conf"

tm() {
	tmux -L "$sock" -f "$tmp/tmux.conf" "$@"
}

capture() {
	tm capture-pane -p -t screen >"$tmp/screen" 2>/dev/null
}

# wait_for REGEX: polls the pane until a line matches (grep -E).
wait_for() {
	end=$(($(date +%s) + TIMEOUT))
	while :; do
		capture
		if grep -Eq -- "$1" "$tmp/screen"; then
			return 0
		fi
		if [ "$(date +%s)" -ge "$end" ]; then
			return 1
		fi
		sleep 0.1
	done
}

# wait_gone REGEX: polls until no line matches.
wait_gone() {
	end=$(($(date +%s) + TIMEOUT))
	while :; do
		capture
		if ! grep -Eq -- "$1" "$tmp/screen"; then
			return 0
		fi
		if [ "$(date +%s)" -ge "$end" ]; then
			return 1
		fi
		sleep 0.1
	done
}

keys() {
	tm send-keys -t screen "$@"
}

# The status line's "cursor +T" changes with every redraw of a key's
# effect; waiting for the screen to settle after a key keeps the test free
# of fixed sleeps.
settle() {
	prev=
	end=$(($(date +%s) + TIMEOUT))
	while :; do
		capture
		cur=$(cksum <"$tmp/screen")
		if [ "$cur" = "$prev" ]; then
			return 0
		fi
		prev=$cur
		if [ "$(date +%s)" -ge "$end" ]; then
			return 1
		fi
		sleep 0.15
	done
}

trace=$tmp/demo.sqlite
if ! "$GPULENS" demo --out "$trace" --events 20000 >"$tmp/demo.log" 2>&1; then
	echo "FAIL: gpulens demo --out $trace --events 20000"
	cat "$tmp/demo.log"
	exit 1
fi

# run W H LANG
run() {
	w=$1
	h=$2
	lang=$3
	label="${w}x$h LANG=$lang"
	# A fresh server per run: restarting one on the same socket races.
	tm kill-server >/dev/null 2>&1
	nrun=$((nrun + 1))
	sock=gpulens-screen-$$-$nrun
	if ! tm new-session -d -s screen -x "$w" -y "$h" \
	    "env LANG=$lang LC_ALL=$lang TERM=xterm-256color '$GPULENS' '$trace'; echo GPULENS-EXIT=\$?; sleep 600"; then
		fail "$label: cannot start tmux"
		return
	fi
	if ! wait_for ' cursor \+'; then
		fail "$label: no status line (cursor time)"
		return
	fi
	settle
	if [ "$(wc -l <"$tmp/screen")" -ne "$h" ]; then
		fail "$label: pane is not $h lines"
	fi
	# The status line is the last line and has the window width.
	last=$(tail -n 1 "$tmp/screen")
	case $last in
	*"cursor +"*window*) ;;
	*) fail "$label: last line is not the status line: $last" ;;
	esac
	# The ruler: the first line carries tick labels with units.
	if ! head -n 1 "$tmp/screen" | grep -Eq '[0-9](ns|us|ms|s)'; then
		fail "$label: no time ruler on the first line"
	fi
	# Device rows.
	if ! grep -Eq '^. GPU [0-9]' "$tmp/screen"; then
		fail "$label: no GPU device row"
	fi
	if ! grep -Eq 'Stream [0-9]' "$tmp/screen"; then
		fail "$label: no GPU stream row"
	fi
	if [ "$lang" = C ] && LC_ALL=C grep -q "$(printf '[\200-\377]')" \
	    "$tmp/screen"; then
		fail "$label: non-ASCII output in the ASCII mode"
	fi

	# Select the first stream row, then Tab until a kernel is selected.
	keys j
	settle
	i=0
	while [ $i -lt 60 ]; do
		keys Tab
		settle
		if tail -n 1 "$tmp/screen" | grep -q 'sel kernel '; then
			break
		fi
		i=$((i + 1))
	done
	if ! tail -n 1 "$tmp/screen" | grep -q 'sel kernel '; then
		fail "$label: Tab never selected a kernel"
	else
		name=$(tail -n 1 "$tmp/screen" |
		    sed -n 's/.*sel kernel \(.*\) ([^)]*).*/\1/p' |
		    sed 's/[.~]*$//; s/…$//' | cut -c1-6)
		if [ -z "$name" ]; then
			fail "$label: cannot read the kernel name"
		elif ! grep -F -q -- "$name" "$tmp/screen"; then
			fail "$label: kernel name '$name' not on screen"
		else
			# Zoom in on it until its name shows inside its box,
			# on a timeline row (right of the label column).
			i=0
			found=0
			while [ $i -lt 30 ]; do
				if head -n $((h - 8)) "$tmp/screen" |
				    cut -c22- | grep -F -q -- "$name"; then
					found=1
					break
				fi
				keys +
				settle
				i=$((i + 1))
			done
			[ $found = 1 ] ||
			    fail "$label: kernel '$name' never drawn in a box"
		fi
	fi

	# Help.
	keys '?'
	if ! wait_for 'Keys \(any key closes\)'; then
		fail "$label: '?' shows no help"
	elif ! grep -q 'quit' "$tmp/screen"; then
		fail "$label: help does not list q"
	fi
	keys Escape
	if ! wait_gone 'Keys \(any key closes\)'; then
		fail "$label: help does not close"
	fi

	# Quit, and the terminal is given back.
	keys q
	if ! wait_for 'GPULENS-EXIT='; then
		fail "$label: q does not exit"
		return
	fi
	if ! grep -q 'GPULENS-EXIT=0' "$tmp/screen"; then
		fail "$label: exit status is not 0"
	fi
	if grep -q ' cursor +' "$tmp/screen"; then
		fail "$label: the TUI is still on screen after exit"
	fi
	alt=$(tm display-message -p -t screen '#{alternate_on}')
	mouse=$(tm display-message -p -t screen '#{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}')
	[ "$alt" = 0 ] || fail "$label: still in the alternate screen"
	[ "$mouse" = 000 ] || fail "$label: mouse reporting left on ($mouse)"
	[ $fails = 0 ] && echo "ok: $label"
}

utf8=C.UTF-8
if ! locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
	utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
	[ -n "$utf8" ] || utf8=C.UTF-8
fi
run 80 24 "$utf8"
run 200 50 "$utf8"
run 200 50 C

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
exit 0
