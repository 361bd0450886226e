#!/usr/bin/env python3
"""empty_cli: an export with no events is an answer, not a usage error.

Two empty captures are built here: a PyTorch profiler trace whose
traceEvents is empty, and a demo Nsight Systems export with every
activity and NVTX row deleted (when the sqlite3 module is there). Every
verb that reads a trace must exit 0 with one JSON document that validates
against `gpulens schema VERB`, a data object (no error), no rows (summary,
hardware and info may list the devices the trace describes, with no work)
and the warning that the trace holds no events. export --to csv and
--to perfetto exit 0 too. The real CPU-only Kineto fixture, when present,
is checked the same way except for the rows. Exit 0 pass, 1 fail, 77 skip.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ.get("GPULENS_SRCDIR", "."),
                                "tests", "cli"))
from schema_test import run, validate  # noqa: E402

FIX = os.environ.get("GPULENS_FIXTURES", "")
VERBS = ["summary", "stats", "gaps", "timeline", "overlap", "nvtx", "iters",
         "search", "comm", "launch", "memcpy", "ranks", "hardware", "diff",
         "phases", "window", "findings", "info"]
DEVICE_ROWS = {"summary", "hardware", "info"}


def build(tmp):
    traces = []
    k = os.path.join(tmp, "empty.pt.trace.json")
    with open(k, "w") as f:
        f.write('{"schemaVersion": 1, "traceEvents": []}\n')
    traces.append(k)
    try:
        import sqlite3
    except ImportError:
        print("no sqlite3 module: the empty nsys export is not checked")
        return traces
    n = os.path.join(tmp, "empty.sqlite")
    r = run(["demo", "--out", n, "--events", "2000", "--gpus", "1"])
    if r.returncode != 0:
        raise SystemExit("FAIL: demo: %s" % r.stderr)
    c = sqlite3.connect(n)
    for (t,) in c.execute("SELECT name FROM sqlite_master WHERE "
                          "type = 'table'").fetchall():
        if t.startswith("CUPTI_ACTIVITY_KIND_") or t == "NVTX_EVENTS":
            c.execute("DELETE FROM " + t)
    c.commit()
    c.close()
    traces.append(n)
    return traces


def main():
    tmp = tempfile.mkdtemp()
    failures = 0
    empty = build(tmp)
    traces = [(t, True) for t in empty]
    cpu = os.path.join(FIX, "kineto", "hta",
                       "cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace."
                       "json.gz")
    if FIX and os.path.exists(cpu):
        traces.append((cpu, False))
    schemas = {v: json.loads(run(["schema", v]).stdout) for v in VERBS}
    for t, isempty in traces:
        for v in VERBS:
            args = ["--no-cache", v, t] + ([t] if v == "diff" else [])
            r = run(args + ["--json"])
            name = "%s %s" % (v, os.path.basename(t))
            errs = []
            try:
                doc = json.loads(r.stdout)
            except ValueError:
                print("FAIL %s: exit %d, not JSON: %r %r" %
                      (name, r.returncode, r.stdout[:200], r.stderr[:200]))
                failures += 1
                continue
            if r.returncode != 0:
                errs.append("exit %d" % r.returncode)
            errs += validate(doc, schemas[v])
            if "error" in doc or "data" not in doc:
                errs.append("error %r" % doc.get("error"))
            elif isempty:
                rows = doc["data"]["rows"]
                if v in DEVICE_ROWS:
                    rows = [x for x in rows if x.get("busy_ns", 0) or
                            x.get("kernels", 0) or x.get("events", 0)]
                if rows:
                    errs.append("rows: %r" % rows[:2])
                w = doc["meta"]["warnings"]
                if not any("holds no events" in x for x in w):
                    errs.append("no empty-capture warning: %r" % w)
            if errs:
                failures += 1
                print("FAIL %s: %s" % (name, "; ".join(errs[:4])))
            else:
                print("ok   %s" % name)
        for to in ("csv", "perfetto"):
            r = run(["--no-cache", "export", "--to", to, t])
            if r.returncode != 0:
                failures += 1
                print("FAIL export --to %s %s: exit %d: %s" %
                      (to, os.path.basename(t), r.returncode, r.stderr))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
