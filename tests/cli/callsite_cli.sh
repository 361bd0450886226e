#!/bin/sh
#
# callsite_cli: findings that cite API calls say where in the program they
# came from (analysis/callsite.h), checked against SQL over the trace's own
# tables (python3): CUPTI_ACTIVITY_KIND_RUNTIME.callchainId and
# CUDA_CALLCHAINS, the call site being the first frame (by stackDepth) whose
# module's file name is not of the CUDA stack or the C library.
#   - cuda_api_sync: each apis entry (calls of one name) has call_site (the
#     costliest call's event, duration, function, module, chain),
#     call_sites (top 3 by time: count, total_ns, each site's costliest
#     call) and calls_without_site, as SQL over the calls of that name;
#   - cuda_memcpy_sync, cuda_memset_sync, cuda_memcpy_async (pageable
#     copies): the same over the API calls that launched the copies
#     (correlationId within the process; of two calls with one id, the
#     earlier);
#   - inspect of call_site.event shows that call's chain (the SQL frames);
#   - a warm load answers the same; a trace without call chains has none of
#     these fields.
# On a generated trace (demo --plant samples: every runtime call has chain
# rowid % 3 + 1, whose call site is caller_1..3 in libtorch_cuda.so) and on
# the real pipit saxpy export (CUDA_CALLCHAINS; skipped without
# $GPULENS_FIXTURES).
#
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
G=$GPULENS
export XDG_CACHE_HOME=$TMPD/cache
t=$TMPD/cs.sqlite
"$G" demo --out "$t" --events 6000 --gpus 2 \
    --plant samples,sync,memcpy-sync,memset-sync >"$TMPD/demo.log" 2>&1 ||
    fail "gpulens demo: $(cat "$TMPD/demo.log")"

cat >"$TMPD/check.py" <<'EOF2'
import os, sqlite3, sys
from functools import partial

import clicheck

G, path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)

run = partial(clicheck.gpulens_json, G)
fail = partial(clicheck.fail, path)

LIBS = ("libcuda.", "libcudart", "libcupti", "libnvidia-", "libnvToolsExt",
        "libToolsInjection", "libamdhip64", "libhsa-runtime",
        "librocprofiler", "libroctracer", "libc.", "libc-", "libpthread",
        "libdl.", "libdl-", "librt.", "librt-", "libm.", "libm-",
        "ld-linux", "ld-2.", "ld-musl")

strs = dict(db.execute("SELECT id, value FROM StringIds"))
chains = {}
have = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE "
        "type = 'table' AND name = 'CUDA_CALLCHAINS'")]
for cid, sym, mod in db.execute("SELECT id, symbol, module FROM "
        "CUDA_CALLCHAINS ORDER BY id, stackDepth") if have else []:
    chains.setdefault(cid, []).append((strs.get(sym, ""), strs.get(mod, "")))

def site(cid):
    for f, m in chains.get(cid, []):
        if m == "" or m.startswith("["):
            continue
        if os.path.basename(m).startswith(LIBS):
            continue
        return (f, m)
    return None

# Every runtime call: rowid, name, start, end, chain, correlation, thread.
calls = list(db.execute("SELECT r.rowid, s.value, r.start, r.end, "
    "r.callchainId, r.correlationId, r.globalTid FROM "
    "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
    "ORDER BY r.start, r.rowid"))
# Exports that number the runtime calls' chains from 0 (nsys 2022.2) and
# CUDA_CALLCHAINS from 1: the chain of callchainId k is k + 1.
if any(c[4] == 0 for c in calls) and 0 not in chains:
    calls = [c[:4] + (None if c[4] is None else c[4] + 1,) + c[5:]
             for c in calls]

