#!/bin/sh
#
# tui_modes_cli: the TUI in the terminal modes it must support, inside a
# private tmux server (capture-pane -e shows the attributes it drew with):
#   - 256 colours (TERM=xterm-256color), 8 colours (TERM=xterm: no 256-
#     colour codes), NO_COLOR (attributes only, no colour at all), and
#     TERM=screen; each quits with the terminal restored;
#   - SIGTERM, SIGINT and a crash (SIGSEGV) restore the terminal too;
#   - a partial trace (string ids missing) opens with its warning on the
#     status line, and W lists it;
#   - a truncated trace is refused with a message and status 2, the
#     terminal untouched;
#   - real profiles from $GPULENS_FIXTURES (skipped without it) open at
#     80x24 with their GPU rows, NVTX tree and kernel table, and so do the
#     other source formats (Kineto, AMD RPD) when this build reads them.
#
. "${GPULENS_SRCDIR:-.}/tests/screen/tuilib.sh"

esc=$(printf '\033')
trace=$tmp/demo.sqlite
if ! "$GPULENS" demo --out "$trace" --events 5000 >"$tmp/demo.log" 2>&1; then
	echo "FAIL: gpulens demo"
	cat "$tmp/demo.log"
	exit 1
fi

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

# A partial trace: a warning on the status line, W lists it.
cp "$trace" "$tmp/partial.sqlite"
sqlite3 "$tmp/partial.sqlite" "DELETE FROM StringIds WHERE id IN (SELECT
    shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 5);" 2>/dev/null ||
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DELETE FROM StringIds WHERE id IN (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 5)'); c.commit()" "$tmp/partial.sqlite"
start 80 24 "env LANG=$utf8 TERM=xterm-256color '$GPULENS' --no-cache '$tmp/partial.sqlite'"
if wait_for 'load warning'; then
	keys W
	wait_for 'Load warnings' || fail "partial: W does not list warnings"
	grep -q 'string ids missing' "$tmp/screen" ||
	    fail "partial: the warning text is not listed"
	keys Escape
	wait_gone 'Load warnings' || fail "partial: warnings do not close"
	quit_check "partial"
else
	fail "partial: no warning on the status line"
fi

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

# fixture LABEL FILE KERNEL [ROW]: GPU rows (and a ROW, default Stream),
# the NVTX tree, the kernel table with a KERNEL.
fixture() {
	label=$1
	f=$2
	start 80 24 "env LANG=$utf8 TERM=xterm-256color '$GPULENS' '$f'" ||
	    { fail "$label: cannot start tmux"; return; }
	if ! wait_for ' cursor \+'; then
		fail "$label: no status line"
		return
	fi
	grep -Eq '^. GPU ' "$tmp/screen" || fail "$label: no GPU row"
	grep -q "${4:-Stream}" "$tmp/screen" || fail "$label: no ${4:-Stream} row"
	keys 2
	wait_for 'NVTX tree:' || fail "$label: no NVTX tree"
	keys 3
	wait_for 'Kernels: [1-9][0-9]* names' || fail "$label: no kernel table"
	grep -q "$3" "$tmp/screen" || fail "$label: no '$3' kernel listed"
	keys 1
	wait_for ' cursor \+' || fail "$label: 1 does not come back"
	quit_check "$label"
}

fx=${GPULENS_FIXTURES:-}
if [ -n "$fx" ] && [ -d "$fx/nsys" ]; then
	fixture "nsys mfu_2gpu_before" "$fx/nsys/nsys-ai/mfu_2gpu_before.sqlite" nccl
	fixture "nsys power_iteration" \
	    "$fx/nsys/nsightful/power_iteration__baseline.sqlite" Kernel
	k="$fx/kineto/hta/nccl_parser_config__nccl_data.json.gz"
	if "$GPULENS" --no-cache info "$k" >/dev/null 2>&1; then
		fixture "kineto nccl_data" "$k" nccl
	else
		echo "note: this build does not read Kineto traces: skipped"
	fi
	a="$fx/rocpd/rocmProfileData/matmul_result.rpd"
	if "$GPULENS" --no-cache info "$a" >/dev/null 2>&1; then
		fixture "rpd matmul_result" "$a" Cijk Queue
	else
		echo "note: this build does not read RPD traces: skipped"
	fi
else
	echo "note: GPULENS_FIXTURES unset: real profiles not checked"
fi

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "ok: terminal modes"
exit 0
