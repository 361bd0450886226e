/*
 * ncurep: Nsight Compute .ncu-rep reports (see ncurep.h).
 *
 * The whole file is read into memory (reports are megabytes, not
 * gigabytes) and walked with protowire.h. Each decoder below handles one
 * message type, switching on the field numbers it knows; anything else is
 * recorded with report_skipped(). A field of a known number but an
 * unexpected wire type is treated as unknown too, so a changed type in a
 * newer writer costs that field, not the load.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/ncurep.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

#define NCUREP_MAX_FILE		((size_t)8 << 30)
#define NCUREP_MAX_DEPTH	24	/* section body nesting we follow */

/*
 * The string table of the report: every block's table in file order,
 * each extending the ones before (a result may name strings that only a
 * later block brings, so the tables are gathered before any result is
 * read). Strings are borrowed from the buffer.
 */
struct ncurep_strtab {
	const uint8_t	**s;
	size_t		 *len;
	uint32_t	 *sid;		/* interned id, or REPORT_NONE */
	size_t		  n, cap, lencap, sidcap;
};

struct ncurep_proc {
	uint32_t	 pid;
	uint32_t	 host;
	uint32_t	 name;
};

struct ncurep {
	struct report		*r;
	const char		*name;
	struct ncurep_strtab	 tab;
	struct ncurep_proc	 proc;
	size_t			 bad_name_ids;
	size_t			 nsources, nranges;
};

static uint32_t
ncurep_sid(struct ncurep *c, const struct pw_field *f)
{
	return report_intern(c->r, (const char *)f->data, f->len);
}

/* Metric name of a string table index. */
static uint32_t
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
static void
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
static void
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

/* ProfileMetricValue: exactly one of string, float, double, u32, u64. */
static void
ncurep_value(struct ncurep *c, const uint8_t *p, size_t len,
    struct report_value *v)
{
	struct pw_reader	rd;
	struct pw_field		f;
	int			rc;

	memset(v, 0, sizeof *v);
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num == 1 && f.wire == PW_LEN) {
			v->type = RV_STRING;
			v->v.s = ncurep_sid(c, &f);
		} else if (f.num == 2 && f.wire == PW_FIXED32) {
			v->type = RV_DOUBLE;
			v->v.d = pw_float(&f);
		} else if (f.num == 3 && f.wire == PW_FIXED64) {
			v->type = RV_DOUBLE;
			v->v.d = pw_double(&f);
		} else if ((f.num == 4 || f.num == 5) && f.wire == PW_VARINT) {
			v->type = RV_UINT;
			v->v.u = f.num == 4 ? (uint32_t)f.u : f.u;
		} else
			report_skipped(c->r, "MetricValue", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "metric value", &rd);
}

static void
ncurep_element(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;
	struct report_value	corr, val;
	int			rc;

	memset(&corr, 0, sizeof corr);
	memset(&val, 0, sizeof val);
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num == 1 && f.wire == PW_LEN)
			ncurep_value(c, f.data, f.len, &corr);
		else if (f.num == 2 && f.wire == PW_LEN)
			ncurep_value(c, f.data, f.len, &val);
		else
			report_skipped(c->r, "MetricListElement", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "metric instance", &rd);
	report_add_instance(c->r, &corr, &val);
}

static void
ncurep_metric(struct ncurep *c, uint32_t launch, const uint8_t *p,
    size_t len)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	struct report_metric	*m;
	struct report_value	 v;
	uint64_t		 nameid = UINT64_MAX;
	int			 rc;

	/* The name comes first in practice, but do not rely on it. */
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0)
		if (f.num == 1 && f.wire == PW_VARINT)
			nameid = f.u;
	if (rc < 0) {
		ncurep_subfail(c, "metric", &rd);
		return;
	}
	if (nameid == UINT64_MAX) {
		report_warn(c->r, "%s: a metric without a name was skipped",
		    c->name);
		return;
	}
	m = report_add_metric(c->r, launch, ncurep_name(c, nameid));
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_VARINT)
			continue;
		if (f.num == 2 && f.wire == PW_LEN) {
			ncurep_value(c, f.data, f.len, &v);
			/* report_add_instance may move the array. */
			c->r->metrics[c->r->nmetrics - 1].value = v;
		} else if (f.num == 3 && f.wire == PW_LEN)
			ncurep_element(c, f.data, f.len);
		else
			report_skipped(c->r, "MetricResult", f.num);
	}
	(void)m;
}

