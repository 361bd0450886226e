#!/usr/bin/env python3
"""queue_hta: `gpulens queue` against an independent computation of
HolisticTraceAnalysis's queue length (trace_counters.py) and idle time
breakdown (breakdown_analysis.py) over the Kineto JSON itself.

Usage: queue_hta.py GPULENS TRACE... Exit 0 pass, 1 fail.

HTA's method, restated over the raw events:
  queue: +1 at the ts of each launch call (its name in LAUNCH, args
  correlation > 0) whose correlation names a kernel, memcpy or memset, on
  that GPU event's stream; -1 at the GPU event's ts; sorted by ts (rises
  first at equal ts), the running sum is the queue length. describe()'s
  mean is over these change points; time at a full queue is the sum of
  next_ts - ts over the points whose length is >= max_queue.
  idle: the stream's GPU events by ts; interval = ts - previous end; host
  wait when the launch call's ts > previous end, else kernel wait when the
  interval < 30, else other; the signed intervals summed per category.
Times are exact nanoseconds (ts and dur are microsecond decimals, rounded
half up beyond the third decimal, as the reader does). Integers must match
to the nanosecond; means to the three decimals JSON prints.
"""
import decimal
import gzip
import json
import subprocess
import sys

LAUNCH = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",
    "cuLaunchKernelEx", "cudaMemcpyAsync", "cudaMemsetAsync",
    "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync",
    "hipMemcpyAsync", "hipMemcpyWithStream",
    "runFunction - job_prep_and_submit_for_execution",
}
GPU_CATS = {"kernel", "gpu_memset", "gpu_memcpy"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "runtime", "driver"}
MAX_QUEUE = 1024
DELAY = 30


def ns(v):
    d = decimal.Decimal(str(v)) * 1000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        d = json.load(f, parse_float=decimal.Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def hta(path):
    gpu, launch = [], {}
    for e in load(path):
        if e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        a = e.get("args") or {}
        if cat in GPU_CATS and "stream" in a:
            corr = a.get("correlation", 0)
            gpu.append((ns(e["ts"]), ns(e["ts"]) + max(ns(e["dur"]), 0),
                        int(a.get("device", e.get("pid"))), int(a["stream"]),
                        corr, len(gpu)))
        elif cat in RUNTIME_CATS and a.get("correlation", 0) > 0:
            launch[a["correlation"]] = (ns(e["ts"]), e.get("name") in LAUNCH)
    streams = {}
    for g in gpu:
        streams.setdefault((g[2], g[3]), []).append(g)
    res = {}
    for key, evs in streams.items():
        evs.sort(key=lambda g: (g[0], g[5]))
        pts = []
        for g in evs:
            lc = launch.get(g[4])
            if lc is not None and lc[1]:
                pts.append((lc[0], 0, g[5], 1))
                pts.append((g[0], 1, g[5], -1))
        pts.sort()
        q, vals = 0, []
        for p in pts:
            q += p[3]
            vals.append(q)
        full = sum(pts[i + 1][0] - pts[i][0] for i in range(len(pts) - 1)
                   if vals[i] >= MAX_QUEUE)
        idle = {"host_wait": 0, "kernel_wait": 0, "other": 0}
        nidle = {"host_wait": 0, "kernel_wait": 0, "other": 0}
        for i in range(1, len(evs)):
            prev_end = evs[i - 1][1]
            iv = evs[i][0] - prev_end
            lc = launch.get(evs[i][4])
            if lc is not None and lc[0] > prev_end:
                c = "host_wait"
            elif iv < DELAY:
                c = "kernel_wait"
            else:
                c = "other"
            idle[c] += iv
            nidle[c] += 1
        r = {"events": len(evs), "launches": len(pts) // 2,
             "max_queue": max(vals) if vals else 0,
             "min_queue": min(vals) if vals else 0,
             "full_ns": full,
             "mean_samples": sum(vals) / len(vals) if vals else 0.0}
        if len(pts) > 1 and pts[-1][0] > pts[0][0]:
            w = sum(vals[i] * (pts[i + 1][0] - pts[i][0])
                    for i in range(len(pts) - 1))
            r["mean_queue"] = w / (pts[-1][0] - pts[0][0])
        for c in idle:
            r[c + "_ns"] = idle[c]
            r[c + "_n"] = nidle[c]
        res[key] = r
    return res


def main():
    g = sys.argv[1]
    bad = 0
    for path in sys.argv[2:]:
        want = hta(path)
        out = subprocess.run([g, "queue", "--json", "--no-cache", path],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print("FAIL %s: rc %d %s" % (path, out.returncode, out.stderr))
            bad += 1
            continue
        rows = json.loads(out.stdout)["data"]["rows"]
        got = {(r["device"], r["stream"]): r for r in rows}
        # CUPTI profiler ranges are kernels to gpulens, not to HTA; a
        # stream of those alone has no launch.
        for k in set(got) - set(want):
            if got[k]["launches"] == 0 and got[k]["host_wait_n"] == 0:
                del got[k]
        if set(got) != set(want):
            print("FAIL %s: streams %s != %s" % (path, sorted(got),
                                                 sorted(want)))
            bad += 1
            continue
        for k, w in want.items():
            for f, v in w.items():
                x = got[k][f]
                # JSON numbers carry three decimals.
                ok = (abs(x - v) <= 0.0005 + 1e-9 * abs(v)
                      if isinstance(v, float) else x == v)
                if not ok:
                    print("FAIL %s stream %s %s: gpulens %r, HTA %r" %
                          (path, k, f, x, v))
                    bad += 1
        print("ok %s: %d streams, %d launches" % (
            path.rsplit("/", 1)[-1], len(want),
            sum(w["launches"] for w in want.values())))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
