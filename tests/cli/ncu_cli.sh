#!/bin/sh
# ncu_cli: the Nsight Compute report verbs end to end.
#   - tests/cli/ncurep_check.py: every launch, metric, rule message and
#     roofline number of the real reports and the CSV export against an
#     independent reading in Python, and ncu-command's launch skip against
#     SQL over Nsight Systems exports (needs $GPULENS_FIXTURES);
#   - errors: a cut report, a file that is not a report, a launch id out
#     of range, a metric verb without a pattern, ncu-command on an event
#     that is not a kernel; with --json each is an error envelope;
#   - the terminal UI opened on a report by a key script;
#   - roofline's table: rates and ratios formatted for reading.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
if command -v python3 >/dev/null 2>&1; then
	GPULENS="$G" python3 "${GPULENS_SRCDIR:-.}/tests/cli/ncurep_check.py"
	rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "ncurep_check.py failed"
fi
# The project's own report as a table: rates in decimal units, long ratios
# to four significant digits (the JSON keeps every digit).
expect_rc 0 "$G" roofline "${GPULENS_SRCDIR:-.}/fixtures/ncu/gemm.ncu-rep"
grep -q "fp32  *40.0 TFLOP/s  *124 GB/s  *323  *17.69  *compute" \
    "$TMPD/out" || fail "roofline table: $(cat "$TMPD/out")"
grep -q "720 GFLOP/s  *2.88 TB/s  *0.25  *17.69 " "$TMPD/out" ||
    fail "roofline table: $(cat "$TMPD/out")"
R=""
if [ -n "$GPULENS_FIXTURES" ] &&
    [ -f "$GPULENS_FIXTURES/ncu/esmm/profile.ncu-rep" ]; then
	R="$GPULENS_FIXTURES/ncu/esmm/profile.ncu-rep"
fi
[ -n "$R" ] || skip "GPULENS_FIXTURES unset or without ncu/esmm"

# Text output.
expect_rc 0 "$G" launches "$R"
grep -q "one_blocktiling" "$TMPD/out" || fail "launches: no kernel name"
grep -q "431.840 us" "$TMPD/out" || fail "launches: no duration"
expect_rc 0 "$G" info "$R"
grep -q "^launches   4 (4 kernels), 1124 metrics" "$TMPD/out" ||
    fail "info: $(cat "$TMPD/out")"
grep -q "NVIDIA A10G" "$TMPD/out" || fail "info: no device"
expect_rc 0 "$G" rules "$R" --name 'warp*'
grep -q "Occupancy" "$TMPD/out" || fail "rules --name: $(cat "$TMPD/out")"
expect_rc 0 "$G" metrics "$R" 'launch__grid_size' --by launch --format csv
[ "$(sed -n 2p "$TMPD/out")" = "launch|id=0,0,256,\"void one_blocktiling<(int)64, (int)64, (int)8, (int)8>(int, int, int, const float *, const float *, float *)\"" ] ||
    fail "metrics --by launch: $(cat "$TMPD/out")"
expect_rc 0 "$G" roofline "$R"
grep -q "lack roofline metrics" "$TMPD/err" ||
    fail "roofline on a basic-set report: no warning"

# Nsight Compute 2023.3 (H800, --nvtx --set full): later blocks extend the
# string table; every launch keeps its device, duration, grid and block
# and real metric names. Launch 4 (flash_fwd_kernel) was not measured by
# ncu: it has no duration or launch statistics, and a warning says so.
S="$GPULENS_FIXTURES/ncu/sglang-fork/profile.ncu-rep"
if [ -f "$S" ]; then
	expect_rc 0 "$G" launches "$S" --json
	python3 - "$TMPD/out" <<'EOP' || fail "sglang-fork launches"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["data"]["rows"]
assert len(rows) == 5, len(rows)
want = [(16448, 1056), (3232, 8), (33504, 1056), (33952, 1056)]
for r, (dur, gx) in zip(rows, want):
    assert r["duration_ns"] == dur, r
    assert r["grid"] == [gx, 1, 1] and r["block"] == [256, 1, 1], r
    assert r["device"] == 0 and r["metrics"] == 964, r
