#!/usr/bin/env python3
"""stats_sql_test: `gpulens stats --json` against an independent computation
in plain SQL + Python over the same SQLite file, following the `nsys stats`
report definitions (FORMATS.md section 2), for every nsys fixture.

  kernel  cuda_gpu_kern_sum: group by StringIds[demangledName], dur = end-start
  memcpy  cuda_gpu_mem_time_sum / mem_size_sum rows '[CUDA memcpy <label>]'
  memset  '[CUDA memset]'
  api     cuda_api_sum: RUNTIME by name without its _vNNNNN suffix
  osrt    osrt_sum: OSRT_API with eventClass 27, by name
  nvtx    nvtx_sum: NVTX_EVENTS types 59/70 (PushPop) and 60/71 (StartEnd)
          by name = coalesce(text, StringIds[textId]); open ranges end at the
          trace end (largest timestamp)

Statistics: count, total, min, max, mean, median (mean of the two middle
values for even counts), sample standard deviation (n-1; 0 for one value).
Exit 0 pass, 1 fail, 77 skip.
"""
import glob
import json
import math
import os
import re
import sqlite3
import subprocess
import sys

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")

# copyKind ids as older nsysstats hard-coded them (when the export has no
# ENUM_CUDA_MEMCPY_OPER table, as 2021-era files do); reports of those nsys
# versions printed "[CUDA memcpy HtoD]".
OLD_COPY = {0: "Unknown", 1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH",
            5: "AtoA", 6: "AtoD", 7: "DtoA", 8: "DtoD", 9: "HtoH",
            10: "PtoP", 11: "Unified HtoD", 12: "Unified DtoH",
            13: "Unified DtoD"}


def stats(values):
    v = sorted(values)
    n = len(v)
    tot = sum(v)
    mean = tot / n
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    sd = 0.0
    if n > 1:
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
    return {"count": n, "total": tot, "min": v[0], "max": v[-1],
            "mean": mean, "median": med, "stddev": sd}


def tables(db):
    return {r[0] for r in db.execute(
        "select name from sqlite_master where type in ('table','view')")}


def columns(db, t):
    return {r[1] for r in db.execute("pragma table_info(%s)" % t)}


def strings(db):
    return dict(db.execute("select id, value from StringIds"))


def expected(db, kind):
    t = tables(db)
    s = strings(db) if "StringIds" in t else {}
    groups = {}

    def add(name, dur, nbytes=None):
        g = groups.setdefault(name, {"dur": [], "bytes": []})
        g["dur"].append(dur)
        if nbytes is not None:
            g["bytes"].append(nbytes)

    if kind == "kernel" and "CUPTI_ACTIVITY_KIND_KERNEL" in t:
        for nid, d in db.execute("select demangledName, end-start from "
                                 "CUPTI_ACTIVITY_KIND_KERNEL"):
            add(s.get(nid, ""), d)
    elif kind == "memcpy" and "CUPTI_ACTIVITY_KIND_MEMCPY" in t:
        if "ENUM_CUDA_MEMCPY_OPER" in t:
            lab = dict(db.execute("select id, label from "
                                  "ENUM_CUDA_MEMCPY_OPER"))
        else:
            lab = OLD_COPY
        for ck, d, b in db.execute("select copyKind, end-start, bytes from "
                                   "CUPTI_ACTIVITY_KIND_MEMCPY"):
            add("[CUDA memcpy %s]" % lab.get(ck, "Unknown"), d, b)
    elif kind == "memset" and "CUPTI_ACTIVITY_KIND_MEMSET" in t:
        for d, b in db.execute("select end-start, bytes from "
                               "CUPTI_ACTIVITY_KIND_MEMSET"):
            add("[CUDA memset]", d, b)
    elif kind == "api" and "CUPTI_ACTIVITY_KIND_RUNTIME" in t:
        for nid, d in db.execute("select nameId, end-start from "
                                 "CUPTI_ACTIVITY_KIND_RUNTIME"):
            add(re.sub(r"_v\d+$", "", s.get(nid, "")), d)
    elif kind == "osrt" and "OSRT_API" in t:
        for nid, d in db.execute("select nameId, end-start from OSRT_API "
                                 "where eventClass = 27"):
            add(s.get(nid, ""), d)
    elif kind == "nvtx" and "NVTX_EVENTS" in t:
        last = trace_end(db, t)
        cols = columns(db, "NVTX_EVENTS")
        textid = "textId" if "textId" in cols else "NULL"
        q = ("select eventType, text, %s, start, end from NVTX_EVENTS "
             "where eventType in (59, 60, 70, 71)" % textid)
        for et, text, tid, st, en in db.execute(q):
            name = text if text is not None else s.get(tid, "")
            style = "PushPop" if et in (59, 70) else "StartEnd"
            add((name, style), (en if en is not None else last) - st)
    return groups


