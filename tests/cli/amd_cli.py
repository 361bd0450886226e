#!/usr/bin/env python3
"""amd_cli: the three AMD formats through the command line.

For each AMD trace -- the real rocmProfileData files and the rocprofv3 JSON
in $GPULENS_FIXTURES/rocpd, and a rocprofv3 rocpd database this script
writes itself (no public one exists) -- it computes, without gpulens:

  events per kind     RPD: rocpd_op by opType, rocpd_api by name (sqlite3)
                      JSON: buffer_records lists (json + gzip)
                      rocpd: the rocpd_* views (sqlite3)
  kernels per name    count and total ns (end - start)
  copies per name     count, total ns and bytes (RPD, rocpd)
  roctx per name      count (RPD UserMarker ranges, rocpd marker regions)

and compares them with `gpulens info --json` and `gpulens stats --json`.
Then it runs every verb `gpulens --help` lists on every file, checks exit
status 0, and validates each JSON document against `gpulens schema VERB`
(the validator of schema_test.py), and drives the TUI with a key script.
Exit 0 pass, 1 fail, 77 skip.
"""
import glob
import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")
SRCDIR = os.environ.get("GPULENS_SRCDIR", ".")
sys.path.insert(0, os.path.join(SRCDIR, "tests", "cli"))
from schema_test import validate  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what)
    return cond


ENV = None     # XDG_CACHE_HOME in the temporary directory (set by main)


def run(args, env=None):
    return subprocess.run([GPULENS] + args, capture_output=True, text=True,
                          env=env if env is not None else ENV)


def add(groups, name, dur, nbytes=0):
    g = groups.setdefault(name, [0, 0, 0])
    g[0] += 1
    g[1] += dur
    g[2] += nbytes


# ---- RPD -------------------------------------------------------------

