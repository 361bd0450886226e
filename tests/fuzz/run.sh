#!/bin/sh
# run.sh [-t SECONDS] [-o OUTDIR] [HARNESS...]: runs the libFuzzer harnesses
# that ./configure --enable-fuzzing (CC=clang) builds, one after the other,
# each for SECONDS (default 300) in libFuzzer's fork mode with one job at a
# time (the machine is shared), going on past crashes. Run it from the
# build directory. Each harness starts from a copy of its seed corpus
# (tests/fuzz/NAME/, not known/) in OUTDIR/corpus/NAME, so the source tree
# is never written; crashing inputs land in OUTDIR/crash/NAME/ and the log
# in OUTDIR/NAME.log (default OUTDIR: a new directory under
# ${TMPDIR:-/tmp}). Prints one line per harness: executions, executions per
# second, coverage, crashes and the distinct failures. Exit status 1 if
# any harness crashed.
set -u
secs=300
out=
while getopts t:o: c; do
	case $c in
	t) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-o OUTDIR] [HARNESS...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- cache opts zfile nsys out rpd rocpd rocprof_json \
    kineto jsonscan ncu chrome
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/gpulens-fuzz-run.XXXXXX")
found=0
for h in "$@"; do
	bin=./tests/fuzz/${h}_fuzz
	if [ ! -x "$bin" ]; then
		echo "$h: no $bin (./configure --enable-fuzzing), skipped"
		continue
	fi
	mkdir -p "$out/corpus/$h" "$out/crash/$h"
	find "$src/$h" -maxdepth 1 -type f -exec cp {} "$out/corpus/$h/" \;
	case $h in
	nsys|rpd|rocpd) len=65536 ;;	# SQLite files: a few pages
	cache) len=32768 ;;
	*) len=4096 ;;
	esac
	# close_fd_mask=2: the verbs' table-mode warnings; sanitizer and
	# libFuzzer reports still get through.
	"$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	    -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
	    -max_len=$len -close_fd_mask=2 \
	    -artifact_prefix="$out/crash/$h/" "$out/corpus/$h" \
	    >"$out/$h.log" 2>&1
	last=$(grep -E '^#[0-9]+: cov:' "$out/$h.log" | tail -1)
	runs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
	eps=$(echo "$last" | sed -n 's/.*exec\/s \([0-9]*\).*/\1/p')
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ncrash=$(find "$out/crash/$h" -type f | wc -l)
	what=$(grep -hoE '(runtime error: .*|check failed: .*|ERROR: (AddressSanitizer|LeakSanitizer): [a-z-]*)' \
	    "$out/$h.log" | sed 's/0x[0-9a-f]*/0x?/g; s/[0-9][0-9]*/N/g' | sort -u | tr '\n' ';')
	[ "$ncrash" -gt 0 ] && found=1
	echo "$h: ${runs:-?} runs in ${secs} s, ${eps:-?}/s, cov ${cov:-?}, crashes $ncrash${what:+: $what}"
done
echo "logs, corpora and crashes: $out"
exit $found
