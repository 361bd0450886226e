#!/bin/sh
# info_cache_test: `gpulens info` with a valid cache reads only the cache's
# head (cache_load_summary) and prints exactly what a full load of the trace
# prints, as a table, JSON and CSV; with a damaged cache it falls back to the
# full load, same output.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
T="$TMPD/t.sqlite"
cli_setup

expect_rc 0 "$G" demo --out "$T" --events 20000 --gpus 2 --seed 3
n=0
for fmt in table --json "--format csv"; do
	[ "$fmt" = table ] && fmt=
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$G" --no-cache info $fmt "$T" >"$TMPD/cold$n" 2>"$TMPD/err" ||
	    fail "--no-cache info $fmt: $(cat "$TMPD/err")"
done
[ ! -e "$XDG_CACHE_HOME" ] || fail "--no-cache wrote a cache"
"$G" prep "$T" >/dev/null 2>"$TMPD/err" || fail "prep: $(cat "$TMPD/err")"
C=$(echo "$XDG_CACHE_HOME"/gpulens/t.sqlite-*.gpulens)
[ -s "$C" ] || fail "prep wrote no cache"
[ -z "$(ls -A "$TMPD" | grep -v -e '^cold' -e '^err$' -e '^out$' -e '^t.sqlite$' -e '^xdg$')" ] ||
    fail "prep wrote beside the trace: $(ls -A "$TMPD")"

n=0
for fmt in table --json "--format csv"; do
	[ "$fmt" = table ] && fmt=
	n=$((n + 1))
	# shellcheck disable=SC2086
	GPULENS_TIMING=1 "$G" info $fmt "$T" >"$TMPD/warm$n" 2>"$TMPD/err" ||
	    fail "info $fmt: $(cat "$TMPD/err")"
	grep -q "^timing: cache-read" "$TMPD/err" ||
	    fail "info $fmt did not use the cache"
	grep -q "^timing: read" "$TMPD/err" && fail "info $fmt read the trace"
	cmp -s "$TMPD/cold$n" "$TMPD/warm$n" || fail "info $fmt from the" \
	    "cache differs: $(diff "$TMPD/cold$n" "$TMPD/warm$n" | head -5)"
done

# A damaged head: the summary is refused, the full load takes over (and
# rewrites the cache); the output stays the same.
printf 'XXXX' | dd of="$C" bs=1 seek=300 conv=notrunc 2>/dev/null ||
    fail "cannot damage the cache"
GPULENS_TIMING=1 "$G" info --json "$T" >"$TMPD/again" 2>"$TMPD/err" ||
    fail "info on a damaged cache: $(cat "$TMPD/err")"
grep -q "^timing: read" "$TMPD/err" ||
    fail "info on a damaged cache did not read the trace"
cmp -s "$TMPD/cold2" "$TMPD/again" || fail "info after a damaged cache differs"
GPULENS_TIMING=1 "$G" info --json "$T" >"$TMPD/again" 2>"$TMPD/err" ||
    fail "info on the rewritten cache"
grep -q "^timing: read" "$TMPD/err" && fail "the cache was not rewritten"
cmp -s "$TMPD/cold2" "$TMPD/again" ||
    fail "info from the rewritten cache differs"
pass
