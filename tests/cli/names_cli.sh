#!/bin/sh
# names_cli: default rows carry kernel names with their template arguments
# elided ("<...>"), the whole name with --full-names; keys carry the elided
# name and a hash of the whole one (unique, and the same in every verb run);
# the table form of summary prints top_kernels one kernel a line, not JSON;
# the default answers on a real trace are smaller than before (sizes from
# the trace this test was written against).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
cli_setup python3
T=$GPULENS_SRCDIR/fixtures/nsys/demo-2026.sqlite
G=$GPULENS
expect_rc 0 "$G" stats "$T" --json --limit 0
cp "$TMPD/out" "$TMPD/short"
expect_rc 0 "$G" stats "$T" --json --limit 0 --full-names
python3 - "$TMPD/short" "$TMPD/out" <<'PY' || fail "stats names"
import json, re, sys
s = json.load(open(sys.argv[1]))["data"]["rows"]
f = json.load(open(sys.argv[2]))["data"]["rows"]
assert len(s) == len(f) and s, (len(s), len(f))
assert any("<" in r["name"] for r in f)
for a, b in zip(s, f):
    assert a["key"] == b["key"]
    if "<" in b["name"]:
        assert "<...>" in a["name"] and a["name"] != b["name"], a["name"]
        assert re.search(r"\|name_hash=[0-9a-f]{8}$", a["key"]), a["key"]
        assert "<...>" in a["key"]
    else:
        assert a["name"] == b["name"] and "name_hash" not in a["key"]
keys = [r["key"] for r in s]
assert len(set(keys)) == len(keys)
PY
# gaps: the names around a gap are elided too.
expect_rc 0 "$G" gaps "$T" --json
grep -q '_name":"[^"]*<\.\.\.>' "$TMPD/out" || fail "gaps: no elided name"
# summary's table: top_kernels a line each, in units.
expect_rc 0 "$G" summary "$T"
grep -q '^top_kernels:$' "$TMPD/out" || fail "summary: $(cat "$TMPD/out")"
grep -q '^top_kernels: \[' "$TMPD/out" && fail "summary prints top_kernels as JSON"
grep -q '^  name .* count [0-9]* total_ns .* share_pct .*%$' "$TMPD/out" ||
    fail "summary top_kernels lines: $(cat "$TMPD/out")"
# Sizes on a real trace: default answers, at most these many bytes.
M=${GPULENS_FIXTURES:-/nonexistent}/nsys/nsys-ai/mfu_2gpu_before.sqlite
if [ -f "$M" ]; then
	for vm in gaps:25000 launch:29000 search:14000 stats:11000 diff:23000; do
		v=${vm%%:*}; max=${vm##*:}
		if [ "$v" = diff ]; then
			"$G" diff "$M" "$M" --json >"$TMPD/o" || fail "diff"
		else
			"$G" "$v" "$M" --json >"$TMPD/o" || fail "$v"
		fi
		n=$(wc -c <"$TMPD/o")
		[ "$n" -le "$max" ] || fail "$v --json is $n bytes (at most $max)"
	done
fi
pass
