#!/usr/bin/env python3
"""schema_test: every verb with JSON output, run with --json on the
project's fixtures (every reader), on real fixtures and on a generated trace,
produces exactly one JSON document that validates against `gpulens schema
VERB`, data.auxiliary included; error envelopes validate too. The schemas
come from the verbs' column descriptions (headless/cols/): a row or
auxiliary field a verb emits that its description lacks fails.

With --typed: every schema's data.auxiliary, and every object in it, says
what it holds (properties, or a typed additionalProperties for a map), and
every field has a description.

The validator below implements the JSON Schema keywords the schemas use
(type, const, enum, required, properties, additionalProperties, items,
minimum, maximum, oneOf), so the test needs no third-party module.
Exit 0 pass, 1 fail, 77 skip.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

GPULENS = os.environ.get("GPULENS", "./gpulens")
FIX = os.environ.get("GPULENS_FIXTURES", "")

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and
    not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def validate(v, s, path="$"):
    errs = []
    if s is True or s == {}:
        return errs
    t = s.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(TYPES[x](v) for x in ts):
            return ["%s: %r is not of type %s" % (path, v, t)]
    if "const" in s and v != s["const"]:
        errs.append("%s: %r != const %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]:
            errs.append("%s: %r < minimum %r" % (path, v, s["minimum"]))
        if "maximum" in s and v > s["maximum"]:
            errs.append("%s: %r > maximum %r" % (path, v, s["maximum"]))
    if isinstance(v, dict):
        for r in s.get("required", []):
            if r not in v:
                errs.append("%s: missing required %r" % (path, r))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], "%s.%s" % (path, k))
            elif s.get("additionalProperties") is False:
                errs.append("%s: unexpected property %r" % (path, k))
            elif isinstance(s.get("additionalProperties"), dict):
                errs += validate(x, s["additionalProperties"],
                                 "%s.%s" % (path, k))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            errs += validate(x, s["items"], "%s[%d]" % (path, i))
    if "oneOf" in s:
        ok = [o for o in s["oneOf"] if not validate(v, o, path)]
        if len(ok) != 1:
            errs.append("%s: matches %d of oneOf" % (path, len(ok)))
    return errs


def untyped(s, path):
    """Object schemas in s that do not say what they hold, and fields
    without a description."""
    bad = []
    if not isinstance(s, dict):
        return bad
    t = s.get("type")
    ts = t if isinstance(t, list) else [t]
    if "object" in ts and "properties" not in s and "oneOf" not in s and \
            not isinstance(s.get("additionalProperties"), dict):
        bad.append("%s: an object with no properties" % path)
    for k, x in s.get("properties", {}).items():
        if isinstance(x, dict) and "description" not in x:
            bad.append("%s.%s: no description" % (path, k))
        bad += untyped(x, "%s.%s" % (path, k))
    if isinstance(s.get("items"), dict):
        bad += untyped(s["items"], path + "[]")
    if isinstance(s.get("additionalProperties"), dict):
        bad += untyped(s["additionalProperties"], path + ".*")
    for i, x in enumerate(s.get("oneOf", [])):
        bad += untyped(x, "%s/oneOf%d" % (path, i))
    return bad


def typed_main():
    targets = run(["schema"]).stdout.split()
    if len(targets) < 20:
        print("FAIL: gpulens schema lists %r" % targets)
        return 1
    failures = 0
    for v in targets:
        s = json.loads(run(["schema", v]).stdout)
        data = s["properties"]["data"]["properties"]
        aux = data["auxiliary"]
        bad = untyped(aux, v + ":auxiliary")
        bad += untyped(data["rows"]["items"], v + ":rows")
        if aux.get("additionalProperties") is not False:
            bad.append(v + ": auxiliary takes fields it does not name")
        if bad:
            failures += 1
            print("FAIL %s" % "; ".join(bad[:5]))
        else:
            print("ok   %s (%d auxiliary fields)" %
                  (v, len(aux.get("properties", {}))))
    return 1 if failures else 0


def run(args):
    return subprocess.run([GPULENS] + args, capture_output=True, text=True)


def json_verbs():
    out = run(["--help"]).stdout
    verbs = [l.split()[0] for l in out.splitlines() if l.startswith("  ")]
    return [v for v in verbs if run(["schema", v]).returncode == 0]


def main():
    failures = 0
    tmp = tempfile.mkdtemp()
    # prep and clean write and remove caches: only in a directory of ours.
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "xdg")
    demo = os.path.join(tmp, "demo.sqlite")
    r = run(["demo", "--out", demo, "--events", "20000", "--gpus", "2"])
    if r.returncode != 0:
        print("FAIL: demo: %s" % r.stderr)
        return 1
    traces = [demo]
    src = os.environ.get("GPULENS_SRCDIR", ".")
    for pat in ["nsys/*.sqlite", "kineto/*.json*", "chrome/*.json",
                "rocpd/*.db", "rocprofv3/*.json.gz", "rpd/*.rpd",
                "ncu/*"]:
        traces += sorted(glob.glob(os.path.join(src, "fixtures", pat)))
    if FIX and os.path.isdir(os.path.join(FIX, "nsys")):
        traces += sorted(glob.glob(os.path.join(FIX, "nsys", "*",
                                                "*.sqlite")))
        traces += sorted(glob.glob(os.path.join(FIX, "ncu", "*",
                                                "*.ncu-rep")))
    else:
        print("fixtures absent: only the generated trace is checked")
    verbs = json_verbs()
    if len(verbs) < 3:
        print("FAIL: only %r have schemas" % verbs)
        return 1
    schemas = {v: json.loads(run(["schema", v]).stdout)
               for v in run(["schema"]).stdout.split()}
    for v in verbs:
        for t in traces:
            r = run(["--no-cache", v, t, "--json"])
            name = "%s %s" % (v, os.path.basename(t))
            try:
                doc = json.loads(r.stdout)
            except ValueError as e:
                failures += 1
                print("FAIL %s: not one JSON document (%s): %r" %
                      (name, e, r.stdout[:200]))
                continue
            # summary and inspect of an Nsight Compute report answer as
            # report-summary and report-inspect.
            cmd = doc.get("command")
            if cmd != v and cmd != "report-" + v:
                cmd = v
            errs = validate(doc, schemas[cmd])
            if r.returncode != 0 and "error" not in doc:
                errs.append("exit %d without an error envelope" %
                            r.returncode)
            if doc.get("command") not in (v, "report-" + v):
                errs.append("command is %r" % doc.get("command"))
            if errs:
                failures += 1
                print("FAIL %s: %s" % (name, "; ".join(errs[:5])))
            else:
                print("ok   %s (%d rows)" % (name, len(doc.get("data", {})
                                                       .get("rows", []))))
        # An error envelope validates too (clean of a missing trace
        # still removes what is left beside it: no error).
        if v == "clean":
            continue
        r = run(["--no-cache", v, os.path.join(tmp, "missing.sqlite"),
                 "--json"])
        try:
            doc = json.loads(r.stdout)
            errs = validate(doc, schemas[v])
            if r.returncode != 2 or "error" not in doc:
                errs.append("missing file: exit %d, %r" % (r.returncode,
                                                          r.stdout[:100]))
        except ValueError:
            errs = ["missing file: stdout is not JSON: %r" % r.stdout[:100]]
        if errs:
            failures += 1
            print("FAIL %s error envelope: %s" % (v, "; ".join(errs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(typed_main() if sys.argv[1:] == ["--typed"] else main())
