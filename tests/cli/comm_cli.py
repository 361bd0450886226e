#!/usr/bin/env python3
"""comm_cli: the message sizes and bandwidths of `gpulens comm --json`
against the same numbers computed here, with the standard library, from
the trace's JSON.

For each Kineto trace (plain or gzipped JSON) it reads every NCCL/RCCL
kernel (category kernel, Kernel or cuda_profiler_range, and a name with
"nccl"/"rccl" or an args "Collective name"), with its duration in exact
nanoseconds (floats read as decimal.Decimal), and from its args the
element counts, dtype, group size and process group name, the element
size from PyTorch's ScalarType names (c10/core/ScalarType.h), and applies
the rules that headless/cmd-comm.c and gpulens(1) document:
  bytes = "Out msg nelems" x element size for allgather and gather,
          "In msg nelems" x element size for the rest;
  bus factor (nccl-tests' doc/PERFORMANCE.md), n = "Group size":
          2(n-1)/n allreduce and barrier; (n-1)/n allgather,
          reducescatter, alltoall(v), gather, scatter; 1 broadcast,
          reduce, sendrecv, send, recv; none otherwise.
A kernel without those args (traces before PyTorch 2.1) takes, as
comm's Kineto reader documents (sources/kineto-comm.c), the message of
the innermost NCCL/RCCL annotation (a user_annotation or cpu_op named with
"nccl"/"rccl") around its launch: the launching call is the
cuda_runtime/cuda_driver event of the kernel's "correlation" on the same
pid; the annotation is on the call's pid and tid and holds its start
(start <= t < start + dur, in nanoseconds); its "Input Dims" give the
elements (the sum of the tensors' products), its "Input type" (one type
for every tensor) the element size, its name after ':' the collective.
Kernels are grouped as comm groups them (collective from the name, else
from the args' "Collective name"; device, stream); each group's total_bytes, sized_count, algbw_gbps,
busbw_gbps, their medians over the kernels, group_size and process_group
must equal comm's row (bandwidths within comm's rounding, 0.001), and
every comm kernel row must have a group here. It prints each trace's
bytes per collective as the trace names it.

usage: comm_cli.py [--quiet] [--expect-sized] [--agree] TRACE...
  --expect-sized  fail unless some kernel of each trace has a size
  --agree         instead: where kernels carry the args and an annotation
                  around their launch is sized too, the two agree (the
                  count, and the collective ignoring case and '_'); fail
                  unless some kernel of each trace has both
Exit 0 pass, 1 fail. Environment: GPULENS (default ./gpulens).
"""
import collections
import decimal
import gzip
import json
import os
import re
import statistics
import subprocess
import sys

GPULENS = os.environ.get("GPULENS", "./gpulens")

DTYPE = {
    "byte": 1, "char": 1, "short": 2, "int": 4, "long": 8, "half": 2,
    "float": 4, "double": 8, "complexhalf": 4, "complexfloat": 8,
    "complexdouble": 16, "bool": 1, "qint8": 1, "quint8": 1, "qint32": 4,
    "bfloat16": 2, "quint4x2": 1, "quint2x4": 1, "bits1x8": 1,
    "bits2x4": 1, "bits4x2": 1, "bits8": 1, "bits16": 2,
    "float8_e5m2": 1, "float8_e4m3fn": 1, "float8_e5m2fnuz": 1,
    "float8_e4m3fnuz": 1, "uint16": 2, "uint32": 4, "uint64": 8,
    "float8_e8m0fnu": 1, "float4_e2m1fn_x2": 1, "float32": 4,
    "float64": 8, "float16": 2, "int8": 1, "uint8": 1, "int16": 2,
    "int32": 4, "int64": 8, "complex64": 8, "complex128": 16,
    # C++ type names, as record_shapes writes an operator's "Input type"
    "long int": 8, "long long": 8, "long long int": 8, "unsigned long": 8,
    "unsigned long int": 8, "short int": 2, "unsigned short": 2,
    "unsigned int": 4, "signed char": 1, "unsigned char": 1,
    "complex<float>": 8, "complex<double>": 16, "complex<c10::half>": 4,
}
# (normalised prefix, display name, size by output?, bus factor kind)
KNOWN = [
    ("allreduce", "AllReduce", False, "ar"),
    ("allgather", "AllGather", True, "ring"),
    ("reducescatter", "ReduceScatter", False, "ring"),
    ("reduce", "Reduce", False, "one"),
    ("broadcast", "Broadcast", False, "one"),
    ("bcast", "Broadcast", False, "one"),
    ("sendrecv", "SendRecv", False, "one"),
    ("send", "Send", False, "one"),
    ("recv", "Recv", False, "one"),
    ("alltoallv", "AllToAllv", False, "ring"),
    ("alltoall", "AllToAll", False, "ring"),
    ("gather", "Gather", True, "ring"),
    ("scatter", "Scatter", False, "ring"),
    ("barrier", "Barrier", False, "ar"),
]
KERNEL_CATS = {"kernel", "cuda_profiler_range"}


