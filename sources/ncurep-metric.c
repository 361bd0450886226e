/*
 * ncurep-metric: metric values and sections. A metric's value (integer,
 * double, string or a list of elements), the metrics of a launch and of a
 * section body.
 */

#include "config.h"

#include <string.h>

#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"

/* ProfileMetricValue: exactly one of string, float, double, u32, u64. */
void
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

void
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

int
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

void
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
