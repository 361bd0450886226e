#!/usr/bin/env python3
"""verbs_analysis_cli: `gpulens gaps`, `timeline` and `overlap` with --json
against an independent computation in plain SQL + Python over the same
SQLite file, on a generated multi-GPU trace with NCCL kernels and on every
nsys fixture (when GPULENS_FIXTURES is set).

Reference definitions (the verbs' documented ones, written out naively):
  work     rows of CUPTI_ACTIVITY_KIND_KERNEL (compute, or communication
           when the demangled name contains "nccl" in any case), _MEMCPY
           and _MEMSET (copy), _GRAPH_TRACE (compute); end < start counts
           as end = start; synchronization rows are not work
  window   [origin, origin + span) from the envelope's trace_span
  unions   sort and merge (touching intervals merge), per device and class
  gaps     the holes of a union inside the window, leading and trailing
           included; streams are (deviceId, pid, streamId)
  overlap  |M \\ C|, |Y n C|, the clipped sum of durations and the peak of
           a sweep in which an end at t comes before a start at t
  timeline bucket edges origin + floor(i * span / N), busy per bucket as
           the clipped measure of each union, kernels by their start
Exit 0 pass, 1 fail, 77 skip.
"""
import glob
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")
NBUCKETS = 13


def run(args):
    r = subprocess.run([GPULENS, "--no-cache"] + args + ["--json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (args, r.returncode,
                                                 r.stderr + r.stdout))
    return json.loads(r.stdout)


def union(iv):
    out = []
    for s, e in sorted(iv):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


def length(u):
    return sum(e - s for s, e in u)


def inter_len(a, b):
    i = j = t = 0
    while i < len(a) and j < len(b):
        s = max(a[i][0], b[j][0])
        e = min(a[i][1], b[j][1])
        if e > s:
            t += e - s
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return t


def measure(u, t0, t1):
    return sum(max(0, min(e, t1) - max(s, t0)) for s, e in u)


def holes(u, w0, w1):
    """(start, end, kind) of the idle stretches of union u in [w0, w1)."""
    out = []
    prev = w0
    for s, e in u:
        s, e = max(s, w0), min(e, w1)
        if e <= s:
            continue
        if s > prev:
            out.append((prev, s, "leading" if prev == w0 else "inner"))
        prev = max(prev, e)
    if prev < w1:
        out.append((prev, w1, "whole" if prev == w0 else "trailing"))
    return out


