#!/usr/bin/env python3
"""ncu_stalls_check: `gpulens warp-stalls` against an independent walk of
the reports' protobuf wire format (written for this test: the container
of docs/FORMATS.md section 4, metric names through the string tables).

For each report given: per launch, the samples of every stall reason (the
elements of smsp__pcsamp_warps_issue_stalled_REASON summed over the
instructions) and its not-issued samples (..._not_issued) must equal the
rows of `warp-stalls --json`; their sum must equal the launch's
smsp__pcsamp_sample_count; `--by pc` must give each instruction's sample
count. Arguments: GPULENS REPORT [EXPECTED_TOTALS] where EXPECTED_TOTALS
is "launch:samples,..." (the sample counts the report must give).
Exit 0 pass, 1 fail.
"""
import json
import struct
import subprocess
import sys

from pbwire import fields

PREFIX = "smsp__pcsamp_warps_issue_stalled_"


def num(pmv):
    for n, w, v in fields(pmv):
        if n == 2:
            return struct.unpack("<f", v)[0]
        if n == 3:
            return struct.unpack("<d", v)[0]
        if n in (4, 5):
            return v
    return None


def walk(path):
    data = open(path, "rb").read()
    pos = 8 + struct.unpack_from("<I", data, 4)[0]
    blocks, table = [], []
    while pos < len(data):
        hl = struct.unpack_from("<I", data, pos)[0]
        hdr = list(fields(data[pos + 4:pos + 4 + hl]))
        pos += 4 + hl
        h = {n: v for n, w, v in hdr if n != 4}
        for n, w, v in hdr:
            if n == 4 and v:
                s = [x.decode() for _, _, x in fields(v)]
                if table and s[:len(table)] == table:
                    s = s[len(table):]
                table += s
        blocks.append((h, pos))
        pos += h.get(5, 0)
    launches = []
    for h, pos in blocks:
        for e in range(h.get(1, 0) + h.get(2, 0) + h.get(7, 0)):
            sz = struct.unpack_from("<I", data, pos)[0]
            msg = data[pos + 4:pos + 4 + sz]
            pos += 4 + sz
            if e < h.get(1, 0) or e >= h.get(1, 0) + h.get(2, 0):
                continue
            ms = {}
            for n, w, v in fields(msg):
                if n != 13:
                    continue
                name, scalar, elems = None, None, []
                for n2, w2, v2 in fields(v):
                    if n2 == 1:
                        name = table[v2]
                    elif n2 == 2:
                        scalar = num(v2)
                    elif n2 == 3:
                        el = {a: b for a, _, b in fields(v2)}
                        elems.append((num(el.get(1, b"")),
                                      num(el.get(2, b""))))
                ms[name] = (scalar, elems)
            launches.append(ms)
    return launches


def gpulens(g, *args):
    out = subprocess.run([g] + list(args) + ["--json", "--no-cache",
                                             "--limit", "0"],
                         capture_output=True, check=True).stdout
    return json.loads(out)


def main():
    g, path = sys.argv[1], sys.argv[2]
    expect = {}
    if len(sys.argv) > 3:
        for kv in sys.argv[3].split(","):
            k, v = kv.split(":")
            expect[int(k)] = int(v)
    bad = []
    want = {}
    for i, ms in enumerate(walk(path)):
        for name, (scalar, elems) in ms.items():
            if not name.startswith(PREFIX) or not elems:
                continue
            reason = name[len(PREFIX):]
            ni = reason.endswith("_not_issued")
            if ni:
                reason = reason[:-len("_not_issued")]
            e = want.setdefault((i, reason), [0, 0])
            e[1 if ni else 0] += sum(v for _, v in elems)
    totals = {}
    for (i, _), (s, _) in want.items():
        totals[i] = totals.get(i, 0) + s
    d = gpulens(g, "warp-stalls", path)
    got = {(r["launch_id"], r["reason"]): [r["samples"], r["not_issued"]]
           for r in d["data"]["rows"]}
    for k, v in want.items():
        if v == [0, 0]:
            if k in got:
                bad.append("%s: a row for a reason without samples" % (k,))
            continue
        if got.get(k) != v:
            bad.append("%s: gpulens %s, report %s" % (k, got.get(k), v))
    for k in got:
        if k not in want:
            bad.append("%s: not in the report" % (k,))
    for a in d["data"]["auxiliary"]["launches"]:
        i = a["launch_id"]
        if a["reason_samples"] != totals.get(i):
            bad.append("launch %d: reason sum %s, report %s" %
                       (i, a["reason_samples"], totals.get(i)))
        if a["sample_count"] != totals.get(i):
            bad.append("launch %d: sample count %s != reason sum %s" %
                       (i, a["sample_count"], totals.get(i)))
    for i, n in expect.items():
        if totals.get(i) != n:
            bad.append("launch %d: %s samples, expected %d" %
                       (i, totals.get(i), n))
    # Per instruction: the samples of each PC.
    ms = walk(path)
    for i in totals:
        base = ms[i]["launch__function_pcs"][1][0][1]
        pcs = {c - base: v for c, v in ms[i]["smsp__pcsamp_sample_count"][1]
               if v}
        d = gpulens(g, "warp-stalls", path, "--by", "pc", "--launch",
                    str(i))
        got = {r["offset"]: r["samples"] for r in d["data"]["rows"]
               if r["samples"]}
        if got != pcs:
            bad.append("launch %d: per-PC samples differ (%d vs %d PCs)" %
                       (i, len(got), len(pcs)))
    for b in bad:
        print("FAIL: " + b)
    print("%s: %d launches sampled, %s" % (path, len(totals),
                                           "ok" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
