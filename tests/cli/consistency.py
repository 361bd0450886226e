#!/usr/bin/env python3
"""consistency: the invariants that hold between verbs, on every trace.

Each verb reads the same analysis results, so their answers must agree.
This runs over every trace of the project's own fixtures/ (always) and of
GPULENS_FIXTURES (when set), and checks:

  busy      summary's per-device busy time = timeline's per-device totals
            = the window minus gaps' device-scope idle; summary's idle share
            = gaps' idle over the devices in use, and = `gaps --scope all`
            with one device in use (definition 1)
  kernels   the kernel time of `stats --type kernel` = summary's kernel
            time, and its count = `search --type kernel`'s
  iters     each iteration's `kernels` = the kernels that `search` finds
            in that iteration's window (same process), checked on the
            first iterations
  families  every NVTX family that `nvtx` prints is accepted by `--nvtx`
            and by `iters --range` (definition 3)
  ncu       each finding's ncu command = `ncu-command` for its event
            (definition 7)
  exposed   overlap's exposed communication = the findings' exposed
            communication (definition 6)
  ranks     per-rank kernel counts of `ranks` = `stats --group-by pid`
  keys      row keys are unique within every response, for every verb
            (definition 8)

A trace's verbs run against one cache directory, so each answer after the
first is a warm load. Exit 0 pass, 1 fail.
"""
import json
import os
import subprocess
import sys
import tempfile

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")
SRC = os.environ.get("GPULENS_SRCDIR", ".")
CACHE = tempfile.mkdtemp(prefix="gpulens-consistency.")
ENV = dict(os.environ, XDG_CACHE_HOME=CACHE)
failures = []
checked = {}

TIMELINE_VERBS = ["summary", "stats", "gaps", "timeline", "overlap", "nvtx",
                  "iters", "memcpy", "comm", "launch", "hardware", "phases",
                  "window", "findings", "ranks", "search", "info"]
REPORT_VERBS = ["info", "launches", "rules", "roofline"]


def fail(trace, what):
    failures.append("%s: %s" % (trace, what))
    print("FAIL: %s: %s" % (trace, what))


def ok(name):
    checked[name] = checked.get(name, 0) + 1


def run(args):
    r = subprocess.run([GPULENS] + args, capture_output=True, text=True,
                       env=ENV, timeout=600)
    return r


def js(args):
    """The envelope of a verb, or None when it refused (exit 2)."""
    r = run(args + ["--json"])
    if r.returncode not in (0, 2):
        raise RuntimeError("%s: exit %d: %s" % (args, r.returncode,
                                                 r.stderr[-400:]))
    try:
        d = json.loads(r.stdout)
    except ValueError:
        raise RuntimeError("%s: not JSON: %r" % (args, r.stdout[:200]))
    if r.returncode != 0 or d.get("error"):
        return None
    return d


def rows(d):
    return (d or {}).get("data", {}).get("rows", []) or []


def aux(d):
    return (d or {}).get("data", {}).get("auxiliary", {}) or {}


def near(a, b, tol=0.011):
    return a is not None and b is not None and abs(a - b) <= tol


def traces():
    out = []
    for top in [os.path.join(SRC, "fixtures")] + ([FIX] if FIX else []):
        if not os.path.isdir(top):
            continue
        for dp, dn, fn in os.walk(top):
            dn.sort()
            for f in sorted(fn):
                if f.endswith((".md", ".py", ".sh", ".txt", ".nsys-rep",
                               ".qdrep")) or f.startswith("."):
                    continue
                out.append(os.path.join(dp, f))
    return out


def check_keys(t, verb, d):
    seen, dup = set(), set()
    for r in rows(d):
        k = r.get("key")
        if k is not None and k in seen:
            dup.add(k)
        seen.add(k)
    dup = sorted(dup)
    if dup:
        fail(t, "%s: %d duplicate row keys, e.g. %r" % (verb, len(dup),
                                                         dup[0][:120]))
    else:
        ok("keys")


def check_busy(t, summ, tl, gaps_dev, gaps_all):
    srows = [r for r in rows(summ) if r.get("used", True)]
    sb = {r["device"]: r["busy_ns"] for r in srows}
    tb = {x["device"]: x["busy_ns"] for x in aux(tl).get("totals", [])}
    gd = {x["device"]: x for x in aux(gaps_dev).get("devices", [])}
    for dev, busy in sb.items():
        if busy == 0:
            continue
        if tb.get(dev) != busy:
            fail(t, "device %s busy: summary %s, timeline %s" %
                 (dev, busy, tb.get(dev)))
        g = gd.get(dev)
        if g is None or g["window_ns"] - g["total_idle_ns"] != busy:
            fail(t, "device %s busy: summary %s, gaps window-idle %s" %
                 (dev, busy, g and g["window_ns"] - g["total_idle_ns"]))
    ok("busy")
    # Device scope: idle GPU-time over the devices in use (definition 1),
    # from gaps' per-device rows; with one device in use it is also the
    # idle share of `gaps --scope all`.
    si = aux(summ).get("idle_share_pct")
    used = [d for d, b in sb.items()]
    win = sum(gd[d]["window_ns"] for d in used if d in gd)
    idle = sum(gd[d]["total_idle_ns"] for d in used if d in gd)
    if si is not None and win > 0:
        gi = 100.0 * idle / win
        if not near(si, gi):
            fail(t, "idle share: summary %s, gaps per device %.3f" % (si, gi))
        else:
            ok("idle")
        ga = aux(gaps_all).get("all", {}).get("idle_pct")
        if len(used) == 1 and ga is not None and not near(si, ga):
            fail(t, "idle share: summary %s, gaps --scope all %s" % (si, ga))


