#!/bin/sh
# concurrency_cli: several `gpulens prep` of one fresh trace at the same
# time all succeed and leave exactly one valid cache and no temporary
# files, under $XDG_CACHE_HOME (nothing next to the trace, in a writable or
# a read-only directory) and, with `prep --beside`, next to the trace; the
# cache they leave answers like a parse of the trace, and so does every
# load that runs while they write (a reader never sees a partial cache).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
N=4		# concurrent writers
ROUNDS=3

cli_setup
T="$TMPD/trace.sqlite"
"$G" demo --out "$T" --events 20000 --gpus 2 --seed 11 >/dev/null 2>&1 ||
    fail "demo --out"
# want TRACE: what a parse of TRACE answers, into $TMPD/want.
want() {
	"$G" --no-cache summary --json "$1" >"$TMPD/want" 2>"$TMPD/err" ||
	    fail "parse: $(cat "$TMPD/err")"
}

# race DIR TRACE: N preps of TRACE at once, and N loads; all must exit 0
# without a word on stderr, and the loads must answer as a parse does.
race() {
	i=0
	pids=
	while [ $i -lt $N ]; do
		# shellcheck disable=SC2086
		"$G" prep $PREP_OPTS "$2" >"$TMPD/p$i.out" 2>"$TMPD/p$i.err" &
		pids="$pids $!"
		"$G" summary --json "$2" >"$TMPD/r$i.out" 2>"$TMPD/r$i.err" &
		pids="$pids $!"
		i=$((i + 1))
	done
	for p in $pids; do
		wait "$p" || fail "a prep or load exited $?: $(cat "$TMPD"/[pr]*.err)"
	done
	i=0
	while [ $i -lt $N ]; do
		[ -s "$TMPD/p$i.err" ] && fail "prep $i complained: $(cat "$TMPD/p$i.err")"
		[ -s "$TMPD/r$i.err" ] && fail "load $i complained: $(cat "$TMPD/r$i.err")"
		cmp -s "$TMPD/want" "$TMPD/r$i.out" ||
		    fail "load $i during the race answers differently"
		i=$((i + 1))
	done
}

# check DIR TRACE: DIR holds one cache (a regular file) and no temporary
# file, and a load of TRACE reads that cache and answers as a parse does.
check() {
	n=$(find "$1" -maxdepth 1 -name '*.gpulens' -type f | wc -l)
	[ "$n" -eq 1 ] || fail "$n caches in $1: $(ls -la "$1")"
	t=$(find "$1" -maxdepth 1 -name '*.gpulens.*' | wc -l)
	[ "$t" -eq 0 ] || fail "temporary files left in $1: $(ls -la "$1")"
	GPULENS_TIMING=1 "$G" summary --json "$2" >"$TMPD/got" 2>"$TMPD/e" ||
	    fail "load after the race: $(cat "$TMPD/e")"
	grep -q '^timing: cache-read' "$TMPD/e" ||
	    fail "the cache left by the race was not used: $(cat "$TMPD/e")"
	grep -q '^timing: read' "$TMPD/e" && fail "the trace was parsed again"
	cmp -s "$TMPD/want" "$TMPD/got" ||
	    fail "the cache left by the race answers differently"
}

PREP_OPTS=
want "$T"
r=0
while [ $r -lt $ROUNDS ]; do
	"$G" clean "$T" >/dev/null
	race "$TMPD" "$T"
	[ ! -e "$TMPD/.trace.sqlite.gpulens" ] || fail "a cache beside the trace"
	check "$XDG_CACHE_HOME/gpulens" "$T"
	r=$((r + 1))
done

# prep --beside: the cache goes next to the trace, and is read from there.
"$G" clean "$T" >/dev/null
PREP_OPTS=--beside
race "$TMPD" "$T"
check "$TMPD" "$T"
"$G" clean "$T" >/dev/null
[ ! -e "$TMPD/.trace.sqlite.gpulens" ] || fail "clean left the cache beside"
PREP_OPTS=

# A trace in a read-only directory: likewise.
mkdir "$TMPD/ro"
cp "$T" "$TMPD/ro/trace.sqlite"
chmod 555 "$TMPD/ro"
R="$TMPD/ro/trace.sqlite"
want "$R"
r=0
while [ $r -lt $ROUNDS ]; do
	"$G" clean "$R" >/dev/null
	race "$TMPD/ro" "$R"
	[ "$(ls -A "$TMPD/ro")" = "trace.sqlite" ] ||
	    fail "written next to a read-only trace: $(ls -A "$TMPD/ro")"
	check "$XDG_CACHE_HOME/gpulens" "$R"
	r=$((r + 1))
done
chmod 755 "$TMPD/ro"
pass
