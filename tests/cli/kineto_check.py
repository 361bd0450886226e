#!/usr/bin/env python3
"""kineto_check: what gpulens reads from a Kineto trace, against an
independent computation over the same JSON with the standard library.

For each trace (plain or gzipped JSON) it loads the document with json
(floats as decimal.Decimal, so microsecond timestamps convert to exact
nanoseconds), classifies every event by the mapping documented at the top
of sources/kineto.c, and compares:
  - event counts per kind: kernels (kernel, Kernel, cuda_profiler_range),
    memcpys, memsets, syncs, runtime/driver calls, NVTX-like ranges (CPU
    annotations, operators, python functions, other X categories, and GPU
    annotations), marks, counters ([memory] instants and C counters),
    overhead, with `gpulens info --json`;
  - kernel count and total time per kernel name with `gpulens stats --type
    kernel --json --limit 0`;
  - runtime/driver call counts per name with `gpulens stats --type api`
    (which, as nsys's cuda_api_sum, drops a "_vNNNN" version suffix);
  - CPU range (annotation, operator, ...) counts per name with `gpulens
    stats --type nvtx`;
  - the number of NCCL kernels (EVF_COMM) with `gpulens comm --json`.

With --verbs, it instead runs every verb that has a JSON schema and takes
a trace (its usage names TRACE; ID and ROW_ID get the first kernel's),
with --json, on each trace and validates the output against `gpulens
schema VERB` (the validator of tests/cli/schema_test.py).

usage: kineto_check.py [--quiet] [--verbs] TRACE...  (exit 0 pass, 1 fail)
Environment: GPULENS (the binary, default ./gpulens), GPULENS_SRCDIR.
"""
import collections
import decimal
import gzip
import json
import os
import re
import subprocess
import sys

GPULENS = os.environ.get("GPULENS", "./gpulens")

CATS = {
    "cpu_op": "torch", "operator": "torch", "user_annotation": "torch",
    "python_function": "python", "python": "python",
    "gpu_user_annotation": "gpu_ann", "cpu_instant_event": "instant",
    "cuda_runtime": "api", "runtime": "api", "xpu_runtime": "api",
    "mtia_runtime": "api", "privateuse1_runtime": "api",
    "cuda_driver": "api", "privateuse1_driver": "api",
    "kernel": "kernel", "cuda_profiler_range": "kernel",
    "gpu_memcpy": "memcpy", "memcpy": "memcpy",
    "gpu_memset": "memset", "memset": "memset", "cuda_sync": "sync",
    "overhead": "overhead", "ac2g": "flow", "async": "flow",
    "async_cpu_to_gpu": "flow", "async_gpu": "flow", "fwdbwd": "flow",
    "trace": "trace", "memory": "memory",
}


