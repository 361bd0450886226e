#!/bin/sh
# answers_cli: the store of computed verb answers (gpulens(1), Answers).
# For every verb that keeps answers, the second run prints what computing
# prints (stdout and exit status), from the store (the "answer-read"
# timing, no cache read); a changed trace, other arguments, another table
# width or another GPULENS_* variable get their own answers; a damaged
# answer file is recomputed; clean removes the answers; --no-cache and
# GPULENS_ANSWERS=0 neither read nor write them; an error, a fast answer or
# one over 16 MiB (printed whole all the same) is not stored; prep
# --answers stores the JSON answers so that the next call loads no model;
# an unusable cache directory still answers. On copies of the project's
# fixtures, and a demo trace, in a temporary directory.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup
export GPULENS_ANSWERS=1 GPULENS_ANSWER_MIN_MS=0
unset COLUMNS GPULENS_TIMING
T="$TMPD/t.sqlite"
cp "$GPULENS_SRCDIR/fixtures/nsys/demo-2026.sqlite" "$T" || fail "copy"
A="$XDG_CACHE_HOME/gpulens"
nans() { ls "$A" 2>/dev/null | grep -c '\.answer$'; }

# run NAME CMD...: stdout to $TMPD/NAME.out, stderr to .err, status to .rc.
run() {
	n=$1; shift
	GPULENS_TIMING=1 "$@" >"$TMPD/$n.out" 2>"$TMPD/$n.err"
	echo $? >"$TMPD/$n.rc"
}
stored() { grep -q '^timing: answer-read ' "$TMPD/$1.err"; }
loaded() { grep -q '^timing: cache-' "$TMPD/$1.err"; }
# same A B: the same stdout and exit status.
same() {
	cmp -s "$TMPD/$1.out" "$TMPD/$2.out" || fail "$3: stdout differs: $(diff "$TMPD/$1.out" "$TMPD/$2.out" | head -5)"
	cmp -s "$TMPD/$1.rc" "$TMPD/$2.rc" || fail "$3: exit status $(cat "$TMPD/$1.rc") != $(cat "$TMPD/$2.rc")"
}
# computed REF NAME WHAT CMD...: runs CMD as NAME (run), which must print
# what REF printed (same) and not come from the store.
computed() {
	_r=$1 _n=$2 _w=$3; shift 3
	run "$_n" "$@"
	same "$_r" "$_n" "$_w"
	stored "$_n" && fail "$_w: came from the store"
}
# served REF NAME WHAT CMD...: as computed, but it must come from the store.
served() {
	_r=$1 _n=$2 _w=$3; shift 3
	run "$_n" "$@"
	same "$_r" "$_n" "$_w"
	stored "$_n" || fail "$_w: not from the store: $(cat "$TMPD/$_n.err")"
}