def norm(s):
    return "".join(c.lower() for c in s if c.isalnum())


def match(n):
    best = None
    for k in KNOWN:
        if n.startswith(k[0]) and (best is None or len(k[0]) > len(best[0])):
            best = k
    return best


def collective(name, a=None):
    """The collective comm names a kernel after (gpulens(1), COLLECTIVES):
    its name's, else its args' "Collective name", else the name's first
    word. (The third source, an annotation around the launch, is not
    read here; these kernels carry args where they have one.)"""
    c = collective_of_name(name)
    if c[1] or not a or "Collective name" not in a:
        return c[0]
    k = match(norm(str(a["Collective name"])))
    return k[1] if k else c[0]


def collective_of_name(name):
    """(collective, known) from a kernel name."""
    m = re.search(r"[nr]ccl", name, re.I)
    p = name[m.end():] if m else name
    p = p.lstrip("_:.")
    for pre in ("devkernel", "kernel"):
        if p.lower().startswith(pre):
            p = p[len(pre):]
            break
    p = p.lstrip("_:.")
    k = match(norm(re.split(r"[(< ]", p, maxsplit=1)[0]))
    if k:
        return k[1], True
    whole = norm(name.split("(", 1)[0])
    for i in range(len(whole)):
        k = match(whole[i:])
        if k:
            return k[1], True
    w = re.match(r"[A-Za-z0-9]*", p).group(0)
    return w or "unknown", False


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(
        rounding=decimal.ROUND_HALF_UP))


