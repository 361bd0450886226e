#!/usr/bin/env python3
"""schema_test: every verb with JSON output, run with --json on real nsys
fixtures and on a generated trace, produces exactly one JSON document that
validates against `gpulens schema VERB`; error envelopes validate too.

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
    if FIX and os.path.isdir(os.path.join(FIX, "nsys")):
        traces += sorted(glob.glob(os.path.join(FIX, "nsys", "*",
                                                "*.sqlite")))
    else:
        print("fixtures absent: only the generated trace is checked")
    verbs = json_verbs()
    if len(verbs) < 3:
        print("FAIL: only %r have schemas" % verbs)
        return 1
    schemas = {v: json.loads(run(["schema", v]).stdout) for v in verbs}
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
            errs = validate(doc, schemas[v])
            if r.returncode != 0 and "error" not in doc:
                errs.append("exit %d without an error envelope" %
                            r.returncode)
            if doc.get("command") != v:
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
    sys.exit(main())
