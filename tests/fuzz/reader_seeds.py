#!/usr/bin/env python3
"""reader_seeds.py OUTDIR: seed inputs for the kineto, jsonscan, chrome and
ncu fuzz harnesses in OUTDIR/kineto, OUTDIR/jsonscan, OUTDIR/chrome and
OUTDIR/ncu, all written here: small PyTorch profiler (Kineto) traces in the
current and the 2021 layout (plain, gzip, a bare event array, hostile names
and values, ranks merged into one file, a member too large to read, blanks),
JSON edge cases for the scanner (members streamed past, blanks), generic
Chrome traces (nsightful's and Perfetto's shapes), and Nsight Compute
reports (a .ncu-rep
container with protobuf blocks as tests/unit/ncurep_test.c builds one, hostile
variants, raw and details CSV exports). Standard library only.
"""
import gzip
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "cli"))
from pbwire import fbytes, fdouble, fvar  # noqa: E402

OUT = sys.argv[1]
HOSTILE = ["\x1b[2J\x1b[Hevil", "\x1b]0;title\x07", "bs\x08\x08\x7f",
           "\u202eevil\u202c", "\x9b31m", "k" * 300]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ---- Kineto ------------------------------------------------------------
def kineto(hostile=False, old=False, types=False):
    kname = HOSTILE[0] if hostile else "void gemm_kernel<float>(float*)"
    cat = (lambda c: {"cpu_op": "Operator", "cuda_runtime": "Runtime",
                      "kernel": "Kernel", "gpu_memcpy": "Memcpy",
                      "ac2g": "async", "user_annotation": "Operator",
                      "gpu_user_annotation": "Kernel"}[c]) if old else \
        (lambda c: c)
    ev = [
        {"ph": "M", "name": "process_name", "pid": 7, "tid": 0,
         "args": {"name": "python3"}},
        {"ph": "M", "name": "thread_name", "pid": 7, "tid": 7,
         "args": {"name": HOSTILE[1] if hostile else "main"}},
        {"ph": "M", "name": "process_name", "pid": 0, "tid": 0,
         "args": {"name": "GPU 0"}},
        {"ph": "X", "cat": cat("user_annotation"), "name": "ProfilerStep#1",
         "pid": 7, "tid": 7, "ts": 1000.0, "dur": 900.5},
        {"ph": "X", "cat": cat("cpu_op"), "name": "aten::addmm", "pid": 7,
         "tid": 7, "ts": 1010, "dur": 50,
         "args": {"External id": 3, "Input Dims": [[4, 4], [4, 4]]}},
        {"ph": "X", "cat": cat("cuda_runtime"), "name": "cudaLaunchKernel",
         "pid": 7, "tid": 7, "ts": 1020, "dur": 8,
         "args": {"correlation": 101, "External id": 3}},
        {"ph": "X", "cat": cat("kernel"), "name": kname, "pid": 0, "tid": 7,
         "ts": 1040, "dur": 120,
         "args": {"device": 0, "stream": 7, "correlation": 101,
                  "grid": [64, 1, 1], "block": [256, 1, 1],
                  "registers per thread": 32, "shared memory": 0}},
        {"ph": "X", "cat": cat("gpu_memcpy"), "name": "Memcpy HtoD (Pageable -> Device)",
         "pid": 0, "tid": 8, "ts": 1200, "dur": 30,
         "args": {"device": 0, "stream": 8, "correlation": 102,
                  "bytes": 4096, "memory bandwidth (GB/s)": 1.5}},
        {"ph": "X", "cat": cat("gpu_user_annotation"), "name": "ProfilerStep#1",
         "pid": 0, "tid": 7, "ts": 1040, "dur": 200},
        {"ph": "X", "cat": cat("kernel"),
         "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
         "pid": 0, "tid": 20, "ts": 1300, "dur": 400,
         "args": {"device": 0, "stream": 20, "correlation": 103,
                  "Collective name": "allreduce", "In msg nelems": 1024}},
        {"ph": "s", "cat": cat("ac2g"), "id": 101, "pid": 7, "tid": 7,
         "ts": 1020, "name": "ac2g"},
        {"ph": "f", "cat": cat("ac2g"), "id": 101, "pid": 0, "tid": 7,
         "ts": 1040, "bp": "e", "name": "ac2g"},
        {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7,
         "tid": 7, "ts": 1500, "s": "t", "args": {"Bytes": 512}},
    ]
    if hostile:
        ev += [
            {"ph": "X", "cat": "kernel", "name": HOSTILE[3], "pid": 0,
             "tid": 9, "ts": -5, "dur": 1e6,
             "args": {"device": -1, "stream": 2 ** 40, "correlation": -3}},
            {"ph": "X", "cat": "cpu_op", "name": HOSTILE[5], "pid": 7,
             "tid": 7, "ts": 1500, "dur": 0},
            {"ph": "B", "name": "unclosed", "pid": 7, "tid": 7, "ts": 1},
            {"ph": "E", "pid": 7, "tid": 8, "ts": 0},
        ]
    if types:
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": HOSTILE[2],
                   "pid": "seven", "tid": None, "ts": "1000", "dur": [1]})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "far", "pid": 7,
                   "tid": 7, "ts": 1e300, "dur": -1})
    doc = {"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": HOSTILE[4] if hostile
                                 else "NVIDIA A100-SXM4-80GB",
                                 "totalGlobalMem": 85899345920,
                                 "computeMajor": 8, "computeMinor": 0,
                                 "numSms": 108}],
           "distributedInfo": {"backend": "nccl", "rank": 0,
                               "world_size": 2},
           "traceEvents": ev,
           "traceName": "rank0.pt.trace.json",
           "baseTimeNanoseconds": 1700000000000000000,
           "displayTimeUnit": "ms"}
    return doc