assert rows[4]["duration_ns"] is None and rows[4]["metrics"] == 829
w = d["meta"]["warnings"]
assert not any("outside the string table" in x for x in w), w
assert any("launch 4 (flash_fwd_kernel) was not measured" in x
           for x in w), w
EOP
	expect_rc 0 "$G" metrics "$S" device__attribute_display_name \
	    --format csv
	[ "$(grep -c ',NVIDIA H800' "$TMPD/out")" -eq 5 ] ||
	    fail "sglang-fork device names: $(cat "$TMPD/out")"
	expect_rc 0 "$G" metrics "$S" '*' --limit 0 --format csv
	grep -q 'metric#' "$TMPD/out" && fail "sglang-fork: metric# names"
	grep -q 'nvltx__bytes.sum.per_second' "$TMPD/out" ||
	    fail "sglang-fork: a later table's name is missing"
	expect_rc 0 "$G" info "$S"
	grep -q "^launches   5 (2 kernels), 4685 metrics" "$TMPD/out" ||
	    fail "sglang-fork info: $(cat "$TMPD/out")"
	grep -q "NVIDIA H800" "$TMPD/out" || fail "sglang-fork info: device"
	grep -q "outside the string table" "$TMPD/out" "$TMPD/err" &&
	    fail "sglang-fork info: out-of-table warning"
fi

# Errors.
head -c 150000 "$R" >"$TMPD/cut.ncu-rep"
expect_rc 2 "$G" launches "$TMPD/cut.ncu-rep"
grep -q "truncated Nsight Compute report" "$TMPD/err" ||
    fail "cut report: $(cat "$TMPD/err")"
expect_rc 2 "$G" launches "$TMPD/cut.ncu-rep" --json
grep -q '"code":"bad_input"' "$TMPD/out" || fail "cut report: no envelope"
printf 'hello\n' >"$TMPD/text.txt"
expect_rc 2 "$G" launches "$TMPD/text.txt"
grep -q "not an Nsight Compute report" "$TMPD/err" || fail "text file"
expect_rc 2 "$G" inspect "$R" 9
grep -q "no launch 9 in this report (4 launches)" "$TMPD/err" ||
    fail "inspect 9: $(cat "$TMPD/err")"
expect_rc 2 "$G" inspect "$R" 0 --json --from 1ms
expect_rc 2 "$G" metrics "$R"
expect_rc 2 "$G" metrics "$R" '*' --by kernel
expect_rc 2 "$G" launches "$R" --name-regex '('
grep -q "bad --name-regex" "$TMPD/err" || fail "--name-regex: $(cat "$TMPD/err")"
expect_rc 2 "$G" launches "$R" --from 1ms
grep -q "option --from does not apply to this verb" "$TMPD/err" ||
    fail "--from: $(cat "$TMPD/err")"
if [ -f "$GPULENS_FIXTURES/nsys/mordred/report1.sqlite" ]; then
	T="$GPULENS_FIXTURES/nsys/mordred/report1.sqlite"
	expect_rc 2 "$G" ncu-command "$T" 0 --json
	grep -q '"code":"bad_input"' "$TMPD/out" ||
	    fail "ncu-command on a non-kernel: $(cat "$TMPD/out")"
	expect_rc 2 "$G" ncu-command "$T" ev:999999999
	expect_rc 2 "$G" launches "$T"
	expect_rc 0 "$G" ncu-command "$T" ev:136
	grep -q "^ncu --kernel-name build_GPU2 --launch-skip 0 --launch-count 1 " "$TMPD/out" ||
	    fail "ncu-command: $(cat "$TMPD/out")"
fi

