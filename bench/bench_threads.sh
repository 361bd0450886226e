#!/bin/sh
# bench_threads.sh: cold load of an Nsight Systems export with 1, 2, 4, 8
# and 16 reading threads (GPULENS_THREADS; capped at the CPU count), against
# the single-thread SQLite floor.
#
# Run by hand (not part of make check); it needs only the binary, its
# shared libraries, a POSIX shell and awk (and the sqlite3 command for the
# floor; without it the floor is skipped with a message):
#
#     GPULENS=/path/to/gpulens bench/bench_threads.sh
#     BENCH_TRACE=big.sqlite BENCH_REPS=7 bench/bench_threads.sh
#
# Measured BENCH_REPS times each, interleaved (one of each per round, so
# that a change in the machine's load falls on every column alike), and
# reported as medians:
#
#   floor     sqlite3 -readonly reading every row of the tables the nsys
#             reader reads (KERNEL, MEMCPY, MEMSET, RUNTIME,
#             SYNCHRONIZATION, NVTX_EVENTS, StringIds, those present) to
#             /dev/null, as bench/bench.sh measures it: one thread
#   read      the "nsys-read" phase that GPULENS_TIMING=1 reports (the
#             tables read into the model's builder)
#   wall      the whole process: `gpulens --no-cache search F --limit 1
#             --json` (a full load, the model finalized, a trivial query)
#
# Per thread count: read and wall, each divided by the floor and by the
# one-thread time (the speed-up is its inverse), then the machine line and
# the load average before and after.
#
# Environment:
#   GPULENS        the binary (default ./gpulens, then the source tree's,
#                  then gpulens in PATH)
#   BENCH_TRACE    the trace (an nsys .sqlite export); else one is made
#                  with `gpulens demo --events BENCH_EVENTS --seed 1`
#   BENCH_EVENTS   events of the generated trace (default 1e6)
#   BENCH_REPS     repetitions (default 5)
#   BENCH_THREADS  the thread counts (default "1 2 4 8 16", those above
#                  the CPU count left out)
#   BENCH_DIR, BENCH_KEEP   as for bench/bench.sh (bench/lib.sh)
set -u

. "$(dirname "$0")/lib.sh"
bench_binary
bench_reps 5
bench_dir gpulens-threads
export XDG_CACHE_HOME="$DIR/xdg"

ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
counts=
for t in ${BENCH_THREADS:-1 2 4 8 16}; do
	case $t in ''|*[!0-9]*|0) die "bad thread count: $t";; esac
	if [ "$t" -le "$ncpu" ] || [ "$t" -eq 1 ]; then
		counts="$counts $t"
	else
		echo "$BENCH_NAME: $t threads left out ($ncpu CPUs)" >&2
	fi
done

if [ -n "${BENCH_TRACE:-}" ]; then
	F=$BENCH_TRACE
	[ -r "$F" ] || die "cannot read $F"
else
	n=$(to_int "${BENCH_EVENTS:-1e6}") || die "bad BENCH_EVENTS"
	F="$DIR/trace-$n.sqlite"
	echo "$BENCH_NAME: generating $n events..." >&2
	"$GPULENS" demo --out "$F" --events "$n" --seed 1 >/dev/null 2>"$DIR/gen.err" ||
	    die "gpulens demo failed: $(cat "$DIR/gen.err")"
fi

# The floor's query: the tables of bench.sh that the trace has.
scan_sql=
if command -v sqlite3 >/dev/null 2>&1; then
	for t in $(sqlite3 -readonly "$F" "SELECT name FROM sqlite_master WHERE
	    type = 'table' AND name IN ('CUPTI_ACTIVITY_KIND_KERNEL',
	    'CUPTI_ACTIVITY_KIND_MEMCPY', 'CUPTI_ACTIVITY_KIND_MEMSET',
	    'CUPTI_ACTIVITY_KIND_RUNTIME',
	    'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION', 'NVTX_EVENTS', 'StringIds')
	    ORDER BY name"); do
		scan_sql="$scan_sql SELECT * FROM \"$t\";"
	done
	[ -n "$scan_sql" ] || echo "$BENCH_NAME: none of the floor's tables in $F: no floor" >&2
else
	echo "$BENCH_NAME: no sqlite3 command: the SQLite floor is skipped" >&2
fi

# phase FILE NAME: the seconds of "timing: NAME S" in FILE (summed).
phase() {
	awk -v p="$2" '$1 == "timing:" && $2 == p { s += $3; f = 1 }
	    END { if (f) printf "%.6f\n", s }' "$1"
}

echo "gpulens cold load by reading threads"
bench_machine
echo "binary:   $GPULENS"
echo "trace:    $F ($(awk -v b="$(wc -c <"$F")" 'BEGIN { printf "%.1f MiB", b / 1048576 }'))"
echo "threads:  $counts (GPULENS_THREADS)"
echo "medians of $REPS run(s); times in seconds"
echo

r=1
while [ "$r" -le "$REPS" ]; do
	if [ -n "$scan_sql" ]; then
		t0=$(now)
		sqlite3 -readonly "$F" "$scan_sql" >/dev/null ||
		    die "sqlite3 scan of $F failed"
		elapsed "$t0" "$(now)" >>"$DIR/floor"
		echo >>"$DIR/floor"
	fi
	for t in $counts; do
		t0=$(now)
		GPULENS_THREADS=$t GPULENS_TIMING=1 "$GPULENS" --no-cache search \
		    "$F" --limit 1 --json >"$DIR/out.$t" 2>"$DIR/err" ||
		    die "$t threads: $(cat "$DIR/err")"
		elapsed "$t0" "$(now)" >>"$DIR/wall.$t"
		echo >>"$DIR/wall.$t"
		rd=$(phase "$DIR/err" nsys-read)
		[ -n "$rd" ] || die "no nsys-read timing (not an nsys export?)"
		echo "$rd" >>"$DIR/read.$t"
		cmp -s "$DIR/out.1" "$DIR/out.$t" 2>/dev/null ||
		    [ ! -f "$DIR/out.1" ] ||
		    echo "$BENCH_NAME: $t threads: the answer differs from one thread's" >&2
	done
	echo "run $r done" >&2
	r=$((r + 1))
done

# shellcheck disable=SC2046
floor=nan
[ -n "$scan_sql" ] && floor=$(median $(cat "$DIR/floor"))
# shellcheck disable=SC2046
read1=$(median $(cat "$DIR/read.1"))
# shellcheck disable=SC2046
wall1=$(median $(cat "$DIR/wall.1"))
[ "$floor" = nan ] || echo "SQLite floor (sqlite3, 1 thread): $floor"
{
	echo "threads read wall read/floor wall/floor read/1thr wall/1thr"
	for t in $counts; do
		# shellcheck disable=SC2046
		rd=$(median $(cat "$DIR/read.$t"))
		# shellcheck disable=SC2046
		wl=$(median $(cat "$DIR/wall.$t"))
		awk -v t="$t" -v r="$rd" -v w="$wl" -v f="$floor" -v r1="$read1" \
		    -v w1="$wall1" '
		    function q(a, b) { if (b == "nan" || b + 0 <= 0) return "-"
			return sprintf("%.2f", a / b) }
		    BEGIN { printf "%s %.3f %.3f %s %s %s %s\n", t, r, w,
			q(r, f), q(w, f), q(r, r1), q(w, w1) }'
	done
} | columns
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1, 5, 15 min)"
