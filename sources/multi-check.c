/*
 * multi-check: whether several loaded traces can be one job (multi.h).
 *
 * Kind: every trace must come from the same profiler format; the odd one
 * out is the first whose kind differs from the most common kind (ties:
 * the first trace's kind).
 *
 * Clock: each trace's span [origin, end] is put on the first trace's
 * clock: Nsight Systems exports count from their session's start, so when
 * every export states the UTC of its time 0 (TARGET_INFO_SESSION_START_TIME)
 * export i is shifted by utc[i] - utc[0]; every other trace (Kineto:
 * epoch nanoseconds, baseTimeNanoseconds added) is kept as it is. The
 * odd one out is the trace whose span lies furthest from the union of the
 * others' (ties: the later one); it is refused when that distance exceeds
 * MULTI_CLOCK_GAP_NS. A trace with no events has no clock to disagree.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/multi.h"
#include "util/xmalloc.h"

/* A model's kind, SOURCE_UNKNOWN when out of range. */
#define MULTI_KIND(mp)	((mp)->source < SOURCE_KIND_COUNT ? (mp)->source : 0)

/* A kind as a noun, singular with its article and plural. */
static void
multi_kind_noun(int kind, const char **one, const char **many)
{
	switch (kind) {
	case SOURCE_NSYS:
		*one = "an Nsight Systems export";
		*many = "Nsight Systems exports";
		break;
	case SOURCE_KINETO:
		*one = "a PyTorch profiler trace";
		*many = "PyTorch profiler traces";
		break;
	case SOURCE_ROCPD:
		*one = "a rocprofv3 rocpd database";
		*many = "rocprofv3 rocpd databases";
		break;
	case SOURCE_RPD:
		*one = "a rocmProfileData database";
		*many = "rocmProfileData databases";
		break;
	case SOURCE_ROCPROF_JSON:
		*one = "a rocprofv3 JSON trace";
		*many = "rocprofv3 JSON traces";
		break;
	case SOURCE_NCU:
		*one = "an Nsight Compute report";
		*many = "Nsight Compute reports";
		break;
	default:
		*one = "a trace of an unknown kind";
		*many = "traces of an unknown kind";
		break;
	}
}

static int
multi_check_kinds(char *const *files, struct model *const *m, size_t n,
    char **cause)
{
	size_t		 count[SOURCE_KIND_COUNT + 1], i, odd = n, others;
	int		 major, k, same = 1;
	const char	*one, *many, *one2, *many2;

	memset(count, 0, sizeof count);
	for (i = 0; i < n; i++)
		count[MULTI_KIND(m[i])]++;
	major = MULTI_KIND(m[0]);
	for (k = 0; k <= SOURCE_KIND_COUNT; k++)
		if (count[k] > count[major])
			major = k;
	for (i = 0; i < n; i++)
		if (MULTI_KIND(m[i]) != major) {
			if (odd == n)
				odd = i;
			else
				same = 0;
		}
	if (odd == n)
		return 0;
	multi_kind_noun(MULTI_KIND(m[odd]), &one, &many);
	multi_kind_noun(major, &one2, &many2);
	others = n - 1;
	if (same)
		*cause = xasprintf("%s is %s, the other%s %s %s: the traces "
		    "of one job must be of one kind", files[odd], one,
		    others == 1 ? "" : "s", others == 1 ? "is" : "are",
		    others == 1 ? one2 : many2);
	else
		*cause = xasprintf("%s is %s, most of the others are %s: the "
		    "traces of one job must be of one kind", files[odd], one,
		    many2);
	(void)many;	/* the odd one is one trace */
	return -1;
}

/* A duration in words, for clocks that may be decades apart. */
static void
multi_words(uint64_t ns, char *buf, size_t len)
{
	const double	d = (double)ns;

	if (d >= 2 * 365.25 * 86400e9)
		snprintf(buf, len, "%.0f years", d / (365.25 * 86400e9));
	else if (d >= 2 * 86400e9)
		snprintf(buf, len, "%.0f days", d / 86400e9);
	else if (d >= 2 * 3600e9)
		snprintf(buf, len, "%.1f hours", d / 3600e9);
	else if (d >= 120e9)
		snprintf(buf, len, "%.1f minutes", d / 60e9);
	else
		snprintf(buf, len, "%.3f s", d / 1e9);
}

/* b - a for a <= b, exact in 64 bits. */
static uint64_t
multi_dist(int64_t a, int64_t b)
{
	return (uint64_t)b - (uint64_t)a;
}

static int
multi_check_clocks(char *const *files, struct model *const *m, size_t n,
    int64_t *shift, char **cause)
{
	int64_t		*a, *b, lo, hi;
	uint64_t	 gap, best = 0, start = 0;
	size_t		 i, k, odd = n, nlive;
	int		 utc = 1, before = 0;
	char		 words[64];

	for (i = 0; i < n; i++) {
		shift[i] = 0;
		if (m[i]->source != SOURCE_NSYS || m[i]->utc_epoch_ns <= 0)
			utc = 0;
	}
	if (utc)	/* both positive: the difference fits */
		for (i = 1; i < n; i++)
			shift[i] = m[i]->utc_epoch_ns - m[0]->utc_epoch_ns;
	a = xcalloc(n, sizeof *a);
	b = xcalloc(n, sizeof *b);
	for (i = 0; i < n; i++) {
		a[i] = sat_add64(m[i]->origin_ns, shift[i]);
		b[i] = sat_add64(m[i]->end_ns, shift[i]);
	}
	for (i = 0; i < n; i++) {
		if (m[i]->nevents == 0)
			continue;
		lo = INT64_MAX;
		hi = INT64_MIN;
		nlive = 0;
		for (k = 0; k < n; k++) {
			if (k == i || m[k]->nevents == 0)
				continue;
			nlive++;
			if (a[k] < lo)
				lo = a[k];
			if (b[k] > hi)
				hi = b[k];
		}
		if (nlive == 0)
			continue;
		if (a[i] > hi)
			gap = multi_dist(hi, a[i]);
		else if (b[i] < lo)
			gap = multi_dist(b[i], lo);
		else
			gap = 0;
		if (gap >= best && gap > 0) {
			best = gap;
			odd = i;
			before = b[i] < lo;
			start = before ? multi_dist(a[i], lo) :
			    multi_dist(lo, a[i]);
		}
	}
	free(a);
	free(b);
	if (odd == n || best <= (uint64_t)MULTI_CLOCK_GAP_NS)
		return 0;
	multi_words(start, words, sizeof words);
	*cause = xasprintf("%s's clock starts %s %s the other%s: these traces "
	    "do not share a clock, so they are not one job (open them one at "
	    "a time)", files[odd], words, before ? "before" : "after",
	    n == 2 ? "'s" : "s'");
	return -1;
}

int
multi_check(char *const *files, struct model *const *m, size_t n,
    int64_t *shift, char **cause)
{
	size_t	i;

	for (i = 0; i < n; i++)
		shift[i] = 0;
	if (n < 2)
		return 0;
	if (multi_check_kinds(files, m, n, cause) != 0)
		return -1;
	return multi_check_clocks(files, m, n, shift, cause);
}