def rpd_plain(path, tmp):
    """A plain copy of a (maybe gzipped) RPD file, for sqlite3."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic != b"\x1f\x8b":
        return path
    out = os.path.join(tmp, os.path.basename(path) + ".sqlite")
    with gzip.open(path, "rb") as f, open(out, "wb") as o:
        o.write(f.read())
    return out


OVERHEAD = ("rpdflush", "hcc_activity_callback")


def rpd_expected(path, tmp):
    db = sqlite3.connect("file:%s?mode=ro" % rpd_plain(path, tmp), uri=True)
    kinds, kern, copy, nvtx = {}, {}, {}, {}
    q = ("select O.start, O.end, T.string, D.string, KN.string, Y.size "
         "from rocpd_op O join rocpd_string T on T.id = O.opType_id "
         "join rocpd_string D on D.id = O.description_id "
         "left join rocpd_api_ops X on X.op_id = O.id "
         "left join rocpd_kernelapi K on K.api_ptr_id = X.api_id "
         "left join rocpd_string KN on KN.id = K.kernelName_id "
         "left join rocpd_copyapi Y on Y.api_ptr_id = X.api_id")
    for start, end, optype, desc, kname, size in db.execute(q):
        if optype in ("KernelExecution", "Task"):
            kind = "kernel"
            add(kern, desc or kname or optype, end - start)
        elif optype.startswith("Copy"):
            kind = "memcpy"
            add(copy, optype, end - start, size or 0)
        elif optype.startswith("Fill"):
            kind = "memset"
        elif "Barrier" in optype or optype == "Marker":
            kind = "sync"
        else:
            kind = "kernel"
        kinds[kind] = kinds.get(kind, 0) + 1
    q = ("select A.start, A.end, N.string, G.string from rocpd_api A "
         "join rocpd_string N on N.id = A.apiName_id "
         "join rocpd_string G on G.id = A.args_id")
    for start, end, name, args in db.execute(q):
        if name == "UserMarker":
            kind = "mark" if start == end else "nvtx"
            if kind == "nvtx":
                add(nvtx, args, end - start)
        elif name.endswith("::writeRows") or name in OVERHEAD:
            kind = "overhead"
        else:
            kind = "api"
        kinds[kind] = kinds.get(kind, 0) + 1
    db.close()
    return {"kinds": kinds, "kernel": kern, "memcpy": copy, "nvtx": nvtx}


# ---- rocprofv3 JSON --------------------------------------------------

def json_expected(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        doc = json.load(f)
    kinds, kern, copy, nvtx = {}, {}, {}, {}
    for proc in doc["rocprofiler-sdk-tool"]:
        syms = {s["kernel_id"]: s for s in proc.get("kernel_symbols", [])}
        names = [k["operations"] for k in
                 proc.get("strings", {}).get("buffer_records", [])]
        kindname = [k["kind"] for k in
                    proc.get("strings", {}).get("buffer_records", [])]
        msgs = {e["key"]: e["value"] for e in
                proc.get("strings", {}).get("marker_api", [])}
        recs = proc.get("buffer_records", {})
        for r in recs.get("kernel_dispatch", []):
            s = syms.get(r["dispatch_info"]["kernel_id"], {})
            name = s.get("formatted_kernel_name") or s.get("kernel_name") \
                or "kernel %d" % r["dispatch_info"]["kernel_id"]
            add(kern, name, r["end_timestamp"] - r["start_timestamp"])
            kinds["kernel"] = kinds.get("kernel", 0) + 1
        for r in recs.get("memory_copy", []):
            add(copy, names[r["kind"]][r["operation"]],
                r["end_timestamp"] - r["start_timestamp"], r["bytes"])
            kinds["memcpy"] = kinds.get("memcpy", 0) + 1
        for lst in ("hip_api", "hsa_api", "marker_api", "rccl_api",
                    "rocdecode_api", "rocjpeg_api"):
            for r in recs.get(lst, []):
                if "MARKER" in kindname[r["kind"]]:
                    k = "mark" if r["start_timestamp"] == \
                        r["end_timestamp"] else "nvtx"
                    if k == "nvtx":
                        add(nvtx, msgs.get(
                            r["correlation_id"]["internal"],
                            names[r["kind"]][r["operation"]]),
                            r["end_timestamp"] - r["start_timestamp"])
                else:
                    k = "api"
                kinds[k] = kinds.get(k, 0) + 1
    return {"kinds": kinds, "kernel": kern, "memcpy": copy, "nvtx": nvtx}


# ---- a rocpd database -------------------------------------------------

UUID = "0198c0de_0000_7000_8000_00000000abcd"
GUID = UUID.replace("_", "-")

DDL = """
CREATE TABLE rocpd_metadata_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 tag TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE rocpd_string_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, string TEXT NOT NULL UNIQUE);
CREATE TABLE rocpd_info_node_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, hash BIGINT NOT NULL UNIQUE, machine_id TEXT NOT NULL
 UNIQUE, system_name TEXT, hostname TEXT, release TEXT, version TEXT,
 hardware_name TEXT, domain_name TEXT);
CREATE TABLE rocpd_info_process_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER NOT
 NULL, init BIGINT, fini BIGINT, start BIGINT, end BIGINT, command TEXT,
 environment JSONB DEFAULT '{}' NOT NULL, extdata JSONB DEFAULT '{}' NOT
 NULL);