def as_int(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def prod(dims):
    p = 1
    for x in dims:
        p *= x
    return p


def annotation_args(events):
    """For each (pid, correlation id) of a launching call inside a sized
    NCCL annotation, the args the annotation gives its kernel (the top)."""
    calls = {}
    anns = collections.defaultdict(list)
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        a = e.get("args") or {}
        if cat in ("cuda_runtime", "cuda_driver", "runtime") and \
                "correlation" in a:
            calls[(str(e.get("pid")), a["correlation"])] = \
                (str(e.get("tid")), ns(e["ts"]))
        if cat in ("user_annotation", "cpu_op") and \
                re.search(r"[nr]ccl", e.get("name", ""), re.I):
            dims, types = a.get("Input Dims"), a.get("Input type")
            try:
                n = sum(prod(d) for d in dims)
                ok = len(dims) > 0 and len(types) == len(dims) and \
                    all(t == types[0] for t in types) and \
                    isinstance(types[0], str) and \
                    all(isinstance(x, int) and x >= 0
                        for d in dims for x in d)
            except TypeError:
                ok = False
            if not ok or \
                    not DTYPE.get(types[0].lower().replace("c10::", "")):
                continue
            name = e["name"]
            coll = name.split(":", 1)[1] if ":" in name else name
            s = ns(e["ts"])
            anns[(str(e.get("pid")), str(e.get("tid")))].append(
                (s, s + ns(e.get("dur", 0)),
                 {"Collective name": coll, "In msg nelems": n,
                  "dtype": types[0]}))
    out = {}
    for (pid, corr), (tid, t) in calls.items():
        inside = [x for x in anns.get((pid, tid), ()) if x[0] <= t < x[1]]
        if inside:
            out[(pid, corr)] = min(inside, key=lambda x: x[1] - x[0])[2]
    return out


def kernels(events):
    """(group key, kernel) for every communication kernel."""
    byann = annotation_args(events)
    for e in events:
        if e.get("ph") != "X" or str(e.get("cat", "")).lower() \
                not in KERNEL_CATS:
            continue
        name = e.get("name", "")
        a = e.get("args") or {}
        if not re.search(r"[nr]ccl", name, re.I) and \
                "Collective name" not in a:
            continue
        if "Collective name" not in a and "In msg nelems" not in a and \
                "correlation" in a:
            # (The launching call's pid: the trace's CPU process.)
            for (pid, corr), ann in byann.items():
                if corr == a["correlation"]:
                    a = dict(a, **ann)
                    break
        dev = as_int(a.get("device", e.get("pid")))
        stream = as_int(a.get("stream", e.get("tid")))
        if stream == 4294967295:
            stream = -1
        dur = max(ns(e.get("dur", 0)), 0)
        yield (collective(name, a), dev, stream), name, a, dur


def sized(name_coll, a):
    """(bytes, bus factor or None, collective as named) or None."""
    esize = DTYPE.get(str(a.get("dtype", "")).lower().replace("c10::", ""))
    if not esize:
        return None
    k = match(norm(str(a.get("Collective name", ""))))
    if k is None:
        k = match(norm(name_coll))
    key = "Out msg nelems" if k and k[2] else "In msg nelems"
    n = as_int(a.get(key))
    if n is None or n < 0:
        return None
    g = as_int(a.get("Group size")) or 0
    factor = None
    if k and k[3] == "one":
        factor = 1.0
    elif k and g > 0:
        factor = (g - 1) / g * (2 if k[3] == "ar" else 1)
    return n * esize, factor, g


def expected(events):
    groups = collections.defaultdict(lambda: {
        "count": 0, "sized": 0, "bytes": 0, "ns": 0, "bus": 0.0,
        "nofactor": False, "algbw": [], "busbw": [], "gs": set(),
        "pg": set()})
    per_coll = collections.Counter()
    for key, name, a, dur in kernels(events):
        g = groups[key]
        g["count"] += 1
        s = sized(key[0], a)
        if s is None:
            continue
        b, factor, gs = s
        per_coll[a.get("Collective name", key[0])] += b
        g["sized"] += 1
        g["bytes"] += b
        g["ns"] += dur
        g["gs"].add(gs)
        pg = a.get("Process Group Name", a.get("Process Group ID"))
        g["pg"].add(str(pg) if pg is not None else None)
        if factor is None:
            g["nofactor"] = True
        else:
            g["bus"] += b * factor
        if dur > 0:
            g["algbw"].append(b / dur)
            g["busbw"].append(b * (factor or 0) / dur)
    return groups, per_coll


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 0.0011 + 1e-9 * abs(b)


def check(path, quiet, expect_sized):
    bad = []
    groups, per_coll = expected(load(path))
    r = subprocess.run([GPULENS, "--no-cache", "comm", path, "--json",
                        "--limit", "0"], capture_output=True, text=True)
    if r.returncode != 0:
        return ["%s: comm exited %d: %s" % (path, r.returncode, r.stderr)]
    rows = {}
    for row in json.loads(r.stdout)["data"]["rows"]:
        if row["kind"] != "kernel":
            continue
        k = (row["collective"], row["device"], row["stream"])
        if k in rows:
            bad.append("%s: two rows for %s" % (path, k))
        rows[k] = row
    if set(rows) != set(groups):
        bad.append("%s: groups differ: comm %s, JSON %s" %
                   (path, sorted(rows, key=str), sorted(groups, key=str)))
    for k, g in groups.items():
        row = rows.get(k)
        if row is None:
            continue
        s = g["sized"] > 0
        t = s and g["ns"] > 0
        want = {
            "count": g["count"],
            "sized_count": g["sized"],
            "total_bytes": g["bytes"] if s else None,
            "algbw_gbps": g["bytes"] / g["ns"] if t else None,
            "busbw_gbps": g["bus"] / g["ns"] if t and not g["nofactor"]
            else None,
            "median_algbw_gbps": statistics.median(g["algbw"])
            if g["algbw"] else None,
            "median_busbw_gbps": statistics.median(g["busbw"])
            if g["busbw"] and not g["nofactor"] else None,
            "group_size": next(iter(g["gs"])) or None
            if len(g["gs"]) == 1 else None,
            "process_group": next(iter(g["pg"]))
            if len(g["pg"]) == 1 else None,
        }
        for f, v in want.items():
            got = row.get(f, "missing")
            ok = close(got, v) if f.endswith("gbps") else got == v
            if not ok:
                bad.append("%s %s: %s is %r, the JSON gives %r" %
                           (path, k, f, got, v))
    if expect_sized and not per_coll:
        bad.append("%s: no kernel with a message size" % path)
    if not quiet:
        print("%s: %s" % (os.path.basename(path), ", ".join(
            "%s %d B" % kv for kv in sorted(per_coll.items())) or
            "no sizes"))
    return bad


def agree(path):
    """The annotation's message against the kernel args' (--agree)."""
    events = load(path)
    byann = annotation_args(events)
    bad, n = [], 0
    for e in events:
        a = e.get("args") or {}
        if str(e.get("cat", "")).lower() not in KERNEL_CATS or \
                "In msg nelems" not in a:
            continue
        for (pid, corr), ann in byann.items():
            if corr != a.get("correlation"):
                continue
            n += 1
            if ann["In msg nelems"] != a["In msg nelems"] or \
                    norm(ann["Collective name"]).lstrip("_") != \
                    norm(a.get("Collective name", "")).lstrip("_") or \
                    DTYPE[ann["dtype"].lower().replace("c10::", "")] != \
                    DTYPE[str(a.get("dtype", "")).lower()]:
                bad.append("%s: kernel %s: annotation %r, args %r" %
                           (path, e.get("name"), ann, a))
    if n == 0:
        bad.append("%s: no kernel with both args and a sized annotation" %
                   path)
    return bad


def main(argv):
    quiet = "--quiet" in argv
    expect_sized = "--expect-sized" in argv
    paths = [a for a in argv if not a.startswith("--")]
    bad = []
    for p in paths:
        bad += agree(p) if "--agree" in argv else \
            check(p, quiet, expect_sized)
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