static void
ncurep_xyz(struct ncurep *c, const uint8_t *p, size_t len, uint64_t xyz[3])
{
	struct pw_reader	rd;
	struct pw_field		f;
	int			rc;

	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num >= 1 && f.num <= 3 && f.wire == PW_VARINT)
			xyz[f.num - 1] = f.u;
		else
			report_skipped(c->r, "Uint64x3", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "dimensions", &rd);
}

/* True if the bytes look like a metric name: [a-z0-9_.:] with a "__". */
static int
ncurep_metricish(const struct pw_field *f)
{
	size_t	i;
	int	dunder = 0;

	if (f->wire != PW_LEN || f->len < 4 || f->len > 256)
		return 0;
	for (i = 0; i < f->len; i++) {
		uint8_t ch = f->data[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    ch == '_' || ch == '.' || ch == ':'))
			return 0;
		if (i > 0 && ch == '_' && f->data[i - 1] == '_')
			dunder = 1;
	}
	return dunder;
}

static int
ncurep_text(const struct pw_field *f)
{
	size_t	i;

	if (f->wire != PW_LEN)
		return 0;
	for (i = 0; i < f->len; i++)
		if (f->data[i] < 0x20 && f->data[i] != '\t')
			return 0;
	return 1;
}

/*
 * The metrics a section shows: any nested message with a metric name in
 * field 1 and a label in field 2 (the header's and the body's metric
 * entries alike). Section bodies nest charts and tables to any depth, so
 * this walks nested messages, and gives up quietly on bytes that do not
 * parse (a string that happened to look like a message).
 */
static void
ncurep_secmetrics(struct ncurep *c, uint32_t sec, const uint8_t *p,
    size_t len, int depth)
{
	struct pw_reader	rd;
	struct pw_field		f, name, label;
	int			have_name = 0, have_label = 0;

	if (depth > NCUREP_MAX_DEPTH)
		return;
	memset(&name, 0, sizeof name);
	memset(&label, 0, sizeof label);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && ncurep_metricish(&f)) {
			name = f;
			have_name = 1;
		} else if (f.num == 2 && f.wire == PW_LEN && ncurep_text(&f)) {
			label = f;
			have_label = 1;
		}
	}
	if (rd.err != NULL)
		return;
	if (have_name) {
		report_add_secmetric(c->r, sec, ncurep_sid(c, &name),
		    have_label ? ncurep_sid(c, &label) : 0);
		return;
	}
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0)
		if (f.wire == PW_LEN && f.len > 0)
			ncurep_secmetrics(c, sec, f.data, f.len, depth + 1);
}

static void
ncurep_section(struct ncurep *c, uint32_t launch, const uint8_t *p,
    size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;
	uint32_t		ident = 0, name = 0, sec;
	int32_t			order = 0;
	int			rc;

	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num == 1 && f.wire == PW_LEN)
			ident = ncurep_sid(c, &f);
		else if (f.num == 2 && f.wire == PW_LEN)
			name = ncurep_sid(c, &f);
		else if (f.num == 3 && f.wire == PW_VARINT)
			order = (int32_t)f.u;
	}
	if (rc < 0) {
		ncurep_subfail(c, "section", &rd);
		return;
	}
	sec = report_add_section(c->r, launch, ident, name, order);
	/* Header (4) and body (5) list the section's metrics. */
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0)
		if ((f.num == 4 || f.num == 5) && f.wire == PW_LEN)
			ncurep_secmetrics(c, sec, f.data, f.len, 0);
}

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

static void
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

/* Strings anywhere below a message: the ranges of an NVTX domain state. */
static void
ncurep_nvtx_ranges(struct ncurep *c, uint32_t launch, uint32_t domain,
    const uint8_t *p, size_t len, int depth, size_t *found)
{
	struct pw_reader	rd;
	struct pw_field		f;

	if (depth > 4)
		return;
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.wire != PW_LEN || f.len == 0)
			continue;
		if (ncurep_text(&f)) {
			struct pw_reader t;
			struct pw_field g;
			int ok;
			/* A string that does not parse as a message. */
			pw_init(&t, f.data, f.len);
			while ((ok = pw_next(&t, &g)) > 0)
				;
			if (ok < 0) {
				report_add_nvtx(c->r, launch, domain,
				    ncurep_sid(c, &f));
				(*found)++;
				continue;
			}
		}
		ncurep_nvtx_ranges(c, launch, domain, f.data, f.len,
		    depth + 1, found);
	}
}

