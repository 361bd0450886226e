#!/usr/bin/env python3
"""nsys_seeds.py DEMO.sqlite OUTDIR: small Nsight Systems exports for the
nsys fuzz harness's seed corpus (tests/fuzz/nsys/), cut from a trace that
`gpulens demo --out DEMO.sqlite --events 100 --gpus 1` wrote.

Each seed keeps the demo's schema with a handful of rows per table, in
512-byte pages, so that it is a few kilobytes: small inputs mutate well.
Variants: the plain cut; the old (2021-era) shape without ENUM_* tables
or export metadata; hostile values (terminal escape sequences, invalid
UTF-8 and 1 KB names, negative, reversed and huge times, NULLs where
columns are NOT NULL in newer schemas, ids that point nowhere); unbalanced
and cross-thread NVTX ranges; event tables only. regress-extreme-times has
times at both ends of int64 (once an overflow in span arithmetic: the
builder now drops such events), regress-huge-span a kernel 73 years after
the rest (once the phases and window verbs allocated bins for the whole
span: they are capped now), regress-thread-name an export whose only row
names a thread (once a crash). bad-times has kernel times that are text,
a blob or NULL; view-kernel a recursive view in place of the kernel table;
sync-quirks synchronization rows on device 0 and no stream. Standard
library only.
"""
import os
import sqlite3
import sys

ROWS = 6  # rows kept per table


def cut(src, dst, keep=None, rows=ROWS, edit=None, loose=False):
    if os.path.exists(dst):
        os.remove(dst)
    s = sqlite3.connect(src)
    d = sqlite3.connect(dst)
    d.execute("PRAGMA page_size = 512")
    d.execute("PRAGMA journal_mode = OFF")
    for name, sql in s.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
        if keep is not None and not keep(name):
            continue
        if loose:
            sql = sql.replace(" NOT NULL", "")
        d.execute(sql)
        if name == "StringIds":
            cur = s.execute("SELECT id, substr(value, 1, 40) FROM StringIds")
        else:
            cur = s.execute('SELECT * FROM "%s" LIMIT %d' % (name, rows))
        ncol = len(cur.description)
        d.executemany('INSERT INTO "%s" VALUES (%s)' %
                      (name, ",".join("?" * ncol)), cur.fetchall())
    if edit is not None:
        edit(d)
    d.commit()
    d.execute("VACUUM")
    d.close()
    s.close()


def hostile(d):
    names = [
        "\x1b[2J\x1b[H\x1b]0;pwned\x07evil",
        "\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\",
        "back\x08\x08\x08\x7fspace\r\n",
        "\u202eevil\u202c\u2066iso\u2069",
        "\x9b31m C1 CSI",
        "k" * 1024,
    ]
    for i, s in enumerate(names):
        d.execute("UPDATE StringIds SET value = ? WHERE id = ?", (s, i + 1))
    d.execute("UPDATE StringIds SET value = CAST(X'66FF80C0AFED' AS TEXT)"
              " WHERE id = 7")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -start"
              " WHERE rowid = 1")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 5"
              " WHERE rowid = 2")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start ="
              " 1099511627776, end = 1099511627776 + 1000"
              " WHERE rowid = 3")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName ="
              " 123456789, streamId = -1, deviceId = 4294967295"
              " WHERE rowid = 4")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = NULL,"
              " globalTid = NULL WHERE rowid = 1")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 200,"
              " bytes = -1 WHERE rowid = 1")
    d.execute("UPDATE NVTX_EVENTS SET end = NULL WHERE rowid = 1")
    d.execute("UPDATE NVTX_EVENTS SET text = ? WHERE rowid = 2",
              ("\x1b[31mred\x1b[0m",))


def huge_span(d):
    """A kernel 73 years after the others: the phases and window verbs
    once allocated bins for the whole span."""
    hostile(d)
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start ="
              " 2305843009213693952, end = 2305843009213693952 + 1000"
              " WHERE rowid = 3")


def extreme(d):
    """Times at the ends of int64: spans once overflowed."""
    hostile(d)
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start ="
              " 9223372036854775000, end = 9223372036854775807"
              " WHERE rowid = 3")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start ="
              " -9223372036854775808, end = -9223372036854775000"
              " WHERE rowid = 5")


