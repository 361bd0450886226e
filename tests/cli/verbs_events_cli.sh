#!/bin/sh
# verbs_events_cli: the event-level verbs end to end with --json on a
# generated trace (and mfu_2gpu_before.sqlite when the fixtures are there):
# search order and totals, inspect and correlate on ids search printed,
# launch, memcpy and comm checked against plain SQL over the same file,
# errors as envelopes, and export --to perfetto|csv parsed back (event and
# flow counts, proper nesting on every thread, one CSV line per event).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G=$GPULENS
T="$TMPD/demo.sqlite"
expect_rc 0 "$G" demo --out "$T" --events 20000 --gpus 2 --seed 3
F=""
if [ -n "$GPULENS_FIXTURES" ] &&
    [ -f "$GPULENS_FIXTURES/nsys/nsys-ai/mfu_2gpu_before.sqlite" ]; then
	F="$GPULENS_FIXTURES/nsys/nsys-ai/mfu_2gpu_before.sqlite"
fi
GPULENS="$G" GPULENS_SRCDIR="${GPULENS_SRCDIR:-.}" python3 - "$T" "$F" <<'EOF' || exit 1
import collections, json, os, re, sqlite3, statistics, subprocess, sys

G = os.environ["GPULENS"]
fails = []
# The row schemas, checked with schema_test.py's validator when it is there.
sys.path.insert(0, os.path.join(os.environ.get("GPULENS_SRCDIR", "."),
                                "tests", "cli"))
try:
    from schema_test import validate
except ImportError:
    validate = None


def run(*args):
    return subprocess.run([G, "--no-cache"] + list(args),
                          capture_output=True, text=True)


def js(*args):
    r = run(*args, "--json")
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        fails.append("%s: not JSON: %r %r" % (args, r.stdout[:200],
                                              r.stderr[:200]))
        return None, r.returncode
    return doc, r.returncode


def check(cond, what):
    if not cond:
        fails.append(what)


def check_schema(doc, verb, name):
    r = subprocess.run([G, "schema", verb], capture_output=True, text=True)
    if validate is None or r.returncode != 0:
        return
    errs = validate(doc, json.loads(r.stdout))
    check(not errs, "%s: %s rows do not match the schema: %s" %
          (name, verb, "; ".join(errs[:3])))


def strip_v(n):
    m = re.match(r"(.*)_v\d+$", n)
    return m.group(1) if m else n


def sql_launch(path):
    """cuda_kern_exec_sum per (API name, kernel name), from SQL."""
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    S = dict(db.execute("select id, value from StringIds"))
    g = {}
    for rs, re_, rn, ks, ke, kn in db.execute(
            "select r.start, r.end, r.nameId, k.start, k.end, "
            "k.demangledName from CUPTI_ACTIVITY_KIND_KERNEL k join "
            "CUPTI_ACTIVITY_KIND_RUNTIME r on r.correlationId = "
            "k.correlationId and (r.globalTid & ~0xFFFFFF) = k.globalPid"):
        d = g.setdefault((strip_v(S[rn]), S[kn]),
                         {"a": [], "q": [], "k": [], "short": 0})
        d["a"].append(re_ - rs)
        d["k"].append(ke - ks)
        if ks - re_ >= 0:
            d["q"].append(ks - re_)
        d["short"] += ke - ks < re_ - rs
    return g


