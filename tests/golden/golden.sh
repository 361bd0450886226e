#!/bin/sh
# golden: every reader end to end on the fixtures the project writes itself
# (fixtures/README.md), against checked-in golden outputs, so that a clone
# without ../shared and `make distcheck` test every reader.
#
# For each fixture below: `gpulens info --json` must name the expected
# reader (source.kind); then the main verbs run on it and their standard
# output must equal tests/golden/<folder>/<stem>/<verb>.json (or .txt for
# the human tables), where <folder>/<stem> is the fixture's path under
# fixtures/ without its extension. Timeline traces: info summary stats
# nvtx iters gaps overlap findings (--json), and stats and summary as
# tables; Nsight Compute inputs: info launches rules metrics roofline
# (--json), and launches as a table. A mismatch prints a unified diff and
# fails the test (JSON is indented for the diff when python3 is there; the
# comparison is of the exact bytes); GOLDEN_UPDATE=1 rewrites the goldens
# instead.
#
# Stability: gpulens runs with --no-cache from the source directory on the
# fixture's relative path (fixtures/...), so paths in the output do not
# depend on where the tree lives or on the build directory (in-tree, VPATH
# and distcheck builds give the same bytes); COLUMNS is unset and the
# locale is C, so tables are not fitted to a terminal. The one
# normalisation: the absolute source directory, should it ever appear in
# an output, is replaced by @SRCDIR@. Nothing else is filtered: the JSON
# envelope holds no time or host-dependent field.
#
# Needs nothing outside the tree ($GPULENS_FIXTURES is not read).

TESTLIB="${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
. "$TESTLIB"

SRCDIR=$(cd "${GPULENS_SRCDIR:-.}" && pwd) || fail "no source directory"
case $GPULENS in
/*)	G=$GPULENS ;;
*)	G=$(pwd)/$GPULENS ;;
esac
[ -x "$G" ] || fail "$G: not an executable"
GOLDEN=$SRCDIR/tests/golden
unset COLUMNS
LC_ALL=C
export LC_ALL

# fixture (under fixtures/), expected source kind, verb set.
FIXTURES="
nsys/demo-2026.sqlite				nsys		trace
nsys/export-2022.sqlite				nsys		trace
nsys/export-2021.sqlite				nsys		trace
kineto/kgen-rank0.pt.trace.json.gz		kineto		trace
kineto/merged-2ranks.json.gz			kineto		trace
kineto/async-2022.pt.trace.json.gz		kineto		trace
kineto/legacy-2021.pt.trace.json		kineto		trace
chrome/nsightful.json				chrome-trace	trace
rpd/train.rpd					rpd		trace
rocpd/train_results.db				rocpd		trace
rocprofv3/train_results.json.gz			rocprof-json	trace
ncu/gemm.ncu-rep				ncu-rep		report
ncu/gemm-details.csv				ncu-csv		report
ncu/gemm-raw.csv				ncu-csv		report
"

# A JSON pretty-printer for readable diffs (keys kept in their order).
PRETTY=$TMPD/pretty.py
cat >"$PRETTY" <<'PY'
import json, sys
json.dump(json.load(sys.stdin), sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
PY

# The absolute source directory as a sed pattern.
SRCPAT=$(printf '%s\n' "$SRCDIR" | sed 's/[][\\/.*^$|&]/\\&/g')

nfail=0
nchecked=0
mismatch() {
	echo "FAIL: $*" >&2
	nfail=$((nfail + 1))
}

# run FIXTURE NAME ARGS...: runs gpulens ARGS in the source directory and
# compares (or, with GOLDEN_UPDATE=1, stores) its output as NAME.
run() {
	fx=$1 name=$2
	shift 2
	stem=$(echo "$fx" | sed -E 's/\.(pt\.trace\.json(\.gz)?|json(\.gz)?|sqlite|rpd|db|ncu-rep|csv)$//')
	want=$GOLDEN/$stem/$name
	got=$TMPD/got
	(cd "$SRCDIR" && "$G" --no-cache "$@") >"$TMPD/raw" 2>"$TMPD/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		mismatch "gpulens $* exited $rc: $(head -c 400 "$TMPD/err")"
		return
	fi
	sed "s/$SRCPAT/@SRCDIR@/g" "$TMPD/raw" >"$got"
	[ -s "$got" ] || { mismatch "gpulens $*: no output"; return; }
	nchecked=$((nchecked + 1))
	if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
		mkdir -p "$GOLDEN/$stem" && cp "$got" "$want" ||
		    mismatch "cannot write $want"
		return
	fi
	if [ ! -f "$want" ]; then
		mismatch "$stem/$name: no golden (run with GOLDEN_UPDATE=1)"
		return
	fi
	if ! cmp -s "$want" "$got"; then
		echo "--- gpulens $* (tests/golden/$stem/$name)" >&2
		showdiff "$want" "$got" | head -n 80 >&2
		mismatch "$stem/$name differs from its golden"
	fi
}

# showdiff WANT GOT: a unified diff; JSON documents (one line each) are
# indented first when python3 is there, so that the diff shows the fields
# that changed. The comparison itself is of the exact bytes.
showdiff() {
	case $1 in
	*.json)
		if command -v python3 >/dev/null 2>&1 &&
		    python3 "$PRETTY" <"$1" >"$TMPD/want.pretty" 2>/dev/null &&
		    python3 "$PRETTY" <"$2" >"$TMPD/got.pretty" 2>/dev/null; then
			diff -u "$TMPD/want.pretty" "$TMPD/got.pretty"
			return
		fi ;;
	esac
	diff -u "$1" "$2"
}

# The source kind of info --json's envelope ({"source":{"kind":"X",...).
kind_of() {
	sed -n 's/^{"schema":"[^"]*","command":"info","source":{"kind":"\([^"]*\)".*/\1/p'
}

echo "$FIXTURES" | while read -r fx kind set; do
	[ -n "$fx" ] || continue
	[ -f "$SRCDIR/fixtures/$fx" ] || { echo "FAIL: fixtures/$fx missing" >&2; exit 1; }
	got=$( (cd "$SRCDIR" && "$G" --no-cache info --json "fixtures/$fx") |
	    kind_of)
	[ "$got" = "$kind" ] || {
		echo "FAIL: fixtures/$fx read as '$got', expected '$kind'" >&2
		exit 1
	}
done || fail "a fixture is missing or read by the wrong reader"

# The loop runs in this shell (no pipe) so that nfail survives it.
set -f
for line in $(echo "$FIXTURES" | awk 'NF == 3 { print $1 "|" $3 }'); do
	fx=${line%|*}
	set=${line#*|}
	f=fixtures/$fx
	if [ "$set" = trace ]; then
		for v in info summary stats nvtx iters gaps overlap findings; do
			run "$fx" "$v.json" "$v" --json "$f"
		done
		run "$fx" stats.txt stats "$f"
		run "$fx" summary.txt summary "$f"
	else
		for v in info launches rules roofline; do
			run "$fx" "$v.json" "$v" --json "$f"
		done
		run "$fx" metrics.json metrics --json "$f" \
		    'gpu__time_duration.sum' 'launch__*' 'dram__bytes*'
		run "$fx" launches.txt launches "$f"
	fi
done
set +f

[ "$nfail" -eq 0 ] || fail "$nfail of the golden outputs failed"
[ "$nchecked" -gt 0 ] || fail "nothing checked"
if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
	echo "updated $nchecked goldens under $GOLDEN"
else
	echo "$nchecked outputs equal their goldens"
fi
pass