expect_rc 0 "$G" prep "$T"
[ "$(nans)" = 0 ] || fail "prep alone stored answers"
expect_rc 0 "$G" search "$T" --type kernel --limit 1 --json
kid=$(sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p' "$TMPD/out" | head -n 1)
[ -n "$kid" ] || fail "no kernel id"

# Every verb that keeps answers: computed (answers off), stored by a first
# run, then served, byte for byte.
for v in summary stats gaps timeline overlap nvtx iters search launch graphs \
    streams memcpy comm ranks mpi samples threads counters queue flops \
    hardware phases window findings "inspect ID" "correlate ID" \
    "ncu-command ID"; do
	set -- $v
	verb=$1
	[ $# -gt 1 ] && extra=$kid || extra=
	before=$(nans)
	GPULENS_ANSWERS=0 run c "$G" $verb "$T" $extra --json
	computed c a "$verb (first run)" "$G" $verb "$T" $extra --json
	run b "$G" $verb "$T" $extra --json
	same c b "$verb (stored)"
	if [ "$(cat "$TMPD/c.rc")" = 2 ]; then
		# An error is never stored.
		[ "$(nans)" = "$before" ] || fail "$verb: an error was stored"
		stored b && fail "$verb: an error came from the store"
		continue
	fi
	[ "$(nans)" = $((before + 1)) ] || fail "$verb: $(nans) answers, expected $((before + 1))"
	stored b || fail "$verb: the second run did not come from the store: $(cat "$TMPD/b.err")"
	loaded b && fail "$verb: the stored answer read the cache: $(cat "$TMPD/b.err")"
done

# The table form, with its warnings on stderr, and its width.
GPULENS_ANSWERS=0 run c "$G" stats "$T"
run a "$G" stats "$T"
served c b "stats (table)" "$G" stats "$T"
grep -v '^timing:' "$TMPD/c.err" >"$TMPD/c.e"
grep -v '^timing:' "$TMPD/b.err" >"$TMPD/b.e"
cmp -s "$TMPD/c.e" "$TMPD/b.e" || fail "stats (table): stderr differs"
for w in 40 200; do
	COLUMNS=$w GPULENS_ANSWERS=0 run c$w "$G" stats "$T"
	COLUMNS=$w run a "$G" stats "$T"
	COLUMNS=$w served c$w b$w "stats at COLUMNS=$w" "$G" stats "$T"
done
cmp -s "$TMPD/c40.out" "$TMPD/c200.out" && fail "the width changes nothing: a weak test"

# Other arguments, another GPULENS_* variable: their own answers.
before=$(nans)
GPULENS_ANSWERS=0 run c "$G" stats "$T" --json --limit 2
run a "$G" stats "$T" --json --limit 2
served c b "stats --limit 2" "$G" stats "$T" --json --limit 2
GPULENS_OTHER=1 run a "$G" stats "$T" --json --limit 2
stored a && fail "another GPULENS_* variable got the same answer"
[ "$(nans)" = $((before + 2)) ] || fail "other arguments and variables: $(nans) answers, expected $((before + 2))"
# A fast answer is not stored.
before=$(nans)
GPULENS_ANSWER_MIN_MS=100000 run a "$G" stats "$T" --json --limit 3
[ "$(nans)" = "$before" ] || fail "an answer faster than GPULENS_ANSWER_MIN_MS was stored"
# Several traces: not stored.
cp "$T" "$TMPD/u.sqlite"
run a "$G" summary "$T" "$TMPD/u.sqlite" --json
run b "$G" summary "$T" "$TMPD/u.sqlite" --json
stored b && fail "an answer on two traces came from the store"

# An answer larger than ANSWERS_MAX (16 MiB): printed whole, not stored.
expect_rc 0 "$G" demo --out "$TMPD/big.sqlite" --events 100000 --gpus 1
expect_rc 0 "$G" prep "$TMPD/big.sqlite"
before=$(nans)
GPULENS_ANSWERS=0 run c "$G" search "$TMPD/big.sqlite" --json --limit 0
[ "$(wc -c <"$TMPD/c.out")" -gt $((16 << 20)) ] || fail "the big answer is $(wc -c <"$TMPD/c.out") bytes: a weak test"
run a "$G" search "$TMPD/big.sqlite" --json --limit 0
same c a "search --limit 0 (over 16 MiB)"
computed c b "search --limit 0 (over 16 MiB, again)" "$G" search \
    "$TMPD/big.sqlite" --json --limit 0
[ "$(nans)" = "$before" ] || fail "an answer over 16 MiB was stored"
expect_rc 0 "$G" clean "$TMPD/big.sqlite"
rm -f "$TMPD/big.sqlite" "$TMPD/c.out" "$TMPD/a.out" "$TMPD/b.out"

# A damaged answer file, a truncated one, a foreign one: recomputed.
GPULENS_ANSWERS=0 run c "$G" summary "$T" --json
for how in flip truncate foreign; do
	for f in "$A"/*.answer; do
		case $how in
		flip) python3 -c "import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[len(b) // 2] ^= 0x55
open(p, 'wb').write(b)" "$f";;
		truncate) head -c 60 "$f" >"$f.x" && mv "$f.x" "$f";;
		foreign) echo "not an answer" >"$f";;
		esac
	done
	computed c b "summary after a $how answer file" "$G" summary "$T" --json
	served c b "summary stored again after $how" "$G" summary "$T" --json
done

# A rebuilt cache (the trace touched): the old answers are removed by the
# next answer computed.
[ "$(nans)" -gt 1 ] || fail "too few answers before the rebuild: $(nans)"
touch "$T"
computed c a "summary after touch (an old answer?)" "$G" summary "$T" --json
[ "$(nans)" = 1 ] || fail "the rebuilt cache left $(nans) answers, expected 1"

# A changed trace (content and mtime): recomputed, its own answer.
cp "$GPULENS_SRCDIR/fixtures/nsys/export-2022.sqlite" "$T"
GPULENS_ANSWERS=0 run c "$G" summary "$T" --json
computed c a "summary of the changed trace (the old answer?)" "$G" summary \
    "$T" --json
served c b "summary of the changed trace (stored)" "$G" summary "$T" --json

# clean removes the answers with the cache.
[ "$(nans)" -gt 0 ] || fail "no answers before clean"
expect_rc 0 "$G" clean "$T"
[ "$(ls "$A" | grep -c "^t\.sqlite-")" = 0 ] || fail "clean left: $(ls "$A")"

# --no-cache and GPULENS_ANSWERS=0 neither write nor read answers.
expect_rc 0 "$G" --no-cache summary "$T" --json
[ "$(nans)" = 0 ] || fail "--no-cache stored an answer"
expect_rc 0 "$G" prep "$T"
GPULENS_ANSWERS=0 run a "$G" summary "$T" --json
[ "$(nans)" = 0 ] || fail "GPULENS_ANSWERS=0 stored an answer"
run a "$G" summary "$T" --json
[ "$(nans)" = 1 ] || fail "the answer was not stored"
GPULENS_ANSWERS=0 run b "$G" summary "$T" --json
stored b && fail "GPULENS_ANSWERS=0 read the store"
loaded b || fail "GPULENS_ANSWERS=0 did not load the model"
run b "$G" --no-cache summary "$T" --json
stored b && fail "--no-cache read the store"

# prep --answers: the JSON answers of the verbs that take the trace alone;
# the next call loads no model. Its count is in the JSON envelope too.
expect_rc 0 "$G" clean "$T"
unset GPULENS_ANSWER_MIN_MS
expect_rc 0 "$G" prep --answers "$T"
n=$(sed -n "s|^$T: \([0-9]*\) answers stored\$|\1|p" "$TMPD/out")
[ -n "$n" ] && [ "$n" -ge 20 ] || fail "prep --answers says: $(cat "$TMPD/out")"
[ "$(nans)" = "$n" ] || fail "prep --answers: $(nans) files for $n answers"
expect_rc 0 "$G" prep --answers --json "$T"
check_json prep "$TMPD/out" "d['data']['auxiliary']['answers'] == $n and rows[0]['action'] == 'reused'"
for v in summary stats findings window; do
	GPULENS_ANSWERS=0 run c "$G" $v "$T" --json
	served c b "$v after prep --answers" "$G" $v "$T" --json
	loaded b && fail "$v after prep --answers loaded the model"
done
# As typed: another spelling of the path is another answer.
(cd "$TMPD" && GPULENS_TIMING=1 "$G" summary ./t.sqlite --json >"$TMPD/d.out" 2>"$TMPD/d.err")
stored d && fail "./t.sqlite got the answer of $T"

# An unusable cache directory still answers.
: >"$TMPD/file"
XDG_CACHE_HOME="$TMPD/file/x" GPULENS_ANSWERS=0 run c "$G" summary "$T" --json
XDG_CACHE_HOME="$TMPD/file/x" run a "$G" summary "$T" --json
same c a "summary without a cache directory"
if [ "$(id -u)" != 0 ]; then
	# (root writes whatever the mode says)
	expect_rc 0 "$G" clean "$T"
	expect_rc 0 "$G" prep "$T"
	GPULENS_ANSWERS=0 run c "$G" summary "$T" --json
	chmod 500 "$A"
	run a "$G" summary "$T" --json
	chmod 700 "$A"
	same c a "summary with a read-only cache directory"
	[ "$(nans)" = 0 ] || fail "an answer was stored in a read-only directory"
fi
[ -z "$(find "$GPULENS_SRCDIR/fixtures" -name '.*' -newer "$T")" ] || fail "a file appeared among the fixtures"
pass
