# tuilib.sh: helpers for the TUI screen tests (sourced): a private tmux
# server per run, keys, polling captures of the pane, and the checks that
# quitting gave the terminal back.
#
# The sourcing script sets nothing first; it gets $GPULENS (absolute),
# $tmp (removed at exit), fail MSG (counts in $fails and prints the last
# screen), and:
#   start W H CMD	runs CMD (a shell command line) in a fresh WxH pane;
#			CMD's exit status is printed as GPULENS-EXIT=N
#   keys KEY...		tmux send-keys
#   typed TEXT		sends TEXT literally (send-keys -l)
#   capture [-e]		the pane into $tmp/screen (-e: with attributes)
#   wait_for RE		polls until a line matches RE (grep -E); 1 on timeout
#   wait_gone RE		polls until no line matches
#   settle		polls until two captures agree
#   quit_check LABEL	sends q and checks exit status 0, the alternate
#			screen off and mouse reporting off
#   demo_trace FILE N	writes a demo trace of N events to FILE, or exits
#			1 with demo's output
# Exits 77 (automake SKIP) when tmux is missing.
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

# default-shell: tmux runs each pane's command with it; without it tmux takes
# $SHELL, else the account's login shell, which for a service account such
# as nobody is nologin and the pane would never show gpulens.
printf 'set -g status off\nset -g escape-time 0\nset -g default-terminal "%s"\nset -g default-shell /bin/sh\n' \
    "${TUI_TMUX_TERM:-xterm-256color}" >"$tmp/tmux.conf"

tm() {
	tmux -L "$sock" -f "$tmp/tmux.conf" "$@"
}

capture() {
	tm capture-pane -p "$@" -t screen >"$tmp/screen" 2>/dev/null
}

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

typed() {
	tm send-keys -t screen -l "$1"
}

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

# start W H CMD: a fresh server per run (restarting one on the same
# socket races).
start() {
	tm kill-server >/dev/null 2>&1
	nrun=$((nrun + 1))
	sock=gpulens-screen-$$-$nrun
	tm new-session -d -s screen -x "$1" -y "$2" \
	    "ulimit -c 0 2>/dev/null; $3; echo GPULENS-EXIT=\$?; sleep 600"
}

quit_check() {
	keys q
	if ! wait_for 'GPULENS-EXIT='; then
		fail "$1: q does not exit"
		return 1
	fi
	grep -q 'GPULENS-EXIT=0' "$tmp/screen" ||
	    fail "$1: exit status is not 0"
	alt=$(tm display-message -p -t screen '#{alternate_on}')
	mouse=$(tm display-message -p -t screen \
	    '#{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}')
	[ "$alt" = 0 ] || fail "$1: still in the alternate screen"
	[ "$mouse" = 000 ] || fail "$1: mouse reporting left on ($mouse)"
	echo "checked: $1"
	return 0
}

# A UTF-8 locale that exists here.
utf8=C.UTF-8
if ! locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
	utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
	[ -n "$utf8" ] || utf8=C.UTF-8
fi
# The checks read UTF-8 screens (box drawing, arrows): grep and friends
# must count characters, not bytes, whatever locale the caller had (CI
# runs with none).
LC_ALL=$utf8
export LC_ALL

demo_trace() {
	if ! "$GPULENS" demo --out "$1" --events "$2" >"$tmp/demo.log" 2>&1; then
		echo "FAIL: gpulens demo --out $1 --events $2"
		cat "$tmp/demo.log"
		exit 1
	fi
}