# ---- Nsight Compute ----------------------------------------------------


def metric_u64(nid, v):
    return fbytes(13, fvar(1, nid) + fbytes(2, fvar(5, v)))


def metric_double(nid, d):
    return fbytes(13, fvar(1, nid) + fbytes(2, fdouble(3, d)))


def block(hdr, results):
    payload = b"".join(struct.pack("<I", len(r)) + r for r in results)
    hdr += fvar(2, len(results)) + fvar(5, len(payload))
    return struct.pack("<I", len(hdr)) + hdr + payload


def ncurep(hostile=False):
    """As tests/unit/ncurep_test.c's synthetic(): version 9, a string table, a
    device, two results (one with a rule), a second block reusing the
    table."""
    fh = fvar(1, 9)
    out = b"NVR\0" + struct.pack("<I", len(fh)) + fh
    tab = fbytes(1, "gpu__time_duration.sum") + \
        fbytes(1, "launch__registers_per_thread")
    attr = fbytes(1, "device__attribute_multiprocessor_count") + \
        fbytes(2, fvar(5, 132))
    dev = fvar(1, 0) + fbytes(2, HOSTILE[0] if hostile else "Test GPU") + \
        fbytes(3, attr)
    sess = fbytes(6, dev) + fvar(40, 1)
    hdr = fbytes(4, tab) + fbytes(3, sess)
    xyz = fvar(1, 4) + fvar(2, 2) + fvar(3, 1)
    r0 = fbytes(6, HOSTILE[3] if hostile else "alpha") + fbytes(10, xyz) + \
        metric_double(0, 1234.5) + metric_u64(1, 32) + metric_u64(7, 1) + \
        fvar(99, 5)
    item = fbytes(1, fbytes(1, HOSTILE[1] if hostile else "do better") +
                  fvar(2, 4)) + \
        fbytes(8, fbytes(2, "launch__registers_per_thread") +
               fdouble(3, 32) + fbytes(5, "32 > 16")) + \
        fbytes(10, fvar(1, 1) + fdouble(2, 12.5))
    rule = fbytes(1, "R") + fbytes(2, "Rule R") + fbytes(3, fbytes(1, item)) \
        + fbytes(4, "SpeedOfLight")
    r0 += fbytes(19, rule)
    r1 = fbytes(6, "beta") + metric_double(1 if hostile else 0,
                                           float("nan") if hostile else 10)
    out += block(hdr, [r0, r1])
    r2 = fbytes(6, "gamma") + metric_u64(1, 2 ** 64 - 1 if hostile else 64)
    if hostile:
        r2 += fbytes(10, fvar(1, 2 ** 63) + fvar(2, 0) + fvar(3, 2 ** 32))
    out += block(b"", [r2])
    return out


