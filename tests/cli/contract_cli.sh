#!/bin/sh
# contract_cli: --json anywhere on the line gets a JSON error envelope on
# standard output for a usage error, wherever the error is (an option
# before --json, an unknown verb, an unknown schema), exit 2; `gpulens
# schema` without a verb lists its targets, each of which prints a schema.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
T="$TMPD/t.sqlite"
"$G" demo --out "$T" --events 3000 >/dev/null 2>&1 || fail "demo"
envelope() {	# envelope CODE: stdout is one error envelope with CODE
	python3 - "$TMPD/out" "$1" <<'PY' || fail "no $1 envelope: $(cat "$TMPD/out") / $(cat "$TMPD/err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "gpulens/v1" and d["error"]["code"] == sys.argv[2], d
assert "data" not in d, d
PY
}
for args in "stats $T --limit abc --json" "stats --limit abc $T --json" \
    "gaps $T --scope nowhere --json" "search $T --type nothing --format json" \
    "nvtx $T --bogus --json" "diff $T --json" "frobnicate --json $T" \
    "--json frobnicate $T" "schema bogus --json" "schema stats extra --json"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$G" $args
	envelope usage
done
# Without --json the same errors stay text on stderr.
expect_rc 2 "$G" stats "$T" --limit abc
[ -s "$TMPD/out" ] && fail "a table-mode usage error wrote to stdout"
grep -q "limit" "$TMPD/err" || fail "no message: $(cat "$TMPD/err")"
# schema lists its targets; each one prints a schema.
expect_rc 0 "$G" schema
[ "$(wc -l <"$TMPD/out")" -ge 20 ] || fail "schema lists: $(cat "$TMPD/out")"
grep -qx stats "$TMPD/out" || fail "schema does not list stats"
grep -qx report-inspect "$TMPD/out" || fail "schema does not list report-inspect"
for v in $(cat "$TMPD/out"); do
	"$G" schema "$v" | python3 -c 'import json,sys; json.load(sys.stdin)' ||
	    fail "schema $v is not JSON"
done
pass
