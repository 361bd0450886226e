#!/usr/bin/env python3
"""ncurep_check: gpulens's reading of the Nsight Compute fixtures against
an independent reading.

For every .ncu-rep under $GPULENS_FIXTURES/ncu this script decodes the file
itself (its own protobuf wire-format walker below, written for this test
from the container layout in docs/FORMATS.md section 4) and compares, with
what `gpulens launches|metrics|rules --json` print:
  - the number of launches, their kernel names (mangled, function,
    demangled), grid and block sizes, context and stream;
  - every scalar metric of every launch (name and value; integers exactly,
    doubles to 1e-12 relative) and the instance count of instanced ones;
  - the rule messages (launch, rule identifier, message text).
It also recomputes the roofline of every launch from those metrics with
the formulas of ncu's roofline section (achieved and peak FLOP/s, DRAM
bandwidth and its peak, ridge point, intensity, bound) and compares with
`gpulens roofline`, and checks `summary`, `inspect` and `info` on the
reports (launch and metric counts, total duration per kernel).
For every ncu CSV export it parses the file with Python's csv module and
compares launches, grid and block, every metric value (thousands
separators removed) and the rule messages.
For a few kernels of the Nsight Systems fixtures it counts, in SQL over
the export, the earlier launches of the same kernel name in the same
process (by the start of the launching runtime call) and compares with
the --launch-skip of `gpulens ncu-command`.
Every JSON document must name in "command" the schema its rows follow
(the verb; report-summary and report-inspect for the report forms of
summary and inspect) and validate against `gpulens schema COMMAND` with
the validator of schema_test.py; the envelopes of reports must give
source.kind and trace.kind "ncu-rep" (or "ncu-csv") and source.version the
Nsight Compute version the report records.

Exit 0 pass, 1 fail, 77 skip.
"""
import csv
import glob
import json
import math
import os
import sqlite3
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbwire import fields  # noqa: E402
from schema_test import validate  # noqa: E402

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# --- an independent wire-format reader -------------------------------------

def message(buf):
    """Returns {field: [(wire, value), ...]} for one message."""
    out = {}
    for num, wire, val in fields(buf):
        out.setdefault(num, []).append((wire, val))
    return out


def first(msg, num, default=None):
    return msg[num][0][1] if num in msg else default


def text(b):
    return b.decode("utf-8", "replace") if b is not None else ""


def metric_value(buf):
    m = message(buf)
    if 1 in m:
        return text(first(m, 1))
    if 2 in m:
        return struct.unpack("<f", first(m, 2))[0]
    if 3 in m:
        return struct.unpack("<d", first(m, 3))[0]
    if 4 in m:
        return first(m, 4)
    if 5 in m:
        return first(m, 5)
    return None


def blocks(data):
    """Yields (block header, payload offset, payload end) of every block."""
    assert data[:4] == b"NVR\0", "bad magic"
    (hlen,) = struct.unpack_from("<I", data, 4)
    pos = 8 + hlen
    while pos < len(data):
        (blen,) = struct.unpack_from("<I", data, pos)
        pos += 4
        bh = message(data[pos:pos + blen])
        pos += blen
        end = pos + first(bh, 5, 0)
        yield bh, pos, end
        pos = end


def string_table(data):
    """The report's string table: each block's table extends the ones
    before it (a block may repeat the table so far as its first strings,
    then only the rest is new). Results may name strings that a later
    block brings, so the whole table is gathered first."""
    table = []
    for bh, _, _ in blocks(data):
        for _, st in bh.get(4, []):
            strings = [text(v) for _, v in message(st).get(1, [])]
            if table and strings[:len(table)] == table:
                strings = strings[len(table):]
            table.extend(strings)
    return table


def tool_version(path):
    """The Nsight Compute version the session details record (VersionInfo
    "Nsight Compute Target"), its first word, or None."""
    data = open(path, "rb").read()
    for bh, _, _ in blocks(data):
        for _, sd in bh.get(3, []):
            for _, vi in message(sd).get(8, []):
                m = message(vi)
                if text(first(m, 1)) == "Nsight Compute Target":
                    v = text(first(m, 2)).split()
                    return v[0] if v else None
    return None


