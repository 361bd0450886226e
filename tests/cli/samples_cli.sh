#!/bin/sh
# samples_cli: CPU samples and call chains on a generated trace
# (demo --plant samples, whose answers sources/synth/gen-samples.c gives):
# per-thread counts, self and total per function and module, the window,
# --nvtx scoping, metrics --type cpu-sampling, inspect of a sample and of
# an API call's chain, info, the cache, and a trace without the plant.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
cli_setup python3 sqlite3
T="$TMPD/s.sqlite"
"$GPULENS" demo --out "$T" --events 20000 --gpus 2 --plant samples \
    >/dev/null || fail "demo"

# N samples per main thread, N/2 per autograd thread, N/10 per [NSys].
N=$(sqlite3 -readonly "$T" "SELECT count(*) / 2 FROM COMPOSITE_EVENTS
    WHERE globalTid % 16777216 IN (3140, 4140)")
[ "$N" -gt 100 ] || fail "too few samples planted: $N"
[ $((N % 10)) -eq 0 ] || fail "N not a multiple of 10: $N"

"$GPULENS" --no-cache samples --json --limit 0 "$T" >"$TMPD/fn.json" ||
    fail "samples"
check_json samples "$TMPD/fn.json" "(
d['data']['auxiliary']['samples'] == $N * 2 * 16 // 10 and
d['data']['auxiliary']['threads'] == 6 and
d['data']['auxiliary']['samples_without_chain'] == 0 and
[(r['function'], r['self'], r['total']) for r in rows
 if r['function'] in ('aten::addmm', 'forward', 'main', 'cudaLaunchKernel',
   'at::native::launch')] ==
 [('aten::addmm', $N, $N), ('cudaLaunchKernel', $N * 6 // 10, $N * 6 // 10),
  ('forward', $N // 5, $N * 18 // 10), ('main', 0, $N * 2),
  ('at::native::launch', 0, $N * 6 // 10)] and
len(set(r['key'] for r in rows)) == len(rows))" || exit 1

"$GPULENS" --no-cache samples --json --group-by tid "$T" >"$TMPD/tid.json" ||
    fail "samples --group-by tid"
check_json samples "$TMPD/tid.json" "(
sorted((r['tid'], r['self']) for r in rows) ==
 [(3140, $N), (3142, $N // 10), (3440, $N // 2),
  (4140, $N), (4142, $N // 10), (4440, $N // 2)] and
[r['thread'] for r in rows if r['tid'] == 3142] == ['[NSys]'])" || exit 1

"$GPULENS" --no-cache samples --json --group-by module "$T" \
    >"$TMPD/mod.json" || fail "samples --group-by module"
check_json samples "$TMPD/mod.json" "(
[(r['self'], r['total']) for r in rows if r['module'] == '/usr/bin/python3']
 == [($N * 4 // 10, $N * 2)])" || exit 1

# A window: the samples SQL finds in it (times relative to the origin).
O=$("$GPULENS" --no-cache info --json "$T" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["trace_span"]["origin_ns"])')
W=$(sqlite3 -readonly "$T" "SELECT count(*) FROM COMPOSITE_EVENTS
    WHERE start >= $O + 100000000 AND start < $O + 300000000")
"$GPULENS" --no-cache samples --json --from 100ms --to 300ms "$T" \
    >"$TMPD/win.json" || fail "samples --from --to"
check_json samples "$TMPD/win.json" "(
d['data']['auxiliary']['samples'] == $W and $W > 0)" || exit 1

# --nvtx: the samples inside a ProfilerStep range of their process.
sqlite3 -readonly "$T" "SELECT count(*) FROM COMPOSITE_EVENTS c
    WHERE EXISTS (SELECT 1 FROM NVTX_EVENTS e
    WHERE e.text LIKE 'ProfilerStep#%' AND e.eventType = 59 AND
    e.globalTid / 16777216 = c.globalTid / 16777216 AND
    c.start >= e.start AND c.start < e.end)" >"$TMPD/nv.txt"
NV=$(cat "$TMPD/nv.txt")
"$GPULENS" --no-cache samples --json --nvtx 'ProfilerStep#*' "$T" \
    >"$TMPD/nvtx.json" || fail "samples --nvtx"
check_json samples "$TMPD/nvtx.json" "(
d['data']['auxiliary']['samples'] == $NV and 0 < $NV < $N * 32 // 10)" ||
    exit 1

# metrics --type cpu-sampling TRACE is the same answer.
"$GPULENS" --no-cache metrics --type cpu-sampling --json --limit 0 "$T" \
    >"$TMPD/alias.json" || fail "metrics --type cpu-sampling"
python3 - "$TMPD/fn.json" "$TMPD/alias.json" <<'PY' || fail "alias differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a["data"] == b["data"] else 1)
PY

# inspect: a sample's chain; an API call's chain equals CUDA_CALLCHAINS.
"$GPULENS" --no-cache inspect --json "$T" sample:0 'sample|id=1' \
    >"$TMPD/is.json" || fail "inspect sample"
check_json inspect "$TMPD/is.json" "(
[r['key'] for r in rows] == ['sample|id=0', 'sample|id=1'] and
[f['function'] for f in rows[0]['callchain']] ==
 ['aten::addmm', 'forward', 'main'] and rows[0]['tid'] == 3140 and
rows[0]['kind'] == 'sample')" || exit 1
"$GPULENS" --no-cache search --json --type api --limit 3 "$T" \
    >"$TMPD/api.json" || fail "search"
ID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][2]["id"])' "$TMPD/api.json")
RID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["rows"][2]["source_rowid"])' "$TMPD/api.json")
WANT=$(sqlite3 -readonly "$T" "SELECT group_concat(s.value || '@' || m.value,
    ';') FROM (SELECT * FROM CUDA_CALLCHAINS WHERE id = (SELECT callchainId
    FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid = $RID) ORDER BY stackDepth)
    c JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module")
"$GPULENS" --no-cache inspect --json "$T" "$ID" >"$TMPD/ia.json" ||
    fail "inspect api"
check_json inspect "$TMPD/ia.json" "(
';'.join(f['function'] + '@' + f['module'] for f in rows[0]['callchain'])
 == '''$WANT''' and '$WANT'.startswith('cudaLaunchKernel@'))" || exit 1
"$GPULENS" --no-cache inspect "$T" "$ID" sample:0 >"$TMPD/it.txt" ||
    fail "inspect table"
grep -q "^callchain of sample|id=0:" "$TMPD/it.txt" &&
    grep -q "depth 2 function main module /usr/bin/python3" "$TMPD/it.txt" ||
    fail "inspect table: no call chain ($(cat "$TMPD/it.txt"))"
expect_rc 2 "$GPULENS" --no-cache inspect "$T" sample:99999999
expect_rc 2 "$GPULENS" --no-cache inspect "$T" sample:x

# info: the counts, and COMPOSITE_EVENTS no longer "not loaded".
"$GPULENS" --no-cache info "$T" >"$TMPD/info.txt" || fail "info"
grep -q "^samples    $(python3 -c "print(f'{$N * 32 // 10:,}')") CPU samples on 6 threads, 9 call chains" \
    "$TMPD/info.txt" || fail "info: $(cat "$TMPD/info.txt")"
grep -q "COMPOSITE_EVENTS" "$TMPD/info.txt" && fail "info: not loaded"

# The cache: a warm load answers the same (info reads the head only).
for v in "samples --json --limit 0" "samples --json --group-by tid" \
    "inspect --json" "info --json"; do
	case $v in inspect*) a="$ID sample:5";; *) a=;; esac
	$GPULENS $v "$T" $a >"$TMPD/cold" || fail "$v cold"
	$GPULENS $v "$T" $a >"$TMPD/warm" || fail "$v warm"
	$GPULENS --no-cache $v "$T" $a >"$TMPD/none" || fail "$v no cache"
	cmp -s "$TMPD/cold" "$TMPD/warm" && cmp -s "$TMPD/warm" "$TMPD/none" ||
	    fail "$v: the cache answers differently"
done

# Without the plant: no samples, a warning, and no chain on any call.
"$GPULENS" demo --out "$TMPD/p.sqlite" --events 20000 --gpus 2 >/dev/null ||
    fail "demo"
"$GPULENS" --no-cache samples --json "$TMPD/p.sqlite" >"$TMPD/none.json" ||
    fail "samples, no samples"
check_json samples "$TMPD/none.json" "(
rows == [] and d['data']['auxiliary']['trace_samples'] == 0 and
'no_samples' in d['meta']['warning_codes'])" || exit 1
"$GPULENS" --no-cache info --json "$TMPD/p.sqlite" >"$TMPD/pi.json" ||
    fail "info"
check_json info "$TMPD/pi.json" "'cpu_samples' not in d['data']['auxiliary']" ||
    exit 1
expect_rc 2 "$GPULENS" --no-cache samples --group-by stream "$T"
pass
