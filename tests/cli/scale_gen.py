#!/usr/bin/env python3
"""scale_gen: builds traces with many entities or deep NVTX nesting.

  scale_gen.py nsys-threads BASE OUT N   BASE (a demo nsys SQLite) plus N
        NVTX push/pop ranges, each on its own thread of its own process
        (N threads, N processes): the GPU projection of BASE's ranges
        runs over N threads.
  scale_gen.py nsys-deep BASE OUT D      BASE plus D properly nested NVTX
        push/pop ranges on one thread ("deep0" outermost .. "deep<D-1>").
  scale_gen.py kineto OUT N              a PyTorch profiler (Kineto) JSON
        trace with N CPU processes, each with two ProfilerStep ranges, and
        N GPUs, one kernel each, launched from the process of its number.

  scale_gen.py nsys-string BASE OUT MB   BASE with the name of its first
        kernel (a StringIds value) MB megabytes long.
  scale_gen.py ratio SMALL BIG RATIO CAP CMD...   runs CMD with "{}"
        replaced by SMALL, then by BIG (each under CAP seconds); fails
        (exit 1) when the big run takes more than RATIO times the small
        one plus a second, or either fails or passes CAP. The big run's
        standard output is kept in $SCALE_OUT when that is set.

Used by tests/cli/scale_entities_cli.sh and tests/deep_nvtx_cli.sh.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time


def nsys_span(c):
    try:
        lo, hi = c.execute("SELECT min(start), max(end) FROM "
                           "CUPTI_ACTIVITY_KIND_RUNTIME").fetchone()
    except sqlite3.OperationalError:    # no API calls: a small seed
        lo = hi = None
    if lo is None:
        lo, hi = c.execute("SELECT min(start), max(end) FROM "
                           "NVTX_EVENTS").fetchone()
    return lo, hi


def nsys_enum(c):
    # A cut seed may lack the event type that names push/pop ranges.
    try:
        c.execute("INSERT OR IGNORE INTO ENUM_NSYS_EVENT_TYPE (id, name, "
                  "label) VALUES (59, 'NvtxPushPopRange', "
                  "'NvtxPushPopRange')")
    except sqlite3.OperationalError:
        pass


def nsys_threads(base, out, n):
    shutil.copyfile(base, out)
    c = sqlite3.connect(out)
    nsys_enum(c)
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
    nsys_enum(c)
    lo, hi = nsys_span(c)
    gtid = c.execute("SELECT globalTid FROM NVTX_EVENTS LIMIT 1").fetchone()[0]
    rows = []
    # After every range of BASE, so that nothing encloses the chain.
    s0 = max(hi, c.execute("SELECT max(end) FROM NVTX_EVENTS").fetchone()[0])
    s0 += 1000
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


def nsys_string(base, out, mb):
    shutil.copyfile(base, out)
    c = sqlite3.connect(out)
    sid = c.execute("SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL "
                    "LIMIT 1").fetchone()[0]
    c.execute("UPDATE StringIds SET value = ? WHERE id = ?",
              ("k" * int(mb * 1000000), sid))
    c.commit()
    c.close()


def timed(cmd, cap, out):
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE,
                           timeout=cap)
    except subprocess.TimeoutExpired:
        sys.stderr.write("%s: past %g s\n" % (" ".join(cmd), cap))
        sys.exit(1)
    t = time.monotonic() - t0
    if r.returncode != 0:
        sys.stderr.write("%s: exit %d: %s\n" % (" ".join(cmd), r.returncode,
                         r.stderr.decode(errors="replace")[-500:]))
        sys.exit(1)
    return t


def ratio(small, big, k, cap, cmd):
    t1 = timed([small if x == "{}" else x for x in cmd], cap,
               subprocess.DEVNULL)
    dest = os.environ.get("SCALE_OUT")
    with open(dest if dest else os.devnull, "wb") as out:
        t2 = timed([big if x == "{}" else x for x in cmd], cap, out)
    line = "%s: %.2f s, then %.2f s (%.1fx)" % (" ".join(cmd[1:]), t1, t2,
                                                 t2 / max(t1, 1e-3))
    print(line)
    if t2 > k * t1 + 1.0:
        sys.stderr.write("not linear: %s, more than %gx\n" % (line, k))
        sys.exit(1)


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "nsys-threads":
        nsys_threads(a[1], a[2], int(float(a[3])))
    elif len(a) == 4 and a[0] == "nsys-deep":
        nsys_deep(a[1], a[2], int(float(a[3])))
    elif len(a) == 3 and a[0] == "kineto":
        kineto(a[1], int(float(a[2])))
    elif len(a) == 4 and a[0] == "nsys-string":
        nsys_string(a[1], a[2], float(a[3]))
    elif len(a) >= 6 and a[0] == "ratio":
        ratio(a[1], a[2], float(a[3]), float(a[4]), a[5:])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
