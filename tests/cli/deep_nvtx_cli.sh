#!/bin/sh
# deep_nvtx_cli: deep NVTX nesting and huge strings cost memory and time
# linear in the input, and a memory limit says so.
#
#   - 1e5 properly nested NVTX ranges on one thread (tests/cli/scale_gen.py):
#     nvtx, nvtx --tree and diff T T finish within 120 s each, under a
#     2 GiB address-space limit (in sanitizer builds, which cannot run
#     under one, no limit and 600 s); the deepest range has depth 99999 and a printed path
#     that keeps 32 levels at each end and counts the 99936 in between;
#     the aggregate has one row per depth; a path of 40 levels prints
#     whole. (Paths were once one string per range, O(depth^2) bytes, and
#     depths were walked per range.)
#   - a kernel name (StringIds value) of 40 MB: cut to 1 MiB with a
#     warning; info and gaps stay under a 1 GiB limit (the gaps table once
#     took 36 times the name's size).
#   - --max-memory: the message names the limit as given and what was
#     being done, exit 2; on the rocprofv3 JSON fixture the limit is no
#     longer reported as invalid JSON.
# Exit 77 (skip) without python3.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
GEN="$GPULENS_SRCDIR/tests/cli/scale_gen.py"
G="$GPULENS"

expect_rc 0 "$G" demo --out "$TMPD/base.sqlite" --events 2000 --gpus 1 --clean
python3 "$GEN" nsys-deep "$TMPD/base.sqlite" "$TMPD/deep.sqlite" 1e5 ||
    fail "nsys-deep"
python3 "$GEN" nsys-deep "$TMPD/base.sqlite" "$TMPD/d40.sqlite" 40 ||
    fail "nsys-deep 40"
python3 "$GEN" nsys-string "$TMPD/base.sqlite" "$TMPD/str.sqlite" 40 ||
    fail "nsys-string"

# A sanitizer build refuses --max-memory (and cannot run under ulimit -v).
# Such a build also runs several times slower: it gets more time.
LIMIT="ulimit -v 2097152;"
SECS=120
if "$G" --max-memory 1G info "$TMPD/base.sqlite" >/dev/null 2>"$TMPD/err"; then
	:
elif grep -q "sanitizer builds" "$TMPD/err"; then
	echo "sanitizer build: no address-space limit, 600 s"
	LIMIT=""
	SECS=600
else
	fail "--max-memory 1G: $(cat "$TMPD/err")"
fi

# bounded NAME CMD...: runs CMD under the limit and $SECS s, output in
# $TMPD/NAME.
bounded() {
	name=$1; shift
	sh -c "$LIMIT exec timeout $SECS \"\$@\"" sh "$@" >"$TMPD/$name" \
	    2>"$TMPD/$name.err" || fail "$name: exit $?: $(tail -c 300 "$TMPD/$name.err")"
}

D="$TMPD/deep.sqlite"
bounded nvtx "$G" --no-cache nvtx "$D" --json --limit 0
bounded tree "$G" --no-cache nvtx --tree "$D" --json --sort depth:desc --limit 3
bounded diff "$G" --no-cache diff "$D" "$D" --json --limit 0
"$G" --no-cache nvtx --tree "$TMPD/d40.sqlite" --json --sort depth:desc \
    --limit 1 >"$TMPD/d40" || fail "nvtx --tree at depth 40"
python3 - "$TMPD" <<'EOF' || fail "deep answers"
import json, os, sys
d = sys.argv[1]
def data(name):
    return json.load(open(os.path.join(d, name)))["data"]
rows = data("tree")["rows"]
r = rows[0]
assert r["depth"] == 99999, r["depth"]
want = "/".join("deep%d" % i for i in range(32)) + "/[99936 more]/" + \
    "/".join("deep%d" % i for i in range(99968, 100000))
assert r["path"] == want, r["path"]
assert rows[1]["depth"] == 99998
deep = [x for x in data("nvtx")["rows"] if x["name"].startswith("deep")]
assert len(deep) == 100000, len(deep)
assert sorted(x["depth"] for x in deep) == list(range(100000))
assert all(x["count"] == 1 for x in deep)
groups = [x for x in data("diff")["rows"] if "deep" in x["key"]]
assert len(groups) == 100000, len(groups)
r = data("d40")["rows"][0]
assert r["depth"] == 39 and r["path"] == "/".join(
    "deep%d" % i for i in range(40)), r
EOF

# A 40 MB name under a 1 GiB limit (the table took 1.5 GB).
S="$TMPD/str.sqlite"
[ -n "$LIMIT" ] && LIMIT="ulimit -v 1048576;"
bounded sinfo "$G" --no-cache info "$S"
grep -q "^warning    1 string longer than 1 MiB cut to that length" \
    "$TMPD/sinfo" || fail "no cut warning: $(grep warning "$TMPD/sinfo")"
bounded sgaps "$G" --no-cache gaps "$S"
bounded sgapsj "$G" --no-cache gaps "$S" --json
python3 - "$TMPD/sgapsj" <<'EOF2' || fail "gaps with a 40 MB name"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
assert d["total_matched"] > 0, d
EOF2

# --max-memory: named as given, with what was being done; exit 2.
if [ -n "$LIMIT" ]; then
	expect_rc 0 "$G" demo --out "$TMPD/big.sqlite" --events 300000 --gpus 2
	expect_rc 2 "$G" --no-cache --max-memory 4M info "$TMPD/big.sqlite"
	grep -Eq "^gpulens: memory limit \(--max-memory 4M\) reached while [a-z]" \
	    "$TMPD/err" || fail "--max-memory message: $(cat "$TMPD/err")"
	F="$GPULENS_FIXTURES/rocpd/tracelens/908_results.json.gz"
	if [ -f "$F" ]; then
		expect_rc 2 "$G" --no-cache --max-memory 50M info "$F"
		grep -q "memory limit (--max-memory 50M) reached while reading" \
		    "$TMPD/err" || fail "rocprofv3 JSON at 50M: $(cat "$TMPD/err")"
	else
		echo "fixtures absent: rocprofv3 JSON limit skipped"
	fi
fi
pass
