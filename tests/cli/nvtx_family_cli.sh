#!/bin/sh
# nvtx_family_cli: NVTX families, the innermost range and nvtx row keys
# (man gpulens, NVTX RANGES).
#
#   - Families (one normaliser, model/nvtxfam.h): "#<digits>" folds to "#*",
#     PyTorch's ", seq = N" and ", op_id = N" are dropped. `nvtx` and
#     `stats --group-by nvtx-path` aggregate by family; every family name
#     `nvtx` prints is accepted by --nvtx, and iters --range takes
#     ProfilerStep#* (and the older ProfilerStep#).
#   - The innermost range of a kernel (through its launch) is innermost
#     across all the thread's domains: a CUB range (domain CCCL) inside a
#     user range wins; --nvtx-domain restricts it to one domain.
#   - nvtx row keys are unique: named domains are per process, and their
#     rows' keys end in |pid=N.
# On a trace written here (the demo with PyTorch-style and CCCL ranges
# added), and on real fixtures when $GPULENS_FIXTURES has them:
# nsys-ai/mfu_2gpu_before (19,118 ranges: 18,666 groups before, 282 now;
# 4,010 kernels in 3,955 nvtx-path groups before, 36 now) and
# nsightful/power_iteration__baseline (1,130 kernels inside
# cub::DeviceReduce::Sum, 4 before).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G="$GPULENS"
T="$TMPD/fam.sqlite"

cp "$GPULENS_SRCDIR/fixtures/nsys/demo-2026.sqlite" "$T" || fail "copy"
chmod u+w "$T"
# mlp -> "aten::mm, seq = N, op_id = M" (12 ranges, all different); a CCCL
# domain on every thread with attention ranges, and one CCCL range just
# inside each attention range.
python3 - "$T" <<'EOF' || fail "editing the trace"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
rows = c.execute("select rowid from NVTX_EVENTS where text = 'mlp' "
    "order by start").fetchall()
for i, (r,) in enumerate(rows):
    c.execute("update NVTX_EVENTS set text = ? where rowid = ?",
        ("aten::mm, seq = %d, op_id = %d" % (100 + i, 5000 + 7 * i), r))
att = c.execute("select start, end, globalTid from NVTX_EVENTS "
    "where text = 'attention'").fetchall()
for tid in sorted(set(a[2] for a in att)):
    c.execute("insert into NVTX_EVENTS (start, eventType, text, globalTid, "
        "domainId) values (?, 75, 'CCCL', ?, 7)", (min(a[0] for a in att) - 10, tid))
for s, e, tid in att:
    c.execute("insert into NVTX_EVENTS (start, end, eventType, text, "
        "globalTid, domainId) values (?, ?, 59, 'cub::DeviceReduce::Sum', "
        "?, 7)", (s + 1, e - 1, tid))
c.commit()
EOF

# keys_unique FILE: every row key of a --json answer appears once.
keys_unique() {
	python3 - "$1" <<'EOF'
import collections, json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
c = collections.Counter(r["key"] for r in rows)
d = [k for k, v in c.items() if v > 1]
if d:
    sys.exit("duplicate keys: %s" % d[:5])
EOF
}

# Families on the written trace.
expect_rc 0 "$G" nvtx --json --no-cache --limit 0 "$T"
cp "$TMPD/out" "$TMPD/nvtx.json"
keys_unique "$TMPD/nvtx.json" || fail "nvtx keys on the written trace"
python3 - "$TMPD/nvtx.json" >"$TMPD/names" <<'EOF' || fail "nvtx families"
import json, sys
rows = json.load(open(sys.argv[1]))["data"]["rows"]
mm = [r for r in rows if r["name"] == "aten::mm"]
assert sum(r["count"] for r in mm) == 12, mm
assert len(mm) == 2, [r["path"] for r in mm]	# below forward, backward
steps = [r for r in rows if r["path"] == "ProfilerStep#*"]
assert len(steps) == 1 and steps[0]["count"] == 6, steps
nccl = [r for r in rows if r["domain"] == "NCCL"]
assert nccl and all(r["key"].endswith("|pid=%d" % r["pid"]) for r in nccl)
assert not any("seq =" in r["path"] or "#0" in r["path"] for r in rows)
for n in sorted(set(r["name"] for r in rows)):
    print(n)
EOF
n=0
while IFS= read -r name; do
	n=$((n + 1))
	expect_rc 0 "$G" stats --json --no-cache --limit 1 --nvtx "$name" "$T"
done <"$TMPD/names"
[ "$n" -ge 10 ] || fail "only $n families"
expect_rc 0 "$G" stats --json --no-cache --limit 0 --nvtx 'aten::mm' \
    --type nvtx "$T"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]
