# testlib.sh: helpers for shell tests (sourced). Exit 0 pass, 1 fail, 77 skip.
: "${GPULENS:=./gpulens}"
: "${GPULENS_SRCDIR:=.}"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gpulens-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
pass() { echo "PASS"; exit 0; }
# expect_rc WANT CMD...: runs CMD, fails unless it exits WANT.
expect_rc() {
	want=$1; shift
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$TMPD/err")"
}
