/*
 * rdiff: launch pairing and metric comparison between a baseline and a
 * compared report (see rdiff.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report/rdiff.h"

uint32_t
rdiff_occurrence(const struct report *r, uint32_t l)
{
	const char	*name = report_launch_name(r, l);
	uint32_t	 j, n = 0;

	for (j = 0; j < l && j < r->nlaunches; j++)
		if (strcmp(report_launch_name(r, j), name) == 0)
			n++;
	return n;
}

uint32_t
rdiff_partner(const struct report *r, uint32_t l, const struct report *other)
{
	const char	*name;
	uint32_t	 j, occ, n = 0;

	if (l >= r->nlaunches)
		return REPORT_NONE;
	name = report_launch_name(r, l);
	occ = rdiff_occurrence(r, l);
	for (j = 0; j < other->nlaunches; j++) {
		if (strcmp(report_launch_name(other, j), name) != 0)
			continue;
		if (n++ == occ)
			return j;
	}
	return REPORT_NONE;
}

int
rdiff_compare(const struct report_metric *ma, const struct report_metric *mb,
    struct rdiff_cmp *c)
{
	c->a = report_value_num(&ma->value);
	c->b = report_value_num(&mb->value);
	if (!isfinite(c->a) || !isfinite(c->b))
		return 0;
	c->change = c->b - c->a;
	c->change_pct = c->a != 0 ? 100.0 * c->change / fabs(c->a) : NAN;
	return 1;
}
