/*
 * report: an Nsight Compute report in memory (see report.h).
 *
 * Readers append launches, metrics, sections, rules and NVTX entries in
 * whatever order their format gives them, each tagged with its launch;
 * report_finish() sorts each array by launch (metrics also by name, for
 * binary search), records each launch's ranges, and copies the label and
 * section of every metric a section lists onto the metric.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/nametab.h"
#include "util/strpool.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define REPORT_MAX_WARNINGS	64

struct report *
report_new(int format)
{
	struct report	*r;

	r = xcalloc(1, sizeof *r);
	r->format = (uint8_t)format;
	r->strs = strpool_new();
	return r;
}

void
report_free(struct report *r)
{
	if (r == NULL)
		return;
	strpool_free(r->strs);
	free(r->launches);
	free(r->metrics);
	free(r->instances);
	free(r->sections);
	free(r->secmetrics);
	free(r->rules);
	free(r->nvtx);
	free(r->devices);
	free(r->attrs);
	free(r->attr_dev);
	free(r->props);
	xfree_strv(r->warnings, r->nwarnings);
	free(r->skipped);
	report_code_free(&r->code);
	free(r->range_bytes);
	free(r);
}

uint32_t
report_intern(struct report *r, const char *s, size_t len)
{
	return strpool_intern(r->strs, s, len);
}

uint32_t
report_intern0(struct report *r, const char *s)
{
	return strpool_intern0(r->strs, s);
}

const char *
report_str(const struct report *r, uint32_t id)
{
	return strpool_get(r->strs, id);
}

struct report_launch *
report_add_launch(struct report *r)
{
	struct report_launch	*l;

	l = XAPPEND(r->launches, r->launchescap, r->nlaunches);
	l->id = (uint32_t)r->nlaunches++;
	l->device = REPORT_NONE;
	l->module = l->func = REPORT_NONE;
	return l;
}

struct report_metric *
report_add_metric(struct report *r, uint32_t launch, uint32_t name)
{
	struct report_metric	*m;

	m = XAPPEND(r->metrics, r->metricscap, r->nmetrics++);
	m->launch = launch;
	m->name = name;
	m->section = REPORT_NONE;
	m->inst = (uint32_t)r->ninstances;
	m->seq = (uint32_t)(r->nmetrics - 1);
	return m;
}

void
report_add_instance(struct report *r, const struct report_value *corr,
    const struct report_value *value)
{
	struct report_instance	*in;

	if (r->nmetrics == 0)
		return;
	XGROW(r->instances, r->instancescap, r->ninstances + 1);
	in = &r->instances[r->ninstances++];
	in->corr = *corr;
	in->value = *value;
	r->metrics[r->nmetrics - 1].ninst++;
}

uint32_t
report_add_section(struct report *r, uint32_t launch, uint32_t ident,
    uint32_t name, int32_t order)
{
	struct report_section	*s;

	XGROW(r->sections, r->sectionscap, r->nsections + 1);
	s = &r->sections[r->nsections];
	s->launch = launch;
	s->ident = ident;
	s->name = name;
	s->order = order;
	return (uint32_t)r->nsections++;
}

void
report_add_secmetric(struct report *r, uint32_t section, uint32_t name,
    uint32_t label)
{
	struct report_secmetric	 s = { section, name, label };

	XPUSH(r->secmetrics, r->secmetricscap, r->nsecmetrics, s);
}

struct report_rule *
report_add_rule(struct report *r, uint32_t launch)
{
	struct report_rule	*u;

	u = XAPPEND(r->rules, r->rulescap, r->nrules++);
	u->launch = launch;
	u->speedup = NAN;
	return u;
}

void
report_add_nvtx(struct report *r, uint32_t launch, uint32_t domain,
    uint32_t range)
{
	struct report_nvtx	 n = { launch, domain, range };

	XPUSH(r->nvtx, r->nvtxcap, r->nnvtx, n);
}

uint32_t
report_device(struct report *r, uint32_t id, uint32_t name)
{
	struct report_device	*d;
	size_t			 i;

	for (i = 0; i < r->ndevices; i++) {
		if (r->devices[i].id == id) {
			if (name != 0)
				r->devices[i].name = name;
			return (uint32_t)i;
		}
	}
	d = XAPPEND(r->devices, r->devicescap, r->ndevices);
	d->id = id;
	d->name = name;
	return (uint32_t)r->ndevices++;
}

void
report_device_attr(struct report *r, uint32_t dev, uint32_t name,
    const struct report_value *v)
{
	size_t	i;

	if (dev >= r->ndevices)
		return;
	for (i = 0; i < r->nattrs; i++) {
		if (r->attr_dev[i] == dev && r->attrs[i].name == name) {
			r->attrs[i].value = *v;
			return;
		}
	}
	XGROW(r->attrs, r->attrscap, r->nattrs + 1);
	XGROW(r->attr_dev, r->attrdevcap, r->nattrs + 1);
	r->attrs[r->nattrs].name = name;
	r->attrs[r->nattrs].value = *v;
	r->attr_dev[r->nattrs++] = dev;
}

void
report_prop(struct report *r, const char *key, const char *value)
{
	uint32_t	k, v;
	size_t		i;

	k = report_intern0(r, key);
	v = report_intern0(r, value);
	for (i = 0; i < r->nprops; i++) {
		if (r->props[i].key == k) {
			r->props[i].value = v;
			return;
		}
	}
	XGROW(r->props, r->propscap, r->nprops + 1);
	r->props[r->nprops].key = k;
	r->props[r->nprops++].value = v;
}

void
report_warn(struct report *r, const char *fmt, ...)
{
	va_list	ap;
	char	*s;
	size_t	 i;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	for (i = 0; i < r->nwarnings; i++) {
		if (strcmp(r->warnings[i], s) == 0) {
			free(s);
			return;
		}
	}
	if (r->nwarnings == REPORT_MAX_WARNINGS) {
		free(s);
		return;
	}
	XGROW(r->warnings, r->warningscap, r->nwarnings + 1);
	r->warnings[r->nwarnings++] = s;
}

void
report_skipped(struct report *r, const char *what, uint32_t field)
{
	char	 item[96], *p;
	size_t	 len;

	snprintf(item, sizeof item, "%s.%u", what, field);
	len = strlen(item);
	/* Each message.field once, in the order first met. */
	if (r->skipped != NULL) {
		for (p = r->skipped; (p = strstr(p, item)) != NULL; p++) {
			if ((p == r->skipped || p[-1] == ' ') &&
			    (p[len] == '\0' || p[len] == ' '))
				return;
		}
		if (strlen(r->skipped) > 2048)
			return;
		xstrcatf(&r->skipped, " %s", item);
	} else
		r->skipped = xstrdup(item);
}