/*
 * NvtxState: 1 domains {1 id, 2 name}; 2 threads {1 tid, 2 domain states
 * {1 domain id, ranges...}}; 3 process-wide domain states. Only the
 * domains and the names of the ranges are kept; the layout of the ranges
 * is inferred (the fixtures have no open range).
 */
static void
ncurep_nvtx(struct ncurep *c, uint32_t launch, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd, sd, dd;
	struct pw_field		 f, g, h;
	uint64_t		*ids = NULL, did;
	uint32_t		*names = NULL, dom;
	size_t			 n = 0, cap = 0, ncap = 0, found = 0, i;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num != 1 || f.wire != PW_LEN)
			continue;
		XGROW(ids, cap, n + 1);
		XGROW(names, ncap, n + 1);
		ids[n] = 0;
		names[n] = 0;
		pw_init(&sd, f.data, f.len);
		while (pw_next(&sd, &g) > 0) {
			if (g.num == 1 && g.wire == PW_VARINT)
				ids[n] = g.u;
			else if (g.num == 2 && g.wire == PW_LEN)
				names[n] = ncurep_sid(c, &g);
		}
		n++;
	}
	if (rd.err != NULL)
		ncurep_subfail(c, "NVTX state", &rd);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if ((f.num != 2 && f.num != 3) || f.wire != PW_LEN)
			continue;
		/* A thread holds domain states; a domain state, ranges. */
		pw_init(&sd, f.data, f.len);
		while (pw_next(&sd, &g) > 0) {
			if (g.wire != PW_LEN)
				continue;
			did = 0;
			pw_init(&dd, g.data, g.len);
			while (pw_next(&dd, &h) > 0)
				if (h.num == 1 && h.wire == PW_VARINT)
					did = h.u;
			dom = 0;
			for (i = 0; i < n; i++)
				if (ids[i] == did)
					dom = names[i];
			pw_init(&dd, g.data, g.len);
			while (pw_next(&dd, &h) > 0)
				if (h.num != 1 && h.wire == PW_LEN)
					ncurep_nvtx_ranges(c, launch, dom,
					    h.data, h.len, 0, &found);
		}
	}
	if (found == 0)
		for (i = 0; i < n; i++)
			report_add_nvtx(c->r, launch, names[i], 0);
	free(ids);
	free(names);
}

static int
ncurep_result(struct ncurep *c, const uint8_t *p, size_t len, size_t at)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	struct report_launch	*l;
	uint32_t		 launch;
	uint64_t		 xyz[3];
	int			 rc;

	l = report_add_launch(c->r);
	launch = l->id;
	l->pid = c->proc.pid;
	l->host = c->proc.host;
	l->process = c->proc.name;
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		l = &c->r->launches[launch];
		switch (f.num) {
		case 1:
			if (f.wire != PW_VARINT)
				goto unknown;
			l->tid = (uint32_t)f.u;
			continue;
		case 2:
			if (f.wire != PW_VARINT)
				goto unknown;
			l->api_call = f.u;
			continue;
		case 5:
		case 6:
		case 7:
			if (f.wire != PW_LEN)
				goto unknown;
			if (f.num == 5)
				l->mangled = ncurep_sid(c, &f);
			else if (f.num == 6)
				l->function = ncurep_sid(c, &f);
			else
				l->demangled = ncurep_sid(c, &f);
			continue;
		case 10:
		case 11:
			if (f.wire != PW_LEN)
				goto unknown;
			memset(xyz, 0, sizeof xyz);
			ncurep_xyz(c, f.data, f.len, xyz);
			l = &c->r->launches[launch];
			memcpy(f.num == 10 ? l->grid : l->block, xyz,
			    sizeof xyz);
			continue;
		case 13:
			if (f.wire != PW_LEN)
				goto unknown;
			ncurep_metric(c, launch, f.data, f.len);
			continue;
		case 17:
			if (f.wire != PW_LEN)
				goto unknown;
			ncurep_section(c, launch, f.data, f.len);
			continue;
		case 19:
			if (f.wire != PW_LEN)
				goto unknown;
			ncurep_rule(c, launch, f.data, f.len);
			continue;
		case 21:
			if (f.wire != PW_LEN)
				goto unknown;
			ncurep_nvtx(c, launch, f.data, f.len);
			continue;
		case 22:
		case 23:
			if (f.wire != PW_VARINT)
				goto unknown;
			if (f.num == 22)
				l->context = f.u;
			else
				l->stream = f.u;
			continue;
		case 3:		/* program handle */
		case 4:		/* kernel id */
		case 8:		/* work dimensions */
		case 9:		/* global work offset */
		case 12:	/* comments */
		case 14:	/* creation time */
		case 15:	/* source reference */
		case 16:	/* API type */
		case 18:	/* section comments */
		case 20:	/* unsupported device */
			continue;
		}