CREATE TABLE rocpd_info_thread_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER NOT
 NULL, tid INTEGER NOT NULL, name TEXT, start BIGINT, end BIGINT, extdata
 JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_agent_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, type TEXT,
 absolute_index INTEGER, logical_index INTEGER, type_index INTEGER, uuid
 INTEGER, name TEXT, model_name TEXT, vendor_name TEXT, product_name TEXT,
 user_name TEXT, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_queue_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, name TEXT,
 extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_stream_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, name TEXT,
 extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_kernel_symbol_U (id INTEGER PRIMARY KEY
 AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT
 NULL, code_object_id INTEGER NOT NULL, kernel_name TEXT, display_name
 TEXT, kernel_object INTEGER, kernarg_segment_size INTEGER,
 kernarg_segment_alignment INTEGER, group_segment_size INTEGER,
 private_segment_size INTEGER, sgpr_count INTEGER, arch_vgpr_count INTEGER,
 accum_vgpr_count INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_track_U (id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT
 NOT NULL, nid INTEGER NOT NULL, pid INTEGER, tid INTEGER, name_id INTEGER,
 extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_event_U (id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT
 NOT NULL, category_id INTEGER, stack_id INTEGER, parent_stack_id INTEGER,
 correlation_id INTEGER, call_stack JSONB DEFAULT '{}' NOT NULL, line_info
 JSONB DEFAULT '{}' NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_region_U (id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT
 NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL,
 start BIGINT NOT NULL, end BIGINT NOT NULL, name_id INTEGER NOT NULL,
 event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_sample_U (id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT
 NOT NULL, track_id INTEGER NOT NULL, timestamp BIGINT NOT NULL, event_id
 INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_kernel_dispatch_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid
 INTEGER, agent_id INTEGER NOT NULL, kernel_id INTEGER NOT NULL,
 dispatch_id INTEGER NOT NULL, queue_id INTEGER NOT NULL, stream_id INTEGER
 NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL, private_segment_size
 INTEGER, group_segment_size INTEGER, workgroup_size_x INTEGER NOT NULL,
 workgroup_size_y INTEGER NOT NULL, workgroup_size_z INTEGER NOT NULL,
 grid_size_x INTEGER NOT NULL, grid_size_y INTEGER NOT NULL, grid_size_z
 INTEGER NOT NULL, region_name_id INTEGER, event_id INTEGER, extdata JSONB
 DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_memory_copy_U (id INTEGER PRIMARY KEY AUTOINCREMENT,
 guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid
 INTEGER, start BIGINT NOT NULL, end BIGINT NOT NULL, name_id INTEGER NOT
 NULL, dst_agent_id INTEGER, dst_address INTEGER, src_agent_id INTEGER,
 src_address INTEGER, size INTEGER NOT NULL, queue_id INTEGER, stream_id
 INTEGER, region_name_id INTEGER, event_id INTEGER, extdata JSONB DEFAULT
 '{}' NOT NULL);
"""
VIEWS = ["rocpd_metadata", "rocpd_string", "rocpd_info_node",
         "rocpd_info_process", "rocpd_info_thread", "rocpd_info_agent",
         "rocpd_info_queue", "rocpd_info_stream", "rocpd_info_kernel_symbol",
         "rocpd_track", "rocpd_event", "rocpd_region", "rocpd_sample",
         "rocpd_kernel_dispatch", "rocpd_memory_copy"]


def write_rocpd(path):
    """A small rocpd database: 2 GPUs, 2 threads, kernels, copies, HIP and
    HSA calls, roctx ranges and marks, correlation through stack_id."""
    if os.path.exists(path):
        os.unlink(path)
    db = sqlite3.connect(path)
    db.executescript(DDL.replace("_U ", "_" + UUID + " "))
    T = lambda t: "%s_%s" % (t, UUID)  # noqa: E731
    strings = ["", "HIP_RUNTIME_API", "HSA_CORE_API", "MARKER_CORE_API",
               "KERNEL_DISPATCH", "MEMORY_COPY", "hipLaunchKernel",
               "hipMemcpyAsync", "hsa_queue_create", "roctxRangePushA",
               "roctxMarkA", "MEMORY_COPY_HOST_TO_DEVICE",
               "MEMORY_COPY_DEVICE_TO_HOST"]
    sid = {s: 200 + i for i, s in enumerate(strings)}
    db.execute("insert into %s (tag, value) values ('schema_version', '3'),"
               " ('uuid', ?), ('guid', ?)" % T("rocpd_metadata"), (UUID, GUID))
    for s, i in sid.items():
        db.execute("insert into %s values (?, ?, ?)" % T("rocpd_string"),
                   (i, GUID, s))
    db.execute("insert into %s (id, guid, hash, machine_id, hostname) "
               "values (3, ?, 3, 'm', 'host-x')" % T("rocpd_info_node"),
               (GUID,))
    db.execute("insert into %s (id, guid, nid, pid, command) values "
               "(9, ?, 3, 31337, 'python3 bench.py')"
               % T("rocpd_info_process"), (GUID,))
    db.execute("insert into %s (id, guid, nid, pid, tid) values "
               "(1, ?, 3, 9, 31337), (2, ?, 3, 9, 31338)"
               % T("rocpd_info_thread"), (GUID, GUID))
    ext = json.dumps({"cu_count": 304, "wave_front_size": 64})
    db.execute("insert into %s (id, guid, nid, pid, type, type_index, name, "
               "product_name, extdata) values "
               "(20, ?, 3, 9, 'CPU', 0, 'cpu', 'cpu', '{}'), "
               "(21, ?, 3, 9, 'GPU', 0, 'gfx942', 'AMD Instinct MI300X', ?), "
               "(22, ?, 3, 9, 'GPU', 1, 'gfx942', 'AMD Instinct MI300X', ?)"
               % T("rocpd_info_agent"), (GUID, GUID, ext, GUID, ext))
    db.execute("insert into %s values (0, ?, 3, 9, 'Default Queue', '{}'), "
               "(1, ?, 3, 9, 'Queue 1', '{}')" % T("rocpd_info_queue"),
               (GUID, GUID))
    db.execute("insert into %s values (0, ?, 3, 9, 'Default Stream', '{}'),"
               " (4, ?, 3, 9, 'Stream 1', '{}')" % T("rocpd_info_stream"),
               (GUID, GUID))
    kernels = {5: "gemm(float*)", 6: "relu(float*)", 7: "softmax(float*)"}
    for k, n in kernels.items():
        db.execute("insert into %s (id, guid, nid, pid, code_object_id, "
                   "kernel_name, display_name, group_segment_size, "
                   "arch_vgpr_count, accum_vgpr_count) values "
                   "(?, ?, 3, 9, 1, ?, ?, 0, 32, 0)"
                   % T("rocpd_info_kernel_symbol"),
                   (k, GUID, n + ".kd", n))
    ev = [0]

    def event(cat, corr, extdata="{}"):
        ev[0] += 1
        db.execute("insert into %s (id, guid, category_id, stack_id, "
                   "parent_stack_id, correlation_id, extdata) values "
                   "(?, ?, ?, ?, ?, 0, ?)" % T("rocpd_event"),
                   (ev[0], GUID, sid[cat], corr, corr, extdata))
        return ev[0]

    def region(thr, start, end, name, cat, corr, extdata="{}"):
        e = event(cat, corr, extdata)
        db.execute("insert into %s (id, guid, nid, pid, tid, start, end, "
                   "name_id, event_id) values (?, ?, 3, 9, ?, ?, ?, ?, ?)"
                   % T("rocpd_region"),
                   (corr, GUID, thr, start, end, sid[name], e))

    t0, corr, nk, nc = 5 * 10 ** 12, 100, 0, 0
    for i in range(40):
        t = t0 + i * 100000
        region(1, t, t + 90000, "roctxRangePushA", "MARKER_CORE_API", corr,
               json.dumps({"message": "iter" if i % 2 else "warmup"}))
        corr += 1
        for j, (k, agent, stream, queue) in enumerate(
                [(5, 21, 4, 1), (6, 21, 4, 1), (7, 22, 0, 0)]):
            s = t + 1000 + j * 3000
            region(1 + (j == 2), s, s + 1000, "hipLaunchKernel",
                   "HIP_RUNTIME_API", corr)
            e = event("KERNEL_DISPATCH", corr)
            nk += 1
            dur = 5000 + 100 * ((i * 7 + j * 13) % 17)
            db.execute("insert into %s (id, guid, nid, pid, tid, agent_id, "
                       "kernel_id, dispatch_id, queue_id, stream_id, start, "
                       "end, private_segment_size, group_segment_size, "
                       "workgroup_size_x, workgroup_size_y, "
                       "workgroup_size_z, grid_size_x, grid_size_y, "
                       "grid_size_z, event_id) values (?, ?, 3, 9, ?, ?, ?, "
                       "?, ?, ?, ?, ?, 0, 0, 256, 1, 1, 65536, 1, 1, ?)"
                       % T("rocpd_kernel_dispatch"),
                       (nk, GUID, 1 + (j == 2), agent, k, nk, queue, stream,
                        s + 20000, s + 20000 + dur, e))
            corr += 1
        region(2, t + 500, t + 700, "hsa_queue_create", "HSA_CORE_API", corr)
        corr += 1
        for name, src, dst, size in (("MEMORY_COPY_HOST_TO_DEVICE", 20, 21,
                                      1 << 20),
                                     ("MEMORY_COPY_DEVICE_TO_HOST", 21, 20,
                                      4096)):
            s = t + 50000 + nc % 2 * 10000
            region(1, s, s + 1000, "hipMemcpyAsync", "HIP_RUNTIME_API", corr)
            e = event("MEMORY_COPY", corr)
            nc += 1
            db.execute("insert into %s (id, guid, nid, pid, tid, start, end, "
                       "name_id, dst_agent_id, src_agent_id, size, "
                       "stream_id, event_id) values (?, ?, 3, 9, 1, ?, ?, ?, "
                       "?, ?, ?, 4, ?)" % T("rocpd_memory_copy"),
                       (nc, GUID, s + 2000, s + 2000 + size // 1000,
                        sid[name], dst, src, size, e))
            corr += 1
    db.execute("insert into %s values (1, ?, 3, 9, 1, ?, '{}')"
               % T("rocpd_track"), (GUID, sid["MARKER_CORE_API"]))
    e = event("MARKER_CORE_API", corr, json.dumps({"message": "done"}))
    db.execute("insert into %s (guid, track_id, timestamp, event_id) values "
               "(?, 1, ?, ?)" % T("rocpd_sample"), (GUID, t0 + 4100000, e))
    for v in VIEWS:
        db.execute("create view %s as select * from %s" % (v, T(v)))
    db.commit()
    db.close()


def rocpd_expected(path):
    """From the views, joining on guid as rocprofiler-sdk's views do."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    kinds, kern, copy, nvtx = {}, {}, {}, {}
    for name, start, end in db.execute(
            "select S.display_name, K.start, K.end from "
            "rocpd_kernel_dispatch K join rocpd_info_kernel_symbol S on "
            "S.id = K.kernel_id and S.guid = K.guid"):
        add(kern, name, end - start)
        kinds["kernel"] = kinds.get("kernel", 0) + 1
    for name, start, end, size in db.execute(
            "select N.string, M.start, M.end, M.size from rocpd_memory_copy "
            "M join rocpd_string N on N.id = M.name_id and N.guid = M.guid"):
        add(copy, name, end - start, size)
        kinds["memcpy"] = kinds.get("memcpy", 0) + 1
    for cat, ext, start, end in db.execute(
            "select C.string, E.extdata, R.start, R.end from rocpd_region R "
            "join rocpd_event E on E.id = R.event_id and E.guid = R.guid "
            "join rocpd_string C on C.id = E.category_id and "
            "C.guid = E.guid"):
        if "MARKER" in cat:
            add(nvtx, json.loads(ext)["message"], end - start)
            kinds["nvtx"] = kinds.get("nvtx", 0) + 1
        else:
            kinds["api"] = kinds.get("api", 0) + 1
    kinds["mark"] = db.execute("select count(*) from rocpd_sample").fetchone()[0]
    db.close()
    return {"kinds": kinds, "kernel": kern, "memcpy": copy, "nvtx": nvtx}


# ---- comparisons ------------------------------------------------------

def stats_rows(path, kind):
    r = run(["stats", "--json", "--limit", "0", "--full-names", "--type",
             kind, path])
    if not check(r.returncode == 0, "stats --type %s %s: exit %d %s"
                 % (kind, path, r.returncode, r.stderr[:200])):
        return {}
    return {row["name"]: row for row in json.loads(r.stdout)["data"]["rows"]}


def compare(path, exp):
    base = os.path.basename(path)
    # The first run reads the trace and writes the cache; the later ones
    # (stats here, every verb after) read the cache: both are checked.
    r = run(["info", "--json", path])
    if not check(r.returncode == 0, "info %s: %s" % (base, r.stderr[:300])):
        return
    got = {row["kind"]: row["count"]
           for row in json.loads(r.stdout)["data"]["rows"]}
    want = {k: v for k, v in exp["kinds"].items() if v}
    check(got == want, "%s: events per kind %r, expected %r"
          % (base, got, want))
    for kind in ("kernel", "memcpy", "nvtx"):
        rows = stats_rows(path, kind)
        want = exp[kind]
        check(set(rows) == set(want), "%s: %s names differ: %r"
              % (base, kind, sorted(set(rows) ^ set(want))[:5]))
        for name, (n, tot, nbytes) in want.items():
            row = rows.get(name)
            if row is None:
                continue
            check(row["count"] == n and row["total_ns"] == tot,
                  "%s: %s %r: count/total %d/%d, expected %d/%d"
                  % (base, kind, name[:60], row["count"], row["total_ns"],
                     n, tot))
            if kind == "memcpy":
                check(row.get("total_bytes") == nbytes,
                      "%s: %r bytes %r, expected %d"
                      % (base, name, row.get("total_bytes"), nbytes))
    print("ok   %s: %d kinds, %d kernel names, %d copy names, %d roctx names"
          % (base, len(exp["kinds"]), len(exp["kernel"]),
             len(exp["memcpy"]), len(exp["nvtx"])))


def verbs():
    """The verbs of `gpulens --help` ("  NAME     gpulens NAME ...")."""
    out = run(["--help"]).stdout
    found = []
    for ln in out.splitlines():
        w = ln.split()
        if ln.startswith("  ") and len(w) > 1 and w[1] == "gpulens" and \
                w[0].isalpha():
            found.append(w[0])
    return found


SCHEMAS = {}


def every_verb(path, tmp):
    base = os.path.basename(path)
    for v in verbs():
        if v in ("demo", "schema", "clean", "mcp", "recipes", "complete",
                 "record"):
            continue
        # Nsight Compute report verbs refuse traces (bad_input).
        if v in ("launches", "metrics", "rules", "roofline", "warp-stalls",
                 "source-metrics", "sources", "ranges"):
            continue
        args = [path]
        if v in ("inspect", "correlate"):
            args.append("0")
        if v == "diff":
            args.append(path)
        if v not in SCHEMAS:
            s = run(["schema", v])
            SCHEMAS[v] = json.loads(s.stdout) if s.returncode == 0 else None
        if SCHEMAS[v] is None:
            r = run([v] + args)
            check(r.returncode == 0, "%s %s: exit %d: %s"
                  % (v, base, r.returncode, r.stderr[:300]))
            continue
        r = run([v, "--json"] + args)
        try:
            doc = json.loads(r.stdout)
        except ValueError as e:
            check(False, "%s --json %s: not JSON (%s)" % (v, base, e))
            continue
        errs = validate(doc, SCHEMAS[v])
        check(r.returncode == 0 and not errs, "%s --json %s: exit %d %s %s"
              % (v, base, r.returncode, "; ".join(errs[:3]),
                 r.stderr[:200]))
    r = run(["clean", path])
    check(r.returncode == 0, "clean %s: exit %d" % (base, r.returncode))
    # The TUI, driven by a key script, without a terminal.
    script = os.path.join(tmp, "keys")
    dump = os.path.join(tmp, "screen.txt")
    with open(script, "w") as f:
        f.write("TAB\nRIGHT\n:dump %s\n:quit\n" % dump)
    if os.path.exists(dump):
        os.unlink(dump)
    tenv = dict(ENV, TERM="xterm", LANG="C.UTF-8")
    r = subprocess.run([GPULENS, "--no-cache", "--script", script,
                        "--max-frames", "50", path], capture_output=True,
                       text=True, env=tenv, stdin=subprocess.DEVNULL)
    screen = open(dump).read() if os.path.exists(dump) else ""
    check(r.returncode == 0 and "GPU" in screen,
          "TUI %s: exit %d, screen %r" % (base, r.returncode, screen[:200]))
    print("ok   %d verbs and the TUI on %s" % (len(verbs()), base))


def main():
    global ENV
    tmp = tempfile.mkdtemp()
    ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "xdg"))
    traces = []
    db = os.path.join(tmp, "31337_results.db")
    write_rocpd(db)
    traces.append((db, rocpd_expected(db)))
    rpd = sorted(glob.glob(os.path.join(FIX, "rocpd", "rocmProfileData",
                                        "*"))) if FIX else []
    js = sorted(glob.glob(os.path.join(FIX, "rocpd", "tracelens",
                                       "*.json*"))) if FIX else []
    if not rpd and not js:
        print("fixtures absent: only the generated rocpd database is "
              "checked")
    for p in rpd:
        traces.append((p, rpd_expected(p, tmp)))
    for p in js:
        traces.append((p, json_expected(p)))
    for path, exp in traces:
        compare(path, exp)
        every_verb(path, tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