def check_kernels(t, summ, st, srch):
    total = sum(r["total_ns"] for r in rows(st))
    count = sum(r["count"] for r in rows(st))
    sk = sum(r.get("kernel_ns", 0) for r in rows(summ))
    if total != sk:
        fail(t, "kernel time: stats %d, summary %d" % (total, sk))
    n = aux(srch).get("total_matched", (srch or {}).get("data", {})
                      .get("total_matched"))
    if n is not None and n != count:
        fail(t, "kernel count: stats %d, search %d" % (count, n))
    ok("kernels")


def search_count(t, extra):
    d = js(["search", t, "--type", "kernel", "--limit", "1"] + extra)
    if d is None:
        return None
    return d["data"].get("total_matched", aux(d).get("total_matched"))


def check_iters(t, it):
    for r in rows(it)[:3]:
        if r.get("kernels") is None:
            continue
        s, e = r["start_ns"], r["start_ns"] + r["duration_ns"]
        extra = ["--from", "%dns" % s, "--to", "%dns" % e]
        if r.get("pid") is not None:
            extra += ["--pid", str(r["pid"])]
        n = search_count(t, extra)
        if n != r["kernels"]:
            fail(t, "iteration %s: iters says %s kernels, search %s" %
                 (r.get("key"), r["kernels"], n))
        else:
            ok("iters")


def check_families(t, nv):
    names = []
    for r in rows(nv):
        n = r.get("name")
        if n and n not in names:
            names.append(n)
    for n in names[:4]:
        r = run(["stats", t, "--nvtx", n, "--json"])
        if r.returncode != 0:
            fail(t, "nvtx family %r refused by --nvtx: %s" %
                 (n[:80], r.stderr.strip()[:160]))
        else:
            ok("families")
        r = run(["iters", t, "--range", n, "--json"])
        if r.returncode != 0:
            fail(t, "nvtx family %r refused by iters --range: %s" %
                 (n[:80], r.stderr.strip()[:160]))


def check_ncu(t, fd):
    for r in rows(fd):
        cmd, ev = r.get("ncu_command"), r.get("event")
        if not cmd or ev is None:
            continue
        d = js(["ncu-command", t, str(ev)])
        want = None
        if d is not None and rows(d):
            want = rows(d)[0].get("command")
        if want != cmd:
            fail(t, "finding %s: ncu command %r, ncu-command %r" %
                 (r.get("type"), cmd, want))
        else:
            ok("ncu")


def check_exposed(t, ov, fd):
    exp = sum(r.get("exposed_comm_ns") or 0 for r in rows(ov))
    for r in rows(fd):
        ev = r.get("evidence") or {}
        if "exposed_comm_ns" in ev:
            if ev["exposed_comm_ns"] != exp:
                fail(t, "exposed communication: findings %s, overlap %s" %
                     (ev["exposed_comm_ns"], exp))
            else:
                ok("exposed")


def check_ranks(t, rk, bypid):
    per = {}
    for r in rows(bypid):
        per[r.get("pid")] = per.get(r.get("pid"), 0) + r["count"]
    for r in rows(rk):
        if r.get("pid") is None or r.get("kernels") is None:
            continue
        if per.get(r["pid"], 0) != r["kernels"]:
            fail(t, "rank %s (pid %s): ranks says %s kernels, stats %s" %
                 (r.get("rank"), r["pid"], r["kernels"], per.get(r["pid"])))
        else:
            ok("ranks")


def timeline_trace(t):
    got = {}
    for v in TIMELINE_VERBS:
        args = [v, t]
        if v in ("stats", "search", "nvtx", "gaps", "iters", "findings",
                 "launch", "memcpy", "comm", "timeline", "overlap", "phases"):
            args += ["--limit", "0"]
        d = js(args)
        got[v] = d
        if d is not None:
            check_keys(t, v, d)
    if got["summary"] is None:
        return
    st = js(["stats", t, "--type", "kernel", "--limit", "0"])
    srch = js(["search", t, "--type", "kernel", "--limit", "1"])
    gdev = js(["gaps", t, "--scope", "device", "--limit", "1"])
    gall = js(["gaps", t, "--scope", "all", "--limit", "1"])
    if got["timeline"] and gdev and gall:
        check_busy(t, got["summary"], got["timeline"], gdev, gall)
    if st is not None:
        check_kernels(t, got["summary"], st, srch)
    if got["iters"] is not None:
        check_iters(t, js(["iters", t, "--limit", "3"]))
    if got["nvtx"] is not None:
        check_families(t, got["nvtx"])
    if got["findings"] is not None:
        check_ncu(t, got["findings"])
        if got["overlap"] is not None:
            check_exposed(t, got["overlap"], got["findings"])
    if got["ranks"] is not None:
        bypid = js(["stats", t, "--type", "kernel", "--group-by", "pid",
                    "--limit", "0"])
        check_ranks(t, got["ranks"], bypid)


def report_trace(t):
    for v in REPORT_VERBS:
        d = js([v, t])
        if d is not None:
            check_keys(t, v, d)


def main():
    ts = traces()
    if not FIX:
        print("GPULENS_FIXTURES unset: the project's own fixtures only")
    for t in ts:
        try:
            if t.endswith((".ncu-rep", ".csv")):
                report_trace(t)
            else:
                timeline_trace(t)
        except Exception as e:  # a crash or timeout is a failure too
            fail(t, "error: %s" % e)
    print("checked: %s on %d traces" % (json.dumps(checked, sort_keys=True),
                                        len(ts)))
    subprocess.run(["rm", "-rf", CACHE])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
