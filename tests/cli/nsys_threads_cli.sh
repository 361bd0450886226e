#!/bin/sh
# nsys_threads_cli: a big nsys event table is read by several threads (one
# SQLite connection each, chunks of rowids) and replayed in rowid order, so
# the model does not depend on the number of threads: the cache written
# with GPULENS_THREADS=1 (rows stepped live in the loading thread) is
# byte-identical to the ones written with 2 and 5 threads (rows copied by
# other threads), on generated traces (tables of many chunks; host tables
# and metrics planted; rowids with holes and one far away, cut by the chunk
# cap; text and reals where integers are expected) and on every real export
# in $GPULENS_FIXTURES/nsys; the lanes of a big model are finalized in
# parallel too (a Kineto trace). Verb outputs agree too (launch's walk over
# two threads included), and an error met by a reading thread is the same
# one-line error as with one thread.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
G=$GPULENS
cli_setup
C="$XDG_CACHE_HOME/gpulens"

# same_cache TRACE [COUNTS]: prep with 1 thread, then 2 and 5 (or COUNTS);
# the caches are equal.
same_cache() {
	"$G" clean "$1" >/dev/null 2>&1
	GPULENS_THREADS=1 "$G" prep "$1" >/dev/null 2>"$TMPD/err" ||
	    fail "prep $1 with one thread: $(cat "$TMPD/err")"
	cf=$(find "$C" -type f -name "$(basename "$1")-*" | head -n 1)
	[ -n "$cf" ] || fail "no cache file for $1"
	cp "$cf" "$TMPD/one.gpulens"
	for th in ${2:-2 5}; do
		"$G" clean "$1" >/dev/null 2>&1
		GPULENS_THREADS=$th "$G" prep "$1" >/dev/null 2>"$TMPD/err" ||
		    fail "prep $1 with $th threads: $(cat "$TMPD/err")"
		[ -f "$cf" ] || fail "$th threads: no cache file $cf"
		cmp -s "$cf" "$TMPD/one.gpulens" ||
		    fail "$1: the cache written with $th threads differs from the one-thread cache"
	done
	"$G" clean "$1" >/dev/null 2>&1
}

# same_verbs TRACE VERB...: each verb's --json answer, from the trace
# itself, equal with 1 and 5 threads.
same_verbs() {
	t=$1
	shift
	for v in "$@"; do
		# shellcheck disable=SC2086
		GPULENS_THREADS=1 "$G" --no-cache $v "$t" --json >"$TMPD/a" 2>&1
		# shellcheck disable=SC2086
		GPULENS_THREADS=5 "$G" --no-cache $v "$t" --json >"$TMPD/b" 2>&1
		cmp -s "$TMPD/a" "$TMPD/b" || fail "$t: $v differs with 5 threads"
	done
}

T="$TMPD/t.sqlite"
"$G" demo --out "$T" --events 60000 --seed 5 >/dev/null 2>&1 || fail "demo"
same_cache "$T"
same_verbs "$T" "summary" "stats --type kernel" "nvtx" "timeline --buckets 20" \
    "launch --limit 0" "launch --limit 0 --group-by pid,tid,device,api,name" \
    "findings --limit 0" "nvtx --tree --sort gpu_busy_ns"

P="$TMPD/p.sqlite"
"$G" demo --out "$P" --events 40000 --seed 3 --gpus 2 \
    --plant samples,sched,sync,mpi,gpu-metrics >/dev/null 2>&1 || fail "demo --plant"
same_cache "$P"

# A Kineto trace of about 73000 events: the model's lanes are sorted and
# indexed in parallel above 65536 events, whatever the source.
K="$TMPD/k.json.gz"
"$G" demo --format kineto --out "$K" --events 110000 --seed 2 >/dev/null 2>&1 ||
    fail "kineto demo"
same_cache "$K"

command -v python3 >/dev/null 2>&1 || skip "python3 absent: no altered traces"

# The kernel table's size and its rowid range, to check it spans many
# chunks of 1024 rowids and that what was read is all of it.
kernels() {
	python3 -c 'import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT count(*), min(rowid), max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
print(*r)' "$1"
}
# shellcheck disable=SC2046
set -- $(kernels "$T")
[ "$1" -ge 8192 ] && [ $(($3 - $2)) -ge 16384 ] ||
    fail "the kernel table is too small to span many chunks: $*"