unknown:
		report_skipped(c->r, "ProfileResult", f.num);
	}
	if (rc < 0) {
		report_warn(c->r, "%s: result %u at byte %zu is corrupt (%s "
		    "at byte %zu); kept what was read", c->name, launch, at,
		    rd.err, at + rd.erroff);
	}
	return 0;
}

static void
ncurep_sysinfo(struct ncurep *c, const char *prefix, const uint8_t *p,
    size_t len)
{
	static const char *const keys[] = {
		NULL, "os", "os_build", "processor", "architecture", "name"
	};
	struct pw_reader	 rd;
	struct pw_field		 f;
	char			 key[64], *v;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num >= 1 && f.num <= 5 && f.wire == PW_LEN) {
			snprintf(key, sizeof key, "%s.%s", prefix,
			    keys[f.num]);
			v = xstrndup((const char *)f.data, f.len);
			report_prop(c->r, key, v);
			free(v);
		}
	}
}

static void
ncurep_device(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd, ad;
	struct pw_field		 f, g;
	struct report_value	 v;
	uint32_t		 id = 0, name = 0, dev, aname;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_VARINT)
			id = (uint32_t)f.u;
		else if (f.num == 2 && f.wire == PW_LEN)
			name = ncurep_sid(c, &f);
	}
	dev = report_device(c->r, id, name);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num != 3 || f.wire != PW_LEN)
			continue;
		aname = 0;
		memset(&v, 0, sizeof v);
		pw_init(&ad, f.data, f.len);
		while (pw_next(&ad, &g) > 0) {
			if (g.num == 1 && g.wire == PW_LEN)
				aname = ncurep_sid(c, &g);
			else if (g.num == 2 && g.wire == PW_LEN)
				ncurep_value(c, g.data, g.len, &v);
		}
		if (aname != 0)
			report_device_attr(c->r, dev, aname, &v);
	}
	if (rd.err != NULL)
		ncurep_subfail(c, "device attributes", &rd);
}

static void
ncurep_pair(struct ncurep *c, const char *prefix, const uint8_t *p,
    size_t len)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	char			*k = NULL, *v = NULL, *key;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_LEN) {
			free(k);
			k = xstrndup((const char *)f.data, f.len);
		} else if (f.num == 2 && f.wire == PW_LEN) {
			free(v);
			v = xstrndup((const char *)f.data, f.len);
		}
	}
	if (k != NULL && *k != '\0') {
		key = xasprintf("%s.%s", prefix, k);
		report_prop(c->r, key, v != NULL ? v : "");
		free(key);
	}
	free(k);
	free(v);
}

