#!/bin/sh
# commdefs_cli: communication's definitions (gpulens(1), COMMUNICATION)
# agree between the verbs:
#   - exposed communication: findings' exposed_comm gives overlap's
#     exposed_comm_ns per device and their sum (title and evidence), on a
#     generated two-GPU trace and on nsys-ai/mfu_2gpu_before;
#   - collective identity: on kineto/tracelens/mi300 the 17
#     ncclDevKernel_Generic kernels are 6 AllReduce (by their collective
#     args: 70137072 bytes), 6 Broadcast (58080 bytes) and 5 that nothing
#     names (Generic, unsized);
#   - the ncu command of findings' dominant_kernel is ncu-command's for the
#     same event on mfu_2gpu_before.
# The real traces need $GPULENS_FIXTURES (skipped, exit 77, without).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS

# exposed_check TRACE: findings' exposed communication is overlap's.
exposed_check() {
	expect_rc 0 "$G" --no-cache overlap "$1" --json
	cp "$TMPD/out" "$TMPD/overlap.json"
	expect_rc 0 "$G" --no-cache findings "$1" --json --limit 0 \
	    --min-confidence low
	python3 - "$TMPD/overlap.json" "$TMPD/out" <<'PY' ||
import json, sys
ov = json.load(open(sys.argv[1]))["data"]["rows"]
fs = [f for f in json.load(open(sys.argv[2]))["data"]["rows"]
      if f["type"] == "exposed_comm"]
assert len(fs) == 1, fs
f = fs[0]
want = {r["device"]: r["exposed_comm_ns"] for r in ov if r["comm_ns"] > 0}
got = {d["device"]: d["exposed_ns"] for d in f["evidence"]["per_device"]}
assert got == want, (got, want)
total = sum(want.values())
assert f["evidence"]["exposed_comm_ns"] == total, (f["evidence"], total)
assert f["evidence"]["comm_ns"] == sum(r["comm_ns"] for r in ov), f
ms = "%.3f ms exposed" % (total / 1e6)
assert ms in f["title"], (f["title"], ms)
assert f["summary"].startswith("%.3f ms of communication" % (total / 1e6)), f
print("exposed %d ns over %d GPUs" % (total, len(want)))
PY
	    fail "$1: findings' exposed communication is not overlap's"
}

"$G" demo --events 20000 --gpus 2 --out "$TMPD/demo.sqlite" >/dev/null ||
    fail "demo"
exposed_check "$TMPD/demo.sqlite"

[ -n "$GPULENS_FIXTURES" ] && [ -d "$GPULENS_FIXTURES/nsys" ] ||
    skip "GPULENS_FIXTURES absent: real traces not checked (the generated one passed)"
MFU="$GPULENS_FIXTURES/nsys/nsys-ai/mfu_2gpu_before.sqlite"
MI300="$GPULENS_FIXTURES/kineto/tracelens/mi300__resnet_act_checkpoint.json.gz"

exposed_check "$MFU"
expect_rc 0 "$G" --no-cache overlap "$MFU" --json
python3 - "$TMPD/out" <<'PY' || fail "mfu: overlap's exposed communication"
import json, sys
ov = {r["device"]: r["exposed_comm_ns"]
      for r in json.load(open(sys.argv[1]))["data"]["rows"]}
assert ov == {0: 17172652, 1: 8229100}, ov
PY

expect_rc 0 "$G" --no-cache comm "$MI300" --json --limit 0
python3 - "$TMPD/out" <<'PY' || fail "mi300: comm's collectives"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["data"]["rows"]
        if r["kind"] == "kernel"]
by = {r["collective"]: r for r in rows}
assert sorted(by) == ["AllReduce", "Broadcast", "Generic"], sorted(by)
ar, bc, gen = by["AllReduce"], by["Broadcast"], by["Generic"]
assert (ar["count"], ar["sized_count"], ar["total_bytes"]) == \
    (6, 6, 70137072), ar
assert (bc["count"], bc["sized_count"], bc["total_bytes"]) == \
    (6, 6, 58080), bc
assert (gen["count"], gen["sized_count"], gen["total_bytes"]) == \
    (5, 0, None), gen
for r in (ar, bc):
    assert r["group_size"] == 8 and r["process_group"] == "0", r
# Bus bandwidth: 2(n-1)/n for AllReduce, 1 for Broadcast (n = 8).
assert abs(ar["busbw_gbps"] - ar["algbw_gbps"] * 1.75) < 0.01, ar
assert abs(bc["busbw_gbps"] - bc["algbw_gbps"]) < 0.01, bc
PY

expect_rc 0 "$G" --no-cache findings "$MFU" --json --limit 0 \
    --min-confidence low
python3 - "$TMPD/out" <<'PY' >"$TMPD/ev" || fail "mfu: no dominant_kernel"
import json, sys
f = [f for f in json.load(open(sys.argv[1]))["data"]["rows"]
     if f["type"] == "dominant_kernel"][0]
print(f["event"])
print(f["ncu_command"])
PY
ev=$(sed -n 1p "$TMPD/ev")
cmd=$(sed -n 2p "$TMPD/ev")
expect_rc 0 "$G" --no-cache ncu-command "$MFU" "ev:$ev" --json
python3 - "$TMPD/out" "$cmd" <<'PY' || fail "mfu: findings' ncu command"
import json, sys
c = json.load(open(sys.argv[1]))["data"]["rows"][0]["command"]
assert c == sys.argv[2], (c, sys.argv[2])
assert " --launch-skip 32 " in c, c
PY
pass