def read_report(path):
    data = open(path, "rb").read()
    table = string_table(data)
    launches = []
    for bh, pos, end in blocks(data):
        nsrc = first(bh, 1, 0)
        nres = first(bh, 2, 0)
        for i in range(nsrc + nres):
            (n,) = struct.unpack_from("<I", data, pos)
            pos += 4
            if i >= nsrc:
                launches.append(read_result(data[pos:pos + n], table))
            pos += n
        assert pos <= end, "entries run past the payload"
    return launches


def xyz(buf):
    m = message(buf)
    return [first(m, k, 0) for k in (1, 2, 3)]


def read_result(buf, table):
    m = message(buf)
    launch = {
        "mangled": text(first(m, 5)),
        "function": text(first(m, 6)),
        "demangled": text(first(m, 7)),
        "grid": xyz(first(m, 10, b"")),
        "block": xyz(first(m, 11, b"")),
        "context": first(m, 22, 0),
        "stream": first(m, 23, 0),
        "metrics": {},
        "instances": {},
        "rules": [],
    }
    for _, mb in m.get(13, []):
        mm = message(mb)
        name = table[first(mm, 1)]
        if 2 in mm:
            launch["metrics"][name] = metric_value(first(mm, 2))
        launch["instances"][name] = len(mm.get(3, []))
    for _, rb in m.get(19, []):
        rm = message(rb)
        ident = text(first(rm, 1))
        for _, body in rm.get(3, []):
            for _, item in message(body).get(1, []):
                im = message(item)
                if 1 in im:
                    msg = text(first(message(first(im, 1)), 1))
                    launch["rules"].append((ident, msg))
    return launch


# --- running gpulens --------------------------------------------------------

schemas = {}
# What the envelope's source and trace must say of each report read:
# (kind, version).
SOURCES = {}


def gpulens_json(verb, *args, schema=None, limit=True, source=None):
    """Runs VERB --json; the envelope must name in "command" the schema its
    rows follow (schema, else the verb) and validate against `gpulens
    schema COMMAND`; for a report, source and trace must say what it is
    (source=(kind, version))."""
    # Names are compared whole (--full-names).
    r = subprocess.run([GPULENS, verb] + list(args) + ["--json",
                                                        "--full-names"] +
                       (["--limit", "0"] if limit else []),
                       capture_output=True, text=True)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        fail("%s %s: not JSON (exit %d): %s" % (verb, args, r.returncode,
                                               r.stderr[:200]))
        return None
    want = schema or verb
    if doc.get("command") != want:
        fail("%s %s: command %r, expected %r" % (verb, args,
                                                 doc.get("command"), want))
    command = doc.get("command") or want
    if command not in schemas:
        s = subprocess.run([GPULENS, "schema", command],
                           capture_output=True, text=True)
        schemas[command] = json.loads(s.stdout)
    errs = validate(doc, schemas[command])
    if errs:
        fail("%s %s: schema %s: %d errors: %s" % (verb, args, command,
                                                 len(errs),
                                                 "; ".join(errs[:3])))
    if source is None and args:
        source = SOURCES.get(args[0])
    if source is not None:
        got = (doc["source"]["kind"], doc["source"]["version"],
               doc["trace"]["kind"])
        if got != (source[0], source[1], source[0]):
            fail("%s %s: source/trace %r, expected %r" % (verb, args, got,
                                                         source))
    if r.returncode != 0 or "data" not in doc:
        fail("%s %s: exit %d: %s" % (verb, args, r.returncode,
                                     doc.get("error")))
        return None
    return doc["data"]["rows"]


