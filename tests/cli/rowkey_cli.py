#!/usr/bin/env python3
"""rowkey_cli: every verb's row keys, over every project fixture (and a few
real ones when GPULENS_FIXTURES is set), follow the one grammar of
gpulens(1) ROW KEYS and are unique within the answer; the verbs that take
a row key (inspect, correlate, ncu-command, inspect of a report) take the
key as printed and the forms they took before (ev:N, N, launch:N).
Exit 0 pass, 1 fail."""
import glob
import json
import os
import re
import subprocess
import sys

G = os.environ.get("GPULENS", "./gpulens")
SRC = os.environ.get("GPULENS_SRCDIR", ".")
FIX = os.environ.get("GPULENS_FIXTURES", "")
NAME = r"[a-z][a-z0-9_-]*"
KEY = re.compile(r"^%s(\|%s=([^|%%\x00-\x1f\x7f]|%%[0-9A-F]{2})*)*$" %
                 (NAME, NAME))
fails = []


def js(*args):
    r = subprocess.run([G, "--no-cache"] + list(args) + ["--json"],
                       capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        fails.append("%s: not JSON: %r" % (" ".join(args), r.stdout[:200]))
        return {}


def check(doc, what):
    rows = doc.get("data", {}).get("rows", [])
    keys = [r.get("key") for r in rows]
    bad = [k for k in keys if not isinstance(k, str) or not KEY.match(k)]
    if bad:
        fails.append("%s: keys outside the grammar: %r" % (what, bad[:3]))
    dup = sorted(set(k for k in keys if keys.count(k) > 1))
    if dup:
        fails.append("%s: duplicate keys: %r" % (what, dup[:3]))
    return rows


def trace_verbs():
    out = subprocess.run([G, "schema"], capture_output=True,
                         text=True).stdout.split()
    return [v for v in out if v not in ("inspect", "correlate",
                                        "ncu-command", "diff", "prep",
                                        "clean", "launches", "metrics",
                                        "rules", "roofline")
            and not v.startswith("report-")]


def main():
    traces, reports = [], []
    for pat in ["nsys/*.sqlite", "kineto/*.json*", "chrome/*.json",
                "rocpd/*.db", "rocprofv3/*.json.gz", "rpd/*.rpd"]:
        traces += sorted(glob.glob(os.path.join(SRC, "fixtures", pat)))
    reports += sorted(glob.glob(os.path.join(SRC, "fixtures", "ncu", "*")))
    if FIX:
        traces += [t for t in [os.path.join(FIX, "nsys", "nsys-ai",
                                            "mfu_2gpu_before.sqlite")]
                   if os.path.exists(t)]
    verbs = trace_verbs()
    n = 0
    for t in traces:
        name = os.path.basename(t)
        for v in verbs:
            check(js(v, t), "%s %s" % (v, name))
            n += 1
        check(js("diff", t, t), "diff %s" % name)
        rows = check(js("search", t, "--limit", "3"), "search " + name)
        if not rows:
            continue
        k = rows[0]["key"]
        i = rows[0]["id"]
        got = [check(js("inspect", t, a), "inspect %s %s" % (name, a))
               for a in (k, "ev:%d" % i, str(i))]
        if any(len(g) != 1 or g[0].get("id") != i for g in got):
            fails.append("inspect %s: %s, ev:%d and %d differ" %
                         (name, k, i, i))
        check(js("inspect", t, *[r["key"] for r in rows]),
              "inspect " + name)
        a = check(js("correlate", t, k), "correlate " + name)
        b = check(js("correlate", t, "ev:%d" % i), "correlate " + name)
        if a != b:
            fails.append("correlate %s: %s and ev:%d differ" % (name, k, i))
        ks = check(js("search", t, "--type", "kernel", "--limit", "1"),
                   "search " + name)
        if ks:
            a = check(js("ncu-command", t, ks[0]["key"]),
                      "ncu-command " + name)
            b = check(js("ncu-command", t, "ev:%d" % ks[0]["id"]),
                      "ncu-command " + name)
            if not a or a != b:
                fails.append("ncu-command %s: %s and ev:%d differ" %
                             (name, ks[0]["key"], ks[0]["id"]))
    for r in reports:
        name = os.path.basename(r)
        for v in ("summary", "launches", "rules", "roofline"):
            check(js(v, r), "%s %s" % (v, name))
        check(js("metrics", r, "*"), "metrics " + name)
        rows = check(js("launches", r), "launches " + name)
        if not rows:
            continue
        got = [check(js("inspect", r, a), "inspect %s %s" % (name, a))
               for a in (rows[0]["key"], "launch:0", "0")]
        if got[0] != got[1] or got[0] != got[2] or not got[0]:
            fails.append("inspect %s: %s, launch:0 and 0 differ" %
                         (name, rows[0]["key"]))
    for f in fails:
        print("FAIL " + f)
    print("%d answers checked" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
