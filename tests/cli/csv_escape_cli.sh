#!/bin/sh
#
# csv_escape_cli: CSV written to a terminal never passes a profile string's
# control characters or bidi overrides to it. A demo trace gets, through
# sqlite3, a kernel name (and an NVTX range) holding ESC ] 0 ; pwned BEL,
# the C1 CSI U+009B and U+202E. stats, nvtx, search --format csv and
# export --to csv run under script(1), so that standard output is a pty:
# no raw ESC, C2 9B or E2 80 AE byte may reach it, and the name must show
# as escapes (\x1b, \u009b, \u202e). Through a pipe the bytes are kept
# (CSV to a file or pipe is the data, RFC 4180 quoted).
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v sqlite3 >/dev/null 2>&1 || skip "the sqlite3 command is missing"
command -v script >/dev/null 2>&1 || skip "script (util-linux) is missing"
script -qec true /dev/null >/dev/null 2>&1 || skip "script cannot open a pty"
G=$GPULENS
case $G in
/*) ;;
*) G=$(pwd)/$G ;;
esac

t=$TMPD/evil.sqlite
"$G" demo --out "$t" --events 3000 --gpus 1 >"$TMPD/demo.log" 2>&1 ||
    fail "gpulens demo: $(cat "$TMPD/demo.log")"
evil="'evil'||char(27)||']0;pwned'||char(7)||char(155)||'31m'||char(8238)||'rev,\"q\"'"
sqlite3 "$t" "
    UPDATE StringIds SET value = $evil WHERE id IN
	(SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start
	 LIMIT 1);
    UPDATE StringIds SET value = $evil WHERE id IN
	(SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start
	 LIMIT 1);
    UPDATE NVTX_EVENTS SET text = $evil WHERE rowid IN
	(SELECT rowid FROM NVTX_EVENTS WHERE text IS NOT NULL LIMIT 1);" ||
    fail "cannot plant the names"

raw_esc=$(printf '\033')
raw_c1=$(printf '\302\233')
raw_bidi=$(printf '\342\200\256')
shown='evil\x1b]0;pwned\x07\u009b31m\u202erev,""q""'

# tty LABEL ARGS...: gpulens ARGS with stdout a pty.
tty() {
	label=$1
	shift
	script -qec "'$G' --no-cache --no-progress $*" /dev/null \
	    >"$TMPD/out" 2>&1 </dev/null || fail "$label: exit status $?"
	LC_ALL=C grep -q "$raw_esc" "$TMPD/out" &&
	    fail "$label: a raw ESC reached the terminal"
	LC_ALL=C grep -q "$raw_c1" "$TMPD/out" &&
	    fail "$label: a raw C1 CSI reached the terminal"
	LC_ALL=C grep -q "$raw_bidi" "$TMPD/out" &&
	    fail "$label: a raw U+202E reached the terminal"
	grep -F -q "$shown" "$TMPD/out" ||
	    fail "$label: the name is not shown escaped: $(cat "$TMPD/out")"
}

# pipe LABEL ARGS...: gpulens ARGS into a pipe keeps the bytes.
pipe() {
	label=$1
	shift
	"$G" --no-cache "$@" 2>"$TMPD/err" | cat >"$TMPD/out"
	LC_ALL=C grep -q "evil$raw_esc]0;pwned" "$TMPD/out" ||
	    fail "$label: a pipe did not get the raw bytes"
	LC_ALL=C grep -q "$raw_bidi" "$TMPD/out" ||
	    fail "$label: a pipe did not get the raw U+202E"
}

tty "stats csv" stats "$t" --format csv
tty "nvtx csv" nvtx "$t" --format csv
tty "search csv" search "$t" --name "'evil*'" --format csv
tty "export csv" export --to csv "$t"
pipe "stats csv" stats "$t" --format csv
pipe "export csv" export --to csv "$t"
pass