assert sum(r["count"] for r in d["rows"] if r["key"].startswith(
    "nvtx|name=aten::mm, seq = ")) == 12' "$TMPD/out" ||
    fail "--nvtx aten::mm: not the 12 ranges"
for spec in 'ProfilerStep#*' 'ProfilerStep#'; do
	expect_rc 0 "$G" iters --json --no-cache --range "$spec" "$T"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]
assert d["total_matched"] == 6, d["total_matched"]' "$TMPD/out" ||
	    fail "iters --range $spec"
done
expect_rc 0 "$G" stats --json --no-cache --type kernel --group-by nvtx-path \
    --limit 0 "$T"
grep -q '"key":"kernel|nvtx_path=ProfilerStep#\*/forward/layers.0/aten::mm"' \
    "$TMPD/out" || fail "stats nvtx-path families"

# The innermost range across domains, and --nvtx-domain.
for dom in all CCCL ""; do
	if [ "$dom" = all ]; then
		expect_rc 0 "$G" stats --json --no-cache --type kernel \
		    --group-by nvtx-path --limit 0 "$T"
	else
		expect_rc 0 "$G" stats --json --no-cache --type kernel \
		    --group-by nvtx-path --limit 0 --nvtx-domain "$dom" "$T"
	fi
	cp "$TMPD/out" "$TMPD/in-$dom.json"
done
python3 - "$TMPD/in-all.json" "$TMPD/in-CCCL.json" "$TMPD/in-.json" <<'EOF' ||
import json, sys
def paths(f):
    return {r["nvtx_path"]: r["count"]
        for r in json.load(open(f))["data"]["rows"]}
a, c, u = (paths(f) for f in sys.argv[1:])
att = sum(v for k, v in u.items() if k.endswith("/attention"))
assert att > 0, u
assert a.get("cub::DeviceReduce::Sum") == att, (a, att)
assert not any(k.endswith("/attention") for k in a), a
assert c.get("cub::DeviceReduce::Sum") == att and len(c) == 2, c
assert sum(a.values()) == sum(c.values()) == sum(u.values())
EOF
    fail "innermost range across domains"
expect_rc 0 "$G" search --json --no-cache --type kernel --limit 0 \
    --nvtx attention "$T"
id=$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["data"]["rows"][0]["key"])' "$TMPD/out")
expect_rc 0 "$G" inspect --json --no-cache "$T" "$id"
grep -q '"nvtx_range":"cub::DeviceReduce::Sum"' "$TMPD/out" ||
    fail "inspect $id: not the CUB range"
expect_rc 0 "$G" inspect --json --no-cache --nvtx-domain "" "$T" "$id"
grep -q '"nvtx_range":"attention"' "$TMPD/out" ||
    fail "inspect --nvtx-domain '' $id: not attention"
expect_rc 0 "$G" overlap --json --no-cache --by nvtx-path --nvtx-domain NCCL "$T"

if fixture F nsys/nsys-ai/mfu_2gpu_before.sqlite mfu_2gpu_before.sqlite; then
	expect_rc 0 "$G" nvtx --json --no-cache --limit 0 "$F"
	cp "$TMPD/out" "$TMPD/mfu.json"
	keys_unique "$TMPD/mfu.json" || fail "nvtx keys on mfu"
	python3 - "$TMPD/mfu.json" <<'EOF' || fail "mfu families"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
assert sum(r["count"] for r in d["rows"]) == 19118
assert len(d["rows"]) == 282, len(d["rows"])
EOF
	expect_rc 0 "$G" stats --json --no-cache --type kernel \
	    --group-by nvtx-path --limit 0 "$F"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]
assert sum(r["count"] for r in d["rows"]) == 4010
assert len(d["rows"]) == 36, len(d["rows"])' "$TMPD/out" ||
	    fail "mfu stats nvtx-path families"
	expect_rc 0 "$G" stats --json --no-cache --limit 0 --type nvtx \
	    --nvtx 'aten::addmm' "$F"
fi
if fixture F nsys/nsightful/power_iteration__baseline.sqlite \
    power_iteration__baseline.sqlite; then
	expect_rc 0 "$G" stats --json --no-cache --type kernel \
	    --group-by nvtx-path --limit 0 "$F"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]
p={r["nvtx_path"]: r["count"] for r in d["rows"]}
assert p.get("cub::DeviceReduce::Sum") == 1130, p.get("cub::DeviceReduce::Sum")
assert sum(p.values()) == 3689' "$TMPD/out" ||
	    fail "power_iteration: kernels inside cub::DeviceReduce::Sum"
fi
D="$GPULENS_SRCDIR/fixtures/nsys/demo-2026.sqlite"
expect_rc 0 "$G" nvtx --json --no-cache --limit 0 "$D"
cp "$TMPD/out" "$TMPD/demo.json"
keys_unique "$TMPD/demo.json" || fail "nvtx keys on the demo"
pass
