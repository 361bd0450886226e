#!/bin/sh
#
# message_escape_cli: load errors that quote profile strings never put
# terminal escapes on stdout or stderr. A demo Nsight Systems export gets an
# EXPORT_SCHEMA_VERSION of "9" + an OSC title change + BEL + a C1 CSI +
# U+202E (an unsupported version: the load fails quoting it), and an
# Nsight Compute CSV export gets the same bytes in its launch ID (a bad
# ID: the load fails quoting it). The terminal UI (gpulens TRACE; the
# report view for the CSV), prep, info, stats and launches must print the message with the
# bytes escaped (\x1b ...), never raw.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v sqlite3 >/dev/null 2>&1 || skip "the sqlite3 command is missing"
G=$GPULENS
# ESC ] 0 ; pwned BEL, U+009B (C1 CSI, UTF-8 C2 9B), U+202E (E2 80 AE).
evil=$(printf '\033]0;pwned\007\302\23331m\342\200\256rev')

"$G" demo --out "$TMPD/bad.sqlite" --events 2000 --gpus 1 \
    >"$TMPD/demo.log" 2>&1 || fail "gpulens demo: $(cat "$TMPD/demo.log")"
sqlite3 "$TMPD/bad.sqlite" "UPDATE META_DATA_EXPORT SET value =
    '9' || char(27) || ']0;pwned' || char(7) || char(155) || '31m' ||
    char(8238) || 'rev' WHERE name = 'EXPORT_SCHEMA_VERSION'" ||
    fail "cannot plant the schema version"

{
	printf '"ID","Process ID","Process Name","Host Name","Kernel Name",'
	printf '"Context","Stream","Block Size","Grid Size","Device","CC",'
	printf '"Section Name","Metric Name","Metric Unit","Metric Value"\n'
	printf '"1%s","6153","python3","localhost","k","1","7",' "$evil"
	printf '"(256, 1, 1)","(1024, 1, 1)","0","8.0",'
	printf '"GPU Speed Of Light Throughput","Duration","usecond","1.5"\n'
} >"$TMPD/bad.csv"

# raw FILE LABEL: fails if FILE holds ESC, U+009B or U+202E as bytes.
raw() {
	if LC_ALL=C grep -q "$(printf '\033')" "$1"; then
		fail "$2: a raw ESC reached the output: $(od -c "$1" | head)"
	fi
	if LC_ALL=C grep -q "$(printf '\302\233')" "$1"; then
		fail "$2: a raw C1 CSI reached the output"
	fi
	if LC_ALL=C grep -q "$(printf '\342\200\256')" "$1"; then
		fail "$2: a raw U+202E reached the output"
	fi
}

# check LABEL WANT CMD...: runs CMD (stdin /dev/null), wants exit WANT,
# no raw escapes in stdout + stderr, and the escape shown as text.
check() {
	label=$1 want=$2
	shift 2
	"$@" </dev/null >"$TMPD/out" 2>&1
	rc=$?
	[ "$rc" -eq "$want" ] ||
	    fail "$label: exit $rc, expected $want: $(cat "$TMPD/out")"
	raw "$TMPD/out" "$label"
	grep -F -q '\x1b]0;pwned\x07\u009b31m\u202erev' "$TMPD/out" ||
	    fail "$label: the message does not show the bytes escaped: \
$(cat "$TMPD/out")"
}

check "nsys: terminal UI" 2 "$G" --no-cache "$TMPD/bad.sqlite"
check "nsys: prep" 2 env XDG_CACHE_HOME="$TMPD/cache" \
    "$G" prep "$TMPD/bad.sqlite"
check "nsys: info" 2 "$G" --no-cache info "$TMPD/bad.sqlite"
check "nsys: stats" 2 "$G" --no-cache stats "$TMPD/bad.sqlite"
check "nsys: two traces" 2 "$G" --no-cache stats "$TMPD/bad.sqlite" \
    "$TMPD/bad.sqlite"
check "ncu: report view" 2 "$G" "$TMPD/bad.csv"
check "ncu: info" 2 "$G" info "$TMPD/bad.csv"
check "ncu: launches" 2 "$G" launches "$TMPD/bad.csv"
# A version string that still loads: info's table shows it escaped.
cp "$TMPD/bad.sqlite" "$TMPD/ok.sqlite" || fail "cannot copy"
sqlite3 "$TMPD/ok.sqlite" "UPDATE META_DATA_EXPORT SET value =
    '3.25.0' || char(27) || ']0;pwned' || char(7) || char(155) || '31m' ||
    char(8238) || 'rev' WHERE name = 'EXPORT_SCHEMA_VERSION'" ||
    fail "cannot plant the schema version"
check "nsys: info of a loading trace" 0 "$G" --no-cache info \
    "$TMPD/ok.sqlite"
# The JSON envelope keeps the message exact (JSON escapes it).
"$G" --no-cache info "$TMPD/bad.sqlite" --json >"$TMPD/out" 2>&1
raw "$TMPD/out" "nsys: info --json"
grep -F -q '\u001b]0;pwned\u0007' "$TMPD/out" ||
    fail "info --json: the message lost the text: $(cat "$TMPD/out")"
pass
