#!/bin/sh
# chrome_cli: generic Chrome traces through the command line.
#
#   - a generated one (demo --format chrome): info names it chrome-trace
#     and warns what was assumed; stats --type kernel counts its kernels;
#   - nsightful's conversion of an Nsight Systems export
#     ($GPULENS_FIXTURES/nsys/nsightful/power_iteration__baseline.json):
#     its kernels (category "cuda") and their total time in stats --type
#     kernel equal Python's reading of the JSON, and the kernel count that
#     of the SQLite export it was made from; its API calls are API calls.
# Exit 77 (skip) without python3.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"

"$GPULENS" demo --format chrome --events 400 --out "$TMPD/c.json" ||
    fail "demo --format chrome"
expect_rc 0 "$GPULENS" --no-cache info "$TMPD/c.json" --json
python3 - "$TMPD/out" <<'PY' || fail "info on the generated trace"
import json, sys
d = json.load(open(sys.argv[1]))
a = d["data"]["auxiliary"]
assert a["source"]["kind"] == "chrome-trace", a["source"]
assert [x["device"] for x in a["devices"]] == [0], a["devices"]
w = d["meta"]["warnings"]
assert any(x.startswith("a generic Chrome trace") and
           '"cuda" as kernels (80)' in x for x in w), w
PY
expect_rc 0 "$GPULENS" --no-cache stats --type kernel "$TMPD/c.json" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]; assert sum(r["count"] for r in d["rows"]) == 80, d' \
    "$TMPD/out" || fail "stats on the generated trace"

F=${GPULENS_FIXTURES:-}/nsys/nsightful/power_iteration__baseline
[ -n "${GPULENS_FIXTURES:-}" ] && [ -f "$F.json" ] ||
    { echo "fixtures absent: the nsightful checks skipped"; pass; }
expect_rc 0 "$GPULENS" --no-cache stats --type kernel "$F.json" --json
cp "$TMPD/out" "$TMPD/json-stats"
expect_rc 0 "$GPULENS" --no-cache info "$F.json" --json
cp "$TMPD/out" "$TMPD/json-info"
python3 - "$F.json" "$F.sqlite" "$TMPD/json-stats" "$TMPD/json-info" <<'PY' ||
import decimal, json, sqlite3, sys
src, db, stats, info = sys.argv[1:]
ev = json.load(open(src), parse_float=decimal.Decimal)
k = [e for e in ev if e.get("cat") == "cuda"]
ns = sum(int((e["dur"] * 1000).to_integral_value()) for e in k)
api = sum(1 for e in ev if e.get("cat") == "cuda_api")
d = json.load(open(stats))["data"]
assert sum(r["count"] for r in d["rows"]) == len(k) == 3689, len(k)
assert d["auxiliary"]["grand_total_ns"] == ns, (d["auxiliary"], ns)
c = sqlite3.connect("file:%s?immutable=1" % db, uri=True)
n, t = c.execute("SELECT count(*), sum(end - start) FROM "
                 "CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
assert n == len(k) and t == ns, (n, t, len(k), ns)
d = json.load(open(info))
a = d["data"]["auxiliary"]
assert a["source"]["kind"] == "chrome-trace", a["source"]
rows = {r["kind"]: r["count"] for r in d["data"]["rows"]}
assert rows["kernel"] == 3689 and rows["api"] == api, rows
assert [x["device"] for x in a["devices"]] == [0], a["devices"]
assert any(w.startswith("a generic Chrome trace")
           for w in d["meta"]["warnings"]), d["meta"]
PY
    fail "nsightful: gpulens, the JSON and the SQLite disagree"
pass
