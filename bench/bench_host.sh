#!/usr/bin/env bash
# bench_host.sh: what loading the host tables costs: a generated trace with
# every planted host table, loaded by two binaries in the same run.
#
# Run by hand from the source tree after building (not part of make check):
#
#     nice -n 5 bench/bench_host.sh
#     BENCH_EVENTS=3e6 BENCH_REPS=5 bench/bench_host.sh
#
# It generates one trace of BENCH_EVENTS events (gpulens demo --plant
# samples,sched,sync,mpi,gpu-metrics: CPU samples with call chains and the
# CUDA runtime calls' chains, thread scheduling, synchronisation waits, MPI
# calls, GPU metrics), then, R times each and for each binary, measures:
#
#   cold load   `gpulens clean F` then `gpulens prep F`: a full load from
#               the SQLite export and the cache write (wall clock, peak RSS)
#   warm load   `gpulens search F --limit 1 --json` with the cache in place:
#               a full model load from the cache and a trivial query (wall
#               clock, peak RSS)
#
# for GPULENS (the new build) and GPULENS_BASE (a build from before any
# host table was loaded, which reads the same trace without them), each
# with a cache directory of its own, and prints the medians and the ratios
# new / base. Also the cache sizes and the load average.
#
# Peak RSS: /usr/bin/time -f %M, else the bench/rss helper (built by make),
# else not measured.
#
# Environment:
#   GPULENS       the new binary (default ./gpulens)
#   GPULENS_BASE  the base binary (default /work/gpulens-base3)
#   BENCH_EVENTS  events of the trace, an integer or 1eN (default 1e7);
#                 this is demo's --events: the planted tables come on top
#                 (the GPU metrics alone add about four counter samples,
#                 the CPU samples about one, per event)
#   BENCH_GPUS    --gpus for generation (default 4)
#   BENCH_REPS    repetitions (default 3)
#   BENCH_DIR     where the trace goes (default a new mktemp directory,
#                 removed at the end unless BENCH_KEEP=1; a given BENCH_DIR
#                 is kept, and a trace already there of the same size is
#                 reused)
set -u
set -o pipefail

. "$(dirname "$0")/lib.sh"
bench_binary
BASE=${GPULENS_BASE:-/work/gpulens-base3}
[ -x "$BASE" ] || die "GPULENS_BASE=$BASE is not executable"
bench_reps 3
EVENTS=$(to_int "${BENCH_EVENTS:-1e7}") || die "BENCH_EVENTS must be a number"
GPUS=${BENCH_GPUS:-4}
bench_dir gpulens-bench-host
bench_rss optional

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b
    else printf "-" }'; }

# measure BIN XDG LABEL CMD...: runs BIN CMD with XDG_CACHE_HOME=XDG, sets
# T (wall seconds) and R (peak RSS, KiB).
measure() {
	local bin=$1 xdg=$2 label=$3
	shift 3
	XDG_CACHE_HOME=$xdg bench_timed "$label" "$bin" "$@"
	R=$K
}

echo "gpulens host-table load benchmark"
bench_machine
echo "new:      $GPULENS"
echo "base:     $BASE"
echo "RSS:      $RSS_HOW"
echo "medians of $REPS run(s); times in seconds, wall clock; RSS in MiB"

F=$DIR/host-$EVENTS.sqlite
if [ ! -s "$F" ]; then
	t0=$(now)
	"$GPULENS" demo --out "$F" --events "$EVENTS" --gpus "$GPUS" --seed 1 \
	    --plant samples,sched,sync,mpi,gpu-metrics >"$DIR/gen.log" 2>&1 ||
	    { cat "$DIR/gen.log" >&2; die "generation failed"; }
	echo "trace:    $F ($EVENTS events, $(du -m "$F" | cut -f1) MiB," \
	    "generated in $(elapsed "$t0" "$(now)") s)"
else
	echo "trace:    $F (reused)"
fi
echo

declare -A med
for who in new base; do
	if [ "$who" = new ]; then bin=$GPULENS; else bin=$BASE; fi
	xdg=$DIR/xdg-$who
	mkdir -p "$xdg"
	ct=() cr=() wt=() wr=()
	for ((i = 0; i < REPS; i++)); do
		XDG_CACHE_HOME=$xdg "$bin" clean "$F" >/dev/null 2>&1
		measure "$bin" "$xdg" "$who-cold-$i" prep "$F"
		ct+=("$T"); cr+=("$R")
		measure "$bin" "$xdg" "$who-warm-$i" search "$F" --limit 1 \
		    --json
		wt+=("$T"); wr+=("$R")
	done
	med[$who.cold]=$(median "${ct[@]}")
	med[$who.coldrss]=$(median "${cr[@]}")
	med[$who.warm]=$(median "${wt[@]}")
	med[$who.warmrss]=$(median "${wr[@]}")
	med[$who.cache]=$(du -sb "$xdg" | cut -f1)
done

mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
printf '%-22s %12s %12s %10s\n' "measure" "new" "base" "new/base"
row() {
	printf '%-22s %12s %12s %10s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"
}
row "cold load (prep) s" "$(printf '%.3f' "${med[new.cold]}")" \
    "$(printf '%.3f' "${med[base.cold]}")"
row "cold peak RSS MiB" "$(mib "${med[new.coldrss]}")" \
    "$(mib "${med[base.coldrss]}")"
row "warm load s" "$(printf '%.3f' "${med[new.warm]}")" \
    "$(printf '%.3f' "${med[base.warm]}")"
row "warm peak RSS MiB" "$(mib "${med[new.warmrss]}")" \
    "$(mib "${med[base.warmrss]}")"
row "cache MiB" "$(awk -v b="${med[new.cache]}" 'BEGIN { printf "%.0f", b / 1048576 }')" \
    "$(awk -v b="${med[base.cache]}" 'BEGIN { printf "%.0f", b / 1048576 }')"
echo
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1, 5, 15 min) at end"
