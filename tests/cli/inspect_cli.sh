#!/bin/sh
# inspect_cli: inspect answers a row per id, an id that names no event (or
# no launch of an Nsight Compute report) giving a "status":"not_found" row
# instead of failing the batch; only when no id is found is the answer the
# not_found error (exit 2), and an argument that is not an id stays a usage
# error. --limit and --offset page the rows with truncated and
# total_matched as elsewhere, and every row validates against `gpulens
# schema inspect` (report-inspect). On a generated trace and the project's
# report fixture, and on a real report from $GPULENS_FIXTURES when present.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
T="$TMPD/t.sqlite"
expect_rc 0 "$G" demo --out "$T" --events 2000 --gpus 1

# One id found, one missing: two rows in the order given, exit 0.
expect_rc 0 "$G" inspect "$T" 99999999 ev:1 --json
check_json inspect "$TMPD/out" 'd["data"]["count"] == 2 and rows[0] == {"key": "ev|id=99999999", "id": 99999999, "status": "not_found"} and rows[1]["key"] == "ev|id=1" and rows[1]["id"] == 1 and "status" not in rows[1] and rows[1]["kind"] == "memcpy"'
# The table shows the missing id with its status.
expect_rc 0 "$G" inspect "$T" 1 99999999 --fields key,status
grep -q '^ev|id=99999999  *not_found' "$TMPD/out" || fail "table: $(cat "$TMPD/out")"
# None found: the not_found error naming them all.
expect_rc 2 "$G" inspect "$T" 99999998 99999999 --json
check_json inspect "$TMPD/out" 'd["error"]["code"] == "not_found" and "99999998, 99999999" in d["error"]["message"]'
# Not an id: a usage error, even beside a good one.
expect_rc 2 "$G" inspect "$T" 1 bogus --json
check_json inspect "$TMPD/out" 'd["error"]["code"] == "usage"'
# --limit and --offset page the rows; without --limit every row is there.
expect_rc 0 "$G" inspect "$T" 1 2 3 4 --limit 2 --json
check_json inspect "$TMPD/out" '[r["id"] for r in rows] == [1, 2] and d["data"]["truncated"] is True and d["data"]["total_matched"] == 4'
expect_rc 0 "$G" inspect "$T" 1 2 3 4 --limit 2 --offset 2 --json
check_json inspect "$TMPD/out" '[r["id"] for r in rows] == [3, 4] and d["data"]["truncated"] is False'
ids=$(seq 0 59 | tr '\n' ' ')
# shellcheck disable=SC2086
expect_rc 0 "$G" inspect "$T" $ids --json
check_json inspect "$TMPD/out" 'd["data"]["count"] == 60 and d["data"]["truncated"] is False'

# report REPORT: the same on an Nsight Compute report.
report() {
	R=$1
	expect_rc 0 "$G" inspect "$R" 0 --json
	n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["count"])' "$TMPD/out")
	[ "$n" -gt 5 ] || fail "$R: launch 0 has $n rows"
	expect_rc 0 "$G" inspect "$R" 0 launch:99999 --json
	check_json report-inspect "$TMPD/out" "d['data']['count'] == $n + 1 and rows[-1] == {'key': 'launch|id=99999', 'launch_id': 99999, 'status': 'not_found'} and len(d['data']['auxiliary']['launches']) == 1"
	expect_rc 0 "$G" inspect "$R" 0 --limit 5 --json
	check_json report-inspect "$TMPD/out" "d['data']['count'] == 5 and d['data']['total_matched'] == $n and d['data']['truncated'] is True"
	expect_rc 2 "$G" inspect "$R" 99999 --json
	check_json report-inspect "$TMPD/out" 'd["error"]["code"] == "not_found"'
}
report "$GPULENS_SRCDIR/fixtures/ncu/gemm.ncu-rep"
FX=${GPULENS_FIXTURES:-/nonexistent}
R=$(ls "$FX"/ncu/*/*.ncu-rep 2>/dev/null | head -1)
[ -n "$R" ] || skip "GPULENS_FIXTURES absent: real reports not checked (the others passed)"
report "$R"
pass
