#!/usr/bin/env bash
# bench_kineto.sh: load time and peak memory of gpulens on generated
# PyTorch profiler (Kineto) traces, against Python's json module.
#
# Run by hand from the source tree after building (not part of make check):
#
#     bench/bench_kineto.sh                    # sizes 1e5 1e6 1e7, 3 runs
#     BENCH_SIZES="1e5 1e6" BENCH_REPS=5 bench/bench_kineto.sh
#
# For every size N it writes one rank of a 4-rank job once with
# `gpulens demo --format kineto --gpus 4 --events N --out F` (gzip unless
# BENCH_GZIP=0), counts the trace events in it, then measures R times each
# and reports medians:
#
#   python    python3 -c 'import json,gzip; json.load(...)' on F (gzip.open
#             for .gz, open otherwise): wall clock and peak RSS
#   gpulens   gpulens --no-cache info F: wall clock and peak RSS (the whole
#             load: decompression, parsing, model building, finalize)
#   empty     gpulens --no-cache info on a trace with no events: the fixed
#             RSS of the program (binary, libraries, read buffer)
#
# Targets, each marked PASS or FAIL: python / gpulens >= 5 (speed-up) and
# (gpulens RSS - empty RSS) / events < 64 bytes (raw RSS / events is shown
# too). The exit status is 1 if a target fails, 2 on errors.
#
# Environment:
#   GPULENS      the binary (default ./gpulens, then gpulens in PATH)
#   BENCH_SIZES  event counts, integers or 1eN (default "1e5 1e6 1e7")
#   BENCH_REPS   repetitions (default 3)
#   BENCH_GZIP   1 (default) gzip-compressed traces, 0 plain JSON
#   BENCH_PYTHON 0 skips the Python baseline (speed-up not judged)
#   BENCH_DIR    where traces go (default a mktemp directory, removed at
#                the end unless BENCH_KEEP=1; a given BENCH_DIR is kept)
set -u
set -o pipefail

. "$(dirname "$0")/lib.sh"
bench_binary
SIZES=${BENCH_SIZES:-"1e5 1e6 1e7"}
bench_reps 3
GZ=${BENCH_GZIP:-1}
PY=${BENCH_PYTHON:-1}
if [ "$PY" = 1 ]; then
	command -v python3 >/dev/null || die "python3 is needed for the baseline (or BENCH_PYTHON=0)"
fi

bench_dir gpulens-kbench
bench_rss

PYLOAD='import gzip, json, sys
p = sys.argv[1]
f = gzip.open(p, "rb") if p.endswith(".gz") else open(p, "rb")
json.load(f)'

echo "gpulens Kineto benchmark"
bench_machine
echo "binary:   $GPULENS"
[ "$PY" = 1 ] && echo "python:   $(python3 --version 2>&1)"
echo "RSS:      $RSS_HOW"
echo "traces:   $DIR$( [ "$KEEP" = 1 ] && echo ' (kept)'), $( [ "$GZ" = 1 ] && echo gzip || echo plain) JSON"
echo "medians of $REPS run(s); times in seconds, wall clock"
echo

ext=$( [ "$GZ" = 1 ] && echo .json.gz || echo .json)
empty="$DIR/empty$ext"
printf '{"traceEvents": []}\n' >"$DIR/empty.json"
if [ "$GZ" = 1 ]; then gzip -c "$DIR/empty.json" >"$empty"; fi
bench_timed empty "$GPULENS" --no-cache info "$empty"
base_k=$K

fail=0
rows=()
for size in $SIZES; do
	n=$(to_int "$size") || die "bad size: $size"
	[ "$n" -ge 1 ] || die "bad size: $size"
	f="$DIR/rank0-$n$ext"
	rm -f "$f"
	t0=$(now)
	"$GPULENS" demo --format kineto --gpus 4 --rank 0 --events "$n" \
	    --seed 1 --out "$f" || die "generating $f failed"
	gen_s=$(elapsed "$t0" "$(now)")
	# One event per line in generated traces: lines starting "  {".
	if [ "$GZ" = 1 ]; then ev=$(gzip -dc "$f" | grep -c '^  {')
	else ev=$(grep -c '^  {' "$f")
	fi
	mb=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
	echo "N=$n: $ev events, $mb MiB, generated in ${gen_s}s" >&2

	pt=() pk=() gt=() gk=()
	for ((r = 1; r <= REPS; r++)); do
		if [ "$PY" = 1 ]; then
			bench_timed py python3 -c "$PYLOAD" "$f"
			pt+=("$T"); pk+=("$K")
		fi
		bench_timed gl "$GPULENS" --no-cache info "$f"
		gt+=("$T"); gk+=("$K")
		grep -q "^events" "$DIR/gl.out" || die "no events line from info"
		if [ "$PY" = 1 ]; then py="${pt[-1]}s ${pk[-1]} KiB"; else py="not run"; fi
		echo "N=$n run $r: python $py, gpulens ${gt[-1]}s ${gk[-1]} KiB" >&2
	done
	m_gt=$(median "${gt[@]}")
	m_gk=$(median "${gk[@]}")
	if [ "$PY" = 1 ]; then
		m_pt=$(median "${pt[@]}")
		m_pk=$(median "${pk[@]}")
	else
		m_pt=0 m_pk=0
	fi
	rows+=("$(awk -v n="$ev" -v mb="$mb" -v pt="$m_pt" -v pk="$m_pk" \
	    -v gt="$m_gt" -v gk="$m_gk" -v bk="$base_k" -v py="$PY" 'BEGIN {
		sp = gt > 0 ? pt / gt : 0
		raw = gk * 1024 / n
		net = (gk - bk) * 1024 / n
		p1 = py != 1 ? "n/a" : (sp >= 5 ? "PASS" : "FAIL")
		p2 = net < 64 ? "PASS" : "FAIL"
		printf "%d %s %s %s %.3f %.1f %s %.1f %.1f %s %s\n", n, mb,
		    py == 1 ? sprintf("%.3f", pt) : "-",
		    py == 1 ? sprintf("%.0f", pk / 1024) : "-",
		    gt, gk / 1024, py == 1 ? sprintf("%.1f", sp) : "-", raw,
		    net, p1, p2 }')")
	case ${rows[-1]} in *FAIL*) fail=1;; esac
done

echo "fixed RSS of gpulens (empty trace): $(awk -v k="$base_k" 'BEGIN { printf "%.1f MiB", k / 1024 }')"
{
	echo "events MiB python_s python_MiB gpulens_s gpulens_MiB speedup B/event_raw B/event_net speed(>=5x) memory(<64B)"
	printf '%s\n' "${rows[@]}"
} | column -t
exit $fail