static void
ncurep_session(struct ncurep *c, const uint8_t *p, size_t len)
{
	static const char *const exe[] = {
		NULL, "executable.path", "executable.workdir",
		"executable.arguments", "executable.environment"
	};
	struct pw_reader	 rd, sd;
	struct pw_field		 f, g;
	char			 buf[32], *v;
	int			 rc;

	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		switch (f.num) {
		case 1:
			if (f.wire != PW_VARINT)
				break;
			snprintf(buf, sizeof buf, "%llu",
			    (unsigned long long)f.u);
			report_prop(c->r, "process.id", buf);
			continue;
		case 2:
			if (f.wire != PW_VARINT)
				break;
			snprintf(buf, sizeof buf, "%llu",
			    (unsigned long long)f.u);
			report_prop(c->r, "created", buf);
			continue;
		case 3:
		case 4:
			if (f.wire != PW_LEN)
				break;
			ncurep_sysinfo(c, f.num == 3 ? "host" : "target",
			    f.data, f.len);
			continue;
		case 5:
			if (f.wire != PW_LEN)
				break;
			pw_init(&sd, f.data, f.len);
			while (pw_next(&sd, &g) > 0)
				if (g.num == 1 && g.wire == PW_LEN)
					ncurep_pair(c, "device", g.data,
					    g.len);
			continue;
		case 6:
			if (f.wire != PW_LEN)
				break;
			ncurep_device(c, f.data, f.len);
			continue;
		case 8:
			if (f.wire != PW_LEN)
				break;
			ncurep_pair(c, "version", f.data, f.len);
			continue;
		case 9:
			if (f.wire != PW_LEN)
				break;
			pw_init(&sd, f.data, f.len);
			while (pw_next(&sd, &g) > 0) {
				if (g.num < 1 || g.num > 4 ||
				    g.wire != PW_LEN)
					continue;
				v = xstrndup((const char *)g.data, g.len);
				report_prop(c->r, exe[g.num], v);
				free(v);
			}
			continue;
		case 11:
			if (f.wire != PW_LEN || !ncurep_text(&f))
				break;
			v = xstrndup((const char *)f.data, f.len);
			/* The profiler's own command line. */
			while (*v != '\0' && v[strlen(v) - 1] == ' ')
				v[strlen(v) - 1] = '\0';
			report_prop(c->r, "profiler.command", v);
			free(v);
			continue;
		case 7:		/* comments */
		case 10:	/* profiler settings */
			continue;
		}
		report_skipped(c->r, "SessionDetails", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "session details", &rd);
}

static void
ncurep_process(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;

	memset(&c->proc, 0, sizeof c->proc);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_VARINT)
			c->proc.pid = (uint32_t)f.u;
		else if (f.num == 2 && f.wire == PW_LEN)
			c->proc.host = ncurep_sid(c, &f);
		else if (f.num == 3 && f.wire == PW_LEN)
			c->proc.name = ncurep_sid(c, &f);
	}
}

static uint32_t
ncurep_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

int
ncurep_probe(const void *head, size_t len)
{
	return len >= 4 && memcmp(head, NCUREP_MAGIC, 4) == 0;
}

struct ncurep_block {
	uint64_t	 nsources, nresults, nranges, payload;
	int		 has_payload;
};

static int
ncurep_block_header(struct ncurep *c, const uint8_t *p, size_t len,
    size_t at, struct ncurep_block *b, char **cause)
{
	struct pw_reader	rd;
	struct pw_field		f;
	int			rc;

	memset(b, 0, sizeof *b);
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		switch (f.num) {
		case 1:
		case 2:
		case 5:
		case 7:
			if (f.wire != PW_VARINT)
				break;
			if (f.num == 1)
				b->nsources = f.u;
			else if (f.num == 2)
				b->nresults = f.u;
			else if (f.num == 7)
				b->nranges = f.u;
			else {
				b->payload = f.u;
				b->has_payload = 1;
			}
			continue;
		case 3:
			if (f.wire != PW_LEN)
				break;
			ncurep_session(c, f.data, f.len);
			continue;
		case 4:
			if (f.wire != PW_LEN)
				break;
			/* Gathered before: see ncurep_tables(). */
			continue;
		case 6:
			if (f.wire != PW_LEN)
				break;
			ncurep_process(c, f.data, f.len);
			continue;
		}
		report_skipped(c->r, "BlockHeader", f.num);
	}
	if (rc < 0) {
		*cause = xasprintf("%s: corrupt Nsight Compute report: block "
		    "header at byte %zu: %s at byte %zu", c->name, at, rd.err,
		    at + rd.erroff);
		return -1;
	}
	return 0;
}

/*
 * Gathers the string tables of every block before any result is read: a
 * result may name a metric whose string a later block brings. The walk
 * stops quietly where the container is broken; the full read that follows
 * reports it.
 */
