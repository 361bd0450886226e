#!/bin/sh
# refusal_cli: a file a verb cannot read is refused in one line that says
# what the file was recognised as and which verbs or formats apply:
#   - an SQLite database of no known schema (built here with sqlite3):
#     its tables and the SQLite formats gpulens reads; a rocprof-compute
#     (Omniperf) analysis database is named as such; table names cannot
#     put escapes on the terminal;
#   - a timeline verb on an Nsight Compute report or CSV export: the report
#     verbs that read it;
#   - a report verb on a timeline (Nsight Systems, RPD, Kineto): what
#     timeline it is and that the timeline verbs read it.
# Each is exit 2; with --json, an error envelope with the same text.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
export XDG_CACHE_HOME="$TMPD/cache"
command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 missing"
FORMATS="not an Nsight Systems export (nsys export --type sqlite), a rocprofv3 rocpd database or a rocmProfileData (RPD) file, the SQLite databases gpulens reads"
REPORT_VERBS="the report verbs launches, metrics, rules, roofline, info, summary and inspect read it"
# refused WHAT MESSAGE VERB FILE [ARG...]: `gpulens VERB FILE ARG...` exits
# 2 with exactly "gpulens VERB: FILE: MESSAGE" on stderr (else fails with
# WHAT).
refused() {
	what=$1 msg=$2 verb=$3 file=$4
	shift 2
	expect_rc 2 "$G" "$@"
	[ "$(cat "$TMPD/err")" = "gpulens $verb: $file: $msg" ] ||
	    fail "$what: $(cat "$TMPD/err")"
}

# An unknown SQLite database.
sqlite3 "$TMPD/other.db" "CREATE TABLE people(name TEXT);
    CREATE TABLE orders(id INTEGER);" || fail "sqlite3"
refused "unknown SQLite" "an SQLite database gpulens has no reader for (tables orders, people): $FORMATS" stats "$TMPD/other.db"
expect_rc 2 "$G" summary "$TMPD/other.db" --json
grep -q "\"code\":\"bad_input\",\"message\":\"$TMPD/other.db: an SQLite database gpulens has no reader for (tables orders, people): $FORMATS\"" \
    "$TMPD/out" || fail "unknown SQLite --json: $(cat "$TMPD/out")"
# Many tables: the first six, and a count.
sqlite3 "$TMPD/many.db" "CREATE TABLE a(x); CREATE TABLE b(x);
    CREATE TABLE c(x); CREATE TABLE d(x); CREATE TABLE e(x);
    CREATE TABLE f(x); CREATE TABLE g(x); CREATE TABLE h(x);"
expect_rc 2 "$G" timeline "$TMPD/many.db"
grep -q "(tables a, b, c, d, e, f and 2 more): " "$TMPD/err" ||
    fail "many tables: $(cat "$TMPD/err")"
# A table name with a terminal escape is shown escaped.
sqlite3 "$TMPD/esc.db" "CREATE TABLE \"x$(printf '\033')[31mred\"(a);"
expect_rc 2 "$G" stats "$TMPD/esc.db"
grep -q "$(printf '\033')" "$TMPD/err" && fail "escape reached the terminal"
grep -q 'tables\? x\\x1b\[31mred' "$TMPD/err" ||
    fail "escaped table name: $(cat "$TMPD/err")"

# A rocprof-compute (Omniperf) analysis database (rocprof-compute analyze
# --output-format db): its workload, dispatch and metric tables.
sqlite3 "$TMPD/rc.db" "CREATE TABLE workload (workload_id INTEGER PRIMARY KEY,
      name VARCHAR, sub_name VARCHAR, sys_info_extdata JSON,
      roofline_bench_extdata JSON, profiling_config_extdata JSON);
    CREATE TABLE dispatch (dispatch_uuid INTEGER PRIMARY KEY,
      workload_id INTEGER, dispatch_id INTEGER, kernel_name VARCHAR,
      gpu_id INTEGER);
    CREATE TABLE metric (metric_uuid INTEGER PRIMARY KEY,
      workload_id INTEGER, name VARCHAR, metric_id VARCHAR,
      description TEXT, unit VARCHAR);" || fail "sqlite3"
