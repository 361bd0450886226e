#!/bin/sh
# help_cli: `gpulens VERB --help` lists exactly the options VERB takes.
# For every verb:
#   - every option its help prints (option lines, and the options its
#     usage line names), given a value its help names, is taken: on a
#     small generated trace (an ncu CSV export for the report verbs) no
#     usage error names the option (no "unknown option", "does not apply",
#     "bad value for --by: ..."), and a verb that reads no input succeeds;
#   - every other option any verb's help prints is refused by its parser:
#     the verb stops before loading its (missing) input.
# complete is left out: its arguments are the words being completed.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
XDG_CACHE_HOME=$TMPD/cache HOME=$TMPD GPULENS=$GPULENS TMPD=$TMPD \
    python3 - <<'EOF' || fail "help and parser disagree (above)"
import os, re, subprocess, sys

G = os.environ["GPULENS"]
T = os.environ["TMPD"]
M = os.path.join(T, "missing.sqlite")
D = os.path.join(T, "demo.sqlite")
R = os.path.join(T, "report.csv")
os.makedirs(os.environ["XDG_CACHE_HOME"], exist_ok=True)

def run(args):
    p = subprocess.run([G] + args, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr

assert run(["demo", "--out", D, "--events", "2000"])[0] == 0
with open(R, "w") as f:
    f.write('"ID","Process ID","Process Name","Host Name","Kernel Name",'
        '"Context","Stream","Block Size","Grid Size","Device","CC",'
        '"gpu__time_duration.sum"\n'
        '"","","","","","","","","","","","usecond"\n'
        '"0","12","app","host","k(int)","1","7","(128, 1, 1)",'
        '"(64, 2, 1)","0","9.0","1.5"\n')
REPORT = {"launches", "metrics", "rules", "roofline"}
verbs = [l.split()[0] for l in run(["--help"])[1].splitlines()
    if re.match(r"^  [a-z]", l)]
assert len(verbs) > 20, verbs

def options(text):
    """name -> set of argument placeholders (None for a flag)."""
    opts = {}
    usage = text.split("\n\n")[0]
    for m in re.finditer(r"(--[a-z][a-z-]*)( [^\s\]|-][^\s\]]*)?", usage):
        arg = m.group(2).strip() if m.group(2) else None
        opts.setdefault(m.group(1), set()).add(arg)
    for l in text.splitlines():
        m = re.match(r"^\s{2,}(--[a-z][a-z-]*)(?: ([^\s,]+))?", l)
        if m:
            opts.setdefault(m.group(1), set()).add(m.group(2))
    return opts

VALUES = {"TIME": "1ms", "T": "1ms", "DUR": "10ms", "N": "1", "K": "2",
    "ID": "0", "PID": "1", "TID": "1", "GLOB": "*", "RE": ".",
    "a,b,c": "key", "FIELD[:asc": "key", "RANGE[@DOMAIN]": "x",
    "KIND": "kernel", "AXES": "name", "NAME": "x",
    "RULE": "total_ns>+5%", "PCT": "5", "LEVEL": "high", "FILE": "FILE",
    "LIST": "all", "S": "1", "G": "1", "F": "2", "L": "2", "R": "0",
    "RANK": "0", "I/N": "0/2"}

def values(arg):
    if arg is None:
        return [None]
    out = []
    alts = arg.split("|")
    for a in alts:
        if a in VALUES:
            out.append(VALUES[a])
        elif re.match(r"^[a-z][a-z-]*$", a):
            out.append(a)
    return out or [arg]

def refused(opt, rc, text):
    """A usage error caused by opt itself."""
    return rc == 2 and ("unknown option" in text or
        "unknown argument" in text or "does not apply" in text or
        re.search(re.escape(opt) + r"\b", text) is not None)

def attempt(verb, opt, val, real):
    """Whether verb takes opt val: on a real input (real), or by its
    parser alone (it goes on to load a missing input)."""
    words = [opt] if val is None else [opt, val]
    if verb == "demo":
        out = os.path.join(T, "d.sqlite")
        words = [w if w != "FILE" else out for w in words]
        rc, text = run([verb] + words + ["--out", out, "--events", "1000"])
        return rc == 0
    if verb == "record":
        rc, text = run([verb] + words + (["--ncu"] if opt ==
            "--launch-count" else []) + ["--dry-run", "--", "python3",
            "x.py"])
        return rc == 0
    if verb in ("recipes", "schema", "mcp"):
        rc, text = run([verb] + words + (["stats"] if verb == "schema"
            else []))
        return rc == 0
    if verb == "clean":
        rc, text = run([verb] + words + ([] if "--all" in words else
            [os.path.join(T, "no-such-trace.sqlite")]))
        return rc == 0
    path = M if not real else R if verb in REPORT else D
    rc, text = run([verb] + words + [path])
    if "missing arguments" in text:
        rc, text = run([verb] + words + [path, "*" if verb == "metrics"
            else "1"])
    if real:
        return not refused(opt, rc, text)
    return rc == 0 or M in text

helps = {}
for v in verbs:
    rc, text = run([v, "--help"])
    assert rc == 0, (v, text)
    helps[v] = options(text)

fails = []
every = {}
for v in verbs:
    for o, args in helps[v].items():
        every.setdefault(o, set()).update(args)
for v in verbs:
    if v == "complete":
        continue
    for o in sorted(every):
        vals = []
        for a in sorted(helps[v].get(o, every[o]), key=str):
            vals += values(a)
        if o in helps[v]:
            took = any(attempt(v, o, x, True) for x in vals)
        else:
            took = attempt(v, o, vals[0], False)
        if o in helps[v] and not took:
            fails.append("%s: --help lists %s, the parser refuses it "
                "(values tried: %s)" % (v, o, vals))
        elif o not in helps[v] and took:
            fails.append("%s: the parser takes %s, --help does not list "
                "it" % (v, o))
for f in fails:
    print("FAIL:", f)
print("checked %d verbs, %d options" % (len(verbs), len(every)))
sys.exit(1 if fails else 0)
EOF
pass