def reference(path):
    db = sqlite3.connect(path)
    t = {r[0] for r in db.execute(
        "select name from sqlite_master where type in ('table','view')")}
    s = dict(db.execute("select id, value from StringIds")) \
        if "StringIds" in t else {}
    ev = []     # (dev, pid, stream, start, end, class, is_kernel)

    def cols(tab):
        return {r[1] for r in db.execute("pragma table_info(%s)" % tab)}

    def pid(g):
        return None if g is None else (g >> 24) & 0xFFFFFF

    if "CUPTI_ACTIVITY_KIND_KERNEL" in t:
        c = cols("CUPTI_ACTIVITY_KIND_KERNEL")
        short = "shortName" if "shortName" in c else "NULL"
        for d, g, st, a, b, dn, sn in db.execute(
                "select deviceId, globalPid, streamId, start, end, "
                "demangledName, %s from CUPTI_ACTIVITY_KIND_KERNEL" % short):
            name = s.get(dn) if dn is not None else s.get(sn, "")
            cls = "comm" if "nccl" in (name or "").lower() else "compute"
            ev.append((d, pid(g), st, a, max(a, b), cls, True))
    for tab in ("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
        if tab in t:
            for d, g, st, a, b in db.execute(
                    "select deviceId, globalPid, streamId, start, end "
                    "from %s" % tab):
                ev.append((d, pid(g), st, a, max(a, b), "copy", False))
    if "CUPTI_ACTIVITY_KIND_GRAPH_TRACE" in t:
        for d, g, st, a, b in db.execute(
                "select deviceId, globalPid, streamId, start, end "
                "from CUPTI_ACTIVITY_KIND_GRAPH_TRACE"):
            ev.append((d, pid(g), st, a, max(a, b), "compute", False))
    db.close()
    return ev


def check(path, name):
    errs = []
    ev = reference(path)
    ov = run(["overlap", path])
    origin = int(ov["trace_span"]["origin_ns"])
    end = origin + int(ov["trace_span"]["span_ns"])
    devs = sorted({e[0] for e in ev})

    # overlap
    rows = {r["device"]: r for r in ov["data"]["rows"]}
    if sorted(rows) != devs:
        errs.append("overlap devices %s, SQL %s" % (sorted(rows), devs))
    for d in devs:
        de = [e for e in ev if e[0] == d]
        cl = {k: union([(x[3], x[4]) for x in de if x[5] == k])
              for k in ("compute", "comm", "copy")}
        allu = union([(x[3], x[4]) for x in de])
        peak = act = 0
        pts = sorted([(x[3], 1) for x in de if x[4] > x[3]] +
                     [(x[4], -1) for x in de if x[4] > x[3]],
                     key=lambda p: (p[0], p[1]))
        for _, k in pts:
            act += k
            peak = max(peak, act)
        want = {
            "compute_ns": length(cl["compute"]),
            "comm_ns": length(cl["comm"]),
            "copy_ns": length(cl["copy"]),
            "busy_ns": length(allu),
            "sum_ns": sum(min(x[4], end) - max(x[3], origin) for x in de),
            "exposed_comm_ns": length(cl["comm"]) -
            inter_len(cl["comm"], cl["compute"]),
            "copy_overlap_ns": inter_len(cl["copy"], cl["compute"]),
            "peak_concurrency": peak,
            "span_ns": end - origin,
        }
        got = rows.get(d, {})
        for k, v in want.items():
            if got.get(k) != v:
                errs.append("overlap device %s %s: %s, SQL %s" %
                            (d, k, got.get(k), v))

    # gaps, device scope
    g = run(["gaps", path, "--scope", "device", "--limit", "0",
             "--absolute"])
    got = sorted((r["device"], r["start_ns"], r["end_ns"], r["kind"])
                 for r in g["data"]["rows"])
    want = []
    for d in devs:
        u = union([(x[3], x[4]) for x in ev if x[0] == d])
        want += [(d, a, b, k) for a, b, k in holes(u, origin, end)]
    if got != sorted(want):
        errs.append("gaps --scope device: %d rows, SQL %d; first "
                    "difference %s" % (len(got), len(want),
                                       sorted(set(got) ^ set(want))[:3]))
    for a in g["data"]["auxiliary"]["devices"]:
        u = union([(x[3], x[4]) for x in ev if x[0] == a["device"]])
        if a["busy_ns"] != length(u):
            errs.append("gaps aux busy of device %s: %s, SQL %s" %
                        (a["device"], a["busy_ns"], length(u)))
    u = union([(x[3], x[4]) for x in ev])
    if g["data"]["auxiliary"]["all"]["busy_ns"] != length(u):
        errs.append("gaps aux all busy: %s, SQL %s" %
                    (g["data"]["auxiliary"]["all"]["busy_ns"], length(u)))

    # gaps, stream scope
    g = run(["gaps", path, "--scope", "stream", "--limit", "0",
             "--absolute"])
    got = sorted((r["device"], r["pid"], r["stream"], r["start_ns"],
                  r["end_ns"], r["kind"]) for r in g["data"]["rows"])
    want = []
    for key in sorted({(x[0], x[1], x[2]) for x in ev},
                      key=lambda k: tuple(-1 if v is None else v
                                          for v in k)):
        u = union([(x[3], x[4]) for x in ev if (x[0], x[1], x[2]) == key])
        want += [key + h for h in holes(u, origin, end)]
    if got != sorted(want, key=lambda k: tuple(-1 if v is None else v
                                               for v in k)):
        errs.append("gaps --scope stream: %d rows, SQL %d" %
                    (len(got), len(want)))

    # timeline
    tl = run(["timeline", path, "--buckets", str(NBUCKETS), "--absolute"])
    span = end - origin
    nb = min(NBUCKETS, span)
    edges = [origin + i * span // nb for i in range(nb + 1)]
    rows = {(r["device"], r["bucket"]): r for r in tl["data"]["rows"]}
    if len(rows) != nb * len(devs):
        errs.append("timeline: %d rows, want %d" % (len(rows),
                                                     nb * len(devs)))
    for d in devs:
        de = [e for e in ev if e[0] == d]
        cl = {k: union([(x[3], x[4]) for x in de if x[5] == k])
              for k in ("compute", "comm", "copy")}
        allu = union([(x[3], x[4]) for x in de])
        for b in range(nb):
            r = rows.get((d, b), {})
            a, z = edges[b], edges[b + 1]
            want = {
                "start_ns": a, "end_ns": z,
                "busy_ns": measure(allu, a, z),
                "compute_ns": measure(cl["compute"], a, z),
                "comm_ns": measure(cl["comm"], a, z),
                "copy_ns": measure(cl["copy"], a, z),
                "kernels": sum(1 for x in de if x[6] and a <= x[3] < z),
            }
            for k, v in want.items():
                if r.get(k) != v:
                    errs.append("timeline device %s bucket %d %s: %s, "
                                "SQL %s" % (d, b, k, r.get(k), v))
    for e in errs[:10]:
        print("FAIL %s: %s" % (name, e))
    if not errs:
        print("ok   %s (%d GPU ops, %d devices)" % (name, len(ev),
                                                    len(devs)))
    return len(errs)


def threads(path):
    """The verbs sweep devices (and streams) on several threads: the same
    answers as on one."""
    failures = 0
    for args in (["gaps"], ["gaps", "--scope", "stream"],
                 ["gaps", "--scope", "all", "--limit", "3"],
                 ["gaps", "--sort", "kind"], ["timeline"],
                 ["timeline", "--by", "stream", "--buckets", "7"],
                 ["overlap"], ["overlap", "--by", "role"]):
        out = []
        for n in ("1", "3"):
            env = dict(os.environ, GPULENS_THREADS=n)
            r = subprocess.run([GPULENS, "--no-cache"] + args +
                               [path, "--json"], capture_output=True,
                               text=True, env=env)
            out.append((r.returncode, r.stdout))
        if out[0] != out[1] or out[0][0] != 0:
            print("FAIL threads: %s differs on 1 and 3 threads" %
                  " ".join(args))
            failures += 1
    return failures


def main():
    tmp = tempfile.mkdtemp()
    demo = os.path.join(tmp, "demo.sqlite")
    r = subprocess.run([GPULENS, "demo", "--out", demo, "--events",
                        "40000", "--gpus", "3", "--seed", "11"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: demo: %s" % r.stderr)
        return 1
    failures = threads(demo)
    traces = [(demo, "demo")]
    if FIX and os.path.isdir(os.path.join(FIX, "nsys")):
        traces += [(p, os.path.basename(p)) for p in sorted(glob.glob(
            os.path.join(FIX, "nsys", "*", "*.sqlite")))]
    else:
        print("fixtures absent: only the generated trace is checked")
    for p, n in traces:
        try:
            failures += check(p, n)
        except (RuntimeError, ValueError, sqlite3.Error) as e:
            print("FAIL %s: %s" % (n, e))
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
