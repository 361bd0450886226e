#!/usr/bin/env bash
# bench.sh: load-time and memory benchmark of gpulens on generated traces.
#
# Run by hand from the source tree after building (not part of make check):
#
#     bench/bench.sh                      # sizes 1e5 1e6 1e7, 3 repetitions
#     BENCH_SIZES="1e5 1e6" BENCH_REPS=5 bench/bench.sh
#
# For every size N it generates a trace once, then measures, R times each,
# and reports medians:
#
#   sqlite scan   sqlite3 -readonly reading every row of the tables the nsys
#                 reader reads (KERNEL, MEMCPY, MEMSET, RUNTIME,
#                 SYNCHRONIZATION, NVTX_EVENTS, StringIds) to /dev/null:
#                 the floor for any SQLite-based reader
#   cold load     `gpulens clean F` then `gpulens --no-cache search F
#                 --limit 1 --json` (wall clock, whole process: a full load
#                 and a trivial query)
#   cache write   the "cache-write" (or "cache-save") phase that
#                 `GPULENS_TIMING=1 gpulens prep F` reports after a clean;
#                 without timing lines, prep's wall time minus cold load
#   warm load     the same search with the cache in place (wall clock): a
#                 full model load from the cache (`info` reads only the
#                 cache's summary and is timed in the verb table); checked
#                 to have used the cache and to print the same answer
#   warm CPU      user + system CPU seconds of that warm load (GNU time),
#                 all its threads: what the load costs whatever the
#                 machine's load does to the wall clock
#   peak RSS      of the cold load, with /usr/bin/time -f %M, else the
#                 bench/rss helper (built by make), else not measured
#   cache size    bytes of the cache file prep wrote, and per event
#   base          with BENCH_BASE=BINARY (e.g. the last release build),
#                 the same cold load, cache write, warm load and cache
#                 size for that binary, in the same run, its cache in a
#                 cache directory of its own; a second table compares
#
# Printed per size: cold, warm, cold/warm against the 20x target (PASS or
# FAIL), the warm load's CPU time, and with BENCH_BASE the base's cold,
# warm, cold/warm and warm CPU time beside them; the load average at the
# start and at the end.
#
# Targets, each marked PASS or FAIL: cold/scan <= 3, cold/warm >= 20,
# peak RSS < 64 bytes per event. The exit status is 1 if any target fails.
#
# CLI hooks assumed (see man/gpulens.1):
#   gpulens demo --out FILE --events N --seed 1   write a synthetic trace
#   gpulens prep FILE          load FILE and write its cache
#   gpulens clean FILE         remove FILE's cache
#   gpulens info FILE          load through the cache, print a summary
#   gpulens --no-cache info FILE   load bypassing the cache entirely
#   GPULENS_TIMING=1           makes gpulens print "timing: PHASE SECONDS"
#                              lines on stderr (phases read, cache-save or
#                              cache-write, cache-load or cache-read, ...)
#
# Environment:
#   GPULENS      the binary (default ./gpulens, then gpulens in PATH)
#   BENCH_SIZES  event counts, integers or 1eN (default "1e5 1e6 1e7")
#   BENCH_REPS   repetitions per measurement (default 3)
#   BENCH_DIR    where traces go (default a new mktemp directory, removed
#                at the end unless BENCH_KEEP=1; a given BENCH_DIR is kept)
#   BENCH_GPUS   --gpus for generation (default: gpulens demo's default)
#   BENCH_KEEP   1 keeps the traces
#   BENCH_VERBS  0 skips the verb latency table (default 1: every verb
#                with --json on each cached trace, load included)
#   BENCH_BASE   a second gpulens binary measured alongside (see above)
set -u
set -o pipefail

. "$(dirname "$0")/lib.sh"
bench_binary
BASE=${BENCH_BASE:-}
[ -z "$BASE" ] || [ -x "$BASE" ] || die "BENCH_BASE=$BASE is not executable"
command -v sqlite3 >/dev/null || die "the sqlite3 command is needed for the baseline"
SIZES=${BENCH_SIZES:-"1e5 1e6 1e7"}
bench_reps 3

bench_dir gpulens-bench
bench_rss optional


