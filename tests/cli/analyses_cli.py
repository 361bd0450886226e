#!/usr/bin/env python3
"""analyses_cli: `gpulens diff`, `phases`, `window` and `findings` with
--json, checked against numbers computed another way:

  diff      on the real before/after pair (GPULENS_FIXTURES): every kernel
            row's counts and totals equal the two `stats --type kernel`
            outputs and plain SQL over each file (count and sum of
            end - start per demangled name); memcpy rows equal `stats
            --type memcpy` by direction, memsets `stats --type memset`,
            communication rows `comm`; deltas are B - A; `diff A A`
            reports no change. On generated traces, the auxiliary GPU
            busy time equals the per-device union of kernel, memcpy and
            memset rows computed in SQL.
  window    the steady window of a generated trace equals the middle
            ProfilerStep range found with SQL (the process with the most
            steps, the upper median index, skipping steps more than 20%
            from the median duration)
  phases    the planted warm-up and teardown of a generated trace are
            phases whose boundaries lie within 20 ms of the planted NVTX
            ranges' edges (SQL)
  findings  on a clean trace no finding has high confidence; each planted
            problem comes first with high confidence; the cost of
            cuda_memcpy_sync equals, per SQL, the most time one process
            spent in cudaMemcpy calls
and every document validates against `gpulens schema VERB`.
Exit 0 pass, 1 fail, 77 skip.
"""
import importlib.util
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")
SRC = os.environ.get("GPULENS_SRCDIR", ".")
MS = 1000000
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: %s" % what)


def run(args, rc=0):
    r = subprocess.run([GPULENS, "--no-cache"] + args,
                       capture_output=True, text=True)
    if r.returncode != rc:
        raise RuntimeError("%s: exit %d: %s" % (args, r.returncode,
                                                 r.stderr + r.stdout))
    return r


def js(args):
    return json.loads(run(args + ["--json"]).stdout)


