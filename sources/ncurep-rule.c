/*
 * ncurep-rule: the results of the rules (guided analysis) on a launch:
 * each rule's messages, their estimated speedups and focus metrics.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"

/*
 * The estimated speedup of a rule message (newer reports). Its layout is
 * inferred, not documented: a message with a varint type (0 local,
 * 1 global) and a double (or float) value in percent.
 */
static void
ncurep_speedup(const uint8_t *p, size_t len,
    struct report_rule *u)
{
	struct pw_reader	rd;
	struct pw_field		f;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.wire == PW_VARINT && f.num == 1)
			u->speedup_type = f.u == 1 ? RS_GLOBAL : RS_LOCAL;
		else if (f.wire == PW_FIXED64)
			u->speedup = pw_double(&f);
		else if (f.wire == PW_FIXED32)
			u->speedup = pw_float(&f);
	}
	if (!isnan(u->speedup) && u->speedup_type == RS_NONE)
		u->speedup_type = RS_LOCAL;
	if (isnan(u->speedup) || u->speedup < 0 || u->speedup > 1e6) {
		u->speedup = NAN;
		u->speedup_type = RS_NONE;
	}
}

/*
 * A focus metric of a rule message: 2 metric name, 3 value (double),
 * 5 the condition that fired ("16.647 < 20.00"). Appended to u->focus.
 */
static void
ncurep_focus(struct ncurep *c, const uint8_t *p, size_t len,
    struct report_rule *u)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	char			*name = NULL, *cond = NULL, *item, *all;
	double			 v = NAN;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 2 && f.wire == PW_LEN && name == NULL)
			name = xstrndup((const char *)f.data, f.len);
		else if (f.num == 3 && f.wire == PW_FIXED64)
			v = pw_double(&f);
		else if (f.num == 5 && f.wire == PW_LEN && cond == NULL)
			cond = xstrndup((const char *)f.data, f.len);
	}
	if (name != NULL) {
		if (cond != NULL)
			item = xasprintf("%s = %.6g (%s)", name, v, cond);
		else
			item = xasprintf("%s = %.6g", name, v);
		if (u->focus != 0) {
			all = xasprintf("%s; %s", report_str(c->r, u->focus),
			    item);
			u->focus = report_intern0(c->r, all);
			free(all);
		} else
			u->focus = report_intern0(c->r, item);
		free(item);
	}
	free(name);
	free(cond);
}

struct ncurep_rulehead {
	uint32_t	ident, name, section;
};

static void
ncurep_rule_item(struct ncurep *c, uint32_t launch,
    const struct ncurep_rulehead *h, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd, md;
	struct pw_field		 f, g;
	struct report_rule	 tmp, *u;
	int			 rc;

	memset(&tmp, 0, sizeof tmp);
	tmp.speedup = NAN;
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num == 1 && f.wire == PW_LEN) {
			pw_init(&md, f.data, f.len);
			while (pw_next(&md, &g) > 0) {
				if (g.num == 1 && g.wire == PW_LEN)
					tmp.message = ncurep_sid(c, &g);
				else if (g.num == 2 && g.wire == PW_VARINT)
					tmp.type = g.u < RR_COUNT ?
					    (uint8_t)g.u : RR_NONE;
				else if (g.num == 4 && g.wire == PW_LEN)
					tmp.title = ncurep_sid(c, &g);
			}
			if (md.err != NULL)
				ncurep_subfail(c, "rule message", &md);
		} else if (f.num == 8 && f.wire == PW_LEN)
			ncurep_focus(c, f.data, f.len, &tmp);
		else if (f.num == 10 && f.wire == PW_LEN)
			ncurep_speedup(f.data, f.len, &tmp);
		else
			report_skipped(c->r, "RuleResultBodyItem", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "rule result", &rd);
	if (tmp.message == 0 && isnan(tmp.speedup))
		return;
	u = report_add_rule(c->r, launch);
	tmp.launch = launch;
	tmp.ident = h->ident;
	tmp.name = h->name;
	tmp.section = h->section;
	*u = tmp;
}

void
ncurep_rule(struct ncurep *c, uint32_t launch, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd, bd;
	struct pw_field		 f, g;
	struct ncurep_rulehead	 h;
	struct report_rule	*u;
	size_t			 before = c->r->nrules;
	int			 rc;

	memset(&h, 0, sizeof h);
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num == 1 && f.wire == PW_LEN)
			h.ident = ncurep_sid(c, &f);
		else if (f.num == 2 && f.wire == PW_LEN)
			h.name = ncurep_sid(c, &f);
		else if (f.num == 4 && f.wire == PW_LEN)
			h.section = ncurep_sid(c, &f);
		else if (f.num != 3)
			report_skipped(c->r, "RuleResult", f.num);
	}
	if (rc < 0) {
		ncurep_subfail(c, "rule result", &rd);
		return;
	}
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num != 3 || f.wire != PW_LEN)
			continue;
		pw_init(&bd, f.data, f.len);
		while (pw_next(&bd, &g) > 0) {
			if (g.num == 1 && g.wire == PW_LEN)
				ncurep_rule_item(c, launch, &h, g.data, g.len);
			else
				report_skipped(c->r, "RuleResultBody", g.num);
		}
		if (bd.err != NULL)
			ncurep_subfail(c, "rule body", &bd);
	}
	if (c->r->nrules == before) {
		/* The rule ran and had nothing to say. */
		u = report_add_rule(c->r, launch);
		u->ident = h.ident;
		u->name = h.name;
		u->section = h.section;
	}
}