want=$1
got=$(GPULENS_THREADS=5 "$G" --no-cache info "$T" --json | python3 -c '
import json, sys
print([r["count"] for r in json.load(sys.stdin)["data"]["rows"] if r["kind"] == "kernel"][0])')
[ "$got" = "$want" ] || fail "5 threads loaded $got kernels, the table has $want"

# Rowids with holes, the last kernel moved to a rowid far beyond the others
# (the chunk cap), and times as text and as reals in some rows.
S="$TMPD/sparse.sqlite"
cp "$T" "$S"
python3 - "$S" <<'PY' || fail "making the altered trace"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
k = "CUPTI_ACTIVITY_KIND_KERNEL"
db.execute("DELETE FROM %s WHERE rowid %% 3 = 0" % k)
db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 7 < 3")
db.execute("UPDATE %s SET rowid = 4611686018427387904 WHERE rowid = "
           "(SELECT max(rowid) FROM %s)" % (k, k))
db.execute("UPDATE %s SET start = CAST(start AS REAL) WHERE rowid %% 11 = 1" % k)
db.execute("UPDATE %s SET start = CAST(start AS TEXT) WHERE rowid %% 13 = 2" % k)
db.execute("UPDATE %s SET \"end\" = start + 0.5 WHERE rowid %% 17 = 4" % k)
db.commit()
PY
same_cache "$S"
same_verbs "$S" "summary" "stats --type kernel"

# An error met by a reading thread (a page of the kernel table zeroed):
# the same one-line error with 1 and 5 threads, exit 2.
B="$TMPD/bad.sqlite"
cp "$T" "$B"
# The last leaf page of the kernel table, reached late in the scan.
pages=$(python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
try:
    r = db.execute("SELECT max(pageno) FROM dbstat WHERE name = ? AND pagetype = ?",
                   ("CUPTI_ACTIVITY_KIND_KERNEL", "leaf")).fetchone()
    print(r[0], db.execute("PRAGMA page_size").fetchone()[0])
except sqlite3.Error:
    print("")' "$B")
if [ -n "$pages" ]; then
	# shellcheck disable=SC2086
	set -- $pages
	python3 - "$B" "$1" "$2" <<'PY' || fail "zeroing a page"
import sys
path, pg, ps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek((pg - 1) * ps)
    f.write(b"\xff" * ps)
PY
	for th in 1 5; do
		GPULENS_THREADS=$th "$G" --no-cache summary "$B" >/dev/null \
		    2>"$TMPD/err$th"
		rc=$?
		[ "$rc" -eq 2 ] || fail "corrupt trace, $th threads: exit $rc: $(cat "$TMPD/err$th")"
		[ "$(wc -l <"$TMPD/err$th")" -eq 1 ] ||
		    fail "corrupt trace, $th threads: not one line: $(cat "$TMPD/err$th")"
	done
	cmp -s "$TMPD/err1" "$TMPD/err5" ||
	    fail "corrupt trace: 1 thread: $(cat "$TMPD/err1"); 5 threads: $(cat "$TMPD/err5")"
else
	echo "note: SQLite without dbstat: no corrupt-page check" >&2
fi

# A bad GPULENS_THREADS is ignored (the default is used).
GPULENS_THREADS=zero "$G" --no-cache summary "$T" --json >"$TMPD/a" 2>&1 ||
    fail "GPULENS_THREADS=zero"
GPULENS_THREADS=1 "$G" --no-cache summary "$T" --json >"$TMPD/b" 2>&1
cmp -s "$TMPD/a" "$TMPD/b" || fail "GPULENS_THREADS=zero changes the answer"

FX=${GPULENS_FIXTURES:-}
if [ -n "$FX" ] && [ -d "$FX/nsys" ]; then
	find "$FX/nsys" -name '*.sqlite' | sort >"$TMPD/fx"
	while read -r f; do
		same_cache "$f" 5
	done <"$TMPD/fx"
else
	echo "note: GPULENS_FIXTURES absent: no real export checked" >&2
fi
pass