def load_validator():
    path = os.path.join(SRC, "tests", "cli", "schema_test.py")
    spec = importlib.util.spec_from_file_location("schema_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.validate


VALIDATE = load_validator()
SCHEMAS = {}


def valid(verb, doc):
    if verb not in SCHEMAS:
        SCHEMAS[verb] = json.loads(run(["schema", verb]).stdout)
    errs = VALIDATE(doc, SCHEMAS[verb])
    check(not errs, "%s schema: %s" % (verb, "; ".join(errs[:3])))


def demo(path, *extra):
    run(["demo", "--out", path, "--events", "30000", "--gpus", "2",
         "--seed", "7"] + list(extra))


def rows(doc):
    return doc["data"]["rows"]


def by_key(doc):
    return {r["key"]: r for r in rows(doc)}


# ---- diff ----

DIRS = {"Host-to-Device": "h2d", "Device-to-Host": "d2h",
        "Device-to-Device": "d2d", "Peer-to-Peer": "p2p",
        "Host-to-Host": "h2h"}


def sql_kernels(path):
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    q = ("SELECT s.value, count(*), sum(max(k.end, k.start) - k.start) "
         "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
         "ON s.id = k.demangledName GROUP BY s.value")
    out = {name: (n, t) for name, n, t in db.execute(q)}
    db.close()
    return out


def diff_vs_stats(a, b):
    d = js(["diff", a, b, "--limit", "0"])
    valid("diff", d)
    k = by_key(d)
    for side, path in (("a", a), ("b", b)):
        st = js(["stats", path, "--type", "kernel", "--limit", "0",
                 "--full-names"])
        sql = sql_kernels(path)
        check(len([r for r in rows(st)]) == len(
            [r for r in rows(d) if r["class"] == "kernel" and
             r[side + "_count"] > 0]),
              "diff %s: kernel names differ from stats" % side)
        for r in rows(st):
            key = r["key"]	# stats and diff build kernel keys alike
            check(key in k, "diff: no row for stats kernel %r" % r["name"])
            if key not in k:
                continue
            check(k[key][side + "_count"] == r["count"] and
                  k[key][side + "_total_ns"] == r["total_ns"],
                  "diff %s %r: %d/%d vs stats %d/%d" % (
                      side, r["name"][:40], k[key][side + "_count"],
                      k[key][side + "_total_ns"], r["count"],
                      r["total_ns"]))
            n, t = sql.get(r["name"], (0, 0))
            check(k[key][side + "_count"] == n and
                  k[key][side + "_total_ns"] == t,
                  "diff %s %r: vs SQL %d/%d" % (side, r["name"][:40], n, t))
        mc = js(["stats", path, "--type", "memcpy", "--limit", "0"])
        agg = {}
        for r in rows(mc):
            for label, dname in DIRS.items():
                if label in r["name"]:
                    c, t = agg.get(dname, (0, 0))
                    agg[dname] = (c + r["count"], t + r["total_ns"])
        for dname, (c, t) in agg.items():
            key = "memcpy|direction=" + dname
            check(key in k and k[key][side + "_count"] == c and
                  k[key][side + "_total_ns"] == t,
                  "diff %s memcpy %s vs stats %d/%d" % (side, dname, c, t))
        ms = js(["stats", path, "--type", "memset", "--limit", "0"])
        c = sum(r["count"] for r in rows(ms))
        t = sum(r["total_ns"] for r in rows(ms))
        if c > 0:
            key = "memset|name=memset"
            check(key in k and k[key][side + "_count"] == c and
                  k[key][side + "_total_ns"] == t,
                  "diff %s memset vs stats %d/%d" % (side, c, t))
        cm = js(["comm", path, "--limit", "0"])
        coll = {}
        for r in rows(cm):
            if r["kind"] != "kernel":
                continue
            c0, t0 = coll.get(r["collective"], (0, 0))
            coll[r["collective"]] = (c0 + r["count"], t0 + r["total_ns"])
        for name, (c, t) in coll.items():
            key = "comm|collective=" + name
            check(key in k and k[key][side + "_count"] == c and
                  k[key][side + "_total_ns"] == t,
                  "diff %s comm %s vs comm verb %d/%d" % (side, name, c, t))
        kt = sum(r["total_ns"] for r in rows(st))
        check(d["data"]["auxiliary"][side]["kernel_ns"] == kt,
              "diff %s kernel_ns %d vs stats %d" % (
                  side, d["data"]["auxiliary"][side]["kernel_ns"], kt))
    for r in rows(d):
        check(r["delta_ns"] == r["b_total_ns"] - r["a_total_ns"] and
              r["delta_count"] == r["b_count"] - r["a_count"] and
              r["abs_delta_ns"] == abs(r["delta_ns"]),
              "diff row %s: inconsistent deltas" % r["key"])
    ad = [r["abs_delta_ns"] for r in rows(d)]
    check(ad == sorted(ad, reverse=True), "diff rows not ranked by change")
    return d


def diff_self(a):
    d = js(["diff", a, a, "--limit", "0"])
    valid("diff", d)
    check(all(r["status"] == "same" and r["delta_ns"] == 0
              for r in rows(d)), "diff A A: a row changed")
    check(all(v == 0 for v in d["data"]["auxiliary"]["delta"].values()
              if v is not None), "diff A A: a summary delta is not 0")
    aux = d["data"]["auxiliary"]
    check(aux["unchanged"] == aux["keys"] and aux["only_a"] == 0,
          "diff A A: keys changed")


def sql_busy(path):
    """GPU busy time: per device the union of kernel, memcpy and memset
    intervals (touching ones merged), summed over the devices."""
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    per = {}
    for t in ("KERNEL", "MEMCPY", "MEMSET"):
        q = ("SELECT deviceId, start, max(end, start) FROM "
             "CUPTI_ACTIVITY_KIND_%s" % t)
        for d, s, e in db.execute(q):
            per.setdefault(d, []).append((s, e))
    db.close()
    total = 0
    for iv in per.values():
        last = None
        for s, e in sorted(iv):
            if e <= s:
                continue
            if last is not None and s <= last[1]:
                last[1] = max(last[1], e)
            else:
                if last is not None:
                    total += last[1] - last[0]
                last = [s, e]
        if last is not None:
            total += last[1] - last[0]
    return total


def diff_busy_vs_sql(a, b):
    d = js(["diff", a, b])
    for side, path in (("a", a), ("b", b)):
        busy = sql_busy(path)
        check(d["data"]["auxiliary"][side]["busy_ns"] == busy,
              "diff %s busy %d vs SQL %d" % (
                  side, d["data"]["auxiliary"][side]["busy_ns"], busy))


# ---- window ----

def sql_steps(path):
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    q = ("SELECT (globalTid >> 24) & 16777215, start, end FROM NVTX_EVENTS "
         "WHERE eventType = 59 AND text LIKE 'ProfilerStep#%' "
         "ORDER BY start")
    steps = {}
    for pid, s, e in db.execute(q):
        steps.setdefault(pid, []).append((s, e))
    db.close()
    return steps


def window_vs_sql(path):
    w = js(["window", path])
    valid("window", w)
    r = rows(w)[0]
    steps = sql_steps(path)
    pid = sorted(steps, key=lambda p: (-len(steps[p]), p))[0]
    v = steps[pid]
    med = statistics.median(e - s for s, e in v)
    k = len(v) // 2
    order = [k]
    for i in range(1, 2 * len(v)):
        order += [k + i, k - i]
    pick = next(i for i in order if 0 <= i < len(v) and
                abs((v[i][1] - v[i][0]) - med) <= 0.2 * med)
    origin = w["trace_span"]["origin_ns"]
    check(r["method"] == "iteration-nvtx", "window method %s" % r["method"])
    check(r["pid"] == pid and r["iter"] == pick and
          r["start_ns"] == v[pick][0] - origin and
          r["end_ns"] == v[pick][1] - origin,
          "window: pid %s iter %s [%s, %s) vs SQL pid %d step %d [%d, %d)"
          % (r["pid"], r["iter"], r["start_ns"], r["end_ns"], pid, pick,
             v[pick][0] - origin, v[pick][1] - origin))
    check(r["iterations"] == len(v), "window iterations %d vs %d" % (
        r["iterations"], len(v)))


# ---- phases ----

def phases_vs_sql(path):
    p = js(["phases", path])
    valid("phases", p)
    r = rows(p)
    labels = [x["label"] for x in r]
    check(labels == ["init", "autotune", "ProfilerStep#*", "evaluation"],
          "phases labels %r" % labels)
    if len(r) != 4:
        return
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    origin = p["trace_span"]["origin_ns"]

    def edge(q):
        return db.execute(q).fetchone()[0] - origin
    at = edge("SELECT min(start) FROM NVTX_EVENTS WHERE text = 'autotune'")
    st = edge("SELECT min(start) FROM NVTX_EVENTS "
              "WHERE text LIKE 'ProfilerStep#%'")
    ev = edge("SELECT min(start) FROM NVTX_EVENTS "
              "WHERE text = 'evaluation'")
    db.close()
    for x, want, what in ((r[1], at, "autotune"), (r[2], st, "training"),
                          (r[3], ev, "evaluation")):
        check(abs(x["start_ns"] - want) < 20 * MS,
              "phase %s starts at %d, planted at %d" % (
                  what, x["start_ns"], want))
    check(sum(x["duration_ns"] for x in r) == p["trace_span"]["span_ns"],
          "phases do not tile the trace")
    check(p["data"]["auxiliary"]["phases"] == 4, "phases aux count")


# ---- findings ----

def findings_clean(path):
    f = js(["findings", path, "--limit", "0"])
    valid("findings", f)
    high = [r["type"] for r in rows(f) if r["confidence"] == "high"]
    check(not high, "clean trace: high-confidence %r" % high)
    types = [x["type"] for x in f["data"]["auxiliary"]["rules"]]
    for t in ("cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync",
              "cuda_api_sync", "gpu_gaps", "gpu_time_util"):
        check(t in types, "rule %s did not run" % t)


def findings_planted(path, want):
    f = js(["findings", path])
    valid("findings", f)
    r = rows(f)
    check(r and r[0]["type"] == want and r[0]["confidence"] == "high" and
          r[0]["rank"] == 1, "planted %s: first is %r" % (
              want, r[0]["type"] + "/" + r[0]["confidence"] if r else None))
    return r


def memcpy_sync_vs_sql(path, r):
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    q = ("SELECT (r.globalTid >> 24) & 16777215, sum(r.end - r.start) "
         "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
         "ON s.id = r.nameId WHERE s.value = 'cudaMemcpy_v3020' "
         "GROUP BY 1")
    best = max(t for _, t in db.execute(q))
    db.close()
    check(r[0]["cost_ns"] == best, "cuda_memcpy_sync cost %d vs SQL %d" % (
        r[0]["cost_ns"], best))


def main():
    tmp = tempfile.mkdtemp()
    clean = os.path.join(tmp, "clean.sqlite")
    demo(clean, "--clean")
    wt = os.path.join(tmp, "wt.sqlite")
    demo(wt, "--clean", "--plant", "warmup,teardown")
    strag = os.path.join(tmp, "straggler.sqlite")
    demo(strag, "--clean", "--straggler", "1")
    mcs = os.path.join(tmp, "memcpy.sync.sqlite")
    demo(mcs, "--clean", "--plant", "memcpy-sync")

    findings_clean(clean)
    findings_clean(wt)
    findings_planted(strag, "straggler")
    memcpy_sync_vs_sql(mcs, findings_planted(mcs, "cuda_memcpy_sync"))
    window_vs_sql(wt)
    window_vs_sql(clean)
    phases_vs_sql(wt)
    diff_self(clean)
    d = diff_vs_stats(clean, strag)
    diff_busy_vs_sql(clean, strag)
    it = [r for r in rows(d) if r["class"] == "iteration"]
    check(len(it) == 1 and it[0]["b_iter_median_ns"] >
          it[0]["a_iter_median_ns"], "straggler: iterations not slower")
    r = run(["diff", clean, "--json"], rc=2)
    check('"code":"usage"' in r.stdout, "diff with one trace: %r" %
          r.stdout[:80])

    if FIX and os.path.isdir(os.path.join(FIX, "nsys", "nsys-ai")):
        a = os.path.join(FIX, "nsys", "nsys-ai", "mfu_2gpu_before.sqlite")
        b = os.path.join(FIX, "nsys", "nsys-ai", "mfu_2gpu_after.sqlite")
        d = diff_vs_stats(a, b)
        diff_self(a)
        check(len(rows(d)) > 0 and d["data"]["auxiliary"]["mode"] ==
              "summary", "before/after: mode %s" %
              d["data"]["auxiliary"]["mode"])
        for v in ("phases", "window", "findings"):
            valid(v, js([v, a]))
    else:
        print("fixtures absent: the before/after pair is not checked")
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