# run LABEL CMD...: runs CMD with timing on, output to $DIR/LABEL.{out,err},
# sets T (wall seconds) and fails the benchmark on a non-zero exit.
run() {
	local label=$1; shift
	local t0 t1
	t0=$(now)
	if ! GPULENS_TIMING=1 "$@" >"$DIR/$label.out" 2>"$DIR/$label.err"; then
		echo "bench.sh: '$*' failed:" >&2
		cat "$DIR/$label.err" >&2
		exit 2
	fi
	t1=$(now)
	T=$(elapsed "$t0" "$t1")
}

# phase FILE NAME...: the largest "timing: NAME SECONDS" of FILE among the
# names, or nothing
phase() {
	local f=$1; shift
	awk -v names=" $* " '$1 == "timing:" && index(names, " " $2 " ") {
	    if (!seen || $3 > m) m = $3; seen = 1 }
	    END { if (seen) printf "%.6f\n", m }' "$f"
}
# cpu_run OUT CMD...: runs CMD, its user + system CPU seconds into OUT (0
# without GNU time).
if [ -x /usr/bin/time ] && /usr/bin/time -f %U true >/dev/null 2>&1; then
	cpu_run() { local o=$1; shift; /usr/bin/time -f '%U %S' -o "$o" "$@"; }
else
	cpu_run() { local o=$1; shift; echo '0 0' >"$o"; "$@"; }
