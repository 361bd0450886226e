#!/bin/sh
# man_test: man/gpulens.1 is clean under `mandoc -T lint` and mentions every
# verb in the verb table and every option a verb's --help lists.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
page="$GPULENS_SRCDIR/man/gpulens.1"
[ -f "$page" ] || fail "no man page at $page"
if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -T lint -W warning "$page" 2>&1) || true
	[ -z "$out" ] || fail "mandoc -T lint: $out"
else
	echo "mandoc missing: lint skipped"
fi
verbs=$("$GPULENS" --help | awk '/^  [a-z]/ {print $1}')
[ -n "$verbs" ] || fail "gpulens --help listed no verbs"
for v in $verbs; do
	grep -q "^\.It Nm Cm $v\b" "$page" || fail "verb '$v' is not documented in the man page"
	for opt in $("$GPULENS" "$v" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		o=${opt#--}
		grep -qE "Fl \\\\-$o\b" "$page" || fail "option '$opt' of '$v' is not in the man page"
	done
done
for opt in no-cache progress no-progress ascii no-color max-frames script max-memory; do
	grep -qE "Fl \\\\-$opt\b" "$page" || fail "global option --$opt is not in the man page"
done
# Every key in the TUI's key tables (global keys in tui/app.c, each view's
# in tui/view-*.c; the same tables fill the help) is in the man page.
tables=$(ls "$GPULENS_SRCDIR"/tui/app.c "$GPULENS_SRCDIR"/tui/view-*.c 2>/dev/null)
if [ -n "$tables" ]; then
	keys=$(sed -n 's/^[[:space:]]*{ { [^}]*}, "\([^"]*\)".*/\1/p' $tables | tr ' ' '\n' | sort -u)
	[ -n "$keys" ] || fail "no key table found in tui/"
	set -f		# keys like ? are not file patterns
	for k in $keys; do
		case $k in
		wheel) grep -q "mouse wheel" "$page" || fail "key 'wheel' is not in the man page" ;;
		click) grep -q "mouse click" "$page" || fail "key 'click' is not in the man page" ;;
		S-Tab) grep -q "Shift-Tab" "$page" || fail "key 'S-Tab' is not in the man page" ;;
		*) grep -qF "Ic $k" "$page" || grep -qF "Ic \\&$k" "$page" || grep -qF "Ic \\$k" "$page" ||
			fail "key '$k' is not in the man page" ;;
		esac
	done
	set +f
fi
pass
