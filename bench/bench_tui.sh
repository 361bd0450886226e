#!/usr/bin/env bash
# bench_tui.sh: frame times of the terminal UI on generated traces.
#
# Run by hand from the build tree (not part of make check):
#
#     bench/bench_tui.sh                     # sizes 1e6 1e7, 200x50 screen
#     BENCH_SIZES="1e5" BENCH_TUI_SIZE=80x24 bench/bench_tui.sh
#
# For every size N it generates a trace (`gpulens demo --out F --events N
# --seed 1`), loads it once to write its cache, then runs a scripted tour
# of the timeline headless (stdout not a terminal: ncurses writes to a
# temporary file, so the bytes a real terminal would receive are counted)
# with GPULENS_TIMING=1, which makes gpulens print one line per frame:
#     tui-frame SEQ WHAT SECONDS BYTES DAMAGE
# A frame is timed from the key to the end of the terminal update.
#
# The tour: 3 full repaints of the whole-trace view (":redraw", the
# baseline: what every frame would cost without damage tracking) and 3
# idle turns (":idle"), then zoom in from the whole trace to a window of
# about BENCH_TUI_WINDOW (single kernels), pan right and left there, zoom
# out half way and pan (many events per column), page right, move over
# rows (j/k), Tab through events, and zoom all the way out.
#
# Reported per size: load (wall seconds of the run minus the frames),
# frames, median and worst frame time (the key of the worst), the
# baselines, and bytes written per pan step (median and max over the Right,
# Left and PgDn frames). Targets, marked PASS or FAIL, from 1e7 events up:
# median < 16 ms and worst < 50 ms. Exit status 1 if a target fails.
#
# Environment:
#   GPULENS           the binary (default ./gpulens, then gpulens in PATH)
#   BENCH_SIZES       event counts (default "1e6 1e7")
#   BENCH_TUI_SIZE    screen WxH (default 200x50)
#   BENCH_TUI_WINDOW  deepest zoom in ns (default 50000)
#   BENCH_DIR         where traces go (default a mktemp directory, removed
#                     unless BENCH_KEEP=1; a given BENCH_DIR is kept)
#   BENCH_KEEP        1 keeps the traces and the frame logs
#   BENCH_TUI_TRACE   an existing trace to tour instead of generating one
#                     (give its size as the only BENCH_SIZES entry; its
#                     cache under XDG_CACHE_HOME is used, so a trace
#                     bench/bench_1e8.sh left behind needs no new cold
#                     load: XDG_CACHE_HOME=BENCH_DIR/xdg)
#   BENCH_BASE        a second binary (the baseline, e.g. a build of the
#                     previous release): the same tour on the same traces
#                     in the same run, its rows labelled "base", ours
#                     "new" (each binary with a cache directory of its own
#                     under BENCH_DIR); the targets apply to ours
set -u
set -o pipefail

. "$(dirname "$0")/lib.sh"
bench_binary
SIZES=${BENCH_SIZES:-"1e6 1e7"}
SCREEN=${BENCH_TUI_SIZE:-200x50}
WINDOW=${BENCH_TUI_WINDOW:-50000}
case $SCREEN in *x*) ;; *) die "BENCH_TUI_SIZE must be WxH";; esac

bench_dir gpulens-bench-tui

# tour ZOOMS: the key script on stdout.
tour() {
	local z=$1 i
	for i in 1 2 3; do echo ':redraw'; done
	for i in 1 2 3; do echo ':sleep 0'; done
	echo 0
	for ((i = 0; i < z; i++)); do echo +; done
	for i in $(seq 10); do echo RIGHT; done
	for i in $(seq 10); do echo LEFT; done
	for ((i = 0; i < z / 2; i++)); do echo -; done
	for i in $(seq 10); do echo RIGHT; done
	for i in $(seq 4); do echo PGDN; done
	for i in $(seq 20); do echo j; done
	for i in $(seq 10); do echo k; done
	for i in $(seq 5); do echo TAB; done
	for ((i = 0; i < z; i++)); do echo -; done
	for i in $(seq 5); do echo j; done
}