def expect(cs):
    """The call-site fields of a set of calls (rows of calls)."""
    if not any(c[4] is not None and c[4] in chains for c in cs):
        return None
    sites = {}
    nosite = 0
    for c in cs:
        s = site(c[4]) if c[4] is not None else None
        if s is None:
            nosite += 1
            continue
        e = sites.setdefault(s, [0, 0, -1])
        e[0] += 1
        e[1] += c[3] - c[2]
        e[2] = max(e[2], c[3] - c[2])
    top = max(cs, key=lambda c: c[3] - c[2])
    ts = site(top[4]) if top[4] is not None else None
    order = sorted(sites.items(), key=lambda kv: (-kv[1][1], -kv[1][0]))
    return {"call_site": None if ts is None else
                {"dur_ns": top[3] - top[2], "function": ts[0],
                 "module": ts[1], "rowid": top[0]},
            "call_sites": [{"function": k[0], "module": k[1],
                            "count": v[0], "total_ns": v[1],
                            "max_ns": v[2]} for k, v in order[:3]],
            "calls_without_site": nosite}

def same(ev, want, what, cached):
    if want is None:
        for k in ("call_site", "call_sites", "calls_without_site"):
            if k in ev:
                fail("%s: %s present without call chains" % (what, k))
        return
    if ev.get("calls_without_site") != want["calls_without_site"]:
        fail("%s: calls_without_site %s, SQL %s" % (what,
             ev.get("calls_without_site"), want["calls_without_site"]))
    got = ev.get("call_sites")
    if got is None or len(got) != len(want["call_sites"]):
        fail("%s: call_sites %s, SQL %s" % (what, got, want["call_sites"]))
    for g, w in zip(got, want["call_sites"]):
        for k in ("function", "module", "count", "total_ns"):
            if g[k] != w[k]:
                fail("%s: call site %s: %s %s, SQL %s" % (what,
                     w["function"], k, g[k], w[k]))
        src = inspect(cached, g["event"])
        if src["duration_ns"] != w["max_ns"]:
            fail("%s: site %s: event %s lasts %s, its costliest %s" % (what,
                 w["function"], g["event"], src["duration_ns"], w["max_ns"]))
    cs = ev.get("call_site", "absent")
    if want["call_site"] is None:
        if cs is not None:
            fail("%s: call_site %s, SQL none" % (what, cs))
        return
    w = want["call_site"]
    for k in ("dur_ns", "function", "module"):
        if cs.get(k) != w[k]:
            fail("%s: call_site %s %s, SQL %s" % (what, k, cs.get(k), w[k]))
    # inspect shows that call and its whole chain.
    row = inspect(cached, cs["event"])
    if row.get("source_rowid") != w["rowid"]:
        fail("%s: call_site.event %s is row %s, SQL row %s" % (what,
             cs["event"], row.get("source_rowid"), w["rowid"]))
    fr = [(f["function"], f["module"]) for f in row.get("callchain", [])]
    cid = [c[4] for c in calls if c[0] == w["rowid"]][0]
    if fr != chains[cid]:
        fail("%s: inspect %s chain %s, SQL %s" % (what, cs["event"], fr,
             chains[cid]))

insp = {}
def inspect(cached, ev):
    if (cached, ev) not in insp:
        insp[(cached, ev)] = run(cached, "inspect", path, "ev:%d" % ev,
                                 "--json")["data"]["rows"][0]
    return insp[(cached, ev)]

# The launching call of each copy or memset: the earlier call of its
# correlation id in its process (globalPid / globalTid >> 24).
bycorr = {}
for c in calls:
    bycorr.setdefault(((c[6] >> 24) & 0xFFFFFF, c[5]), c)
def pageable_ids():
    if "ENUM_CUDA_MEM_KIND" not in tables():
        return {0}
    return {r[0] for r in db.execute("SELECT id, name FROM "
            "ENUM_CUDA_MEM_KIND") if r[1].endswith("PAGEABLE")}
def launched(table, names, pageable=False):
    out = []
    pg = pageable_ids()
    for (gp, corr, sk, dk) in db.execute("SELECT globalPid, correlationId, "
            "%s FROM %s" % ("srcKind, dstKind" if pageable else "0, 0",
            table)):
        c = bycorr.get(((gp >> 24) & 0xFFFFFF, corr))
        if pageable and sk not in pg and dk not in pg:
            continue
        if c is not None and names(c[1]):
            out.append(c)
    return out