def finite(v):
    """JSON has no NaN or infinity: gpulens prints them as null."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def same(a, b):
    a, b = finite(a), finite(b)
    if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
        return a == b
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300)


def check_rep(path):
    name = os.path.relpath(path, FIX)
    want = read_report(path)
    SOURCES[path] = ("ncu-rep", tool_version(path))
    rows = gpulens_json("launches", path)
    if rows is None:
        return
    if len(rows) != len(want):
        fail("%s: %d launches, expected %d" % (name, len(rows), len(want)))
        return
    for i, (row, w) in enumerate(zip(rows, want)):
        for key, exp in (("function", w["function"]),
                         ("mangled", w["mangled"]),
                         ("kernel", w["demangled"] or w["function"]),
                         ("grid", w["grid"]), ("block", w["block"]),
                         ("context", w["context"]),
                         ("stream", w["stream"]), ("launch_id", i)):
            if row.get(key) != exp:
                fail("%s launch %d: %s is %r, expected %r" %
                     (name, i, key, row.get(key), exp))
    rows = gpulens_json("metrics", path, "*")
    if rows is None:
        return
    got = {}
    for row in rows:
        got[(row["launch_id"], row["name"])] = row
    nwant = sum(len(w["instances"]) for w in want)
    if len(rows) != nwant:
        fail("%s: %d metric rows, expected %d" % (name, len(rows), nwant))
    checked = 0
    for i, w in enumerate(want):
        for mname, ninst in w["instances"].items():
            row = got.get((i, mname))
            if row is None:
                fail("%s launch %d: metric %s missing" % (name, i, mname))
                continue
            if row["instances"] != ninst:
                fail("%s launch %d: %s has %d instances, expected %d" %
                     (name, i, mname, row["instances"], ninst))
            exp = w["metrics"].get(mname)
            if not same(row["value"], exp):
                fail("%s launch %d: %s = %r, expected %r" %
                     (name, i, mname, row["value"], exp))
            checked += 1
    rows = gpulens_json("rules", path)
    if rows is None:
        return
    got_rules = sorted((r["launch_id"], r["rule"], r["message"])
                       for r in rows)
    want_rules = sorted((i, ident, msg) for i, w in enumerate(want)
                        for ident, msg in w["rules"])
    if got_rules != want_rules:
        fail("%s: rule messages differ (%d vs %d expected)" %
             (name, len(got_rules), len(want_rules)))
    check_roofline(path, name, want)
    check_report_verbs(path, name, want)
    print("ok   %s: %d launches, %d metrics, %d rule messages" %
          (name, len(want), checked, len(want_rules)))


def check_roofline(path, name, want):
    rows = gpulens_json("roofline", path)
    if rows is None:
        return
    for i, (row, w) in enumerate(zip(rows, want)):
        m = w["metrics"]

        def get(k):
            v = finite(m.get(k))
            return v if isinstance(v, (int, float)) else None

        def flops(p):
            ops = [get("smsp__sass_thread_inst_executed_op_%s%s_pred_on."
                       "sum.per_cycle_elapsed" % (p, o))
                   for o in ("add", "mul", "fma")]
            hz = get("smsp__cycles_elapsed.avg.per_second")
            if None in ops or hz is None:
                return None
            return (ops[0] + ops[1] + 2 * ops[2]) * hz

        def peak(p):
            v = get("sm__sass_thread_inst_executed_op_%sfma_pred_on.sum."
                    "peak_sustained" % p)
            hz = get("sm__cycles_elapsed.avg.per_second")
            return None if v is None or hz is None else 2 * v * hz

        exp = {"fp32_flop_per_s": flops("f"), "fp64_flop_per_s": flops("d"),
               "peak_fp32_flop_per_s": peak("f"),
               "peak_fp64_flop_per_s": peak("d"),
               "dram_bytes_per_s": get("dram__bytes.sum.per_second"),
               "duration_ns": get("gpu__time_duration.sum")}
        pd = get("dram__bytes.sum.peak_sustained")
        dhz = get("dram__cycles_elapsed.avg.per_second")
        exp["peak_dram_bytes_per_s"] = None if pd is None or dhz is None \
            else pd * dhz
        lts = get("lts__t_sectors.sum")
        exp["l2_bytes"] = None if lts is None else lts * 32
        best = max((exp[k], k[:4]) for k in ("fp64_flop_per_s",
                                               "fp32_flop_per_s")
                   if exp[k] is not None) if exp["fp32_flop_per_s"] \
            is not None else (None, None)
        prec = best[1] if best[0] else None
        pk = exp["peak_%s_flop_per_s" % (prec or "fp32")]
        exp["ridge_point"] = None if pk is None or not \
            exp["peak_dram_bytes_per_s"] else pk / exp["peak_dram_bytes_per_s"]
        exp["precision"] = prec
        if prec and exp["dram_bytes_per_s"]:
            ai = best[0] / exp["dram_bytes_per_s"]
            exp["arithmetic_intensity"] = ai
            exp["bound"] = "memory" if ai < exp["ridge_point"] else "compute"
        else:
            exp["arithmetic_intensity"] = None
            exp["bound"] = None
        for k, v in exp.items():
            got = row.get(k)
            if isinstance(v, float) or isinstance(got, float):
                ok = v is not None and got is not None and \
                    abs(got - v) <= 1e-9 * max(abs(v), 1e-300)
            else:
                ok = got == v
            if not ok:
                fail("%s launch %d roofline: %s = %r, expected %r" %
                     (name, i, k, got, v))


def check_report_verbs(path, name, want):
    rows = gpulens_json("summary", path, schema="report-summary",
                        limit=False)
    if rows is not None:
        # A launch without a duration (not measured) adds nothing; a
        # kernel with none has no total.
        total = {}
        for w in want:
            d = finite(w["metrics"].get("gpu__time_duration.sum"))
            t = total.setdefault(w["function"], None)
            if d is not None:
                total[w["function"]] = (t or 0) + d
        got = {r["kernel"]: r for r in rows}
        if sum(r["launches"] for r in rows) != len(want):
            fail("%s summary: launches do not add up" % name)
        for k, t in total.items():
            g = got[k]["total_duration_ns"] if k in got else "missing"
            if g is not None and not isinstance(g, str):
                g = float(g)
            if not same(g, None if t is None else float(t)):
                fail("%s summary: total of %s is %r, expected %r" %
                     (name, k, g, t))
    last = len(want) - 1
    rows = gpulens_json("inspect", path, str(last), schema="report-inspect",
                        limit=False)
    if rows is not None:
        nm = sum(1 for r in rows if r["kind"] == "metric")
        nr = sum(1 for r in rows if r["kind"] == "rule")
        if nm != len(want[last]["instances"]) or \
                nr != len(want[last]["rules"]):
            fail("%s inspect %d: %d metrics, %d rules" % (name, last, nm, nr))
    rows = gpulens_json("info", path, limit=False)
    if rows is not None:
        counts = {r["kind"]: r["count"] for r in rows}
        if counts.get("launch") != len(want) or counts.get("metric") != \
                sum(len(w["instances"]) for w in want):
            fail("%s info: counts %r" % (name, counts))


def check_ncu_command(trace):
    name = os.path.relpath(trace, FIX)
    db = sqlite3.connect("file:%s?immutable=1" % trace, uri=True)
    try:
        ks = db.execute(
            "SELECT k.rowid, k.globalPid, k.shortName, k.demangledName, "
            "k.correlationId, k.start, (SELECT min(r.start) FROM "
            "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = "
            "k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24)) "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k").fetchall()
    except sqlite3.Error as e:
        print("skip %s: %s" % (name, e))
        return
    finally:
        db.close()
    if not ks:
        return
    key = {k[0]: (k[6] if k[6] is not None else k[5], k[4]) for k in ks}
    # The kernel name with the most launches: its first, middle, last.
    byname = {}
    for k in ks:
        byname.setdefault((k[1], k[2]), []).append(k)
    group = max(byname.values(), key=len)
    group.sort(key=lambda k: key[k[0]])
    picks = {group[0][0], group[len(group) // 2][0], group[-1][0]}
    found = gpulens_json("search", trace, "--type", "kernel")
    if found is None:
        return
    ids = {r["source_rowid"]: r["id"] for r in found}
    for rowid in sorted(picks):
        t = next(k for k in ks if k[0] == rowid)
        skip = sum(1 for k in ks if k[1] == t[1] and k[2] == t[2] and
                   key[k[0]] < key[rowid])
        dskip = sum(1 for k in ks if k[1] == t[1] and k[3] == t[3] and
                    key[k[0]] < key[rowid])
        rows = gpulens_json("ncu-command", trace, "ev:%d" % ids[rowid],
                            limit=False)
        if rows is None:
            continue
        r = rows[0]
        if r["launch_skip"] != skip or r["demangled_launch_skip"] != dskip:
            fail("%s kernel row %d: launch skip %d/%d, SQL says %d/%d" %
                 (name, rowid, r["launch_skip"], r["demangled_launch_skip"],
                  skip, dskip))
        if "--launch-skip %d " % skip not in r["command"]:
            fail("%s kernel row %d: command %r" % (name, rowid,
                                                   r["command"]))
    print("ok   %s: ncu-command for %d launches of %d" %
          (name, len(picks), len(group)))


def number(s):
    s = s.replace(",", "")
    try:
        return int(s)
    except ValueError:
        try:
            return float(s)
        except ValueError:
            return s


def check_csv(path):
    name = os.path.relpath(path, FIX)
    rows = list(csv.DictReader(open(path, newline="")))
    SOURCES[path] = ("ncu-csv", None)
    ids = sorted(set(int(r["ID"]) for r in rows))
    launches = gpulens_json("launches", path)
    if launches is None:
        return
    if len(launches) != len(ids):
        fail("%s: %d launches, expected %d" % (name, len(launches),
                                               len(ids)))
        return
    for i, lid in enumerate(ids):
        r0 = next(r for r in rows if int(r["ID"]) == lid)
        dims = {k: [int(x) for x in r0[k].strip("()").split(",")]
                for k in ("Grid Size", "Block Size")}
        if launches[i]["grid"] != dims["Grid Size"] or \
                launches[i]["block"] != dims["Block Size"]:
            fail("%s launch %d: grid/block differ" % (name, i))
        if launches[i]["kernel"] != r0["Kernel Name"]:
            fail("%s launch %d: kernel name differs" % (name, i))
    metrics = gpulens_json("metrics", path, "*")
    if metrics is None:
        return
    got = {(m["launch_id"], m["section"], m["label"]): m for m in metrics}
    n = 0
    for r in rows:
        if not r["Metric Name"]:
            continue
        key = (ids.index(int(r["ID"])), r["Section Name"], r["Metric Name"])
        m = got.get(key)
        if m is None:
            fail("%s: metric %r missing" % (name, key))
            continue
        if not same(m["value"], number(r["Metric Value"])):
            fail("%s: %r = %r, expected %r" % (name, key, m["value"],
                                              r["Metric Value"]))
        n += 1
    if len(metrics) != n:
        fail("%s: %d metric rows, expected %d" % (name, len(metrics), n))
    rules = gpulens_json("rules", path)
    if rules is None:
        return
    want = sorted((r["Rule Name"], r["Rule Description"]) for r in rows
                  if r.get("Rule Name"))
    if sorted((r["rule"], r["message"]) for r in rules) != want:
        fail("%s: rule messages differ" % name)
    for r in rows:
        if r.get("Estimated Speedup"):
            hit = [x for x in rules if x["message"] == r["Rule Description"]]
            if not hit or not same(hit[0]["estimated_speedup_pct"],
                                   number(r["Estimated Speedup"])):
                fail("%s: speedup of %s" % (name, r["Rule Name"]))
    print("ok   %s: %d launches, %d metrics, %d rule messages" %
          (name, len(ids), n, len(want)))


def main():
    if not FIX or not os.path.isdir(os.path.join(FIX, "ncu")):
        print("SKIP: GPULENS_FIXTURES unset or without ncu/")
        return 77
    reps = sorted(glob.glob(os.path.join(FIX, "ncu", "*", "*.ncu-rep")))
    csvs = sorted(glob.glob(os.path.join(FIX, "ncu", "*", "*.csv")))
    if not reps and not csvs:
        print("SKIP: no Nsight Compute fixtures")
        return 77
    for p in reps:
        check_rep(p)
    for p in csvs:
        check_csv(p)
    for p in ("mordred/report1.sqlite",
              "pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
              "nsys-ai/mfu_2gpu_before.sqlite"):
        p = os.path.join(FIX, "nsys", p)
        if os.path.exists(p):
            check_ncu_command(p)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