/* Metrics by launch, then name (through the pool: the report is ctx). */
static int
report_metric_cmp(const void *a, const void *b, void *ctx)
{
	const struct report		*r = ctx;
	const struct report_metric	*x = a, *y = b;
	int				 c;

	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	if ((c = strcmp(report_str(r, x->name), report_str(r, y->name))) != 0)
		return c;
	/* Stable for equal names: keep the order read. */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The indices of n records (of size sz, launch field at off) in a stable
 * order by launch; launches out of range last. Caller frees. */
static uint32_t *
report_order(const struct report *r, const void *base, size_t n, size_t sz,
    size_t off)
{
	const char	*b = base;
	uint32_t	*count, *order, launch;
	size_t		 i, nl = r->nlaunches;

	count = xcalloc(nl + 2, sizeof *count);
	order = xcalloc(n + 1, sizeof *order);
	for (i = 0; i < n; i++) {
		memcpy(&launch, b + i * sz + off, sizeof launch);
		count[(launch < nl ? launch : nl) + 1]++;
	}
	for (i = 1; i <= nl + 1; i++)
		count[i] += count[i - 1];
	for (i = 0; i < n; i++) {
		memcpy(&launch, b + i * sz + off, sizeof launch);
		order[count[launch < nl ? launch : nl]++] = (uint32_t)i;
	}
	free(count);
	return order;
}

/*
 * Groups n records of size sz by their launch field (at offset off), in a
 * stable order, and writes each launch's first index and count into its
 * fields at first_off and count_off.
 */
static void
report_group(struct report *r, void *base, size_t n, size_t sz, size_t off,
    size_t first_off, size_t count_off)
{
	uint32_t	*order, launch, first, cnt;
	char		*tmp, *b = base;
	size_t		 i;

	for (i = 0; i < r->nlaunches; i++) {
		first = cnt = 0;
		memcpy((char *)&r->launches[i] + first_off, &first,
		    sizeof first);
		memcpy((char *)&r->launches[i] + count_off, &cnt, sizeof cnt);
	}
	if (n == 0)
		return;
	order = report_order(r, base, n, sz, off);
	tmp = xmalloc(n * sz);
	for (i = 0; i < n; i++)
		memcpy(tmp + i * sz, b + (size_t)order[i] * sz, sz);
	memcpy(base, tmp, n * sz);
	free(tmp);
	free(order);
	for (i = 0; i < n; i++) {
		memcpy(&launch, b + i * sz + off, sizeof launch);
		if (launch >= r->nlaunches)
			break;		/* out-of-range launches come last */
		memcpy(&cnt, (char *)&r->launches[launch] + count_off,
		    sizeof cnt);
		if (cnt++ == 0) {
			first = (uint32_t)i;
			memcpy((char *)&r->launches[launch] + first_off,
			    &first, sizeof first);
		}
		memcpy((char *)&r->launches[launch] + count_off, &cnt,
		    sizeof cnt);
	}
}

static int
report_attr_cmp(const void *a, const void *b)
{
	const uint32_t	*x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 :
	    x[1] < y[1] ? -1 : x[1] > y[1];
}

void
report_finish(struct report *r)
{
	struct report_metric	*m;
	struct report_attr	*na;
	uint32_t		*order, *nd;
	size_t			 i, j;

	/* Metrics of a launch that does not exist would never be seen. */
	for (i = j = 0; i < r->nmetrics; i++)
		if (r->metrics[i].launch < r->nlaunches)
			r->metrics[j++] = r->metrics[i];
	r->nmetrics = j;
	sort_stable(r->metrics, r->nmetrics, sizeof *r->metrics,
	    report_metric_cmp, r);
	for (i = 0; i < r->nlaunches; i++)
		r->launches[i].metric = r->launches[i].nmetrics = 0;
	for (i = 0; i < r->nmetrics; i++) {
		struct report_launch *l = &r->launches[r->metrics[i].launch];
		if (l->nmetrics++ == 0)
			l->metric = (uint32_t)i;
	}

	/* Sections are grouped (a stable counting sort by launch) with the
	 * references to them renumbered to match. */
	order = report_order(r, r->sections, r->nsections,
	    sizeof *r->sections, offsetof(struct report_section, launch));
	if (r->nsections > 0) {
		struct report_section *ns = xcalloc(r->nsections, sizeof *ns);
		uint32_t *newidx = xcalloc(r->nsections, sizeof *newidx);
		for (i = 0; i < r->nsections; i++) {
			ns[i] = r->sections[order[i]];
			newidx[order[i]] = (uint32_t)i;
		}
		free(r->sections);
		r->sections = ns;
		r->sectionscap = r->nsections;
		for (i = 0; i < r->nsecmetrics; i++)
			if (r->secmetrics[i].section < r->nsections)
				r->secmetrics[i].section =
				    newidx[r->secmetrics[i].section];
		for (i = 0; i < r->nmetrics; i++)
			if (r->metrics[i].section < r->nsections)
				r->metrics[i].section =
				    newidx[r->metrics[i].section];
		free(newidx);
	}
	free(order);
	for (i = 0; i < r->nlaunches; i++)
		r->launches[i].section = r->launches[i].nsections = 0;
	for (i = 0; i < r->nsections; i++) {
		struct report_launch *l;
		if (r->sections[i].launch >= r->nlaunches)
			continue;
		l = &r->launches[r->sections[i].launch];
		if (l->nsections++ == 0)
			l->section = (uint32_t)i;
	}
	report_group(r, r->rules, r->nrules, sizeof *r->rules,
	    offsetof(struct report_rule, launch),
	    offsetof(struct report_launch, rule),
	    offsetof(struct report_launch, nrules));
	report_group(r, r->nvtx, r->nnvtx, sizeof *r->nvtx,
	    offsetof(struct report_nvtx, launch),
	    offsetof(struct report_launch, nvtx),
	    offsetof(struct report_launch, nnvtx));

	/* Labels and sections of listed metrics: the first listing wins. */
	for (i = 0; i < r->nsecmetrics; i++) {
		const struct report_secmetric *sm = &r->secmetrics[i];
		if (sm->section >= r->nsections)
			continue;
		m = (struct report_metric *)report_metric(r,
		    r->sections[sm->section].launch,
		    report_str(r, sm->name));
		if (m == NULL)
			continue;
		if (m->section == REPORT_NONE)
			m->section = sm->section;
		/* Chart templates ("{UNIT}: {COMPOUND_NAME}") are not
		 * labels. */
		if (m->label == 0 && strchr(report_str(r, sm->label), '{') ==
		    NULL)
			m->label = sm->label;
	}
	for (i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].unit == 0)
			r->metrics[i].unit = report_intern0(r,
			    report_unit_guess(report_str(r,
			    r->metrics[i].name)));

	/* Device attributes grouped by device. */
	if (r->nattrs > 0) {
		uint32_t *keys = xcalloc(r->nattrs, 2 * sizeof *keys);
		for (i = 0; i < r->nattrs; i++) {
			keys[2 * i] = r->attr_dev[i];
			keys[2 * i + 1] = (uint32_t)i;
		}
		qsort(keys, r->nattrs, 2 * sizeof *keys, report_attr_cmp);
		na = xcalloc(r->nattrs, sizeof *na);
		nd = xcalloc(r->nattrs, sizeof *nd);
		for (i = 0; i < r->nattrs; i++) {
			na[i] = r->attrs[keys[2 * i + 1]];
			nd[i] = keys[2 * i];
		}
		free(r->attrs);
		free(r->attr_dev);
		r->attrs = na;
		r->attr_dev = nd;
		r->attrscap = r->attrdevcap = r->nattrs;
		free(keys);
	}
	report_code_finish(r);
	for (i = 0; i < r->ndevices; i++)
		r->devices[i].attr = r->devices[i].nattrs = 0;
	for (i = 0; i < r->nattrs; i++) {
		struct report_device *d = &r->devices[r->attr_dev[i]];
		if (d->nattrs++ == 0)
			d->attr = (uint32_t)i;
	}
}

