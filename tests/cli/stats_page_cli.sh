#!/bin/sh
# stats_page_cli: `stats` with a --limit sorted by count, total_ns,
# min_ns, max_ns, share_pct, mean_ns, median_ns or stddev_ns makes rows
# only for the groups that can be on the page (cmd-stats.c, stats_page());
# the page must be the slice of the whole sorted answer (--limit 0, every
# group a row): the same rows in the same order (ties by key, as out.c
# breaks them), the same total_matched and truncated, with --offset, both
# directions, groupings of many groups, the table and --fields. Ties are
# common in count and min_ns, whose pages must keep every tied group.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
G="$GPULENS"
T="$GPULENS_SRCDIR/fixtures/nsys/demo-2026.sqlite"
n=0
for group in name,iter nvtx-path,iter; do
	"$G" --no-cache stats "$T" --group-by "$group" --json --limit 0 \
	    >"$TMPD/all-$group" || fail "stats --group-by $group --limit 0"
	for sort in count count:asc total_ns:asc min_ns max_ns:asc \
	    share_pct mean_ns:asc median_ns stddev_ns:asc; do
		"$G" --no-cache stats "$T" --group-by "$group" --json \
		    --sort "$sort" --limit 0 >"$TMPD/all-$group-$sort" ||
		    fail "stats --group-by $group --sort $sort --limit 0"
		for page in "0 1" "3 7" "20 5" "1000 3"; do
			set -- $page
			n=$((n + 1))
			"$G" --no-cache stats "$T" --group-by "$group" --json \
			    --sort "$sort" --offset "$1" --limit "$2" \
			    >"$TMPD/page-$n" ||
			    fail "stats --group-by $group --sort $sort $page"
			echo "$TMPD/page-$n $TMPD/all-$group-$sort $1 $2" \
			    "${sort%%:*}" >>"$TMPD/list"
		done
	done
	# The default order (total_ns, descending), and --fields.
	n=$((n + 1))
	"$G" --no-cache stats "$T" --group-by "$group" --json --limit 4 \
	    --offset 2 >"$TMPD/page-$n" || fail "stats --group-by $group"
	echo "$TMPD/page-$n $TMPD/all-$group 2 4 total_ns" >>"$TMPD/list"
	n=$((n + 1))
	"$G" --no-cache stats "$T" --group-by "$group" --json --limit 5 \
	    --fields count,median_ns --sort median_ns >"$TMPD/page-$n" ||
	    fail "stats --group-by $group --fields"
	"$G" --no-cache stats "$T" --group-by "$group" --json --limit 0 \
	    --fields count,median_ns --sort median_ns >"$TMPD/allf-$group" ||
	    fail "stats --group-by $group --fields --limit 0"
	echo "$TMPD/page-$n $TMPD/allf-$group 0 5 median_ns" >>"$TMPD/list"
done
python3 - "$TMPD/list" <<'PY' || fail "a page differs from its slice"
import json, sys
ties = 0
for line in open(sys.argv[1]):
    page, every, off, lim, field = line.split()
    off, lim = int(off), int(lim)
    p = json.load(open(page))["data"]
    a = json.load(open(every))["data"]
    want = a["rows"][off:off + lim]
    if p["rows"] != want:
        sys.exit("%s: rows differ: %s vs %s" % (page,
            [r["key"] for r in p["rows"]], [r["key"] for r in want]))
    if p["total_matched"] != a["total_matched"] or \
            p["count"] != len(want):
        sys.exit("%s: counts differ" % page)
    if p["truncated"] != (a["total_matched"] - off > lim):
        sys.exit("%s: truncated differs" % page)
    # A page that ends inside a run of equal values (a tie out.c breaks
    # by key) is the case a page kept too narrow would get wrong.
    rest = a["rows"][off + lim:off + lim + 1]
    if want and rest and want[-1][field] == rest[0][field]:
        ties += 1
if ties < 3:
    sys.exit("only %d pages end inside a tie" % ties)
print("pages match; %d end inside a tie" % ties)
PY
# The table: its first rows are those of every row's table (the column
# widths are the shown rows').
"$G" --no-cache stats "$T" --group-by name,iter --limit 5 >"$TMPD/t5" ||
    fail "table"
"$G" --no-cache stats "$T" --group-by name,iter --limit 0 | head -n 6 \
    >"$TMPD/t0" || fail "table, every row"
[ "$(sed -n 1,6p "$TMPD/t5" | awk '{$1 = $1; print}')" = \
    "$(sed -n 1,6p "$TMPD/t0" | awk '{$1 = $1; print}')" ] ||
    fail "the table's first rows differ"
echo "$n pages checked"
pass
