#!/bin/sh
# recipes_cli: every command of every recipe (gpulens recipes, the agent
# skill file) runs as printed and exits 0 with its placeholders filled:
# TRACE, BEFORE/AFTER, DIR, REPORT and ID from real fixtures when present,
# else from generated traces (the report steps then skip); the list and
# each recipe print, an unknown one is a usage error, --skill prints the
# file that is installed, and the man page names every recipe.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup
FX=${GPULENS_FIXTURES:-/nonexistent}

expect_rc 0 "$G" recipes
names=$(sed -n 's/^\([a-z][a-z-]*\)  *[A-Z].*/\1/p' "$TMPD/out")
[ "$(echo "$names" | wc -l)" -ge 7 ] || fail "recipes lists: $(cat "$TMPD/out")"
for n in $names; do
	expect_rc 0 "$G" recipes "$n"
	grep -q "^### $n: " "$TMPD/out" || fail "recipe $n: $(head -2 "$TMPD/out")"
	grep -q "gpulens recipes $n\$" "$GPULENS_SRCDIR/man/gpulens.1" ||
	    fail "the man page does not describe recipe $n"
done
expect_rc 2 "$G" recipes no-such-recipe
expect_rc 0 "$G" recipes --skill
cmp -s "$TMPD/out" "$GPULENS_SRCDIR/headless/recipes/SKILL.md" ||
    fail "recipes --skill differs from headless/recipes/SKILL.md"

# The inputs.
if [ -f "$FX/nsys/nsys-ai/mfu_2gpu_before.sqlite" ]; then
	TRACE="$FX/nsys/nsys-ai/mfu_2gpu_before.sqlite"
	BEFORE=$TRACE
	AFTER="$FX/nsys/nsys-ai/mfu_2gpu_after.sqlite"
else
	TRACE="$TMPD/t.sqlite"
	"$G" demo --out "$TRACE" --events 20000 --gpus 2 --seed 1 >/dev/null 2>&1 ||
	    fail "demo"
	BEFORE=$TRACE
	AFTER="$TMPD/t2.sqlite"
	"$G" demo --out "$AFTER" --events 20000 --gpus 2 --seed 2 >/dev/null 2>&1 ||
	    fail "demo"
fi
DIR="$TMPD/ranks"
mkdir "$DIR"
if [ -f "$FX/kineto/hta/trace_filter__sampled_rank-0.json.gz" ]; then
	ln -s "$FX/kineto/hta/trace_filter__sampled_rank-0.json.gz" "$DIR/r0.json.gz"
	ln -s "$FX/kineto/hta/trace_filter__sampled_rank-1.json.gz" "$DIR/r1.json.gz"
else
	for r in 0 1; do
		"$G" demo --format kineto --rank $r --gpus 2 --events 5000 \
		    --out "$DIR/r$r.pt.trace.json" >/dev/null 2>&1 || fail "demo rank $r"
	done
fi
REPORT=
[ -f "$FX/ncu/speedy_scan/profile.ncu-rep" ] &&
    REPORT="$FX/ncu/speedy_scan/profile.ncu-rep"
"$G" search "$TRACE" --type kernel --limit 1 --json >"$TMPD/s" ||
    fail "search for an id"
ID=$(sed -n 's/.*"key":"ev|id=\([0-9]*\)".*/\1/p' "$TMPD/s" | head -1)
[ -n "$ID" ] || fail "no kernel id in $(head -c 300 "$TMPD/s")"

# Every command, as printed, with the placeholders filled.
"$G" recipes --skill | sed -n 's/^[0-9][0-9]*\. `\(gpulens [^`]*\)`.*/\1/p' \
    >"$TMPD/cmds"
[ "$(wc -l <"$TMPD/cmds")" -ge 20 ] || fail "few commands: $(cat "$TMPD/cmds")"
n=0
while read -r cmd; do
	case "$cmd" in
	*REPORT*) [ -n "$REPORT" ] || { echo "skip (no report): $cmd"; continue; } ;;
	esac
	set -f
	# shellcheck disable=SC2086
	set -- $cmd
	set +f
	shift
	args=
	for a in "$@"; do
		case "$a" in
		TRACE) a=$TRACE ;; BEFORE) a=$BEFORE ;; AFTER) a=$AFTER ;;
		DIR) a=$DIR ;; REPORT) a=$REPORT ;; ID) a=$ID ;;
		esac
		args="$args$(printf '%s\001' "$a")"
	done
	# Rebuild "$@" from the \001-separated list (paths may hold spaces).
	old_ifs=$IFS
	IFS=$(printf '\001')
	# shellcheck disable=SC2086
	set -- $args
	IFS=$old_ifs
	"$G" "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	# A gate answers 1 for a regression, with its envelope.
	case "$rc:$cmd" in
	0:*|1:*--exit-on-regression*|1:*--fail-on*) ;;
	*) fail "recipe command '$cmd' exited $rc: $(cat "$TMPD/err")" ;;
	esac
	case "$cmd" in
	*--json*)
		grep -q '"schema":"gpulens/v1"' "$TMPD/out" ||
		    fail "'$cmd' gave no envelope" ;;
	esac
	n=$((n + 1))
done <"$TMPD/cmds"
echo "$n recipe commands ran"
pass
