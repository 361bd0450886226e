# testlib.sh: helpers for shell tests (sourced). Exit 0 pass, 1 fail, 77 skip.
: "${GPULENS:=./gpulens}"
: "${GPULENS_SRCDIR:=.}"
# The python checks the tests write import clicheck (tests/cli/clicheck.py).
export PYTHONPATH="$GPULENS_SRCDIR/tests/cli${PYTHONPATH:+:$PYTHONPATH}"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gpulens-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
pass() { echo "PASS"; exit 0; }
# fixture VAR REL WHAT: sets VAR to $GPULENS_FIXTURES/REL and succeeds if
# that file is there; else says that WHAT is absent and skipped, and fails
# (for `if fixture ...; then`).
fixture() {
	eval "$1=\"\${GPULENS_FIXTURES:-}/\$2\""
	[ -n "${GPULENS_FIXTURES:-}" ] && [ -f "$GPULENS_FIXTURES/$2" ] &&
	    return 0
	echo "$3 absent: skipped"
	return 1
}
# cli_setup [CMD...]: skips the test unless each CMD is on PATH, and keeps
# what gpulens caches in $TMPD/xdg (XDG_CACHE_HOME, exported).
cli_setup() {
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || skip "$_c missing"
	done
	export XDG_CACHE_HOME="$TMPD/xdg"
}
# expect_rc WANT CMD...: runs CMD, fails unless it exits WANT.
expect_rc() {
	want=$1; shift
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$TMPD/err")"
}
# check_json VERB JSON-FILE PYTHON-EXPR: validates the document in JSON-FILE
# against `gpulens schema VERB`, then fails unless PYTHON-EXPR is true, with
# d the document and rows its data.rows.
check_json() {
	"$GPULENS" schema "$1" >"$TMPD/schema.json" || fail "schema $1"
	python3 - "$TMPD/schema.json" "$2" "$3" <<'PY' || fail "$1: $3 ($(head -c 400 "$2"))"
import json, os, sys
sys.path.insert(0, os.path.join(os.environ.get("GPULENS_SRCDIR", "."),
                                "tests", "cli"))
from schema_test import validate
s = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
errs = validate(d, s)
if errs:
    print(errs[:3]); sys.exit(1)
rows = d.get("data", {}).get("rows", [])
sys.exit(0 if eval(sys.argv[3]) else 1)
PY
}
# sql_apply DB WHAT STATEMENT...: runs the SQL statements on the SQLite
# database DB in order (python3's sqlite3) and commits them; fails with
# WHAT if one fails.
sql_apply() {
	db=$1 what=$2
	shift 2
	python3 - "$db" "$@" <<'PY' || fail "$what"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for sql in sys.argv[2:]:
    db.execute(sql)
db.commit()
db.close()
PY
}
# tui_script WHAT TRACE...: runs the terminal UI at 100x30 on the traces,
# driven by the key script $TMPD/script with no terminal, its output in
# $TMPD/tui.out; fails with WHAT and that output unless it exits 0.
tui_script() {
	what=$1; shift
	GPULENS_TUI_SIZE=100x30 "$GPULENS" --script "$TMPD/script" "$@" \
	    </dev/null >"$TMPD/tui.out" 2>&1 ||
	    fail "$what: $(cat "$TMPD/tui.out")"
}
# screen_has PATTERN DUMP WHAT: fails with WHAT and the screen dump unless
# a line of DUMP matches PATTERN (grep).
screen_has() { grep -q "$1" "$2" || fail "$3: $(cat "$2")"; }
