/*
 * ncurep-str: the report's string table. Each block's table extends the
 * ones before; metric names are interned from it on first use. Also the
 * warning for a nested message that failed to decode.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"

/* Metric name of a string table index. */
uint32_t
ncurep_name(struct ncurep *c, uint64_t idx)
{
	char	buf[32];

	if (idx >= c->tab.n) {
		c->bad_name_ids++;
		snprintf(buf, sizeof buf, "metric#%llu",
		    (unsigned long long)idx);
		return report_intern0(c->r, buf);
	}
	if (c->tab.sid[idx] == REPORT_NONE)
		c->tab.sid[idx] = report_intern(c->r,
		    (const char *)c->tab.s[idx], c->tab.len[idx]);
	return c->tab.sid[idx];
}

/* Reports the failure of a nested message's reader as a warning. */
void
ncurep_subfail(struct ncurep *c, const char *what, const struct pw_reader *rd)
{
	report_warn(c->r, "%s: a %s message is corrupt (%s); the rest of it "
	    "was not read", c->name, what, rd->err);
}

/*
 * Adds a block's string table to the report's. A table that starts by
 * restating every string gathered so far (a writer that repeats the whole
 * table) adds only the strings past them; any other table extends the
 * report's by all of its strings.
 */
void
ncurep_strtab(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;
	size_t			i, base = c->tab.n, skip = 0;
	int			rc;

	/* Does it restate the table so far? */
	i = 0;
	pw_init(&rd, p, len);
	while (base > 0 && i < base && pw_next(&rd, &f) > 0) {
		if (f.num != 1 || f.wire != PW_LEN)
			continue;
		if (f.len != c->tab.len[i] ||
		    memcmp(f.data, c->tab.s[i], f.len) != 0)
			break;
		i++;
	}
	if (base > 0 && i == base)
		skip = base;

	i = 0;
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num != 1 || f.wire != PW_LEN) {
			report_skipped(c->r, "StringTable", f.num);
			continue;
		}
		if (i++ < skip)
			continue;
		XGROW(c->tab.s, c->tab.cap, c->tab.n + 1);
		XGROW(c->tab.len, c->tab.lencap, c->tab.n + 1);
		XGROW(c->tab.sid, c->tab.sidcap, c->tab.n + 1);
		c->tab.s[c->tab.n] = f.data;
		c->tab.len[c->tab.n] = f.len;
		c->tab.sid[c->tab.n] = REPORT_NONE;
		c->tab.n++;
	}
	if (rc < 0)
		ncurep_subfail(c, "string table", &rd);
}