const struct report_metric *
report_metric(const struct report *r, uint32_t launch, const char *name)
{
	const struct report_launch	*l;
	size_t				 lo, hi, mid;
	int				 c;

	if (launch >= r->nlaunches)
		return NULL;
	l = &r->launches[launch];
	lo = l->metric;
	hi = (size_t)l->metric + l->nmetrics;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(report_str(r, r->metrics[mid].name), name);
		if (c == 0)
			return &r->metrics[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

double
report_value_num(const struct report_value *v)
{
	switch (v->type) {
	case RV_DOUBLE:
		return v->v.d;
	case RV_UINT:
		return (double)v->v.u;
	default:
		return NAN;
	}
}

int
report_metric_num(const struct report *r, uint32_t launch, const char *name,
    double *out)
{
	const struct report_metric	*m;
	double				 d;

	if ((m = report_metric(r, launch, name)) == NULL)
		return -1;
	d = report_value_num(&m->value);
	if (isnan(d))
		return -1;
	*out = d;
	return 0;
}

const char *
report_value_fmt(const struct report *r, const struct report_value *v,
    char *buf, size_t len)
{
	switch (v->type) {
	case RV_DOUBLE:
		snprintf(buf, len, "%.15g", v->v.d);
		break;
	case RV_UINT:
		snprintf(buf, len, "%llu", (unsigned long long)v->v.u);
		break;
	case RV_STRING:
		snprintf(buf, len, "%s", report_str(r, v->v.s));
		break;
	default:
		snprintf(buf, len, "%s", "");
		break;
	}
	return buf;
}

const char *
report_launch_name(const struct report *r, uint32_t launch)
{
	const struct report_launch	*l;

	if (launch >= r->nlaunches)
		return "";
	l = &r->launches[launch];
	if (l->demangled != 0)
		return report_str(r, l->demangled);
	if (l->function != 0)
		return report_str(r, l->function);
	return report_str(r, l->mangled);
}

const struct report_value *
report_device_attr_get(const struct report *r, uint32_t dev,
    const char *name)
{
	const struct report_device	*d;
	size_t				 i;

	if (dev >= r->ndevices)
		return NULL;
	d = &r->devices[dev];
	for (i = d->attr; i < (size_t)d->attr + d->nattrs; i++)
		if (strcmp(report_str(r, r->attrs[i].name), name) == 0)
			return &r->attrs[i].value;
	return NULL;
}

const char *
report_prop_get(const struct report *r, const char *key)
{
	size_t	i;

	for (i = 0; i < r->nprops; i++)
		if (strcmp(report_str(r, r->props[i].key), key) == 0)
			return report_str(r, r->props[i].value);
	return NULL;
}

static const char *const report_rule_types[RR_COUNT] = {
	"", "INF", "WRN", "ERR", "OPT"
};

const char *
report_rule_type_name(int t)
{
	return NAMETAB(report_rule_types, t, "");
}

int
report_rule_type_find(const char *s)
{
	int	t = NAMETAB_FIND(report_rule_types, s);

	return t >= 0 ? t : RR_NONE;
}

const char *
report_speedup_type_name(int t)
{
	switch (t) {
	case RS_LOCAL:
		return "local";
	case RS_GLOBAL:
		return "global";
	default:
		return NULL;
	}
}

const char *
report_format_name(int f)
{
	switch (f) {
	case REPORT_NCU_REP:
		return "ncu-rep";
	case REPORT_NCU_REPZ:
		return "ncu-repz";
	case REPORT_NCU_CSV_DETAILS:
		return "ncu-csv";
	case REPORT_NCU_CSV_RAW:
		return "ncu-csv-raw";
	default:
		return "unknown";
	}
}

static int
report_has(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

static int
report_ends(const char *s, const char *suf)
{
	size_t	a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

const char *
report_unit_guess(const char *n)
{
	/* Ratios and per-cycle rates have no unit worth guessing. */
	if (report_ends(n, ".ratio") || report_has(n, ".per_cycle_"))
		return "";
	if (report_has(n, "pct"))
		return "%";
	if (strncmp(n, "gpu__time_", 10) == 0)
		return "ns";
	if (report_ends(n, ".per_second"))
		return report_has(n, "bytes") ? "byte/s" :
		    report_has(n, "cycles") ? "hz" : "1/s";
	if (report_has(n, "bytes") || report_has(n, "shared_mem_per_block") ||
	    report_has(n, "memory_size") || report_has(n, "cache_size"))
		return "byte";
	if (report_has(n, "frequency_khz"))
		return "khz";
	if (report_has(n, "cycles") && (report_ends(n, ".sum") ||
	    report_ends(n, ".avg") || report_ends(n, ".max") ||
	    report_ends(n, ".min")))
		return "cycle";
	if (strcmp(n, "launch__registers_per_thread") == 0)
		return "register/thread";
	return "";
}

/* The metric of each headline figure. */
static const struct {
	const char	*metric;
	size_t		 off;	/* in struct report_headline */
} report_headline_metrics[] = {
	{ "gpu__time_duration.sum",
	    offsetof(struct report_headline, duration_ns) },
	{ "sm__throughput.avg.pct_of_peak_sustained_elapsed",
	    offsetof(struct report_headline, sm_pct) },
	{ "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
	    offsetof(struct report_headline, mem_pct) },
	{ "sm__warps_active.avg.pct_of_peak_sustained_active",
	    offsetof(struct report_headline, occupancy_pct) },
	{ "launch__registers_per_thread",
	    offsetof(struct report_headline, registers) },
};

void
report_headline(const struct report *r, uint32_t launch,
    struct report_headline *h)
{
	double	*v;
	size_t	 i;

	for (i = 0; i < sizeof report_headline_metrics /
	    sizeof report_headline_metrics[0]; i++) {
		v = (double *)((char *)h + report_headline_metrics[i].off);
		if (report_metric_num(r, launch,
		    report_headline_metrics[i].metric, v) != 0)
			*v = NAN;
	}
}
