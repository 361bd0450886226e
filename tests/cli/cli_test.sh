#!/bin/sh
# cli_test: the command line end to end: exit codes and messages on bad
# input, info on a generated trace checked against plain SQL, the cache
# life cycle (write, reuse, invalidate, clean, --no-cache), and that loading
# a real fixture writes nothing next to it.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
cli_setup sqlite3
G=$GPULENS

# Usage errors.
expect_rc 2 "$G"
expect_rc 2 "$G" frobnicate extra
expect_rc 2 "$G" --bogus
expect_rc 2 "$G" "$TMPD/does-not-exist"
grep -q "neither a verb nor a file" "$TMPD/err" || fail "missing-file message: $(cat "$TMPD/err")"
expect_rc 0 "$G" --help
grep -q "demo" "$TMPD/out" || fail "--help lists no verbs"
expect_rc 0 "$G" info --help
grep -q "usage: gpulens info" "$TMPD/out" || fail "info --help"
expect_rc 2 "$G" demo --events nope

# Bad inputs: one line naming the file, exit 2.
printf 'hello world\n' >"$TMPD/text.sqlite"
expect_rc 2 "$G" --no-cache info "$TMPD/text.sqlite"
grep -q "text.sqlite" "$TMPD/err" || fail "bad-file message does not name the file"
[ "$(wc -l <"$TMPD/err")" -eq 1 ] || fail "bad-file message is not one line: $(cat "$TMPD/err")"
: >"$TMPD/empty.sqlite"
expect_rc 2 "$G" --no-cache info "$TMPD/empty.sqlite"
mkdir "$TMPD/adir"
expect_rc 2 "$G" --no-cache info "$TMPD/adir"
sqlite3 "$TMPD/other.db" 'create table t(x); insert into t values(1);'
expect_rc 2 "$G" --no-cache info "$TMPD/other.db"
grep -qi "not an Nsight Systems" "$TMPD/err" || fail "foreign SQLite message: $(cat "$TMPD/err")"

# A generated trace: info counts equal plain SQL.
T="$TMPD/demo.sqlite"
expect_rc 0 "$G" demo --out "$T" --events 30000 --gpus 2 --seed 7
[ -s "$T" ] || fail "demo --out wrote nothing"
expect_rc 0 "$G" --no-cache info "$T"
k=$(sqlite3 "$T" 'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL')
c=$(sqlite3 "$T" 'select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY')
got_k=$(sed -n 's/.* kernel \([0-9,]*\).*/\1/p' "$TMPD/out" | tr -d ,)
got_c=$(sed -n 's/.* memcpy \([0-9,]*\).*/\1/p' "$TMPD/out" | tr -d ,)
[ "$got_k" = "$k" ] || fail "info kernel count $got_k, SQL says $k"
[ "$got_c" = "$c" ] || fail "info memcpy count $got_c, SQL says $c"
grep -q "^devices    2" "$TMPD/out" || fail "info devices: $(cat "$TMPD/out")"
[ ! -e "$XDG_CACHE_HOME/gpulens/demo.sqlite-"* ] || fail "--no-cache wrote a cache"

# Cache life cycle: in $XDG_CACHE_HOME/gpulens, nothing beside the trace.
GPULENS_TIMING=1 "$G" info "$T" >"$TMPD/o1" 2>"$TMPD/e1" || fail "first load"
[ ! -e "$TMPD/.demo.sqlite.gpulens" ] || fail "a cache next to the trace"
C=$(echo "$XDG_CACHE_HOME"/gpulens/demo.sqlite-*.gpulens)
[ -s "$C" ] || fail "no cache in the cache directory"
grep -q "^timing: cache-write" "$TMPD/e1" || fail "first load did not write the cache"
GPULENS_TIMING=1 "$G" info "$T" >"$TMPD/o2" 2>"$TMPD/e2" || fail "second load"
grep -q "^timing: cache-read" "$TMPD/e2" || fail "second load did not use the cache"
grep -q "^timing: read" "$TMPD/e2" && fail "second load parsed the trace again"
cmp -s "$TMPD/o1" "$TMPD/o2" || fail "cached load differs from parsed load"
# Corrupt cache: detected, rebuilt, same answer.
printf 'garbage' | dd of="$C" bs=1 seek=100 conv=notrunc 2>/dev/null
GPULENS_TIMING=1 "$G" info "$T" >"$TMPD/o3" 2>"$TMPD/e3" || fail "load with corrupt cache"
grep -q "^timing: read" "$TMPD/e3" || fail "corrupt cache was trusted"
cmp -s "$TMPD/o1" "$TMPD/o3" || fail "rebuilt cache gives a different answer"
# Touching the trace invalidates the cache.
touch -d '2001-01-01' "$T"
GPULENS_TIMING=1 "$G" info "$T" >/dev/null 2>"$TMPD/e4" || fail "load after touch"
grep -q "^timing: read" "$TMPD/e4" || fail "stale cache (mtime changed) was used"
expect_rc 0 "$G" clean "$T"
[ ! -e "$C" ] || fail "clean left the cache"
expect_rc 0 "$G" prep "$T"
[ -s "$C" ] || fail "prep wrote no cache"
[ ! -e "$TMPD/.demo.sqlite.gpulens" ] || fail "prep wrote next to the trace"

# --max-memory: a load that needs more fails cleanly with exit 2 (the
# limit comes on top of a fixed allowance for thread stacks, so the trace
# must be large enough to exceed it). A sanitizer build cannot run under
# an address-space limit at all: then these checks are skipped.
B="$TMPD/big.sqlite"
expect_rc 0 "$G" demo --out "$B" --events 500000 --gpus 2
if "$G" --no-cache --max-memory 2G info "$B" >/dev/null 2>"$TMPD/err"; then
	expect_rc 2 "$G" --no-cache --max-memory 4M info "$B"
	grep -Eq "memory limit|out of memory" "$TMPD/err" || fail "--max-memory message: $(cat "$TMPD/err")"
	expect_rc 2 env GPULENS_MAX_MEMORY=4M "$G" --no-cache info "$B"
elif grep -q "sanitizer builds" "$TMPD/err"; then
	echo "sanitizer build: --max-memory checks skipped"
else
	fail "--max-memory 2G: $(cat "$TMPD/err")"
fi
expect_rc 2 "$G" --max-memory lots info "$T"

# Real fixtures: the file and its directory are unchanged by a load.
F="$GPULENS_FIXTURES/nsys/nsys-ai/mock.sqlite"
if [ -f "$F" ]; then
	before=$(ls -la --time-style=full-iso "$(dirname "$F")" | md5sum)
	sum=$(md5sum <"$F")
	expect_rc 0 "$G" info "$F"
	grep -q "^source     nsys 2026.1.1.204" "$TMPD/out" || fail "mock.sqlite version: $(head -3 "$TMPD/out")"
	after=$(ls -la --time-style=full-iso "$(dirname "$F")" | md5sum)
	[ "$before" = "$after" ] || fail "loading a fixture changed its directory"
	[ "$sum" = "$(md5sum <"$F")" ] || fail "loading a fixture changed it"
else
	echo "fixtures absent ($GPULENS_FIXTURES): fixture part skipped"
fi
pass