def check_trace(path):
    name = os.path.basename(path)
    # search: default order is by start; total_matched counts everything.
    doc, rc = js("search", path, "--type", "kernel", "--limit", "200")
    rows = doc["data"]["rows"]
    st = [r["start_ns"] for r in rows]
    check(st == sorted(st), "%s: search not in start order" % name)
    check(all(r["key"] == "ev|id=%d" % r["id"] for r in rows),
          "%s: search keys" % name)
    nk = doc["data"]["total_matched"]
    # inspect and correlate a kernel with a launching call.
    d, rc = js("inspect", path, *[r["key"] for r in rows])
    check([x["id"] for x in d["data"]["rows"]] == [r["id"] for r in rows],
          "%s: inspect rows are not the ids asked for" % name)
    check_schema(d, "inspect", name)
    linked = next((x for x in d["data"]["rows"]
                   if x["launch_api_id"] is not None), None)
    check(linked is not None, "%s: no kernel with a launch call" % name)
    if linked:
        d, rc = js("correlate", path, str(linked["id"]))
        check_schema(d, "correlate", name)
        links = [x for x in d["data"]["rows"] if x["link"] == "api-gpu"]
        check(len(links) == 1 and links[0]["to_id"] == linked["id"] and
              links[0]["from_id"] == linked["launch_api_id"] and
              links[0]["queue_delay_ns"] == linked["launch_latency_ns"],
              "%s: correlate chain of %s: %r" % (name, linked["key"],
                                                 links))
    # A range's chain: every link starts at the range or at a call in it.
    d, rc = js("search", path, "--type", "nvtx", "--sort", "duration_ns",
               "--limit", "1")
    if d["data"]["rows"]:
        rid = d["data"]["rows"][0]["id"]
        d, rc = js("correlate", path, str(rid), "--limit", "0")
        check_schema(d, "correlate", name)
        apis = {x["to_id"] for x in d["data"]["rows"]
                if x["link"] == "range-api"}
        check(all(x["from_id"] == rid if x["link"] == "range-api" else
                  x["from_id"] in apis for x in d["data"]["rows"]),
              "%s: chain of range %d" % (name, rid))
        check([x["seq"] for x in d["data"]["rows"]] ==
              list(range(len(d["data"]["rows"]))),
              "%s: chain order of range %d" % (name, rid))
    d, rc = js("inspect", path, "ev:999999999")
    check(rc == 2 and d["error"]["code"] == "not_found",
          "%s: missing id: rc %d %r" % (name, rc, d))
    d, rc = js("correlate", path, "nope")
    check(rc == 2 and d["error"]["code"] == "usage",
          "%s: bad id: rc %d" % (name, rc))
    # launch against SQL.
    g = sql_launch(path)
    d, rc = js("launch", path, "--limit", "0", "--full-names")
    got = {(r["api"], r["name"]): r for r in d["data"]["rows"]}
    check(set(got) == set(g), "%s: launch groups differ" % name)
    for key, want in g.items():
        r = got.get(key)
        if r is None:
            continue
        ok = (r["count"] == len(want["k"]) and
              r["qcount"] == len(want["q"]) and
              r["short_kernels"] == want["short"] and
              abs(r["api_mean_ns"] - statistics.mean(want["a"])) < 0.01 and
              abs(r["kernel_median_ns"] -
                  statistics.median(want["k"])) < 0.01 and
              (not want["q"] or abs(r["queue_mean_ns"] -
                                    statistics.mean(want["q"])) < 0.01))
        check(ok, "%s: launch %r: %r" % (name, key, r))
    # memcpy against SQL.
    db = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    want = db.execute("select count(*), coalesce(sum(bytes), 0), "
                      "coalesce(sum(end - start), 0) from "
                      "CUPTI_ACTIVITY_KIND_MEMCPY").fetchone()
    d, rc = js("memcpy", path, "--limit", "0")
    rows = d["data"]["rows"]
    got = (sum(r["count"] for r in rows), sum(r["total_bytes"] for r in rows),
           sum(r["total_ns"] for r in rows))
    check(got == tuple(want), "%s: memcpy %r, SQL %r" % (name, got, want))
    # comm kernels against SQL.
    want = db.execute("select count(*) from CUPTI_ACTIVITY_KIND_KERNEL k "
                      "join StringIds s on s.id = k.demangledName where "
                      "s.value like '%nccl%'").fetchone()[0]
    d, rc = js("comm", path, "--limit", "0")
    got = sum(r["count"] for r in d["data"]["rows"] if r["kind"] == "kernel")
    check(got == want, "%s: comm kernels %d, SQL %d" % (name, got, want))
    # export --to perfetto: every event once, flows paired, nesting.
    d, rc = js("search", path, "--limit", "1")
    total = d["data"]["auxiliary"]["total_matched"]
    r = run("export", path)
    check(r.returncode == 0, "%s: export rc %d" % (name, r.returncode))
    tr = json.loads(r.stdout)
    evs = tr["traceEvents"]
    ph = collections.Counter(e["ph"] for e in evs)
    check(ph["X"] + ph["i"] + ph["C"] == total,
          "%s: export has %r, search says %d" % (name, dict(ph), total))
    s = {e["id"] for e in evs if e["ph"] == "s"}
    f = {e["id"] for e in evs if e["ph"] == "f"}
    check(s == f and len(s) == ph["s"], "%s: unpaired flows" % name)
    by = collections.defaultdict(list)
    for e in evs:
        if e["ph"] == "X":
            t0 = round(e["ts"] * 1000)
            by[(e["pid"], e["tid"])].append((t0, t0 + round(e["dur"] *
                                                             1000)))
    bad = 0
    for lst in by.values():
        lst.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for a, b in lst:
            while stack and stack[-1] <= a:
                stack.pop()
            bad += bool(stack and b > stack[-1])
            stack.append(b)
    check(bad == 0, "%s: %d X events do not nest" % (name, bad))
    named = {(e["pid"], e["tid"]) for e in evs if e["ph"] == "M" and
             e["name"] == "thread_name"}
    check(set(by) <= named, "%s: threads without a name" % name)
    # export --to csv: a header and one line per event.
    r = run("export", "--to", "csv", path)
    check(r.returncode == 0 and r.stdout.count("\n") == total + 1,
          "%s: csv lines %d, want %d" % (name, r.stdout.count("\n"),
                                         total + 1))
    print("ok   %s (%d kernels, %d events, %d flows)" % (name, nk, total,
                                                        len(s)))


for p in sys.argv[1:]:
    if p:
        check_trace(p)
for x in fails:
    print("FAIL: %s" % x)
sys.exit(1 if fails else 0)
EOF
pass
