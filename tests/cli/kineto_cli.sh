#!/bin/sh
# kineto_cli: PyTorch profiler (Kineto) traces through the command line.
#
#   - a generated 4-rank job (gpulens demo --format kineto, plain and gzip
#     files): what the verbs report equals an independent Python reading
#     of the same JSON (tests/cli/kineto_check.py); `ranks` on the directory
#     and on several files finds 4 and 2 ranks and names rank 3, the
#     generator's straggler; the TUI draws the merged job unattended;
#   - every real trace under $GPULENS_FIXTURES/kineto: the same comparison
#     (counts per kind, kernel time per name, API and range counts per name,
#     NCCL kernels), then every verb with a JSON schema, with --json, on
#     every trace and on the HTA rank-0/rank-1 pair given as a directory:
#     each output validates; the pair loads as a two-rank job;
#   - the same job merged into one file as TraceLens's TraceFuse merges
#     ranks (demo --format kineto-merged): four ranks with their own
#     GPUs and streams, as the four files give them;
#   - malformed input: truncated JSON, a bad token, a gzip stream cut
#     short: exit 2 with a message naming the byte offset (and a JSON error
#     envelope with --json), never a crash.
# Exit 77 (skip) without python3.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
CHECK="$GPULENS_SRCDIR/tests/cli/kineto_check.py"
export GPULENS GPULENS_SRCDIR

# A generated job: ranks 0-1 gzip, 2-3 plain JSON.
mkdir "$TMPD/job" || fail "mkdir"
for r in 0 1 2 3; do
	ext=.pt.trace.json
	[ $r -lt 2 ] && ext=$ext.gz
	"$GPULENS" demo --format kineto --gpus 4 --rank $r --events 3000 \
	    --out "$TMPD/job/rank-$r$ext" || fail "demo --format kineto rank $r"
done
python3 "$CHECK" --quiet "$TMPD"/job/* || fail "generated job: gpulens and the JSON disagree"

# The UTC of the trace's clock: its baseTimeNanoseconds (kgen.c).
expect_rc 0 "$GPULENS" --no-cache info "$TMPD/job/rank-2.pt.trace.json" --json
python3 - "$TMPD/out" <<'EOF' || fail "info: utc_epoch_ns"
import json, sys
a = json.load(open(sys.argv[1]))["data"]["auxiliary"]
assert a["utc_epoch_ns"] == 1767225600000000000, a["utc_epoch_ns"]
assert a["origin_ns"] >= a["utc_epoch_ns"], a
EOF

expect_rc 0 "$GPULENS" --no-cache ranks "$TMPD/job" --json
python3 - "$TMPD/out" <<'EOF' || fail "ranks on the generated job"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
rows = d["rows"]
assert [r["rank"] for r in rows] == [0, 1, 2, 3], rows
assert d["auxiliary"]["straggler"] == 3, d["auxiliary"]
assert [r["straggler"] for r in rows] == [False, False, False, True]
assert d["auxiliary"]["collectives_matched"] == 2, d["auxiliary"]
assert rows[3]["wait_ns"] == 0 and rows[0]["wait_ns"] > 0
EOF
expect_rc 0 "$GPULENS" --no-cache ranks "$TMPD/job/rank-0.pt.trace.json.gz" \
    "$TMPD/job/rank-3.pt.trace.json" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]; assert [r["rank"] for r in d["rows"]] == [0, 3] and d["auxiliary"]["straggler"] == 3, d' \
    "$TMPD/out" || fail "ranks on two files"
expect_rc 0 "$GPULENS" --no-cache summary "$TMPD/job" --json
grep -q '"devices":4' "$TMPD/out" || fail "summary of the job: not 4 devices"
printf ':resize 160x100\n:dump %s\n:quit\n' "$TMPD/screen.txt" >"$TMPD/script"
expect_rc 0 "$GPULENS" --no-cache --script "$TMPD/script" "$TMPD/job"
grep -q "rank 3" "$TMPD/screen.txt" || fail "TUI: no rank 3 process group"

# One file holding the four ranks, merged as TraceLens's TraceFuse merges
# them (pids offset per rank): four ranks, each with its own GPU and
# streams, no phantom GPU at the offset pids; kernels as in the four files;
# next to a rank file whose clock it cannot share, refused.
"$GPULENS" demo --format kineto-merged --gpus 4 --events 3000 \
    --out "$TMPD/merged.json.gz" || fail "demo --format kineto-merged"
expect_rc 0 "$GPULENS" --no-cache ranks "$TMPD/merged.json.gz" --json
cp "$TMPD/out" "$TMPD/ranks-merged"
expect_rc 0 "$GPULENS" --no-cache ranks "$TMPD/job" --json
cp "$TMPD/out" "$TMPD/ranks-job"
expect_rc 0 "$GPULENS" --no-cache info "$TMPD/merged.json.gz" --json
cp "$TMPD/out" "$TMPD/info-merged"
expect_rc 0 "$GPULENS" --no-cache hardware "$TMPD/merged.json.gz" --json
python3 - "$TMPD/ranks-merged" "$TMPD/ranks-job" "$TMPD/info-merged" \
    "$TMPD/out" <<'EOF' || fail "merged ranks"
import json, sys
m, j, info, hw = (json.load(open(f))["data"] for f in sys.argv[1:])
key = lambda r: (r["rank"], r["pid"], r["gpus"], r["kernels"], r["busy_ns"])
assert [key(r) for r in m["rows"]] == [key(r) for r in j["rows"]], \
    (m["rows"], j["rows"])
assert [r["rank"] for r in m["rows"]] == [0, 1, 2, 3]
assert m["auxiliary"]["straggler"] == 3, m["auxiliary"]
a = info["auxiliary"]
assert [d["device"] for d in a["devices"]] == [0, 1, 2, 3], a["devices"]
assert [(p["pid"], p["rank"], p["streams"]) for p in a["processes"]] == \
    [(4000 + r, r, 2) for r in range(4)], a["processes"]
assert {(s["device"], s["pid"]) for s in a["streams"]} == \
    {(r, 4000 + r) for r in range(4)}, a["streams"]
assert sorted(r["device"] for r in hw["rows"] if r["kind"] == "gpu") == \
    [0, 1, 2, 3], hw["rows"]
EOF
grep -q "one file holding 4 ranks merged by a tool" "$TMPD/info-merged" ||
    fail "merged: no warning"
# TraceFuse drops baseTimeNanoseconds, so a merged file's clock cannot be
# aligned with a rank file that has one: refused, naming the file.
expect_rc 2 "$GPULENS" --no-cache info "$TMPD/merged.json.gz" \
    "$TMPD/job/rank-1.pt.trace.json.gz" --json
grep -q "rank-1.pt.trace.json.gz's clock starts .* do not share a clock" \
    "$TMPD/out" || fail "merged file next to a rank file: $(cat "$TMPD/out")"

# Malformed input.
gzip -dc "$TMPD/job/rank-0.pt.trace.json.gz" >"$TMPD/whole.json"
head -c 5000 "$TMPD/whole.json" >"$TMPD/trunc.json"
expect_rc 2 "$GPULENS" --no-cache info "$TMPD/trunc.json"
grep -q "truncated JSON: the data ends at byte 5000" "$TMPD/err" ||
    fail "truncated JSON: $(cat "$TMPD/err")"
sed '40s/"ph": "X"/"ph" "X"/' "$TMPD/whole.json" >"$TMPD/bad.json"
expect_rc 2 "$GPULENS" --no-cache stats "$TMPD/bad.json" --json
grep -q '"error"' "$TMPD/out" && grep -q 'malformed JSON at byte' "$TMPD/out" ||
    fail "bad token: $(cat "$TMPD/out")"
head -c 20000 "$TMPD/job/rank-0.pt.trace.json.gz" >"$TMPD/cut.json.gz"
expect_rc 2 "$GPULENS" --no-cache info "$TMPD/cut.json.gz"
grep -q "gzip stream truncated at byte 20000" "$TMPD/err" ||
    fail "cut gzip: $(cat "$TMPD/err")"
printf '{"traceEvents": [{"ph": "X", "ts": "soon", "dur": 1}]}' >"$TMPD/type.json"
expect_rc 2 "$GPULENS" --no-cache info "$TMPD/type.json"
grep -q "event 0 at byte 17: 'ts' is not a number" "$TMPD/err" ||
    fail "wrong type: $(cat "$TMPD/err")"

# Real traces.
K="$GPULENS_FIXTURES/kineto"
if [ ! -d "$K" ]; then
	echo "fixtures absent ($K): real traces not checked"
	pass
fi
set -- "$K"/*/*.json.gz
[ -f "$1" ] || fail "no traces in $K"
python3 "$CHECK" --quiet "$@" || fail "real traces: gpulens and the JSON disagree"
pair=$K/hta/trace_filter__sampled_rank-
mkdir "$TMPD/pair" && ln -s "${pair}0.json.gz" "${pair}1.json.gz" "$TMPD/pair/" ||
    fail "pair directory"