def trace_end(db, t):
    last = None
    for tab in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
                "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "OSRT_API",
                "NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"):
        if tab in t:
            for (v,) in db.execute("select max(max(start), "
                                   "coalesce(max(end), 0)) from " + tab):
                if v is not None and (last is None or v > last):
                    last = v
    return last


def close(a, b, what, ctx):
    if abs(float(a) - float(b)) > 1e-3 * max(1.0, abs(float(b)) * 1e-9):
        raise AssertionError("%s: %s is %r, SQL says %r" % (ctx, what, a, b))


def check(path, kind):
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    exp = expected(db, kind)
    db.close()
    out = subprocess.run([GPULENS, "--no-cache", "stats", path, "--type",
                          kind, "--limit", "0", "--json", "--full-names"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError("%s: gpulens stats --type %s exited %d: %s" %
                             (path, kind, out.returncode, out.stderr))
    doc = json.loads(out.stdout)
    rows = doc["data"]["rows"]
    got = {}
    for r in rows:
        k = (r["name"], r["style"]) if kind == "nvtx" else r["name"]
        if k in got:
            raise AssertionError("%s: duplicate row %r" % (path, k))
        got[k] = r
    if set(got) != set(exp):
        raise AssertionError("%s --type %s: groups differ: only gpulens %r, "
                             "only SQL %r" % (path, kind,
                                              sorted(set(got) - set(exp))[:5],
                                              sorted(set(exp) - set(got))[:5]))
    grand = sum(sum(g["dur"]) for g in exp.values())
    for k, g in exp.items():
        e = stats(g["dur"])
        r = got[k]
        ctx = "%s --type %s %r" % (os.path.basename(path), kind, k)
        for f in ("count", "total", "min", "max"):
            fld = f if f == "count" else f + "_ns"
            if int(r[fld]) != e[f]:
                raise AssertionError("%s: %s is %r, SQL says %r" %
                                     (ctx, fld, r[fld], e[f]))
        close(r["mean_ns"], e["mean"], "mean_ns", ctx)
        close(r["median_ns"], e["median"], "median_ns", ctx)
        close(r["stddev_ns"], e["stddev"], "stddev_ns", ctx)
        close(r["share_pct"], 100.0 * e["total"] / grand if grand else 0,
              "share_pct", ctx)
        if g["bytes"]:
            b = stats(g["bytes"])
            if int(r["total_bytes"]) != b["total"]:
                raise AssertionError("%s: total_bytes %r, SQL %r" %
                                     (ctx, r["total_bytes"], b["total"]))
            close(r["median_bytes"], b["median"], "median_bytes", ctx)
            close(r["stddev_bytes"], b["stddev"], "stddev_bytes", ctx)
    return len(exp)


def main():
    if not FIX or not os.path.isdir(os.path.join(FIX, "nsys")):
        print("SKIP: no fixtures at GPULENS_FIXTURES=%r" % FIX)
        return 77
    files = sorted(glob.glob(os.path.join(FIX, "nsys", "*", "*.sqlite")))
    if not files:
        print("SKIP: no nsys fixtures found")
        return 77
    failures = 0
    for f in files:
        for kind in ("kernel", "memcpy", "memset", "api", "osrt", "nvtx"):
            try:
                n = check(f, kind)
                print("ok   %-45s %-7s %5d groups" %
                      (os.path.relpath(f, FIX), kind, n))
            except AssertionError as e:
                failures += 1
                print("FAIL %s" % e)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