def nvtx_mess(d):
    d.execute("DELETE FROM NVTX_EVENTS")
    rows = [
        # start, end, eventType, rangeId, text, globalTid, endGlobalTid
        (100, 900, 59, None, "outer", 1 << 24 | 7, None),
        (200, 300, 59, None, "inner", 1 << 24 | 7, None),
        (250, 1000, 59, None, "crossing", 1 << 24 | 7, None),
        (400, None, 59, None, "open", 1 << 24 | 7, None),
        (500, 600, 60, 1, "startend", 1 << 24 | 7, 1 << 24 | 8),
        (700, 700, 34, None, "mark", 1 << 24 | 7, None),
        (800, 100, 59, None, "reversed", 1 << 24 | 7, None),
        (50, 60, 75, None, "domain", 1 << 24 | 7, None),
    ]
    d.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId,"
                  " text, globalTid, endGlobalTid) VALUES (?,?,?,?,?,?,?)",
                  rows)


def bad_times(d):
    """Kernel times that are text, a blob, NULL or reversed: skipped and
    counted in a warning."""
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon'"
              " WHERE rowid = 1")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = X'0102'"
              " WHERE rowid = 2")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL"
              " WHERE rowid = 3")
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = end + 10"
              " WHERE rowid = 1")


def view_kernel(d):
    """CUPTI_ACTIVITY_KIND_KERNEL as a recursive view: refused, never
    run (it once ran forever in the size estimate)."""
    d.execute("DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL")
    d.execute("CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE"
              " c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT"
              " x AS start, x + 1 AS end, 0 AS deviceId, 7 AS streamId"
              " FROM c")


def thread_name(d):
    """No CUDA tables, one NvtxThread row naming a thread seen nowhere
    else (once a crash: the name was stored through a stale array)."""
    d.execute("DELETE FROM NVTX_EVENTS")
    d.execute("DELETE FROM ThreadNames")
    d.execute("DELETE FROM PROCESSES")
    d.execute("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid,"
              " domainId) VALUES (1000, 39, 'worker', ?, 0)",
              ((1 << 48) | (3140 << 24) | 3147,))


def sync_quirks(d):
    """Synchronization rows with deviceId 0 and no stream (0xFFFFFFFF),
    as some exports write them."""
    d.execute("UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET deviceId = 0,"
              " streamId = 4294967295")


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    cut(src, os.path.join(out, "demo-cut.sqlite"))
    cut(src, os.path.join(out, "old-schema.sqlite"),
        keep=lambda n: not n.startswith("ENUM_") and not n.startswith("META")
        and not n.startswith("TARGET_INFO_CUDA"))
    cut(src, os.path.join(out, "hostile.sqlite"), edit=hostile, loose=True)
    cut(src, os.path.join(out, "regress-extreme-times.sqlite"),
        edit=extreme, loose=True)
    cut(src, os.path.join(out, "regress-huge-span.sqlite"),
        edit=huge_span, loose=True)
    cut(src, os.path.join(out, "nvtx.sqlite"), edit=nvtx_mess, loose=True,
        keep=lambda n: n in ("StringIds", "NVTX_EVENTS", "ThreadNames",
                             "PROCESSES", "ENUM_NSYS_EVENT_TYPE"))
    cut(src, os.path.join(out, "events-only.sqlite"), rows=3,
        keep=lambda n: n.startswith("CUPTI") or n == "StringIds")
    cut(src, os.path.join(out, "bad-times.sqlite"), rows=8, edit=bad_times,
        loose=True, keep=lambda n: n.startswith("CUPTI") or
        n in ("StringIds", "META_DATA_EXPORT"))
    cut(src, os.path.join(out, "view-kernel.sqlite"), rows=3,
        edit=view_kernel, keep=lambda n: n.startswith("CUPTI") or
        n == "StringIds")
    cut(src, os.path.join(out, "regress-thread-name.sqlite"), rows=0,
        edit=thread_name, keep=lambda n: n in (
            "StringIds", "NVTX_EVENTS", "ThreadNames", "PROCESSES",
            "META_DATA_EXPORT", "ENUM_NSYS_EVENT_TYPE"))
    cut(src, os.path.join(out, "sync-quirks.sqlite"), rows=4,
        edit=sync_quirks, keep=lambda n: n.startswith("CUPTI") or
        n in ("StringIds", "ENUM_CUPTI_SYNC_TYPE"))


if __name__ == "__main__":
    main()
