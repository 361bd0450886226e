#!/bin/sh
#
# counters_cli: `gpulens counters` (and `metrics --type gpu|nic`) on a
# generated trace with the gpu-metrics and nic-metrics plants equals what
# python3's sqlite3 computes over GPU_METRICS / NET_NIC_METRIC and their
# name tables: per GPU and metric (and per NIC metric) the samples, mean,
# min, max, p50/p90/p99 (linear between closest ranks), the median
# interval, the gaps (intervals over 3 times it) and the largest gap; the
# planted gap on GPU 0 is found and warned about; --bucket gives the
# per-bucket samples, mean and max; --counter, --type, --device and
# --from/--to select; a warm (cached) load answers as a cold one; a trace
# without counters answers no rows with a warning.
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
t=$TMPD/metrics.sqlite
"$G" demo --out "$t" --events 6000 --gpus 2 --plant gpu-metrics,nic-metrics \
    >"$TMPD/demo.log" 2>&1 || fail "gpulens demo: $(cat "$TMPD/demo.log")"
"$G" --no-cache demo --out "$TMPD/plain.sqlite" --events 2000 >/dev/null 2>&1 ||
    fail "demo"

"$G" --no-cache counters --json --limit 0 "$t" >"$TMPD/cold.json" \
    2>"$TMPD/err" || fail "counters: $(cat "$TMPD/err")"
"$G" counters --json --limit 0 "$t" >/dev/null 2>&1 || fail "counters (fill)"
"$G" counters --json --limit 0 "$t" >"$TMPD/warm.json" || fail "counters (warm)"
check_json counters "$TMPD/cold.json" 'len(rows) == 8'
"$G" --no-cache counters --json --limit 0 --bucket 100ms "$t" \
    >"$TMPD/bucket.json" || fail "counters --bucket"
check_json counters "$TMPD/bucket.json" 'len(rows) > 8'
"$G" --no-cache metrics --type gpu --device 1 --counter 'SMs*' --json "$t" \
    >"$TMPD/sel.json" || fail "metrics --type gpu --device 1"
"$G" --no-cache metrics --type nic --json --from 100ms --to 200ms "$t" \
    >"$TMPD/nic.json" || fail "metrics --type nic --from --to"

python3 - "$t" "$TMPD" <<'EOF' || fail "counters disagrees with SQL (above)"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); d = sys.argv[2]
def load(n): return json.load(open("%s/%s.json" % (d, n)))
def pct(v, p):
    h = (len(v) - 1) * p / 100.0; i = int(h)
    return v[-1] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (h - i)
series = {}
for typ, mid, t, v in db.execute("SELECT typeId, metricId, timestamp, value "
        "FROM GPU_METRICS ORDER BY timestamp"):
    name = db.execute("SELECT metricName FROM TARGET_INFO_GPU_METRICS "
        "WHERE typeId = ? AND metricId = ?", (typ, mid)).fetchone()[0]
    series.setdefault(("GPU %d" % (typ & 0xff), name), []).append((t, v))
for idx, t, v in db.execute("SELECT metricsIdx, start, value FROM NET_NIC_METRIC ORDER BY start"):
    name = db.execute("SELECT name FROM TARGET_INFO_NETWORK_METRICS "
        "WHERE metricsListId = 1 AND metricsIdx = ?", (idx,)).fetchone()[0]
    series.setdefault(("NIC mlx5_0 port 1", name), []).append((t, v))
origin = db.execute("SELECT min(start) FROM (SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL "
    "UNION ALL SELECT start FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL "
    "SELECT start FROM NVTX_EVENTS UNION ALL SELECT timestamp FROM GPU_METRICS)").fetchone()[0]
bad = []
cold = load("cold"); rows = {(r["where"], r["counter"]): r for r in cold["data"]["rows"]}
if set(rows) != set(series): bad.append(("series", sorted(rows), sorted(series)))
for k, s in series.items():
    r = rows.get(k, {})
    vals = sorted(v for t, v in s)
    iv = sorted(s[i][0] - s[i - 1][0] for i in range(1, len(s)))
    med = iv[(len(iv) - 1) // 2]
    want = dict(samples=len(s), mean=sum(vals) / len(vals), min=vals[0],
        max=vals[-1], p50=pct(vals, 50), p90=pct(vals, 90), p99=pct(vals, 99),
        interval_ns=med, max_gap_ns=iv[-1], gaps=sum(1 for x in iv if x > 3 * med),
        first_ns=s[0][0] - origin)
    for f, w in want.items():
        if abs(r.get(f, -1e300) - w) > 1e-3:  # JSON numbers: 3 decimals
            bad.append((k, f, r.get(f), w))
# the planted gap: GPU 0 only, 50 ms + one interval
g0 = rows[("GPU 0", "SMs Active [Throughput %]")]
if (g0["gaps"], g0["max_gap_ns"], g0["rate_hz"]) != (1, 50100000, 10000):
    bad.append(("gap", g0))
if rows[("GPU 1", "SMs Active [Throughput %]")]["gaps"] != 0: bad.append("gpu 1 gap")
if cold["data"]["auxiliary"]["series_with_gaps"] != 3 or \
        "counter_gaps" not in cold["meta"]["warning_codes"]:
    bad.append(("gap warning", cold["data"]["auxiliary"], cold["meta"]))
if load("warm")["data"] != cold["data"]: bad.append("warm != cold")
# buckets of 100 ms from the origin
b = load("bucket")
for r in b["data"]["rows"]:
    s = series[(r["where"], r["counter"])]
    lo = origin + r["bucket"] * 100000000
    vs = [v for t, v in s if lo <= t < lo + 100000000]
    if r["samples"] != len(vs) or (vs and (abs(r["mean"] - sum(vs) / len(vs)) > 1e-3
            or r["max"] != max(vs))) or r["start_ns"] != r["bucket"] * 100000000:
        bad.append(("bucket", r, len(vs)))
nb = b["data"]["auxiliary"]["buckets"]
if len(b["data"]["rows"]) != nb * len(series): bad.append(("buckets", nb))
sel = load("sel")["data"]["rows"]
if [(r["where"], r["counter"], r["mean"]) for r in sel] != [("GPU 1", "SMs Active [Throughput %]", 60)]:
    bad.append(("select", sel))
nic = load("nic")
if nic["command"] != "counters" or sorted(r["samples"] for r in nic["data"]["rows"]) != [100, 100]:
    bad.append(("nic window", nic["data"]["rows"]))
for x in bad: print(x)
sys.exit(1 if bad else 0)
EOF

"$G" counters --json "$TMPD/plain.sqlite" >"$TMPD/none.json" || fail "counters without counters"
check_json counters "$TMPD/none.json" \
    'len(rows) == 0 and "no_counters" in d["meta"]["warning_codes"]'
expect_rc 2 "$G" counters --type cpu "$t"
expect_rc 2 "$G" counters --bucket 1ns "$t"
pass