fi
cpu_of() { awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { t = $1 + $2 } END { printf "%.3f", t }' "$1"; }

scan_sql=""
for t in CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY \
    CUPTI_ACTIVITY_KIND_MEMSET CUPTI_ACTIVITY_KIND_RUNTIME \
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION NVTX_EVENTS StringIds; do
	scan_sql="$scan_sql SELECT * FROM $t;"
done

echo "gpulens benchmark"
bench_machine
echo "binary:   $GPULENS"
[ -z "$BASE" ] || echo "base:     $BASE (cache in its own directory)"
echo "sqlite3:  $(sqlite3 -version | cut -d' ' -f1)"
echo "RSS:      $RSS_HOW"
echo "traces:   $DIR$( [ "$KEEP" = 1 ] && echo ' (kept)')"
echo "medians of $REPS run(s); times in seconds, wall clock"
echo

fail=0
vfail=0
rows=()
brows=()
vrows=()
XDG_BASE=$DIR/xdg-base
# base CMD...: runs the base binary with its own cache directory
base() { XDG_CACHE_HOME=$XDG_BASE "$BASE" "$@"; }
# cache_bytes FILE-OF-PREP-OUTPUT: the size of the cache prep wrote
cache_bytes() {
	local c
	c=$(sed -n 's/.*cache written, \(.*\) ([0-9.]* [KMG]*i*B)$/\1/p' "$1" | head -n 1)
	[ -n "$c" ] && [ -f "$c" ] && wc -c <"$c" || echo 0
}
bench_verbs
for size in $SIZES; do
	n=$(to_int "$size") || die "bad size: $size"
	[ "$n" -ge 1 ] || die "bad size: $size"
	f="$DIR/trace-$n.sqlite"
	gen=("$GPULENS" demo --out "$f" --events "$n" --seed 1)
	[ -n "${BENCH_GPUS:-}" ] && gen+=(--gpus "$BENCH_GPUS")
	rm -f "$f"
	"$GPULENS" clean "$f" >/dev/null 2>&1
	run gen "${gen[@]}"
	gen_s=$T
	file_mb=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
	echo "N=$n: generated in ${gen_s}s ($(awk -v n="$n" -v t="$gen_s" 'BEGIN { printf "%.0f", n / t }') events/s), $file_mb MiB" >&2

	scan=() cold=() write=() warm=() rss=() bcold=() bwarm=() wcpu=() bwcpu=()
	cbytes=0 bbytes=0
	for ((r = 1; r <= REPS; r++)); do
		t0=$(now)
		sqlite3 -readonly "$f" "$scan_sql" >/dev/null || die "sqlite3 scan of $f failed"
		scan+=("$(elapsed "$t0" "$(now)")")

		"$GPULENS" clean "$f" >/dev/null
		run cold rss_run "$DIR/rss" "$GPULENS" --no-cache search "$f" --limit 1 --json
		cold+=("$T")
		rss+=("$(rss_of "$DIR/rss")")

		"$GPULENS" clean "$f" >/dev/null
		run prep "$GPULENS" prep "$f"
		w=$(phase "$DIR/prep.err" cache-write cache-save)
		[ -n "$w" ] || w=$(awk -v a="$T" -v b="${cold[-1]}" 'BEGIN { d = a - b; printf "%.6f", (d > 0 ? d : 0) }')
		write+=("$w")

		run warm cpu_run "$DIR/wcpu" "$GPULENS" search "$f" --limit 1 --json
		warm+=("$T")
		wcpu+=("$(cpu_of "$DIR/wcpu")")
		if [ -n "$(phase "$DIR/warm.err" read)" ]; then
			echo "bench.sh: N=$n: the warm load parsed the trace again (cache not used)" >&2
			fail=1
		fi
		cmp -s "$DIR/cold.out" "$DIR/warm.out" ||
		    echo "bench.sh: N=$n: warm and cold outputs differ" >&2
		cbytes=$(cache_bytes "$DIR/prep.out")
		if [ -n "$BASE" ]; then
			base clean "$f" >/dev/null 2>&1
			run bcold base --no-cache search "$f" --limit 1 --json
			bcold+=("$T")
			run bprep base prep "$f"
			bbytes=$(cache_bytes "$DIR/bprep.out")
			run bwarm cpu_run "$DIR/bwcpu" env XDG_CACHE_HOME="$XDG_BASE" \
			    "$BASE" search "$f" --limit 1 --json
			bwarm+=("$T")
			bwcpu+=("$(cpu_of "$DIR/bwcpu")")
			[ -z "$(phase "$DIR/bwarm.err" read)" ] ||
			    echo "bench.sh: N=$n: the base's warm load parsed the trace again" >&2
			cmp -s "$DIR/warm.out" "$DIR/bwarm.out" ||
			    echo "bench.sh: N=$n: base and new outputs differ" >&2
			echo "N=$n run $r: base cold ${bcold[-1]} warm ${bwarm[-1]} (CPU ${bwcpu[-1]})" >&2
		fi
		echo "N=$n run $r: scan ${scan[-1]} cold ${cold[-1]} write ${write[-1]} warm ${warm[-1]} (CPU ${wcpu[-1]}) rss ${rss[-1]} KiB" >&2
	done
	m_scan=$(median "${scan[@]}")
	m_cold=$(median "${cold[@]}")
	m_write=$(median "${write[@]}")
	m_warm=$(median "${warm[@]}")
	m_wcpu=$(median "${wcpu[@]}")
	m_rss=$(median "${rss[@]}")
	rows+=("$(awk -v n="$n" -v g="$gen_s" -v mb="$file_mb" -v s="$m_scan" \
	    -v c="$m_cold" -v w="$m_write" -v h="$m_warm" -v k="$m_rss" 'BEGIN {
		cs = s > 0 ? c / s : 0; cw = h > 0 ? c / h : 0
		bpe = k * 1024 / n
		p1 = cs <= 3 ? "PASS" : "FAIL"
		p2 = cw >= 20 ? "PASS" : "FAIL"
		p3 = k == 0 ? "n/a" : (bpe < 64 ? "PASS" : "FAIL")
		mib = k == 0 ? "-" : sprintf("%.1f", k / 1024)
		bs = k == 0 ? "-" : sprintf("%.1f", bpe)
		printf "%s %.2f %s %.3f %.3f %.2f %.3f %.4f %.1f %s %s %s %s %s\n",
		    n, g, mb, s, c, cs, w, h, cw, mib, bs, p1, p2, p3 }')")
	case ${rows[-1]} in *FAIL*) fail=1;; esac
	if [ -n "$BASE" ]; then
		m_bcold=$(median "${bcold[@]}")
		m_bwarm=$(median "${bwarm[@]}")
		m_bwcpu=$(median "${bwcpu[@]}")
	else
		m_bcold=0 m_bwarm=0 m_bwcpu=0
	fi
	brows+=("$(awk -v n="$n" -v c="$m_cold" -v h="$m_warm" -v cb="$cbytes" \
	    -v bc="$m_bcold" -v bh="$m_bwarm" -v bb="$bbytes" -v base="$BASE" \
	    -v wc="$m_wcpu" -v bwc="$m_bwcpu" 'BEGIN {
		cw = h > 0 ? c / h : 0
		if (base == "") { bcs = "-"; bhs = "-"; bcw = "-"; bbs = "-"; bbe = "-"; sp = "-"; bws = "-" }
		else { bcs = sprintf("%.3f", bc); bhs = sprintf("%.4f", bh); bws = sprintf("%.3f", bwc)
		    bcw = sprintf("%.1f", bh > 0 ? bc / bh : 0)
		    bbs = sprintf("%.1f", bb / 1048576); bbe = sprintf("%.1f", bb / n)
		    sp = sprintf("%.1f", h > 0 ? bh / h : 0) }
		printf "%s %.3f %.4f %.1f %s %.3f %s %s %s %s %s %s %.1f %.1f %s\n", n, c, h, cw,
		    (cw >= 20 ? "PASS" : "FAIL"), wc, bcs, bhs, bcw, bws, sp, bbs, cb / 1048576,
		    cb / n, bbe }')")
	# Verb latency on the cached trace (the cache is in place after prep
	# and warm): whole process, load included, median of REPS runs.
	if [ "${BENCH_VERBS:-1}" = 1 ]; then
		"$GPULENS" prep "$f" >/dev/null
		kid=$("$GPULENS" search "$f" --type kernel --limit 1 --json |
		    sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p' | head -n 1)
		[ -n "$kid" ] || kid=0
		for v in "${VERBS[@]}"; do
			verb_args "$v" "$f" "$kid"
			ts=()
			for ((r = 1; r <= REPS; r++)); do
				run verb "$GPULENS" "${args[@]}" --json
				ts+=("$T")
			done
			mv=$(median "${ts[@]}")
			target=1
			[ "${cmd[0]}" = info ] && target=0.1
			vrows+=("$(awk -v n="$n" -v v="${cmd[0]}" -v t="$mv" \
			    -v g="$target" 'BEGIN { printf "%s %s %.4f %s %s\n",
			    n, v, t, g, t < g ? "PASS" : "FAIL" }')")
			case ${vrows[-1]} in *FAIL*) [ "$n" -ge 1000000 ] && vfail=1;; esac
		done
	fi
	[ "$KEEP" = 1 ] || { "$GPULENS" clean "$f" >/dev/null; rm -f "$f"; }
