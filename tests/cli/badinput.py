#!/usr/bin/env python3
"""badinput: hostile and broken inputs, generated at test time from the real
fixtures, must give exit status 2 with one clear line on stderr, or a valid
load (exit 0); never a crash, a hang (each run has a timeout), an internal
error, or unbounded memory (each run has an address-space limit).

Cases: each nsys fixture truncated at several offsets, bit-flipped,
with a zero-filled page; an empty file, a directory, a FIFO, a file of 0xff
bytes, text and JSON under a .sqlite name, a foreign SQLite database; and a
valid export whose strings are 1 MB long or carry terminal escape sequences
(ESC/CSI/OSC, BEL, backspace, bidi overrides, invalid UTF-8), whose table
output must show them escaped and whose JSON output must escape them.
Exit 0 pass, 1 fail, 77 skip.
"""
import glob
import json
import os
import random
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")
TIMEOUT = 60
MEM_LIMIT = 4 << 30     # address space per run (off for sanitizer builds)

failures = []


def limit():
    if MEM_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))


def run(args, env=None):
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = CACHE
    if env:
        e.update(env)
    try:
        p = subprocess.run([GPULENS] + args, capture_output=True,
                           timeout=TIMEOUT, preexec_fn=limit, env=e)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def expect_clean(path, label, verbs=("info", "stats", "summary")):
    for v in verbs:
        rc, out, err = run(["--no-cache", v, path])
        name = "%s [%s]" % (label, v)
        if rc == "timeout":
            failures.append("%s: hung for %ds" % (name, TIMEOUT))
        elif rc not in (0, 2):
            failures.append("%s: exit %r: %s" % (name, rc,
                                                 err[-300:].decode(
                                                     "utf-8", "replace")))
        elif rc == 2:
            lines = err.decode("utf-8", "replace").strip().splitlines()
            if len(lines) != 1:
                failures.append("%s: %d lines on stderr: %r" %
                                (name, len(lines), lines[:3]))
            elif b"\x1b" in err:
                failures.append("%s: raw ESC in the error" % name)
        if rc == 2 and v == "info":
            break       # the other verbs will say the same