static void
ncurep_tables(struct ncurep *c, const uint8_t *p, size_t len, size_t off)
{
	struct pw_reader	rd;
	struct pw_field		f;
	uint64_t		payload;
	uint32_t		sz;

	while (off < len && len - off >= 4) {
		sz = ncurep_le32(p + off);
		off += 4;
		if (sz > len - off)
			return;
		payload = 0;
		pw_init(&rd, p + off, sz);
		while (pw_next(&rd, &f) > 0) {
			if (f.num == 4 && f.wire == PW_LEN && f.len > 0)
				ncurep_strtab(c, f.data, f.len);
			else if (f.num == 5 && f.wire == PW_VARINT)
				payload = f.u;
		}
		off += sz;
		if (rd.err != NULL || payload > len - off)
			return;
		off += (size_t)payload;
	}
}

/*
 * The launch's device, from its launch__device_id metric, or, where the
 * profiler recorded no launch statistics, its device__attribute_*.
 */
static void
ncurep_devices(struct report *r)
{
	const struct report_metric	*m;
	size_t				 i, j;
	double				 id;

	for (i = 0; i < r->nlaunches; i++) {
		if ((report_metric_num(r, (uint32_t)i, "launch__device_id",
		    &id) != 0 && report_metric_num(r, (uint32_t)i,
		    "device__attribute_device_index", &id) != 0) || id < 0 ||
		    id > 1e9)
			continue;
		for (j = 0; j < r->ndevices; j++)
			if (r->devices[j].id == (uint32_t)id)
				break;
		if (j == r->ndevices) {
			m = report_metric(r, (uint32_t)i,
			    "device__attribute_display_name");
			j = report_device(r, (uint32_t)id, m != NULL &&
			    m->value.type == RV_STRING ? m->value.v.s : 0);
		}
		r->launches[i].device = (uint32_t)j;
	}
}

/*
 * A launch the profiler could not measure (its replay failed: ncu then
 * writes the device attributes, no launch statistics and NaN for the
 * rest) reads as a row of blanks; say why.
 */
static void
ncurep_unmeasured(struct report *r, const char *name)
{
	const struct report_metric	*m;
	const struct report_launch	*l;
	size_t				 i, j, nan;
	double				 d;

	for (i = 0; i < r->nlaunches; i++) {
		l = &r->launches[i];
		if (report_metric_num(r, (uint32_t)i, "gpu__time_duration.sum",
		    &d) == 0 && !isnan(d))
			continue;
		if (report_metric(r, (uint32_t)i, "launch__grid_size") != NULL)
			continue;
		nan = 0;
		for (j = 0; j < l->nmetrics; j++) {
			m = &r->metrics[l->metric + j];
			if (m->value.type == RV_DOUBLE && isnan(m->value.v.d))
				nan++;
		}
		report_warn(r, "%s: launch %zu (%s) was not measured: it has "
		    "no launch statistics and %zu of its %u metrics have no "
		    "value", name, i, report_str(r, l->function), nan,
		    l->nmetrics);
	}
}