done

echo
{
	echo "events gen(s) file(MiB) scan(s) cold(s) cold/scan cache-write(s) warm(s) cold/warm RSS(MiB) B/event cold/scan<=3 cold/warm>=20 B/event<64"
	printf '%s\n' "${rows[@]}"
} | columns
echo
echo "targets: cold/scan <= 3, cold/warm >= 20, peak RSS < 64 bytes/event"
echo
echo "warm load of the whole model, against the base binary (same run)"
{
	echo "events cold(s) warm(s) cold/warm cold/warm>=20 warm-cpu(s) base-cold(s) base-warm(s) base-cold/warm base-warm-cpu(s) warm-speedup base-cache(MiB) cache(MiB) cache(B/event) base-cache(B/event)"
	printf '%s\n' "${brows[@]}"
} | columns
[ -n "$BASE" ] || echo "(set BENCH_BASE=BINARY to measure a base binary in the same run)"
if [ ${#vrows[@]} -gt 0 ]; then
	echo
	echo "verb latency on cached traces (seconds, whole process, median)"
	{
		echo "events verb time(s) target(s) result"
		printf '%s\n' "${vrows[@]}"
	} | columns
	echo "targets (at 1e6 and 1e7 events): info < 0.1 s, every other verb < 1 s"
	[ "$vfail" = 0 ] || fail=1
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1, 5, 15 min)"
[ "$fail" = 0 ] && echo "all targets met" || echo "some targets missed"
exit "$fail"
