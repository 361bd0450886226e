#!/bin/sh
# prep_clean_cli: prep and clean say what they did, a line per trace (the
# cache written or reused with its path and size; what was removed), and
# with --json answer with an envelope that validates against `gpulens
# schema prep` / `gpulens schema clean`: a row per trace with path, action,
# cache_file, files, bytes and error. A usage error and a trace that
# cannot be loaded give the error envelope (exit 2). On a copy of the
# project's fixture in a temporary directory, never on a shared fixture.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
T="$TMPD/t.sqlite"
cp "$GPULENS_SRCDIR/fixtures/nsys/export-2022.sqlite" "$T" || fail "copy"

# Text: written, then reused, with the cache file and its size.
expect_rc 0 "$G" prep "$T"
grep -q "^$T: cache written, $XDG_CACHE_HOME/gpulens/t.sqlite-[0-9a-f]*\.gpulens ([0-9.]* KiB)\$" "$TMPD/out" ||
    fail "prep says: $(cat "$TMPD/out")"
expect_rc 0 "$G" prep "$T"
grep -q "^$T: cache reused, " "$TMPD/out" || fail "prep again says: $(cat "$TMPD/out")"
cache=$(ls "$XDG_CACHE_HOME"/gpulens/t.sqlite-*.gpulens)
size=$(wc -c <"$cache" | tr -d ' ')
expect_rc 0 "$G" prep --json "$T"
check_json prep "$TMPD/out" "d['command'] == 'prep' and rows == [{'key': 'trace|path=$T', 'path': '$T', 'action': 'reused', 'cache_file': '$cache', 'files': 1, 'bytes': $size, 'error': None}]"
# One trace of two cannot be loaded: its row says so, exit 2; none: the
# error envelope.
expect_rc 2 "$G" prep "$TMPD/missing.sqlite" "$T" --json
check_json prep "$TMPD/out" "[r['action'] for r in rows] == ['failed', 'reused'] and 'missing.sqlite' in rows[0]['error']"
expect_rc 2 "$G" prep "$TMPD/missing.sqlite" --json
check_json prep "$TMPD/out" 'd["error"]["code"] == "bad_input"'
expect_rc 2 "$G" prep --json
check_json prep "$TMPD/out" 'd["error"]["code"] == "usage"'
expect_rc 2 "$G" prep --bogus "$T" --json
check_json prep "$TMPD/out" 'd["error"]["code"] == "usage"'
# --beside: the cache next to the trace.
expect_rc 0 "$G" prep --beside --json "$T"
check_json prep "$TMPD/out" "rows[0]['action'] == 'written' and rows[0]['cache_file'] == '$TMPD/.t.sqlite.gpulens'"

# clean: what was removed (the cache in the directory and beside), then
# nothing.
expect_rc 0 "$G" clean --json "$T"
check_json clean "$TMPD/out" "d['command'] == 'clean' and rows[0]['path'] == '$T' and rows[0]['action'] == 'removed' and rows[0]['files'] == 2 and rows[0]['bytes'] > 0 and rows[0]['cache_file'] == '$cache'"
[ -e "$cache" ] && fail "clean left $cache"
[ -e "$TMPD/.t.sqlite.gpulens" ] && fail "clean left the cache beside"
expect_rc 0 "$G" clean "$T"
grep -qx "$T: nothing to remove" "$TMPD/out" || fail "clean again says: $(cat "$TMPD/out")"
expect_rc 0 "$G" prep "$T"
expect_rc 0 "$G" clean "$T"
grep -q "^$T: removed 1 file ([0-9.]* KiB)\$" "$TMPD/out" || fail "clean says: $(cat "$TMPD/out")"
expect_rc 0 "$G" prep "$T"
expect_rc 0 "$G" clean --all --json
check_json clean "$TMPD/out" "rows[0]['path'] == '$XDG_CACHE_HOME/gpulens' and rows[0]['action'] == 'removed' and rows[0]['files'] == 1"
expect_rc 2 "$G" clean --json
check_json clean "$TMPD/out" 'd["error"]["code"] == "usage"'
expect_rc 2 "$G" clean --all "$T" --json
check_json clean "$TMPD/out" 'd["error"]["code"] == "usage"'
[ -f "$T" ] || fail "the trace was removed"
pass
