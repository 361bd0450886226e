#!/bin/sh
# streams_cli: `gpulens streams` classifies streams by purity (compute,
# communication only when every kernel is, copy) and labels communication
# streams' purpose from the NVTX ranges around their launches; `overlap
# --by role` takes its classes from those roles. Checked against python3
# over a generated nsys trace (SQL) and, from $GPULENS_FIXTURES when
# present, nsys-ai's mfu_2gpu_before.sqlite (one stream per GPU mixing
# NCCL and compute kernels: compute) and the MI300 Kineto trace (an RCCL
# stream whose kernels sit under an all-reduce and a broadcast: mixed).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup python3
T="$TMPD/t.sqlite"
expect_rc 0 "$G" demo --out "$T" --events 20000 --gpus 2
expect_rc 0 "$G" streams "$T" --json
check_json streams "$TMPD/out" 'len(rows) == 6'
cp "$TMPD/out" "$TMPD/streams.json"
python3 - "$T" "$TMPD/streams.json" <<'PY' || fail "streams, generated trace"
from clicheck import db_and_doc
db, d = db_and_doc()
want = {}
for dev, st, nk, nc in db.execute("""SELECT k.deviceId, k.streamId,
        count(*), sum(s.value LIKE '%nccl%') FROM CUPTI_ACTIVITY_KIND_KERNEL k
        JOIN StringIds s ON s.id = k.shortName GROUP BY 1, 2"""):
    want[(dev, st)] = "communication" if nk == nc else "compute"
for dev, st in db.execute("""SELECT deviceId, streamId FROM
        CUPTI_ACTIVITY_KIND_MEMCPY UNION SELECT deviceId, streamId FROM
        CUPTI_ACTIVITY_KIND_MEMSET"""):
    want.setdefault((dev, st), "copy")
got = {(r["device"], r["stream"]): r["role"] for r in d["data"]["rows"]}
assert got == want, (got, want)
aux = d["data"]["auxiliary"]
assert aux["compute_streams"] == aux["communication_streams"] == \
    aux["copy_streams"] == 2, aux
for r in d["data"]["rows"]:
    assert (r["purpose"] is None) == (r["role"] != "communication"), r
PY
# overlap --by role: the classes are the streams' busy times.
expect_rc 0 "$G" overlap "$T" --by role --json
check_json overlap "$TMPD/out" 'd["data"]["auxiliary"]["by"] == "role" and len(rows) == 2'
python3 - "$TMPD/streams.json" "$TMPD/out" <<'PY' || fail "overlap --by role"
import json, sys
s = json.load(open(sys.argv[1]))["data"]["rows"]
o = json.load(open(sys.argv[2]))["data"]["rows"]
for r in o:
    mine = [x for x in s if x["device"] == r["device"]]
    f = {"compute": "compute_ns", "communication": "comm_ns",
        "copy": "copy_ns"}
    for x in mine:
        assert r[f[x["role"]]] == x["busy_ns"], (r, x)
PY
expect_rc 2 "$G" overlap "$T" --by nothing

if fixture M nsys/nsys-ai/mfu_2gpu_before.sqlite mfu_2gpu_before.sqlite; then
	expect_rc 0 "$G" streams "$M" --json
	check_json streams "$TMPD/out" 'len(rows) == 2'
	python3 - "$M" "$TMPD/out" <<'PY' || fail "streams, mfu_2gpu_before"
from clicheck import db_and_doc
db, d = db_and_doc()
for r in d["data"]["rows"]:
    nk, nc = db.execute("""SELECT count(*), sum(s.value LIKE '%nccl%')
        FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s
        ON s.id = k.demangledName WHERE deviceId = ? AND streamId = ?""",
        (r["device"], r["stream"])).fetchone()
    assert 0 < nc < nk, (r, nk, nc)
    assert r["role"] == "compute" and r["comm_kernels"] == nc, r
    assert r["kernels"] == nk and r["purpose"] is None, r
PY
	expect_rc 0 "$G" overlap "$M" --by role --json
	check_json overlap "$TMPD/out" 'all(r["comm_ns"] == 0 for r in rows)'
fi
if fixture K kineto/tracelens/mi300__resnet_act_checkpoint.json.gz \
    "MI300 trace"; then
	expect_rc 0 "$G" streams "$K" --json
	python3 - "$K" "$TMPD/out" <<'PY' || fail "streams, MI300 trace"
from clicheck import events_and_doc
ev, d = events_and_doc()
ks = {}
for e in ev:
    if e.get("cat") == "kernel":
        ks.setdefault(e["args"]["stream"], []).append(e["name"])
rows = {r["stream"]: r for r in d["data"]["rows"]}
assert set(rows) == set(ks), (set(rows), set(ks))
for st, names in ks.items():
    comm = all("nccl" in n.lower() for n in names)
    assert rows[st]["role"] == ("communication" if comm else "compute")
    assert rows[st]["kernels"] == len(names)
assert rows[4]["role"] == "communication" and rows[4]["purpose"] == "mixed"
PY
fi
pass