def tables():
    return [r[0] for r in db.execute("SELECT name FROM sqlite_master "
            "WHERE type = 'table'")]
def base(n):
    return n.split("_v")[0] if "_v" in n else n

rules = {
    "cuda_memcpy_async": ("CUPTI_ACTIVITY_KIND_MEMCPY", lambda n:
        base(n).startswith(("cudaMemcpy", "cuMemcpy")) and "Async" in n),
    "cuda_memcpy_sync": ("CUPTI_ACTIVITY_KIND_MEMCPY", lambda n:
        base(n).startswith(("cudaMemcpy", "cuMemcpy")) and "Async" not in n),
    "cuda_memset_sync": ("CUPTI_ACTIVITY_KIND_MEMSET", lambda n:
        base(n).startswith(("cudaMemset", "cuMemset")) and "Async" not in n),
}

checked = 0
for cached in (False, True):
    d = run(cached, "findings", path, "--json")
    for r in d["data"]["rows"]:
        ev = r["evidence"]
        if r["type"] == "cuda_api_sync":
            for a in ev["apis"]:
                cs = [c for c in calls if c[1] == a["name"]]
                if len(cs) != a["count"]:
                    fail("%s: %d calls, SQL %d" % (a["name"], a["count"],
                         len(cs)))
                same(a, expect(cs), "cuda_api_sync " + a["name"], cached)
                checked += 1
        elif r["type"] in rules:
            tab, names = rules[r["type"]]
            cs = launched(tab, names, r["type"] == "cuda_memcpy_async") \
                if tab in tables() else []
            if len(cs) != ev["count"]:
                fail("%s: %d calls, SQL %d" % (r["type"], ev["count"],
                     len(cs)))
            same(ev, expect(cs), r["type"], cached)
            checked += 1
        elif mode != "none":
            for k in ("call_site", "call_sites"):
                if k in ev:
                    fail("%s cites no API call but has %s" % (r["type"], k))

if mode == "gen":
    # Known answers: every call has a chain, its site caller_1..3.
    d = run(False, "findings", path, "--json")
    seen = set()
    for r in d["data"]["rows"]:
        ev = r["evidence"]
        for e in ev.get("apis", []) + [ev]:
            for s in e.get("call_sites", []):
                if not (s["function"].startswith("caller_") and
                        s["module"].endswith("/libtorch_cuda.so")):
                    fail("planted site %s" % s)
                seen.add(s["function"])
            if "call_sites" in e and e["calls_without_site"] != 0:
                fail("planted chains: calls without a site")
    if seen != {"caller_1", "caller_2", "caller_3"}:
        fail("planted sites seen: %s" % sorted(seen))
    if checked < 3:
        fail("only %d findings with call sites" % checked)
elif mode == "real" and checked < 1:
    fail("no finding cites an API call")
print("checked", checked)
EOF2

python3 "$TMPD/check.py" "$G" "$t" gen || fail "generated trace"

# Without the samples plant there are no call chains: no such fields.
"$G" demo --out "$TMPD/plain.sqlite" --events 6000 --gpus 2 \
    --plant sync,memcpy-sync >"$TMPD/demo2.log" 2>&1 ||
    fail "gpulens demo: $(cat "$TMPD/demo2.log")"
python3 "$TMPD/check.py" "$G" "$TMPD/plain.sqlite" none ||
    fail "trace without call chains"

FX=${GPULENS_FIXTURES:-}
if [ -n "$FX" ] && [ -d "$FX/nsys" ]; then
	python3 "$TMPD/check.py" "$G" \
	    "$FX/nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite" real ||
	    fail "saxpy"
else
	echo "SKIP part: real fixtures absent (GPULENS_FIXTURES)"
fi
pass
