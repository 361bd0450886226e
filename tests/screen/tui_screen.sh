#!/bin/sh
#
# tui_screen: drives the built gpulens TUI in a private tmux server, at
# 80x24 (UTF-8) and 200x50 (UTF-8, then ASCII with LANG=C), on a trace made
# by `gpulens demo`, and checks with capture-pane:
#   - the device rows, the ruler, the status line, a kernel name (selected
#     with Tab, then drawn inside its box once zoomed in), the detail pane;
#   - `/` search with n, `g` go to a time, `[` `]` range statistics;
#   - the NVTX tree (2): its structure, Enter jumping to the timeline;
#   - the kernel table (3): the heaviest kernel of `gpulens stats`, Enter
#     jumping to an instance;
#   - `?` lists the keys (page by page on small screens);
#   - `q` exits with status 0 and the terminal is restored (alternate
#     screen and mouse reporting off).
#
# Environment: GPULENS (default ./gpulens), GPULENS_SCREEN_TIMEOUT (seconds
# to wait for each expected screen, default 20). Exits 77 (automake SKIP)
# when tmux is missing.
#
. "${GPULENS_SRCDIR:-.}/tests/screen/tuilib.sh"

trace=$tmp/demo.sqlite
if ! "$GPULENS" demo --out "$trace" --events 20000 >"$tmp/demo.log" 2>&1; then
	echo "FAIL: gpulens demo --out $trace --events 20000"
	cat "$tmp/demo.log"
	exit 1
fi
# The heaviest kernel by total time, as the stats verb says (the start of
# its full name, which the kernel table's footer shows for the first row).
top=$("$GPULENS" stats --format csv --fields name --limit 1 "$trace" \
    2>/dev/null | sed -n 2p | sed 's/^"//' | cut -c1-20)

# run W H LANG
run() {
	w=$1
	h=$2
	lang=$3
	label="${w}x$h LANG=$lang"
	if ! start "$w" "$h" "env LANG=$lang LC_ALL=$lang TERM=xterm-256color '$GPULENS' '$trace'"; then
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
		# The detail pane: launch configuration and the launch.
		grep -q 'grid [0-9]*x[0-9]*x[0-9]' "$tmp/screen" ||
		    fail "$label: no grid in the detail pane"
		grep -q 'launch cu' "$tmp/screen" ||
		    fail "$label: no launching call in the detail pane"
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

	# Search, go to, range statistics.
	keys /
	typed nccl
	keys Enter
	wait_for 'match [0-9]+ of [0-9]+' ||
	    fail "$label: / nccl found no match"
	keys n
	wait_for 'sel kernel nccl|match [0-9]+ of' ||
	    fail "$label: n found no next match"
	keys 0 g
	typed 100ms
	keys Enter
	wait_for 'cursor \+100' || fail "$label: g 100ms did not move there"
	keys '['
	keys g
	typed 300ms
	keys Enter
	keys ']'
	if ! wait_for 'Range \+100'; then
		fail "$label: ] shows no range statistics"
	else
		settle
		grep -q 'GPU 0 stream' "$tmp/screen" ||
		    fail "$label: range statistics lack the streams"
		grep -q 'Top kernels' "$tmp/screen" ||
		    fail "$label: range statistics lack the kernels"
	fi
	keys Escape
	wait_gone 'Range \+100' || fail "$label: range statistics stay"

	# The NVTX tree: a thread root and the step family, then a jump.
	keys 2
	if ! wait_for 'NVTX tree:'; then
		fail "$label: 2 shows no NVTX tree"
	else
		settle
		grep -Eq '(▾|-) tid [0-9]+ python3' "$tmp/screen" ||
		    fail "$label: no thread root in the NVTX tree"
		grep -q 'ProfilerStep#\*' "$tmp/screen" ||
		    fail "$label: no ProfilerStep#* node"
		keys j Right
		# Wait for the opened node's child itself: the rule under the
		# tree names the selected node too, so it may match earlier.
		wait_for '^ *(▸|\+) forward' ||
		    fail "$label: Right does not open ProfilerStep#* (no forward child)"
		keys Enter
		wait_for 'instance 1/20 of Profile' ||
		    fail "$label: Enter does not jump to the first step"
		grep -q 'nvtx ' "$tmp/screen" ||
		    fail "$label: the jump does not select the range"
	fi

	# The kernel table: the heaviest kernel first, then a jump.
	keys 3
	if ! wait_for 'Kernels: [0-9]+ names'; then
		fail "$label: 3 shows no kernel table"
	else
		# The title comes first; under load (ASan) the rows and the
		# footer are a moment later.
		settle
		sed -n "$((h - 1))p" "$tmp/screen" | grep -F -q -- "$top" ||
		    fail "$label: the first row is not '$top'"
		keys Enter
		wait_for 'instance 1/[0-9]+' ||
		    fail "$label: Enter does not jump to an instance"
	fi

	# Help, page by page until q shows up.
	keys '?'
	if ! wait_for 'Keys.*any key closes'; then
		fail "$label: '?' shows no help"
	else
		settle
		i=0
		while ! grep -q ' quit' "$tmp/screen" && [ $i -lt 5 ]; do
			keys Space
			settle
			i=$((i + 1))
		done
		grep -q ' quit' "$tmp/screen" || fail "$label: help does not list q"
	fi
	keys Escape
	if ! wait_gone 'Keys.*any key closes'; then
		fail "$label: help does not close"
	fi

	# Quit, and the terminal is given back.
	quit_check "$label" || return
	if grep -q ' cursor +' "$tmp/screen"; then
		fail "$label: the TUI is still on screen after exit"
	fi
	[ $fails = 0 ] && echo "ok: $label"
}

run 80 24 "$utf8"
run 200 50 "$utf8"
run 200 50 C

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
exit 0
