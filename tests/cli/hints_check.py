#!/usr/bin/env python3
"""hints_check: every hint in meta.next runs as printed.

usage: hints_check.py GPULENS TRACE...

Runs each verb that takes just a trace (or, for an Nsight Compute report,
the report verbs) with --json over every TRACE, gathers every meta.next
hint, and runs each distinct hint with the shell (gpulens on PATH is
GPULENS). A hint that exits non-zero, or one that still holds a
placeholder (an upper-case word such as NAME, KEY, EVENT), fails.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

TRACE_VERBS = ["info", "summary", "stats", "gaps", "timeline", "overlap",
               "nvtx", "iters", "search", "launch", "memcpy", "comm",
               "ranks", "hardware", "phases", "window", "findings"]
REPORT_VERBS = ["summary", "launches", "rules", "roofline"]


def is_report(path):
    return path.endswith(".ncu-rep") or "/ncu/" in path


def calls(trace):
    if is_report(trace):
        out = [[v, trace] for v in REPORT_VERBS]
        out.append(["metrics", trace, "*"])
        return out
    out = [[v, trace] for v in TRACE_VERBS]
    out.append(["diff", trace, trace])
    return out


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout, p.stderr


def hints_of(gl, argv):
    rc, out, err = run([gl] + argv + ["--json"])
    try:
        env = json.loads(out)
    except ValueError:
        return argv, rc, None
    return argv, rc, env.get("meta", {}).get("next", [])


def main():
    gl = os.path.abspath(sys.argv[1])
    traces = sys.argv[2:]
    bindir = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                          "hints-bin-%d" % os.getpid())
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "gpulens")
    if not os.path.exists(link):
        os.symlink(gl, link)
    os.environ["PATH"] = bindir + os.pathsep + os.environ["PATH"]
    jobs = [c for t in traces for c in calls(t)]
    hints = {}
    bad = []
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for argv, rc, nx in ex.map(lambda a: hints_of(gl, a), jobs):
            if nx is None:
                bad.append("%s: no JSON envelope (rc %d)" %
                           (" ".join(argv), rc))
                continue
            for h in nx:
                hints.setdefault(h, " ".join(argv))
    for h, src in hints.items():
        if not h.startswith("gpulens "):
            bad.append("%s: hint does not start with gpulens: %s" % (src, h))
        if re.search(r"(^|\s)(NAME|KEY|EVENT|ID|TRACE|PATH)(\s|$)", h):
            bad.append("%s: hint holds a placeholder: %s" % (src, h))

    def try_hint(h):
        p = subprocess.run(["sh", "-c", h + " >/dev/null"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=600)
        return h, p.returncode, p.stderr.decode(errors="replace")

    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for h, rc, err in ex.map(try_hint, sorted(hints)):
            if rc != 0:
                bad.append("hint from '%s' exited %d: %s: %s" %
                           (hints[h], rc, h, err.strip()[:300]))
    os.unlink(link)
    os.rmdir(bindir)
    for b in bad:
        print("FAIL:", b, file=sys.stderr)
    print("%d traces, %d verb calls, %d distinct hints, %d failures" %
          (len(traces), len(jobs), len(hints), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