def mutate(src, tmp):
    data = open(src, "rb").read()
    base = os.path.basename(src)
    n = len(data)
    rnd = random.Random(n)
    cases = []
    for frac in (0.0, 0.001, 0.1, 0.5, 0.9, 0.999):
        cut = max(1, int(n * frac)) if frac else 100
        cases.append(("trunc%s" % frac, data[:cut]))
    for k in range(3):
        b = bytearray(data)
        for _ in range(16):
            i = rnd.randrange(100, n)
            b[i] ^= 1 << rnd.randrange(8)
        cases.append(("flip%d" % k, bytes(b)))
    b = bytearray(data)
    page = 4096 * (n // 4096 // 2)
    b[page:page + 4096] = bytes(4096)
    cases.append(("zeropage", bytes(b)))
    out = []
    for tag, blob in cases:
        p = os.path.join(tmp, "%s.%s.sqlite" % (base, tag))
        with open(p, "wb") as f:
            f.write(blob)
        os.chmod(p, 0o444)
        out.append((p, "%s %s" % (base, tag)))
    return out


def hostile_export(tmp, src):
    """A copy of a valid export whose strings are long or hostile."""
    p = os.path.join(tmp, "hostile.sqlite")
    shutil.copy(src, p)
    os.chmod(p, 0o644)
    db = sqlite3.connect(p)
    names = [
        "evil\x1b[2J\x1b[H\x1b]0;pwned\x07kernel",
        "bel\x07bs\x08\x08cr\rlf\nname",
        "bidi\u202eelif\u202c\u2066x\u2069",
        "csi\x9b31mC1",
        "L" * (1 << 20),
    ]
    ids = [r[0] for r in db.execute(
        "select distinct demangledName from CUPTI_ACTIVITY_KIND_KERNEL "
        "limit %d" % len(names))]
    for sid, name in zip(ids, names):
        db.execute("update StringIds set value = ? where id = ?",
                   (name, sid))
    # Invalid UTF-8: a blob cast to text, as a broken exporter might write.
    row = db.execute("select demangledName from CUPTI_ACTIVITY_KIND_KERNEL "
                     "group by demangledName order by demangledName desc "
                     "limit 1").fetchone()
    db.execute("update StringIds set value = cast(x'fffe41c32842' as text) "
               "where id = ?", (row[0],))
    db.commit()
    db.close()
    os.chmod(p, 0o444)
    return p, names


def check_hostile(p, names):
    rc, out, err = run(["--no-cache", "stats", p, "--limit", "0"])
    if rc != 0:
        failures.append("hostile stats: exit %r %r" % (rc, err[-200:]))
        return
    for bad in (b"\x1b", b"\x07", b"\x08", b"\x9b", b"\xe2\x80\xae",
                b"\xc2\x9b", b"\xff"):
        if bad in out or bad in err:
            failures.append("hostile stats: table output contains %r" % bad)
    if b"\\x1b" not in out:
        failures.append("hostile stats: ESC not shown escaped")
    rc, out, err = run(["--no-cache", "stats", p, "--limit", "0", "--json"])
    if rc != 0:
        failures.append("hostile stats --json: exit %r" % rc)
        return
    if b"\x1b" in out or b"\x07" in out:
        failures.append("hostile stats --json: raw control bytes")
    try:
        doc = json.loads(out)
        got = {r["name"] for r in doc["data"]["rows"]}
        for n in names[:4]:
            if n not in got:
                failures.append("hostile --json lost the name %r" % n[:20])
    except ValueError as e:
        failures.append("hostile --json is not JSON: %s" % e)
    for v in ("info", "summary", "search", "nvtx", "gaps", "launch"):
        rc, out, err = run(["--no-cache", v, p])
        if rc != 0 or b"\x1b" in out or b"\x1b" in err:
            failures.append("hostile %s: exit %r or raw ESC" % (v, rc))


def main():
    global CACHE
    if not FIX or not os.path.isdir(os.path.join(FIX, "nsys")):
        print("SKIP: no fixtures at GPULENS_FIXTURES=%r" % FIX)
        return 77
    global MEM_LIMIT
    # A sanitizer build reserves terabytes of address space: no limit then.
    try:
        subprocess.run([GPULENS, "--version"], capture_output=True,
                       preexec_fn=limit, check=True, timeout=30)
    except (subprocess.CalledProcessError, OSError):
        print("address-space limit off (sanitizer build?)")
        MEM_LIMIT = 0
    tmp = tempfile.mkdtemp(prefix="gpulens-bad.")
    CACHE = os.path.join(tmp, "cache")
    os.mkdir(CACHE)
    try:
        fixtures = sorted(glob.glob(os.path.join(FIX, "nsys", "*",
                                                 "*.sqlite")))
        for f in fixtures:
            for p, label in mutate(f, tmp):
                expect_clean(p, label)
        # Files that are not traces at all.
        simple = {
            "empty.sqlite": b"",
            "ff.sqlite": b"\xff" * 100000,
            "text.sqlite": b"hello\n" * 1000,
            "json.sqlite": b'{"traceEvents": [',
            "zeros.nsys-rep": bytes(65536),
        }
        for name, blob in simple.items():
            p = os.path.join(tmp, name)
            with open(p, "wb") as fh:
                fh.write(blob)
            expect_clean(p, name)
        d = os.path.join(tmp, "adir.sqlite")
        os.mkdir(d)
        expect_clean(d, "directory")
        fifo = os.path.join(tmp, "fifo.sqlite")
        os.mkfifo(fifo)
        expect_clean(fifo, "fifo")
        other = os.path.join(tmp, "other.sqlite")
        db = sqlite3.connect(other)
        db.execute("create table t(x)")
        db.commit()
        db.close()
        expect_clean(other, "foreign sqlite")
        p, names = hostile_export(tmp, os.path.join(
            FIX, "nsys", "nsys-ai", "mfu_2gpu_before.sqlite"))
        expect_clean(p, "hostile strings")
        check_hostile(p, names)
        # Nothing was written next to the read-only inputs.
        for f in os.listdir(tmp):
            if f.endswith(".gpulens"):
                failures.append("a cache was written next to %s" % f)
    finally:
        for root, dirs, files in os.walk(tmp):
            for x in dirs + files:
                q = os.path.join(root, x)
                if not stat.S_ISFIFO(os.lstat(q).st_mode):
                    os.chmod(q, 0o755)
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL %s" % f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