expect_rc 0 "$GPULENS" ranks "$TMPD/pair" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["data"]; assert [(r["rank"], r["pid"]) for r in d["rows"]] == [(0, 4037), (1, 4045)] and d["auxiliary"]["collectives_matched"] > 0, d' \
    "$TMPD/out" || fail "the HTA pair is not a two-rank job"
python3 "$CHECK" --quiet --verbs "$@" "$TMPD/pair/" || fail "verbs on the real traces"
# info and export take several traces too: the merged job, whose event
# counts are the sum of the ranks', exported as one Perfetto trace.
for r in 0 1; do
	expect_rc 0 "$GPULENS" info --json "${pair}$r.json.gz"
	cp "$TMPD/out" "$TMPD/info$r"
done
expect_rc 0 "$GPULENS" info --json "${pair}0.json.gz" "${pair}1.json.gz"
python3 - "$TMPD/info0" "$TMPD/info1" "$TMPD/out" <<'PY' || fail "info on two ranks"
import json, sys
c = [{r["kind"]: r["count"] for r in json.load(open(f))["data"]["rows"]}
     for f in sys.argv[1:]]
both = {k: c[0].get(k, 0) + c[1].get(k, 0) for k in set(c[0]) | set(c[1])}
assert c[2] == both, (c[2], both)
names = [p["name"] for p in
         json.load(open(sys.argv[3]))["data"]["auxiliary"]["processes"]]
assert [n.split()[:2] for n in names] == [["rank", "0"], ["rank", "1"]], names
PY
expect_rc 0 "$GPULENS" export "${pair}0.json.gz" "${pair}1.json.gz"
python3 -c 'import json,sys; ev=json.load(open(sys.argv[1]))["traceEvents"]; pids={e.get("pid") for e in ev}; assert {4037, 4045} <= pids, pids' \
    "$TMPD/out" || fail "export of two ranks"
pass
