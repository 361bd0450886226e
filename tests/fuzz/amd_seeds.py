#!/usr/bin/env python3
"""amd_seeds.py SRCDIR OUTDIR: seed inputs for the AMD reader harnesses
(rpd_fuzz, rocpd_fuzz, rocprof_json_fuzz) in OUTDIR/rpd, OUTDIR/rocpd and
OUTDIR/rocprof_json. Everything is written here: small rocmProfileData
(rocpd_* schema 2) databases, a rocprofv3 rocpd database from
tests/cli/amd_cli.py's write_rocpd() cut to a few rows, and rocprofv3 JSON
documents; each also in a hostile variant (terminal escapes, invalid UTF-8,
reversed and huge times, ids that point nowhere). SQLite files use 512-byte
pages so that they are a few kilobytes. Standard library only.
"""
import gzip
import json
import os
import sqlite3
import sys

SRCDIR, OUT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRCDIR, "tests"))

HOSTILE = ["\x1b[2J\x1b[Hevil", "\x1b]0;title\x07", "bs\x08\x08\x7f",
           "\u202eevil\u202c", "\x9b31m", "k" * 300]


def shrink(path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 512")
    db.execute("VACUUM")
    db.close()


# ---- RPD ---------------------------------------------------------------
RPD_DDL = """
CREATE TABLE rocpd_string (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
 string varchar(4096) NOT NULL);
CREATE TABLE rocpd_op (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
 gpuId integer NOT NULL, queueId integer NOT NULL, sequenceId integer
 NOT NULL, completionSignal varchar(18) NOT NULL, start integer NOT NULL,
 end integer NOT NULL, description_id integer NOT NULL, opType_id integer
 NOT NULL);
CREATE TABLE rocpd_api (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
 pid integer NOT NULL, tid integer NOT NULL, start integer NOT NULL, end
 integer NOT NULL, apiName_id integer NOT NULL, args_id integer NOT NULL);
CREATE TABLE rocpd_api_ops (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
 api_id integer NOT NULL, op_id integer NOT NULL);
CREATE TABLE rocpd_kernelcodeobject (id integer NOT NULL PRIMARY KEY
 AUTOINCREMENT, vgpr integer NOT NULL, sgpr integer NOT NULL, fbar integer
 NOT NULL);
CREATE TABLE rocpd_kernelapi (api_ptr_id integer NOT NULL PRIMARY KEY,
 stream varchar(18) NOT NULL, gridX integer NOT NULL, gridY integer NOT
 NULL, gridZ integer NOT NULL, workgroupX integer NOT NULL, workgroupY
 integer NOT NULL, workgroupZ integer NOT NULL, groupSegmentSize integer
 NOT NULL, privateSegmentSize integer NOT NULL, kernelArgAddress
 varchar(18) NOT NULL, aquireFence varchar(8) NOT NULL, releaseFence
 varchar(8) NOT NULL, codeObject_id integer NOT NULL, kernelName_id
 integer NOT NULL);
CREATE TABLE rocpd_copyapi (api_ptr_id integer NOT NULL PRIMARY KEY,
 stream varchar(18) NOT NULL, size integer NOT NULL, width integer NOT
 NULL, height integer NOT NULL, kind integer NOT NULL, dst varchar(18) NOT
 NULL, src varchar(18) NOT NULL, dstDevice integer NOT NULL, srcDevice
 integer NOT NULL, sync bool NOT NULL, pinned bool NOT NULL);
CREATE TABLE rocpd_metadata (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
 tag varchar(4096) NOT NULL, value varchar(4096) NOT NULL);
INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '2'),
 ('session_count', '1');
"""
S = 4294967296  # session 1 in the upper 32 bits


def write_rpd(path, hostile=False):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(RPD_DDL if not hostile else
                     RPD_DDL.replace(" NOT NULL", ""))
    strs = ["", "KernelExecution", "CopyHostToDevice", "FillBuffer",
            "BarrierAnd", "Task", "WeirdOp", "hipLaunchKernel",
            "hipMemcpyAsync", "hsa_signal_wait_scacquire", "UserMarker",
            "rpdflush", "my_kernel", "step", "hipGraphLaunch",
            "ncclDevKernel_Generic"]
    if hostile:
        strs[12:14] = HOSTILE[:2]
    for i, s in enumerate(strs):
        db.execute("INSERT INTO rocpd_string VALUES (?, ?)", (101 + i, s))
    if hostile:
        db.execute("INSERT INTO rocpd_string VALUES (200, "
                   "CAST(X'66FF80C0AF' AS TEXT))")
    db.execute("INSERT INTO rocpd_kernelcodeobject VALUES (9, 48, 20, 0)")
    api = [(S + 1, 100, 100, 1000, 2000, 108, 101),
           (S + 2, 100, 100, 3000, 4000, 109, 101),
           (S + 3, 100, 101, 5000, 6000, 110, 101),
           (S + 4, 100, 101, 7000, 8000, 112, 101),
           (S + 5, 100, 100, 500, 90000, 111, 114),
           (S + 6, 100, 100, 95000, 95000, 111, 113),
           (S + 7, 200, 200, 10000, 11000, 115, 101)]
    op = [(S + 1, 0, 0, 0, "", 20000, 30000, 101, 102),
          (S + 2, 0, 1, 0, "", 31000, 32000, 101, 103),
          (S + 3, 1, 0, 0, "", 40000, 41000, 116, 106),
          (S + 4, 1, 0, 0, "", 44000, 45000, 101, 104),
          (S + 5, 1, 2, 0, "", 48000, 49000, 101, 105),
          (S + 6, 1, 2, 0, "", 50000, 60000, 101, 107)]
    if hostile:
        api.append((S + 8, 100, 100, 9000, 100, 200, 999))       # reversed
        api.append((S + 9, -1, -1, -5, 2 ** 40, 999, 200))       # huge
        op.append((S + 7, 2 ** 31, -3, 0, "", 70000, 69000, 200, 999))
        op.append((S + 8, 0, 0, 0, None, None, None, None, None))
    db.executemany("INSERT INTO rocpd_api VALUES (?,?,?,?,?,?,?)", api)
    db.executemany("INSERT INTO rocpd_op VALUES (?,?,?,?,?,?,?,?,?)", op)
    db.executemany("INSERT INTO rocpd_api_ops (api_id, op_id) VALUES (?,?)",
                   [(S + 1, S + 1), (S + 2, S + 2), (S + 7, S + 3),
                    (S + 7, S + 4)] + ([(S + 9, S + 99)] if hostile else []))
    db.execute("INSERT INTO rocpd_kernelapi VALUES (?, '0x0', 4, 2, 1, 256,"
               " 1, 1, 512, 8, '0x0', '', '', 9, 113)", (S + 1,))
    db.execute("INSERT INTO rocpd_copyapi VALUES (?, '0x0', 4096, 0, 0, 1,"
               " '0x1', '0x2', 0, 0, 0, 1)", (S + 2,))
    db.commit()
    db.close()
    shrink(path)


def rpd_bad_times(path):
    """Times that are text, a blob, a fraction or reversed (skipped,
    counted)."""
    db = sqlite3.connect(path)
    db.execute("UPDATE rocpd_op SET start = 'soon' WHERE id = ?", (S + 1,))
    db.execute("UPDATE rocpd_op SET end = X'00' WHERE id = ?", (S + 2,))
    db.execute("UPDATE rocpd_op SET start = 40000.5 WHERE id = ?", (S + 3,))
    db.execute("UPDATE rocpd_api SET start = end + 1 WHERE id = ?", (S + 1,))
    db.commit()
    db.close()
    shrink(path)


def rpd_view_op(path):
    """rocpd_op as a recursive view: refused, never run."""
    db = sqlite3.connect(path)
    db.executescript("""
ALTER TABLE rocpd_op RENAME TO op_data;
CREATE VIEW rocpd_op AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
 SELECT x + 1 FROM c) SELECT x AS id, 0 AS gpuId, 0 AS queueId,
 x AS start, x + 1 AS end, 101 AS description_id, 102 AS opType_id FROM c;
""")
    db.commit()
    db.close()
    shrink(path)


# ---- rocpd -------------------------------------------------------------
def write_rocpd(path, hostile=False, bad_times=False):
    import amd_cli  # noqa: E402 (tests/cli/amd_cli.py: the rocpd schema)
    amd_cli.write_rocpd(path)
    db = sqlite3.connect(path)
    u = amd_cli.UUID
    # Keep the first few rows of each event table.
    for t, keep in (("rocpd_region", 12), ("rocpd_kernel_dispatch", 4),
                    ("rocpd_memory_copy", 2), ("rocpd_event", 20)):
        db.execute("DELETE FROM %s_%s WHERE id > ?" % (t, u), (keep,))
    if bad_times:
        db.execute("UPDATE rocpd_kernel_dispatch_%s SET start = 'x'"
                   " WHERE id = 2" % u)
        db.execute("UPDATE rocpd_region_%s SET end = X'00' WHERE id = 2"
                   % u)
        db.execute("UPDATE rocpd_memory_copy_%s SET start = 'never'"
                   " WHERE id = 1" % u)
    if hostile:
        for i, s in enumerate(HOSTILE):
            db.execute("UPDATE rocpd_info_kernel_symbol_%s SET display_name"
                       " = ? WHERE id = ?" % u, (s, 5 + i % 3))
        db.execute("UPDATE rocpd_kernel_dispatch_%s SET start = end + 5,"
                   " kernel_id = 999, agent_id = -1 WHERE id = 1" % u)
        db.execute("UPDATE rocpd_region_%s SET end = 1099511627776"
                   " WHERE id = 1" % u)
        db.execute("UPDATE rocpd_info_agent_%s SET extdata = '{\"cu_count\":"
                   " \"lots\", \"wave_front_size\": -1}' WHERE id = 21" % u)
        db.execute("UPDATE rocpd_event_%s SET extdata = '{\"message\": "
                   "\"\\u001b[31mred\"}' WHERE id = 1" % u)
    db.commit()
    db.close()
    shrink(path)


# ---- rocprofv3 JSON ----------------------------------------------------
def rocprof_doc(hostile=False):
    name = HOSTILE[0] if hostile else "gemm()"
    rec = lambda kind, op, corr, t0, t1, **kw: dict(  # noqa: E731
        kind=kind, operation=op, thread_id=5001,
        correlation_id={"internal": corr, "external": 0},
        start_timestamp=t0, end_timestamp=t1, **kw)
    doc = {"rocprofiler-sdk-tool": [{
        "metadata": {"pid": 5001, "init_time": 100, "fini_time": 900000,
                     "node": {"hostname": "node-a"}, "command": ["trainer"]},
        "agents": [
            {"id": {"handle": 70}, "type": 1, "name": "cpu", "node_id": 0,
             "logical_node_type_id": 0},
            {"id": {"handle": 71}, "type": 2, "name": "gfx942",
             "product_name": HOSTILE[3] if hostile else "AMD Instinct MI300X",
             "cu_count": 304, "node_id": 1, "logical_node_type_id": 0}],
        "strings": {
            "buffer_records": [
                {"kind": "NONE", "operations": []},
                {"kind": "HIP_RUNTIME_API",
                 "operations": ["n", "hipLaunchKernel", "hipMemcpyAsync"]},
                {"kind": "MARKER_CORE_API",
                 "operations": ["n", "roctxMarkA", "roctxRangePushA"]},
                {"kind": "MEMORY_COPY",
                 "operations": ["n", "MEMORY_COPY_HOST_TO_DEVICE"]},
                {"kind": "KERNEL_DISPATCH", "operations": ["n", "e", "c"]}],
            "marker_api": [{"key": 55, "value": HOSTILE[1] if hostile
                            else "epoch"}]},
        "kernel_symbols": [
            {"kernel_id": 1, "kernel_name": "_Z4gemmv.kd",
             "formatted_kernel_name": name, "group_segment_size": 512,
             "arch_vgpr_count": 40, "accum_vgpr_count": 8}],
        "buffer_records": {
            "hip_api": [rec(1, 1, 10, 1000, 2000), rec(1, 2, 11, 3000, 4000)],
            "marker_api": [rec(2, 2, 55, 500, 50000)],
            "kernel_dispatch": [rec(4, 2, 10, 5000, 9000, dispatch_info={
                "agent_id": {"handle": 71}, "queue_id": {"handle": 3},
                "kernel_id": 1, "dispatch_id": 1,
                "private_segment_size": 32, "group_segment_size": 1536,
                "workgroup_size": {"x": 64, "y": 1, "z": 1},
                "grid_size": {"x": 640, "y": 2, "z": 1}},
                stream_id={"handle": 9})],
            "memory_copy": [rec(3, 1, 11, 4500, 4800,
                                src_agent_id={"handle": 70},
                                dst_agent_id={"handle": 71}, bytes=65536)]}}]}
    if hostile:
        br = doc["rocprofiler-sdk-tool"][0]["buffer_records"]
        br["hip_api"].append(rec(1, 99, 12, 9000, 100))
        br["kernel_dispatch"].append(rec(4, 2, 13, -5, 2 ** 40, dispatch_info={
            "agent_id": {"handle": 12345}, "kernel_id": 77,
            "workgroup_size": {"x": 0, "y": -1, "z": 2 ** 40},
            "grid_size": {"x": 2 ** 63 - 1, "y": 1, "z": 1}}))
    return doc


def main():
    for d in ("rpd", "rocpd", "rocprof_json"):
        os.makedirs(os.path.join(OUT, d), exist_ok=True)
    write_rpd(os.path.join(OUT, "rpd", "synthetic.rpd"))
    write_rpd(os.path.join(OUT, "rpd", "hostile.rpd"), hostile=True)
    write_rocpd(os.path.join(OUT, "rocpd", "synthetic.db"))
    write_rocpd(os.path.join(OUT, "rocpd", "hostile.db"), hostile=True)
    write_rpd(os.path.join(OUT, "rpd", "bad-times.rpd"))
    rpd_bad_times(os.path.join(OUT, "rpd", "bad-times.rpd"))
    write_rpd(os.path.join(OUT, "rpd", "view-op.rpd"))
    rpd_view_op(os.path.join(OUT, "rpd", "view-op.rpd"))
    write_rocpd(os.path.join(OUT, "rocpd", "bad-times.db"), bad_times=True)
    j = os.path.join(OUT, "rocprof_json")
    with open(os.path.join(j, "synthetic.json"), "w") as f:
        json.dump(rocprof_doc(), f)
    with open(os.path.join(j, "hostile.json"), "w") as f:
        json.dump(rocprof_doc(hostile=True), f)
    with open(os.path.join(j, "synthetic.json"), "rb") as f:
        data = f.read()
    with open(os.path.join(j, "synthetic.json.gz"), "wb") as f:
        f.write(gzip.compress(data, mtime=0))
    with open(os.path.join(j, "truncated.json"), "wb") as f:
        f.write(data[: len(data) // 2])


if __name__ == "__main__":
    main()
