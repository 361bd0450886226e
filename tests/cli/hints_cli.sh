#!/bin/sh
# hints_cli: every hint in meta.next of every verb's --json answer, over
# every trace of fixtures/ and of $GPULENS_FIXTURES (when set), runs as
# printed and exits 0, with no placeholder left (NAME, KEY, EVENT); a
# trace with no communication gets no communication hint. One cache
# folder for the run, so the hints load warm.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
cli_setup python3
G=$GPULENS
case $G in /*) ;; *) G=$(pwd)/$G ;; esac
S=$GPULENS_SRCDIR
list="$TMPD/traces"
find "$S/fixtures" -type f \( -name '*.sqlite' -o -name '*.json' -o \
    -name '*.json.gz' -o -name '*.db' -o -name '*.rpd' -o \
    -name '*.ncu-rep' -o -name '*.csv' \) | sort >"$list"
if [ -n "$GPULENS_FIXTURES" ] && [ -d "$GPULENS_FIXTURES" ]; then
	find "$GPULENS_FIXTURES" -type f \( -name '*.sqlite' -o \
	    -name '*.json' -o -name '*.json.gz' -o -name '*.db' -o \
	    -name '*.rpd' -o -name '*.rpd.gz' -o -name '*.ncu-rep' -o \
	    -name '*.csv' \) | sort >>"$list"
else
	echo "note: GPULENS_FIXTURES not set: the project's fixtures only"
fi
# shellcheck disable=SC2046
TMPDIR=$TMPD python3 "$S/tests/cli/hints_check.py" "$G" \
    $(cat "$list") || fail "a meta.next hint does not run as printed"

# A trace without communication: no overlap --by nvtx-path, no comm hint.
T=$S/fixtures/nsys/export-2021.sqlite
expect_rc 0 "$G" overlap "$T" --json
grep -q 'nvtx-path' "$TMPD/out" && fail "overlap hints --by nvtx-path on a trace without communication"
# Paths are shell-quoted.
cp "$T" "$TMPD/a b.sqlite"
expect_rc 0 "$G" info "$TMPD/a b.sqlite" --json
grep -q "gpulens summary '$TMPD/a b.sqlite'" "$TMPD/out" ||
    fail "info hint does not quote the path: $(cat "$TMPD/out")"
pass
