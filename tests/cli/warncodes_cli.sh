#!/bin/sh
# warncodes_cli: meta.warning_codes runs parallel to meta.warnings (same
# length, snake_case codes) in every verb's answer, load warnings get their
# stable code, and "tables not loaded" is said by info only, not repeated
# by every verb.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
cli_setup python3
G=$GPULENS
S=$GPULENS_SRCDIR
# codes FILE: the warning codes of the envelope in FILE, space-separated,
# after checking they pair with the warnings.
codes() {
	python3 - "$1" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))["meta"]
w, c = m["warnings"], m["warning_codes"]
if len(w) != len(c) or not all(re.match(r"^[a-z][a-z0-9_]*$", x) for x in c):
    print("BAD", w, c)
print(" ".join(c))
PY
}
# A trace with a non-empty table no reader loads.
T=$TMPD/extra.sqlite
cp "$S/fixtures/nsys/export-2022.sqlite" "$T"
python3 -c "import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute('CREATE TABLE SOME_FUTURE_TABLE (x INTEGER)'); d.execute('INSERT INTO SOME_FUTURE_TABLE VALUES (1)'); d.commit()" "$T"
expect_rc 0 "$G" info "$T" --json
c=$(codes "$TMPD/out")
[ "$c" = "tables_not_loaded" ] || fail "info codes: $c"
grep -q 'tables not loaded: SOME_FUTURE_TABLE' "$TMPD/out" || fail "info: $(cat "$TMPD/out")"
for v in summary stats gaps search findings timeline overlap; do
	expect_rc 0 "$G" "$v" "$T" --json
	c=$(codes "$TMPD/out")
	case $c in *BAD*|*tables_not_loaded*) fail "$v: $c" ;; esac
	grep -q 'tables not loaded' "$TMPD/out" && fail "$v repeats the tables warning"
done
# Load warnings of other readers, and a verb's own warning.
expect_rc 0 "$G" info "$S/fixtures/chrome/nsightful.json" --json
[ "$(codes "$TMPD/out")" = "generic_chrome" ] || fail "chrome: $(codes "$TMPD/out")"
expect_rc 0 "$G" info "$S/fixtures/rpd/train.rpd" --json
[ "$(codes "$TMPD/out")" = "records_not_loaded" ] || fail "rpd: $(codes "$TMPD/out")"
expect_rc 0 "$G" info "$S/fixtures/kineto/merged-2ranks.json.gz" --json
[ "$(codes "$TMPD/out")" = "merged_ranks" ] || fail "merged: $(codes "$TMPD/out")"
expect_rc 0 "$G" stats "$S/fixtures/nsys/export-2022.sqlite" --type memcpy --name nosuchname --json
[ "$(codes "$TMPD/out")" = "no_match" ] || fail "stats no match: $(codes "$TMPD/out")"
expect_rc 0 "$G" comm "$S/fixtures/nsys/export-2021.sqlite" --json
[ "$(codes "$TMPD/out")" = "no_communication" ] || fail "comm: $(codes "$TMPD/out")"
pass