CSV_HEAD = ('"ID","Process ID","Process Name","Host Name","Kernel Name",'
            '"Context","Stream","Block Size","Grid Size","Device","CC",')
CSV_RAW = (CSV_HEAD + '"gpu__time_duration.sum","dram__bytes.sum.per_second",'
           '"launch__func_cache_config","launch__grid_size"\n'
           '"","","","","","","","","","","","usecond","Gbyte/second","",""\n'
           '"0","12","app","host","void ns::k<int>(float *)","1","7",'
           '"(128, 1, 1)","(64, 2, 1)","1","9.0","1,234.5","1.5",'
           '"CachePreferNone","128"\n'
           '"1","12","app","host","j(int)","1","8","(32, 1, 1)","(1, 1, 1)",'
           '"1","9.0","2","","","1"\n')
CSV_DETAILS = ('==PROF== Connected to process 7 (/bin/app)\n' + CSV_HEAD +
               '"Section Name","Metric Name","Metric Unit","Metric Value",'
               '"Rule Name","Rule Type","Rule Description",'
               '"Estimated Speedup Type","Estimated Speedup"\n'
               '"3","7","app","h","k()","1","7","(1, 1, 1)","(1, 1, 1)","0",'
               '"8.6","GPU Speed Of Light Throughput","Duration","usecond",'
               '"2.50","","","","",""\n'
               '"3","7","app","h","k()","1","7","(1, 1, 1)","(1, 1, 1)","0",'
               '"8.6","SpeedOfLight","","","","SOLBottleneck","OPT",'
               '"line one,\n""two""","global","33.5"\n')


