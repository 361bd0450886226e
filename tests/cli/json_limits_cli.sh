#!/bin/sh
# json_limits_cli: what a small hostile JSON trace may cost.
#
#   - a gzip bomb: a Kineto trace whose extra top-level member holds
#     millions of small numbers (and a deviceProperties too large to
#     read): a few hundred KiB of gzip that inflate to 100 MiB. It loads
#     with a peak RSS far below what parsing the members would take (they
#     are streamed past), in bounded time, with a warning naming each
#     member not read;
#   - blanks: 128 MiB of whitespace between two events loads in a few
#     seconds (the scanner consumes blanks as it reads them instead of
#     parsing the unit again after every refill).
# Exit 77 (skip) without python3.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
RSS=$(dirname "$GPULENS")/bench/rss
[ -x "$RSS" ] || skip "bench/rss not built"
TO=
command -v timeout >/dev/null 2>&1 && TO="timeout 60"

python3 - "$TMPD" <<'PY' || fail "generating the inputs"
import gzip, sys
d = sys.argv[1]
ev = '{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": 1, "tid": 1, "ts": %d, "dur": 2}'
with gzip.open(d + "/bomb.json.gz", "wb", 9) as f:
    f.write(('{"traceEvents": [' + ev % ("a", 1) + '], "junk": [').encode())
    f.write(b"0," * (50 << 20))
    f.write(b'0], "deviceProperties": [{"id": 0, "pad": [')
    f.write(b"1," * (2 << 20))
    f.write(b'1]}], "baseTimeNanoseconds": 1000}')
with gzip.open(d + "/blank.json.gz", "wb", 9) as f:
    f.write(('{"traceEvents": [' + ev % ("a", 1) + ",").encode())
    blank = b" " * (1 << 20)
    for i in range(128):
        f.write(blank)
    f.write((ev % ("b", 5) + "]}").encode())
PY

# The bomb: every member past its bound is named, the event is read.
s=$(date +%s)
$TO "$RSS" -o "$TMPD/rss" "$GPULENS" --no-cache info --json \
    "$TMPD/bomb.json.gz" >"$TMPD/out" 2>"$TMPD/err" ||
    fail "bomb: exit $?: $(cat "$TMPD/err")"
e=$(date +%s)
[ $((e - s)) -le 30 ] || fail "bomb: took $((e - s)) s"
kib=$(cat "$TMPD/rss")
# Parsing the members took 4 GB; streaming past them a few MB (more
# under a sanitizer: still far below).
[ "$kib" -lt 262144 ] || fail "bomb: peak RSS $kib KiB"
python3 - "$TMPD/out" <<'PY' || fail "bomb: info"
import json, sys
d = json.load(open(sys.argv[1]))
a = d["data"]["auxiliary"]
w = d["meta"]["warnings"]
assert any('"junk" at byte 108 not read: 104857603 bytes, 52428802 values'
           in x for x in w), w
assert any('"deviceProperties"' in x for x in w), w
assert a["events"] == 1, a["events"]
PY

# Blanks.
s=$(date +%s)
$TO "$GPULENS" --no-cache info --json "$TMPD/blank.json.gz" >"$TMPD/out" \
    2>"$TMPD/err" || fail "blank: exit $?: $(cat "$TMPD/err")"
e=$(date +%s)
[ $((e - s)) -le 15 ] || fail "blank: 128 MiB of whitespace took $((e - s)) s"
python3 - "$TMPD/out" <<'PY' || fail "blank: info"
import json, sys
a = json.load(open(sys.argv[1]))["data"]["auxiliary"]
assert a["events"] == 2, a["events"]
PY
pass