struct report *
ncurep_parse(const void *buf, size_t len, const char *name, char **cause)
{
	const uint8_t		*p = buf;
	struct ncurep		 c;
	struct ncurep_block	 b;
	struct pw_reader	 rd;
	struct pw_field		 f;
	size_t			 off, hlen, end, at;
	uint64_t		 e, nentries;
	uint32_t		 sz;
	char			 ver[16];

	if (len < 8 || !ncurep_probe(buf, len)) {
		*cause = xasprintf("%s: not an Nsight Compute report (no NVR "
		    "header)", name);
		return NULL;
	}
	memset(&c, 0, sizeof c);
	c.name = name;
	c.r = report_new(REPORT_NCU_REP);
	hlen = ncurep_le32(p + 4);
	if (hlen > len - 8) {
		*cause = xasprintf("%s: truncated Nsight Compute report: the "
		    "file header needs %zu bytes, %zu remain", name, hlen,
		    len - 8);
		goto fail;
	}
	pw_init(&rd, p + 8, hlen);
	while (pw_next(&rd, &f) > 0)
		if (f.num == 1 && f.wire == PW_VARINT)
			c.r->version = (uint32_t)f.u;
	if (rd.err != NULL) {
		*cause = xasprintf("%s: corrupt Nsight Compute report: file "
		    "header: %s", name, rd.err);
		goto fail;
	}
	snprintf(ver, sizeof ver, "%u", c.r->version);
	report_prop(c.r, "format.version", ver);
	if (c.r->version > NCUREP_KNOWN_VERSION)
		report_warn(c.r, "%s: report format version %u is newer than "
		    "%u, the newest gpulens knows: what could be read was "
		    "loaded", name, c.r->version, NCUREP_KNOWN_VERSION);
	else if (c.r->version == 0)
		report_warn(c.r, "%s: the file header has no format version",
		    name);

	off = 8 + hlen;
	ncurep_tables(&c, p, len, off);
	while (off < len) {
		at = off;
		if (len - off < 4) {
			*cause = xasprintf("%s: truncated Nsight Compute "
			    "report: %zu stray bytes at byte %zu", name,
			    len - off, off);
			goto fail;
		}
		sz = ncurep_le32(p + off);
		off += 4;
		if (sz > len - off) {
			*cause = xasprintf("%s: truncated Nsight Compute "
			    "report: block header at byte %zu needs %u bytes, "
			    "%zu remain", name, at, sz, len - off);
			goto fail;
		}
		if (ncurep_block_header(&c, p + off, sz, off, &b, cause) != 0)
			goto fail;
		off += sz;
		if (b.payload > len - off) {
			*cause = xasprintf("%s: truncated Nsight Compute "
			    "report: the payload of the block at byte %zu "
			    "needs %llu bytes, %zu remain", name, at,
			    (unsigned long long)b.payload, len - off);
			goto fail;
		}
		end = off + (size_t)b.payload;
		/* Each entry takes at least its 4-byte size. */
		nentries = b.nsources + b.nresults + b.nranges;
		if (b.nsources > b.payload / 4 || b.nresults > b.payload / 4 ||
		    b.nranges > b.payload / 4 || nentries > b.payload / 4) {
			*cause = xasprintf("%s: corrupt Nsight Compute "
			    "report: the block at byte %zu claims %llu "
			    "entries in %llu bytes", name, at,
			    (unsigned long long)nentries,
			    (unsigned long long)b.payload);
			goto fail;
		}
		for (e = 0; e < nentries; e++) {
			if (end - off < 4 ||
			    (sz = ncurep_le32(p + off)) > end - off - 4) {
				*cause = xasprintf("%s: corrupt Nsight "
				    "Compute report: entry %llu of the block "
				    "at byte %zu runs past its payload (byte "
				    "%zu)", name, (unsigned long long)e, at,
				    off);
				goto fail;
			}
			off += 4;
			if (e < b.nsources)
				c.nsources++;
			else if (e < b.nsources + b.nresults)
				ncurep_result(&c, p + off, sz, off);
			else
				c.nranges++;
			off += sz;
		}
		off = end;
	}
	if (c.bad_name_ids > 0)
		report_warn(c.r, "%s: %zu metric name ids lie outside the "
		    "string table", name, c.bad_name_ids);
	if (c.nranges > 0)
		report_warn(c.r, "%s: %zu range results (range replay) were "
		    "not read", name, c.nranges);
	if (c.r->nlaunches == 0)
		report_warn(c.r, "%s: the report holds no profiled launch",
		    name);
	free(c.tab.s);
	free(c.tab.len);
	free(c.tab.sid);
	report_finish(c.r);
	ncurep_devices(c.r);
	ncurep_unmeasured(c.r, name);
	return c.r;

fail:
	free(c.tab.s);
	free(c.tab.len);
	free(c.tab.sid);
	report_free(c.r);
	return NULL;
}

struct report *
ncurep_load(const char *path, char **cause)
{
	struct report	*r;
	char		*buf = NULL;
	size_t		 len = 0;
	struct zfile	*z;
	enum zfile_kind	 kind;

	if ((z = zfile_open(path, cause)) == NULL)
		return NULL;
	kind = zfile_kind(z);
	zfile_close(z);
	if (zfile_slurp(path, &buf, &len, NCUREP_MAX_FILE, cause) != 0)
		return NULL;
	r = ncurep_parse(buf, len, path, cause);
	free(buf);
	if (r != NULL && kind != ZFILE_PLAIN)
		r->format = REPORT_NCU_REPZ;
	return r;
}
