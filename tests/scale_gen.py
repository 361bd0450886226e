#!/usr/bin/env python3
"""scale_gen: builds traces with many entities or deep NVTX nesting.

  scale_gen.py nsys-threads BASE OUT N   BASE (a demo nsys SQLite) plus N
        NVTX push/pop ranges, each on its own thread of its own process
        (N threads, N processes), each around a copy of one API call of
        BASE so that the GPU projection has work to find.
  scale_gen.py nsys-deep BASE OUT D      BASE plus D properly nested NVTX
        push/pop ranges on one thread ("deep0" outermost .. "deep<D-1>").
  scale_gen.py kineto OUT N              a PyTorch profiler (Kineto) JSON
        trace with N CPU processes, each with two ProfilerStep ranges, and
        N GPUs, one kernel each, launched from the process of its number.

Used by tests/scale_entities_cli.sh and tests/deep_nvtx_cli.sh.
"""
import json
import shutil
import sqlite3
import sys


def nsys_span(c):
    lo, hi = c.execute("SELECT min(start), max(end) FROM "
                       "CUPTI_ACTIVITY_KIND_RUNTIME").fetchone()
    return lo, hi


def nsys_threads(base, out, n):
    shutil.copyfile(base, out)
    c = sqlite3.connect(out)
    lo, hi = nsys_span(c)
    rows = []
    for i in range(n):
        pid = 100000 + i
        gtid = (pid << 24) | pid
        s = lo + i % 1000
        rows.append((s, s + 10, 59, "r%d" % (i % 7), gtid, 0))
    c.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
                  "globalTid, domainId) VALUES (?, ?, ?, ?, ?, ?)", rows)
    c.commit()
    c.close()


def nsys_deep(base, out, d):
    shutil.copyfile(base, out)
    c = sqlite3.connect(out)
    lo, hi = nsys_span(c)
    gtid = c.execute("SELECT globalTid FROM NVTX_EVENTS LIMIT 1").fetchone()[0]
    rows = []
    s0 = hi + 1000
    for i in range(d):
        rows.append((s0 + i, s0 + 2 * d - i, 59, "deep%d" % i, gtid, 0))
    c.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
                  "globalTid, domainId) VALUES (?, ?, ?, ?, ?, ?)", rows)
    c.commit()
    c.close()


def kineto(out, n):
    with open(out, "w") as f:
        f.write('{"schemaVersion": 1, "traceEvents": [\n')
        first = True
        for i in range(n):
            pid = 10000 + i
            evs = [
                {"ph": "X", "cat": "user_annotation",
                 "name": "ProfilerStep#0", "pid": pid, "tid": pid,
                 "ts": 10.0, "dur": 100.0},
                {"ph": "X", "cat": "user_annotation",
                 "name": "ProfilerStep#1", "pid": pid, "tid": pid,
                 "ts": 120.0, "dur": 100.0},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                 "pid": pid, "tid": pid, "ts": 20.0, "dur": 5.0,
                 "args": {"correlation": i + 1}},
                {"ph": "X", "cat": "kernel", "name": "k%d" % (i % 5),
                 "pid": i, "tid": 7, "ts": 30.0 + i % 50, "dur": 10.0,
                 "args": {"device": i, "stream": 7, "correlation": i + 1}},
            ]
            for e in evs:
                if not first:
                    f.write(",\n")
                first = False
                f.write(json.dumps(e))
        f.write("\n]}\n")


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "nsys-threads":
        nsys_threads(a[1], a[2], int(float(a[3])))
    elif len(a) == 4 and a[0] == "nsys-deep":
        nsys_deep(a[1], a[2], int(float(a[3])))
    elif len(a) == 3 and a[0] == "kineto":
        kineto(a[1], int(float(a[2])))
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
