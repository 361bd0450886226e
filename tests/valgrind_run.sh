#!/bin/sh
# valgrind_run.sh: one valgrind memcheck run of the main verbs on real
# fixtures (cold loads, then cached loads so the cache decoder runs too).
# Run by .ci/run against a build without sanitizers; exits non-zero on any
# memcheck error or definite leak. Usage: tests/valgrind_run.sh [GPULENS]
set -u
G=${1:-./gpulens}
FIX=${GPULENS_FIXTURES:-$(dirname "$0")/../../shared/fixtures}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing: skipped"; exit 0; }
[ -d "$FIX/nsys" ] || { echo "no fixtures at $FIX: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
fail=0 runs=0
vg() {
	runs=$((runs + 1))
	if ! valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite --show-leak-kinds=definite \
	    "$G" "$@" >/dev/null 2>"$tmp/vg.err"; then
		if grep -q "==[0-9]*==" "$tmp/vg.err"; then
			echo "valgrind: errors in: gpulens $*"
			head -40 "$tmp/vg.err"
			fail=1
		fi
	fi
}
for f in "$FIX/nsys/nsys-ai/mfu_2gpu_before.sqlite" \
    "$FIX/nsys/mordred/report1.sqlite" \
    "$FIX/nsys/nsightful/power_iteration__baseline.sqlite"; do
	[ -f "$f" ] || continue
	cp "$f" "$tmp/t.sqlite"
	for v in info summary "stats --type kernel" "stats --type api" nvtx \
	    iters gaps timeline overlap "search --limit 20" launch memcpy \
	    comm hardware; do
		# shellcheck disable=SC2086
		vg --no-cache $v "$tmp/t.sqlite" --json
	done
	vg prep "$tmp/t.sqlite"
	vg summary "$tmp/t.sqlite"
	vg --script /dev/null --max-frames 3 "$tmp/t.sqlite"
	rm -f "$tmp/t.sqlite" "$tmp/.t.sqlite.gpulens"
done
# Kineto: the streaming JSON reader, comm with message sizes, a two-rank
# merge, the cache written and read back.
k="$FIX/kineto/hta/nccl_parser_config__nccl_data.json.gz"
if [ -f "$k" ]; then
	cp "$k" "$tmp/k.json.gz"
	for v in info summary "stats --type kernel" comm nvtx launch; do
		# shellcheck disable=SC2086
		vg --no-cache $v "$tmp/k.json.gz" --json
	done
	vg prep "$tmp/k.json.gz"
	vg comm "$tmp/k.json.gz" --json
	rm -f "$tmp/k.json.gz" "$tmp/.k.json.gz.gpulens"
fi
p="$FIX/kineto/hta/trace_filter__sampled_rank-"
[ -f "${p}0.json.gz" ] &&
    vg --no-cache ranks "${p}0.json.gz" "${p}1.json.gz" --json
echo "valgrind: $runs runs, $([ $fail = 0 ] && echo clean || echo ERRORS)"
exit $fail
