#!/bin/sh
# busy_share_cli: devices in use (the man page's "Devices in use" section).
# A device counts in utilisation and idle shares only if some stream of it
# ran GPU work; unused devices are listed, marked used false, by summary,
# hardware and info. summary's idle_share_pct is then gaps' device-scope
# idle summed over the devices gaps lists (its all-GPU idle when one device
# is used), and its busy times are gaps' and timeline's:
#   - a generated Kineto trace of rank 0 of 4 (its deviceProperties list
#     four GPUs, one runs work) and a generated two-GPU Nsight Systems
#     trace (both used);
#   - four real traces with idle GPUs (skipped, exit 77, when
#     $GPULENS_FIXTURES is absent), with their known shares.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"

# check TRACE NDEV NUSED [IDLE_PCT]
check() {
	expect_rc 0 "$GPULENS" --no-cache summary --json "$1"
	cp "$TMPD/out" "$TMPD/summary.json"
	expect_rc 0 "$GPULENS" --no-cache gaps --scope all --limit 1 --json "$1"
	cp "$TMPD/out" "$TMPD/gaps.json"
	expect_rc 0 "$GPULENS" --no-cache hardware --json "$1"
	cp "$TMPD/out" "$TMPD/hardware.json"
	expect_rc 0 "$GPULENS" --no-cache info --json "$1"
	cp "$TMPD/out" "$TMPD/info.json"
	python3 - "$TMPD" "$2" "$3" "${4:-}" <<'PY' || fail "$1: devices in use"
import json, sys
d, ndev, nused, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    sys.argv[4]
s = json.load(open(d + "/summary.json"))["data"]
g = json.load(open(d + "/gaps.json"))["data"]["auxiliary"]
h = json.load(open(d + "/hardware.json"))["data"]["rows"]
i = json.load(open(d + "/info.json"))["data"]["auxiliary"]
a = s["auxiliary"]
assert a["devices"] == nused and a["devices_total"] == ndev, a
rows = s["rows"]
used = [r for r in rows if r["used"]]
assert len(rows) == ndev and len(used) == nused, rows
for r in rows:
    if not r["used"]:
        assert r["busy_ns"] == 0 and r["kernels"] == 0, r
        assert r["util_pct"] is None and r["idle_pct"] is None, r
# gaps lists exactly the used devices, with the same busy times.
gd = {x["device"]: x for x in g["devices"]}
assert sorted(gd) == sorted(r["device"] for r in used), (gd, used)
for r in used:
    assert gd[r["device"]]["busy_ns"] == r["busy_ns"], (r, gd)
win = sum(x["window_ns"] for x in g["devices"])
idle = sum(x["total_idle_ns"] for x in g["devices"])
share = 100.0 * idle / win
assert abs(a["idle_share_pct"] - share) < 0.002, (a, share)
if nused == 1:
    assert abs(a["idle_share_pct"] - g["all"]["idle_pct"]) < 0.002, (a, g)
if want:
    assert abs(a["idle_share_pct"] - float(want)) < 0.002, (a, want)
hu = sorted(r["device"] for r in h if r["kind"] == "gpu" and r["used"])
assert hu == sorted(gd), (hu, gd)
assert len([r for r in h if r["kind"] == "gpu"]) == ndev, h
iu = sorted(x["device"] for x in i["devices"] if x["used"])
assert iu == hu and len(i["devices"]) == ndev, i
PY
}

"$GPULENS" demo --format kineto --gpus 4 --rank 0 --events 3000 \
    --out "$TMPD/rank0.pt.trace.json" >/dev/null || fail "demo kineto"
check "$TMPD/rank0.pt.trace.json" 4 1
# info from the cache head alone says the same.
XDG_CACHE_HOME="$TMPD/cache"; export XDG_CACHE_HOME
expect_rc 0 "$GPULENS" info "$TMPD/rank0.pt.trace.json"
expect_rc 0 "$GPULENS" info "$TMPD/rank0.pt.trace.json"
n=$(grep -c ', unused$' "$TMPD/out")
[ "$n" = 3 ] || fail "info from the cache: $n unused devices, not 3"
"$GPULENS" demo --gpus 2 --events 3000 --out "$TMPD/two.sqlite" \
    >/dev/null || fail "demo"
check "$TMPD/two.sqlite" 2 2

F="$GPULENS_FIXTURES"
[ -n "$F" ] && [ -d "$F/kineto" ] ||
    skip "GPULENS_FIXTURES absent: real traces not checked (the generated ones passed)"
check "$F/kineto/tracelens/mi300__resnet_act_checkpoint.json.gz" 8 1 3.336
check "$F/kineto/hta/nccl_parser_config__nccl_data.json.gz" 8 1 76.986
check "$F/nsys/pipit/perlmutter-cloverleaf-cuda.sqlite" 4 1 63.414
check "$F/nsys/fuser/report2_2024.6.2_8xh100.sqlite" 8 1 99.948
check "$F/nsys/nsys-ai/mfu_2gpu_before.sqlite" 2 2
exit 0