refused "rocprof-compute database" "a rocprof-compute (Omniperf) analysis database, metrics derived per kernel and not a timeline: $FORMATS; rocprofv3 --kernel-trace --output-format rocpd records the workload's timeline" stats "$TMPD/rc.db"
expect_rc 2 "$G" launches "$TMPD/rc.db"
grep -q "a rocprof-compute (Omniperf) analysis database.*; it is not an Nsight Compute report (.ncu-rep, .ncu-repz or an ncu --csv export) either$" \
    "$TMPD/err" || fail "launches on rocprof-compute: $(cat "$TMPD/err")"

# A timeline verb on an Nsight Compute report and on its CSV export.
printf 'NVR\000\002\000\000\000\010\007' >"$TMPD/r.ncu-rep"
refused "stats on a report" "an Nsight Compute report, not a timeline: $REPORT_VERBS, and so does the terminal interface" stats "$TMPD/r.ncu-rep"
expect_rc 2 "$G" findings "$TMPD/r.ncu-rep" --json
grep -q "an Nsight Compute report, not a timeline: $REPORT_VERBS" \
    "$TMPD/out" || fail "findings --json on a report: $(cat "$TMPD/out")"
if command -v zstd >/dev/null 2>&1; then
	zstd -q -c "$TMPD/r.ncu-rep" >"$TMPD/r.ncu-repz"
	expect_rc 2 "$G" stats "$TMPD/r.ncu-repz"
	grep -q ": an Nsight Compute report, not a timeline: $REPORT_VERBS" \
	    "$TMPD/err" || fail "stats on a .ncu-repz: $(cat "$TMPD/err")"
fi
printf '"ID","Process ID","Process Name","Host Name","Kernel Name"\n' \
    >"$TMPD/r.csv"
refused "timeline on a CSV export" "an Nsight Compute CSV export (ncu --csv), not a timeline: $REPORT_VERBS, and so does the terminal interface" timeline "$TMPD/r.csv"
gzip -c "$TMPD/r.csv" >"$TMPD/r.csv.gz"
expect_rc 2 "$G" stats "$TMPD/r.csv.gz"
grep -q "an Nsight Compute CSV export (ncu --csv), not a timeline" \
    "$TMPD/err" || fail "stats on a gzip CSV export: $(cat "$TMPD/err")"

# A report verb on timelines.
TIMELINE_VERBS="the report verbs read .ncu-rep, .ncu-repz and ncu --csv exports; a timeline is read by the timeline verbs (summary, stats, timeline, findings and the others 'gpulens --help' lists)"
expect_rc 0 "$G" demo --out "$TMPD/demo.sqlite" --events 2000
refused "launches on nsys" "not an Nsight Compute report but a timeline (Nsight Systems SQLite export): $TIMELINE_VERBS" launches "$TMPD/demo.sqlite"
expect_rc 2 "$G" roofline "$TMPD/demo.sqlite" --json
grep -q '"code":"bad_input"' "$TMPD/out" &&
    grep -q "not an Nsight Compute report but a timeline (Nsight Systems SQLite export)" "$TMPD/out" ||
    fail "roofline --json on nsys: $(cat "$TMPD/out")"
expect_rc 0 "$G" demo --out "$TMPD/demo.json" --events 2000 --format kineto
expect_rc 2 "$G" rules "$TMPD/demo.json"
grep -q "not an Nsight Compute report (.ncu-rep, .ncu-repz or an ncu --csv export) but a JSON file; a Kineto or Chrome trace is read by the timeline verbs" \
    "$TMPD/err" || fail "rules on Kineto: $(cat "$TMPD/err")"
RPD="$GPULENS_FIXTURES/rocpd/rocmProfileData/matmul_result.rpd"
if [ -n "$GPULENS_FIXTURES" ] && [ -f "$RPD" ]; then
	refused "metrics on RPD" "not an Nsight Compute report but a timeline (rocmProfileData (RPD) SQLite file): $TIMELINE_VERBS" metrics "$RPD" '*'
fi
pass