# stats over the frame log: prints the summary fields.
summarise() {
	awk '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) {
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
			a[j + 1] = t
		}
		if (n == 0) return 0
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$1 == "tui-frame" {
		what = $3; s = $4 * 1000; b = $5
		total += $4
		if (what == ":redraw") { rd[++nrd] = s; next }
		if (what == ":idle") { id[++nid] = s; next }
		if (what == "start") { start = s; next }
		f[++n] = s
		if (s > worst) { worst = s; wk = what }
		if (what == "RIGHT" || what == "LEFT" || what == "PGDN") {
			pb[++np] = b
			if (b > pmax) pmax = b
		}
	}
	END {
		printf "%d %.3f %.3f %s %.3f %.3f %.3f %.0f %d %.3f\n", n,
		    median(f, n), worst, wk, median(rd, nrd), median(id, nid),
		    start, median(pb, np), pmax, total
	}' "$1"
}

printf '%s\n' "gpulens $("$GPULENS" --version 2>/dev/null | awk '{print $2}') TUI frames, screen $SCREEN, $(uname -sm), $(nproc 2>/dev/null || echo '?') CPUs"
BASE=${BENCH_BASE:-}
[ -z "$BASE" ] || [ -x "$BASE" ] || die "BENCH_BASE $BASE is not executable"
printf '%-6s %-4s %7s %6s %9s %9s %-9s %10s %9s %9s %12s  %s\n' size bin load_s frames median_ms worst_ms worst_key redraw_ms idle_ms start_ms pan_bytes target
status=0
for s in $SIZES; do
for which in new ${BASE:+base}; do
	bin=$GPULENS
	[ "$which" = base ] && bin=$BASE
	if [ -n "${BENCH_TUI_TRACE:-}" ]; then
		[ -n "${XDG_CACHE_HOME:-}" ] || export XDG_CACHE_HOME=$DIR/cache-$which
	else
		export XDG_CACHE_HOME=$DIR/cache-$which
	fi
	mkdir -p "$XDG_CACHE_HOME"
	n=$(to_int "$s") || die "bad size $s"
	f=${BENCH_TUI_TRACE:-$DIR/demo-$s.sqlite}
	if [ ! -s "$f" ]; then
		"$GPULENS" demo --out "$f" --events "$n" --seed 1 \
		    >/dev/null 2>"$DIR/gen-$s.err" || die "demo --events $n failed: $(cat "$DIR/gen-$s.err")"
	fi
	"$bin" prep "$f" >/dev/null 2>&1 || die "prep $f failed"
	span=$("$bin" info "$f" | awk '$1 == "span" { v = $2; u = $3
	    m = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1
	    printf "%.0f\n", v * m }')
	zooms=$(awk -v s="$span" -v w="$WINDOW" 'BEGIN { z = 0
	    while (s > w && z < 60) { s /= 2; z++ } print z }')
	tour "$zooms" >"$DIR/tour-$s"
	t0=$(now)
	GPULENS_TIMING=1 GPULENS_TUI_SIZE=$SCREEN "$bin" \
	    --script "$DIR/tour-$s" "$f" >/dev/null 2>"$DIR/frames-$s-$which.log" ||
	    die "the tour failed on $f: $(tail -n 3 "$DIR/frames-$s-$which.log")"
	t1=$(now)
	read -r frames med worst wk redraw idle start pmed pmax total \
	    < <(summarise "$DIR/frames-$s-$which.log")
	load=$(awk -v a="$t0" -v b="$t1" -v t="$total" 'BEGIN { printf "%.2f", b - a - t }')
	verdict=-
	if [ "$n" -ge 10000000 ] && [ "$which" = new ]; then
		if awk -v m="$med" -v w="$worst" 'BEGIN { exit !(m < 16 && w < 50) }'; then
			verdict="PASS (median < 16 ms, worst < 50 ms)"
		else
			verdict="FAIL (median < 16 ms, worst < 50 ms)"
			status=1
		fi
	fi
	printf '%-6s %-4s %7s %6s %9s %9s %-9s %10s %9s %9s %12s  %s\n' "$s" "$which" "$load" \
	    "$frames" "$med" "$worst" "$wk" "$redraw" "$idle" "$start" \
	    "$pmed/$pmax" "$verdict"
done
done
exit $status
