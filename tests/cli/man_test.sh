#!/bin/sh
# man_test: man/gpulens.1 is clean under `mandoc -T lint` and mentions every
# verb in the verb table, every option a verb's --help lists, and every key
# and action of the terminal UI's key tables (gpulens --list-keys).
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
for opt in no-cache progress no-progress ascii no-color max-frames script max-memory list-keys; do
	grep -qE "Fl \\\\-$opt\b" "$page" || fail "global option --$opt is not in the man page"
done
# The terminal UI's keys, from `gpulens --list-keys` (table, key, action,
# help; the same key tables drive the keys and the help overlay) against
# the man page: every key a table binds is on an .It line of that table's
# subsection and every action it runs in a ".Pq Cm" line there; and the
# other way round, every key and action the subsection lists is bound in
# that table. The pointer keys are "mouse wheel" and "mouse click".
list=$("$GPULENS" --list-keys) || fail "gpulens --list-keys failed"
[ -n "$list" ] || fail "gpulens --list-keys listed nothing"
tab=$(printf '\t')
echo "$list" | grep -v "^[a-z]*$tab[^$tab]*$tab[a-z-]*$tab[^$tab]*\$" |
    grep -q . && fail "--list-keys: a line is not TABLE, KEY, ACTION, HELP"
# section TABLE: the lines of the man page's subsection for a key table.
section() {
	case $1 in
	global) t="Keys in every view" ;;
	timeline) t="Timeline keys" ;;
	nvtx) t="NVTX tree keys" ;;
	kernels) t="Kernel table keys" ;;
	findings) t="Findings panel" ;;
	report) t="Report view" ;;
	job) t="Job overview keys" ;;
	overlay) t="Keys in a box" ;;
	*) fail "--list-keys: unknown table '$1'" ;;
	esac
	awk -v t=".Ss $t" '$0 == t { on = 1; next }
	    on && /^\.S[sh] / { exit } on' "$page"
}
# The keys of a subsection's .It lines, one per line, as --list-keys names
# them (both wheel directions as "wheel").
man_keys() {
	section "$1" | grep '^\.It ' |
	    sed 's/No mouse wheel/Ic wheel/g; s/No mouse click/Ic Click/g' |
	    grep -o 'Ic [^ ]*' | sed 's/^Ic //; s/\\&//g; s/\\-/-/g' |
	    sed 's/^Shift-Tab$/S-Tab/'
}
man_actions() {
	section "$1" | grep '^\.Pq Cm ' | grep -o 'Cm [a-z][a-z-]*' |
	    sed 's/^Cm //'
}
tables=$(echo "$list" | cut -f1 | uniq)
for t in global timeline nvtx kernels findings report overlay; do
	echo "$tables" | grep -qx "$t" || fail "--list-keys has no table '$t'"
done
set -f		# keys like ? are not file patterns
for t in $tables; do
	mk=$(man_keys "$t")
	ma=$(man_actions "$t")
	[ -n "$mk" ] || fail "no keys in the man page's section for '$t'"
	bound=$(echo "$list" | awk -F "$tab" -v t="$t" '$1 == t {
	    k = $2; if (k == "WheelUp" || k == "WheelDown") k = "wheel";
	    print k "\t" $3 }')
	echo "$bound" | while IFS="$tab" read -r k a; do
		echo "$mk" | grep -Fxq -- "$k" ||
		    fail "$t key '$k' ($a) is not in the man page"
		echo "$ma" | grep -Fxq -- "$a" ||
		    fail "$t action '$a' is not in the man page"
	done || exit 1
	for k in $mk; do
		echo "$bound" | cut -f1 | grep -Fxq -- "$k" ||
		    fail "the man page lists $t key '$k', which $t does not bind"
	done
	for a in $ma; do
		echo "$bound" | cut -f2 | grep -Fxq -- "$a" ||
		    fail "the man page lists $t action '$a', which no $t key runs"
	done
done
set +f
pass