def load(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def ns(v):
    """Microseconds (int or Decimal) to exact nanoseconds."""
    d = decimal.Decimal(v) * 1000
    return int(d.quantize(decimal.Decimal(1),
                          rounding=decimal.ROUND_HALF_UP))


def is_int(v):
    if isinstance(v, int) and not isinstance(v, bool):
        return True
    if isinstance(v, str):
        s = v[1:] if v.startswith("-") else v
        return s.isdigit()
    return False


def api_name(s):
    """"cudaStreamGetCaptureInfo_v2" -> "cudaStreamGetCaptureInfo"."""
    k = len(s)
    while k > 0 and s[k - 1].isdigit():
        k -= 1
    if 2 <= k < len(s) and s[k - 2:k] == "_v":
        return s[:k - 2]
    return s


def expected(events):
    """Counts per kind, kernel time and counts per name, API and range
    counts per name, NCCL kernel count."""
    kinds = collections.Counter()
    kern = collections.defaultdict(lambda: [0, 0])
    api = collections.Counter()
    ranges = collections.Counter()
    comm = 0
    for e in events:
        ph = e.get("ph")
        cat = CATS.get(str(e.get("cat", "")).lower(), "other") \
            if "cat" in e else "none"
        name = e.get("name") or ""
        if ph == "X":
            dur = max(ns(e["dur"]), 0)
            if cat in ("flow", "trace"):
                continue
            if cat == "kernel":
                kinds["kernel"] += 1
                kern[name][0] += 1
                kern[name][1] += dur
                a = e.get("args", {})
                low = name.lower()
                if "Collective name" in a or "nccl" in low or "rccl" in low:
                    comm += 1
            elif cat in ("memcpy", "memset", "sync", "overhead"):
                kinds[cat] += 1
            elif cat == "gpu_ann":
                kinds["nvtx"] += 1
            elif cat == "api":
                kinds["api"] += 1
                api[api_name(name)] += 1
            elif cat == "none" and isinstance(e.get("pid"), str) and \
                    not is_int(e["pid"]):
                continue    # the profiler's own spans
            else:
                kinds["nvtx"] += 1
                ranges[name] += 1
        elif ph in ("i", "I"):
            if cat == "flow":
                continue
            if name.startswith("Iteration Start:") or \
                    name == "Record Window End" or "pid" not in e or \
                    (isinstance(e["pid"], str) and not is_int(e["pid"])):
                continue
            if cat == "memory" or name == "[memory]":
                kinds["counter"] += 1
            else:
                kinds["mark"] += 1
        elif ph == "C":
            for v in e.get("args", {}).values():
                if isinstance(v, (int, decimal.Decimal)) and \
                        not isinstance(v, bool):
                    kinds["counter"] += 1
    return kinds, kern, api, ranges, comm


def gl(args):
    r = subprocess.run([GPULENS] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("gpulens %s: exit %d: %s" %
                           (" ".join(args), r.returncode, r.stderr.strip()))
    return json.loads(r.stdout)


def check(path, quiet):
    errs = []
    kinds, kern, api, ranges, comm = expected(load(path))

    info = gl(["info", path, "--json"])
    got = {r["kind"]: r["count"] for r in info["data"]["rows"]}
    for k in set(kinds) | set(got):
        if kinds.get(k, 0) != got.get(k, 0):
            errs.append("%s events: gpulens %d, json %d" %
                        (k, got.get(k, 0), kinds.get(k, 0)))

    rows = gl(["stats", path, "--full-names", "--type", "kernel", "--json", "--limit",
               "0"])["data"]["rows"]
    got = {r["name"]: (r["count"], r["total_ns"]) for r in rows}
    for name in set(kern) | set(got):
        want = tuple(kern.get(name, (0, 0)))
        if got.get(name, (0, 0)) != want:
            errs.append("kernel %.60r: gpulens %r, json %r" %
                        (name, got.get(name), want))

    for kind, label, want in (("api", "api", api), ("nvtx", "range", ranges)):
        rows = gl(["stats", path, "--full-names", "--type", kind, "--json",
                   "--limit", "0"])["data"]["rows"]
        got = collections.Counter()
        for r in rows:
            got[r["name"]] += r["count"]
        for name in set(want) | set(got):
            if want.get(name, 0) != got.get(name, 0):
                errs.append("%s %.60r: gpulens %d, json %d" %
                            (label, name, got.get(name, 0), want.get(name, 0)))

    rows = gl(["comm", path, "--json", "--limit", "0"])["data"]["rows"]
    got = sum(r["count"] for r in rows if r["kind"] == "kernel")
    if got != comm:
        errs.append("NCCL kernels: gpulens %d, json %d" % (got, comm))

    name = os.path.basename(path)
    if errs:
        print("FAIL %s:\n  %s" % (name, "\n  ".join(errs[:10])))
        return 1
    if not quiet:
        print("ok   %s: %s; %d kernel names, %d API names, %d range names" %
              (name, ", ".join("%s %d" % kv for kv in sorted(kinds.items())),
               len(kern), len(api), len(ranges)))
    return 0


USAGE = {}


def verb_args(verb, path, ev):
    """The positional arguments of verb from its usage line: the trace for
    every required TRACE* word (diff takes two), the first kernel's id for
    ID and its row key ("ev:N") for ROW_ID; None for verbs that take no
    trace (Nsight Compute REPORT verbs, schema) or need a kernel the trace
    does not have."""
    if verb not in USAGE:
        import schema_test
        line = schema_test.run([verb, "--help"]).stdout.splitlines()[0]
        line = re.sub(r"\[[^\]]*\]", " ", line)     # optional parts
        USAGE[verb] = line.split()[3:]
    args = []
    for w in USAGE[verb]:
        if w.startswith("TRACE"):
            args.append(path)
        elif w.startswith("ID") and ev is not None:
            args.append(ev)
        elif w.startswith("ROW_ID") and ev is not None:
            args.append("ev:" + ev)
        else:
            return None
    return args or None


def check_verbs(paths, quiet):
    """Every verb with a schema, --json, on every trace: validates."""
    sys.path.insert(0, os.path.join(os.environ.get("GPULENS_SRCDIR", "."),
                                    "tests", "cli"))
    import schema_test
    schema_test.GPULENS = GPULENS
    verbs = schema_test.json_verbs()
    if len(verbs) < 10:
        print("FAIL: only %r have schemas" % verbs)
        return 1
    schemas = {v: json.loads(schema_test.run(["schema", v]).stdout)
               for v in verbs}
    fails = runs = 0
    for p in paths:
        # inspect and correlate take an event id: the first kernel's (a
        # trace without kernels skips the verbs that need one).
        ev = None
        r = schema_test.run(["search", p, "--type", "kernel", "--limit",
                             "1", "--json"])
        try:
            rows = json.loads(r.stdout)["data"]["rows"]
            if rows:
                ev = str(rows[0]["id"])
        except (ValueError, KeyError):
            pass
        for v in verbs:
            args = verb_args(v, p, ev)
            if args is None:
                continue
            r = schema_test.run([v] + args + ["--json"])
            runs += 1
            name = "%s %s" % (v, os.path.basename(p.rstrip("/")))
            try:
                doc = json.loads(r.stdout)
            except ValueError as e:
                print("FAIL %s: not one JSON document (%s): %r" %
                      (name, e, r.stdout[:200]))
                fails += 1
                continue
            errs = schema_test.validate(doc, schemas[v])
            if r.returncode != 0:
                errs.append("exit %d: %s" % (r.returncode,
                                             doc.get("error", r.stderr)))
            if errs:
                print("FAIL %s: %s" % (name, "; ".join(map(str, errs[:5]))))
                fails += 1
    if not quiet:
        print("ok   %d verb runs on %d traces (%s)" %
              (runs, len(paths), " ".join(verbs)))
    return 1 if fails else 0


def main(argv):
    quiet = "--quiet" in argv
    verbs = "--verbs" in argv
    paths = [a for a in argv if a not in ("--quiet", "--verbs")]
    if not paths:
        print(__doc__.strip().splitlines()[-2])
        return 2
    if verbs:
        return check_verbs(paths, quiet)
    fails = 0
    for p in paths:
        try:
            fails += check(p, quiet)
        except (RuntimeError, ValueError, KeyError, OSError) as e:
            print("FAIL %s: %s" % (os.path.basename(p), e))
            fails += 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