def main():
    k = os.path.join(OUT, "kineto")
    write(os.path.join(k, "current.json"), json.dumps(kineto()))
    write(os.path.join(k, "old-2021.json"), json.dumps(kineto(old=True)))
    write(os.path.join(k, "hostile.json"), json.dumps(kineto(hostile=True)))
    write(os.path.join(k, "hostile-types.json"),
          json.dumps(kineto(hostile=True, types=True)))
    write(os.path.join(k, "bare-array.json"),
          json.dumps(kineto()["traceEvents"]))
    write(os.path.join(k, "current.json.gz"),
          gzip.compress(json.dumps(kineto()).encode(), mtime=0))
    j = os.path.join(OUT, "jsonscan")
    write(os.path.join(j, "kineto.json"), json.dumps(kineto(), indent=1))
    write(os.path.join(j, "python-literals.json"),
          '{"traceEvents":[{"ph":"X","ts":NaN,"dur":Infinity,"x":-Infinity}]'
          ',"deviceProperties":[]}')
    write(os.path.join(j, "escapes.json"),
          '{"traceEvents":[{"name":"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9'
          '\\ud83d\\ude00\\u0000","args":{"k":[1,{"d":[]}],"e":1e-7,'
          '"i":-9223372036854775808,"s":"123"}}],"meta":{"a":null}}')
    write(os.path.join(j, "numbers.json"),
          '[{"a":0,"b":-0.0,"c":1E+2,"d":12345678901234567890,'
          '"e":0.1e-400,"f":true,"g":false,"h":null}]')
    write(os.path.join(j, "truncated.json"), json.dumps(kineto())[:700])
    # A TraceLens-style merge of two ranks (kineto-ranks.c), a member too
    # large to read, blanks between units.
    ev = kineto()["traceEvents"]
    merged = []
    for r in range(2):
        for e in ev:
            e = json.loads(json.dumps(e))
            if e.get("ph") == "M" and e.get("name") == "process_name":
                continue
            a = e.setdefault("args", {})
            a["rank"] = r
            if isinstance(e.get("pid"), int):
                a["pid_raw"] = e["pid"]
                e["pid"] += r * 100000
            if "correlation" in a:
                a["correlation_raw"] = a["correlation"]
                a["correlation"] += r * 10000
            merged.append(e)
    merged.append({"ph": "M", "name": "process_name", "pid": 100007,
                   "tid": 0, "args": {"name": "RANK 1 - CPU"}})
    write(os.path.join(k, "merged-ranks.json"),
          json.dumps({"traceEvents": merged}))
    big = kineto()
    big["junk"] = [0] * 10000
    big["deviceProperties"] = [{"id": 0, "pad": "x" * 200}]
    write(os.path.join(k, "big-member.json.gz"),
          gzip.compress(json.dumps(big).encode(), mtime=0))
    write(os.path.join(k, "blanks.json"),
          json.dumps(kineto(), separators=(",\n\n\t  ", ":   ")))
    write(os.path.join(j, "members.json"),
          '{"deviceProperties":[{"id":0,"k":[1,2,{"a":"\\u00e9\\n"}]}],'
          '"junk":{"a":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,true,null,'
          '"s\\"t"],"b":{"c":-1.5e3}},"traceEvents":[{"ph":"X"}],'
          '"t":"' + "x" * 40 + '","n":1}')
    write(os.path.join(j, "blanks.json"),
          '{ \n\t"traceEvents" \n:\t[ {"ph":"X"} \n\n,\t\t  \n'
          '{"ph" : "Y"}  ] ,  "k"  :  [ 1 , 2 ]  }  \n')
    c = os.path.join(OUT, "chrome")
    nsightful = [
        {"name": "Setup", "ph": "X", "cat": "nvtx", "ts": 14883.704,
         "dur": 185.687, "tid": "NVTX 9946", "pid": "Host 0", "args": {}},
        {"name": "cudaLaunchKernel", "ph": "X", "cat": "cuda_api",
         "ts": 14900.1, "dur": 5.2, "tid": "CUDA API 9946",
         "pid": "Host 0", "args": {"correlationId": 5}},
        {"name": HOSTILE[0], "ph": "X", "cat": "cuda", "ts": 15057.495,
         "dur": 1.312, "tid": "CUDA API 7", "pid": "Device 0",
         "args": {"NVTXRegions": [None]}},
        {"name": "Memcpy HtoD", "ph": "X", "cat": "cuda", "ts": 15060,
         "dur": 2, "tid": "CUDA API 7", "pid": "Device 0", "args": {}},
        {"name": "Setup", "ph": "X", "cat": "nvtx-kernel", "ts": 15057.495,
         "dur": 1.312, "tid": "NVTX 9946", "pid": "Device 0", "args": {}},
    ]
    write(os.path.join(c, "nsightful.json"), json.dumps(nsightful))
    perfetto = {"traceEvents": [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 1,
         "args": {"name": HOSTILE[1]}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2,
         "args": {"name": "render"}},
        {"ph": "B", "cat": "gpu", "name": "draw", "pid": 1, "tid": 2,
         "ts": 10, "args": {"device": 1, "stream": 3}},
        {"ph": "E", "pid": 1, "tid": 2, "ts": 12},
        {"ph": "B", "cat": "app,user", "name": "open", "pid": 1, "tid": 2,
         "ts": 11},
        {"ph": "E", "pid": 9, "tid": 9, "ts": 13},
        {"ph": "i", "cat": "input", "name": "click", "pid": 1, "tid": 2,
         "ts": 11.5, "s": "g"},
        {"ph": "C", "name": "mem", "pid": 1, "ts": 12,
         "args": {"heap": 1.5e6, "s": "x"}},
        {"ph": "b", "cat": "net", "name": "req", "id": "0x1", "pid": 1,
         "tid": 2, "ts": 12},
        {"ph": "X", "cat": "GPU Memset", "name": "fill", "pid": "GPU 2",
         "tid": "stream 4", "ts": 14, "dur": -1, "args": {"bytes": 64}},
    ], "displayTimeUnit": "ns", "systemTraceEvents": "", "otherData": {}}
    write(os.path.join(c, "perfetto.json"), json.dumps(perfetto))
    write(os.path.join(c, "perfetto.json.gz"),
          gzip.compress(json.dumps(perfetto).encode(), mtime=0))
    n = os.path.join(OUT, "ncu")
    write(os.path.join(n, "synthetic.ncu-rep"), ncurep())
    write(os.path.join(n, "hostile.ncu-rep"), ncurep(hostile=True))
    write(os.path.join(n, "synthetic.ncu-repz"), gzip.compress(ncurep(),
                                                               mtime=0))
    write(os.path.join(n, "raw.csv"), CSV_RAW)
    write(os.path.join(n, "details.csv"), CSV_DETAILS)


if __name__ == "__main__":
    main()