# ncu-command and the dominant_kernel finding build the same command (one
# builder): ncu for NVIDIA, rocprofv3 (and rocprof-compute on a second
# row) for AMD traces (RPD; Kineto from an AMD GPU), each row naming its
# tool; --kernel-iteration-range counts the kernel's launches from 1.
for T in "$GPULENS_FIXTURES/rocpd/rocmProfileData/matmul_result.rpd" \
    "$GPULENS_FIXTURES/kineto/hta/amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz" \
    "$GPULENS_FIXTURES/nsys/mordred/report1.sqlite"; do
	[ -f "$T" ] || continue
	case "$T" in *.sqlite) tool=ncu ;; *) tool=rocprofv3 ;; esac
	GPULENS="$G" GPULENS_SRCDIR="${GPULENS_SRCDIR:-.}" python3 - "$T" \
	    "$tool" <<'EOP' || fail "ncu-command on $T"
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.join(os.environ["GPULENS_SRCDIR"], "tests", "cli"))
from schema_test import validate
G, T, tool = os.environ["GPULENS"], sys.argv[1], sys.argv[2]

def run(*a):
    r = subprocess.run([G] + list(a) + ["--json"], capture_output=True,
                       text=True)
    return json.loads(r.stdout)

schema = json.loads(subprocess.run([G, "schema", "ncu-command"],
                                   capture_output=True, text=True).stdout)
kernels = run("search", T, "--type", "kernel", "--limit", "0", "--full-names")
rows = kernels["data"]["rows"]
byname = {}
for k in sorted(rows, key=lambda k: (k["start_ns"], k["id"])):
    byname.setdefault((k.get("pid"), k["name"]), []).append(k)
group = max(byname.values(), key=len)
checked = 0
for n, k in enumerate(group[:3]):
    doc = run("ncu-command", T, "ev:%d" % k["id"])
    errs = validate(doc, schema)
    assert not errs, errs[:3]
    assert doc["command"] == "ncu-command", doc["command"]
    cmds = doc["data"]["rows"]
    assert cmds[0]["tool"] == tool, cmds[0]
    c = cmds[0]["command"]
    if tool == "ncu":
        assert len(cmds) == 1 and c.startswith("ncu --kernel-name "), c
        assert " --launch-skip %d " % cmds[0]["launch_skip"] in c, c
    else:
        assert len(cmds) == 2, cmds
        assert c.startswith("rocprofv3 --kernel-include-regex "), c
        assert "ncu " not in c
        m = re.search(r" --kernel-iteration-range (\d+) --pmc ", c)
        assert m and int(m.group(1)) == n + 1, (c, n)
        assert int(m.group(1)) == cmds[0]["demangled_launch_skip"] + 1
        assert " -d ev%d -- <application> [arguments]" % k["id"] in c, c
        assert cmds[1]["tool"] == "rocprof-compute", cmds[1]
        assert cmds[1]["command"].startswith(
            "rocprof-compute profile -n ev%d -k " % k["id"]), cmds[1]
        assert cmds[1]["key"] == "ev|id=%d|tool=rocprof-compute" % k["id"]
    checked += 1
assert checked > 0
# The finding's command is ncu-command's for the same launch.
found = [f for f in run("findings", T, "--limit", "0")["data"]["rows"]
         if f["type"] == "dominant_kernel"]
assert found, "no dominant_kernel finding"
f = found[0]
want = run("ncu-command", T, "ev:%d" % f["event"])["data"]["rows"][0]
assert f["ncu_command"] == want["command"], (f["ncu_command"],
                                             want["command"])
assert f["evidence"]["profile_tool"] == tool, f["evidence"]
if tool != "ncu":
    assert "Nsight Compute" not in f["next_step"], f["next_step"]
EOP
done

# The terminal UI on a report, driven by a script with no terminal.
cat >"$TMPD/script" <<EOS
j
:dump $TMPD/screen1
TAB
:dump $TMPD/screen2
1
5
:dump $TMPD/screen3
:quit
EOS
tui_script "TUI on a report" "$R"
screen_has "Metrics of launch 1: two_blocktiling" "$TMPD/screen1" "TUI"
screen_has "Rules of launch 1: two_blocktiling" "$TMPD/screen2" "TUI rules"
screen_has "\[WRN\]  Occupancy" "$TMPD/screen2" "TUI rules"
screen_has "Rules of launch 1: two_blocktiling" "$TMPD/screen3" \
    "TUI back to the report view"
pass
