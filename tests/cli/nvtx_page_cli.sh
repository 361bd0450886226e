#!/bin/sh
# nvtx_page_cli: `nvtx --tree` sorted by start, duration or id (or by the
# projection's GPU busy time, operations or kernels, which every row has)
# with a --limit makes rows for the page alone (headless/evpage.h); the page must
# be the slice of the whole sorted answer (--limit 0, every row made):
# same rows in the same order, ties by key as out.c breaks them, the same
# total_matched and truncated, also with --offset, descending, a window
# and --fields.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G="$GPULENS"
T="$GPULENS_SRCDIR/fixtures/nsys/demo-2026.sqlite"
n=0
for sort in start_ns:asc start_ns:desc duration_ns duration_ns:asc id \
    id:asc gpu_busy_ns gpu_ops:asc kernels; do
	for page in "0 1" "3 7" "0 50" "40 1000" "100000 5"; do
		set -- $page
		for extra in "" "--fields name,depth,start_ns" \
		    "--from 1ms --to 4ms"; do
			"$G" --no-cache nvtx --tree "$T" --json --sort "$sort" \
			    --offset "$1" --limit "$2" $extra >"$TMPD/page" ||
			    fail "nvtx --tree --sort $sort --offset $1 --limit $2 $extra"
			"$G" --no-cache nvtx --tree "$T" --json --sort "$sort" \
			    --limit 0 $extra >"$TMPD/all" ||
			    fail "nvtx --tree --sort $sort --limit 0 $extra"
			python3 - "$TMPD/page" "$TMPD/all" "$1" "$2" <<'PY' ||
import json, sys
p = json.load(open(sys.argv[1]))["data"]
a = json.load(open(sys.argv[2]))["data"]
off, lim = int(sys.argv[3]), int(sys.argv[4])
want = a["rows"][off:off + lim]
if p["rows"] != want:
    sys.exit("rows differ: %s vs %s" % (
        [r["key"] for r in p["rows"]][:8], [r["key"] for r in want][:8]))
if p["total_matched"] != a["total_matched"] or p["count"] != len(want):
    sys.exit("counts differ")
if p["truncated"] != (a["total_matched"] - off > lim):
    sys.exit("truncated differs")
PY
			fail "page of --sort $sort --offset $1 --limit $2 $extra"
			n=$((n + 1))
		done
	done
done
# The default order (start ascending) and the table.
"$G" --no-cache nvtx --tree "$T" --limit 5 >"$TMPD/t5" || fail "table"
"$G" --no-cache nvtx --tree "$T" --limit 0 | head -n 6 >"$TMPD/t0" ||
    fail "table, every row"
[ "$(sed -n 2,6p "$TMPD/t5" | awk '{print $1}')" = \
    "$(sed -n 2,6p "$TMPD/t0" | awk '{print $1}')" ] ||
    fail "the table's first rows differ"
echo "$n pages checked"
pass
