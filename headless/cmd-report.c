/*
 * cmd-report: the helpers of the report verbs, and the report
 * forms of info, summary and inspect (see cmd-report.h).
 *
 *   info REPORT      format, versions, host, devices with their main
 *                    attributes, counts of launches, metrics, sections and
 *                    rule results, warnings and the fields skipped
 *   summary REPORT   one row per kernel (function name): launches, total,
 *                    mean, min and max duration, mean SM and memory
 *                    throughput and achieved occupancy, rule messages
 *   inspect REPORT ID...
 *                    every metric of the launches (section, label, name,
 *                    unit, value, instance count) and every rule message
 *                    (type, estimated speedup, message, focus metrics)
 */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd-report.h"
#include "sources/ncu.h"
#include "report/report.h"
#include "util/sanitize.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

/* Metric values keep every digit: the shortest text that reads back as
 * the same double (out_num's three decimals would lose 1e-5 ratios). */
void
cmd_report_num(cJSON *row, const char *key, double v)
{
	char	buf[40];
	int	prec;

	if (isnan(v) || isinf(v)) {
		cJSON_AddNullToObject(row, key);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, sizeof buf, "0");
	cJSON_AddItemToObject(row, key, cJSON_CreateRaw(buf));
}

void
cmd_report_speedup(cJSON *row, const struct report_rule *u)
{
	cmd_report_num(row, "estimated_speedup_pct", u->speedup);
	if (report_speedup_type_name(u->speedup_type) != NULL)
		out_str(row, "speedup_type",
		    report_speedup_type_name(u->speedup_type));
	else
		cJSON_AddNullToObject(row, "speedup_type");
}

void
cmd_report_value(cJSON *row, const char *key, const struct report *r,
    const struct report_value *v)
{
	char	buf[32];

	switch (v->type) {
	case RV_DOUBLE:
		cmd_report_num(row, key, v->v.d);
		break;
	case RV_UINT:
		/* Exact: cJSON numbers are doubles. */
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->v.u);
		cJSON_AddItemToObject(row, key, cJSON_CreateRaw(buf));
		break;
	case RV_STRING:
		out_str(row, key, report_str(r, v->v.s));
		break;
	default:
		cJSON_AddNullToObject(row, key);
		break;
	}
}

static cJSON *
cmd_report_xyz(const uint64_t v[3])
{
	cJSON	*a = cJSON_CreateArray();
	char	 buf[32];
	int	 i;

	for (i = 0; i < 3; i++) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v[i]);
		cJSON_AddItemToArray(a, cJSON_CreateRaw(buf));
	}
	return a;
}

void
cmd_report_launch_fields(cJSON *row, const struct report *r, uint32_t i)
{
	const struct report_launch	*l = &r->launches[i];

	out_int(row, "launch_id", l->id);
	out_str(row, "kernel", report_launch_name(r, i));
	out_str(row, "function", report_str(r, l->function));
	cJSON_AddItemToObject(row, "grid", cmd_report_xyz(l->grid));
	cJSON_AddItemToObject(row, "block", cmd_report_xyz(l->block));
	if (l->device < r->ndevices)
		out_int(row, "device", r->devices[l->device].id);
	else
		cJSON_AddNullToObject(row, "device");
	out_int(row, "context", (int64_t)l->context);
	out_int(row, "stream", (int64_t)l->stream);
	out_int(row, "pid", l->pid);
}

void
cmd_report_aux(struct out *out, const struct report *r, const char *path)
{
	cJSON		*a = cJSON_AddObjectToObject(out->aux, "report");
	const char	*tool;

	tool = report_prop_get(r, "version.Nsight Compute Target");
	out_str(a, "path", path);
	out_str(a, "format", report_format_name(r->format));
	out_int_or_null(a, "version", r->version != 0, r->version);
	out_str_or_null(a, "tool_version", tool);
	out_int(a, "launches", (int64_t)r->nlaunches);
}

int
cmd_report_parse_id(const char *s, uint32_t *id)
{
	return rowkey_parse_id(s, "launch", id);
}

int
cmd_report_sel_init(struct cmd_report_sel *s, const struct report *r,
    const struct opts *o, char **cause)
{
	char	err[128];
	int	rc;

	memset(s, 0, sizeof *s);
	s->r = r;
	s->o = o;
	s->only = REPORT_NONE;
	if (o->name_regex != NULL) {
		if ((rc = regcomp(&s->re, o->name_regex,
		    REG_EXTENDED | REG_NOSUB)) != 0) {
			regerror(rc, &s->re, err, sizeof err);
			*cause = xasprintf("bad --name-regex '%s': %s",
			    o->name_regex, err);
			return -1;
		}
		s->has_re = 1;
	}
	return 0;
}

static int
cmd_report_sel_name(const struct cmd_report_sel *s, const char *name)
{
	if (*name == '\0')
		return 0;
	if (s->o->name_glob != NULL && fnmatch(s->o->name_glob, name, 0) != 0)
		return 0;
	if (s->has_re && regexec(&s->re, name, 0, NULL, 0) != 0)
		return 0;
	return 1;
}

int
cmd_report_sel_launch(const struct cmd_report_sel *s, uint32_t i)
{
	const struct report		*r = s->r;
	const struct report_launch	*l = &r->launches[i];
	const struct opts		*o = s->o;
	struct report_headline		 h;

	if (s->only != REPORT_NONE && i != s->only)
		return 0;
	if (o->name_glob != NULL || s->has_re) {
		/* Any of the names may match. */
		if (!cmd_report_sel_name(s, report_str(r, l->demangled)) &&
		    !cmd_report_sel_name(s, report_str(r, l->function)) &&
		    !cmd_report_sel_name(s, report_str(r, l->mangled)))
			return 0;
	}
	if (o->device >= 0 && (l->device >= r->ndevices ||
	    r->devices[l->device].id != (uint64_t)o->device))
		return 0;
	if (o->stream >= 0 && l->stream != (uint64_t)o->stream)
		return 0;
	if (o->pid >= 0 && l->pid != (uint64_t)o->pid)
		return 0;
	if (o->tid >= 0 && l->tid != (uint64_t)o->tid)
		return 0;
	if (o->min_dur > 0) {
		report_headline(r, i, &h);
		if (isnan(h.duration_ns) || h.duration_ns < (double)o->min_dur)
			return 0;
	}
	return 1;
}

int
cmd_report_each(const struct report *r, const struct opts *o, uint32_t only,
    cmd_report_launch_fn *fn, struct out *out, void *arg, size_t *n,
    char **cause)
{
	struct cmd_report_sel	 s;
	uint32_t		 i;

	*n = 0;
	if (cmd_report_sel_init(&s, r, o, cause) != 0)
		return -1;
	s.only = only;
	for (i = 0; i < r->nlaunches; i++)
		if (cmd_report_sel_launch(&s, i)) {
			fn(out, r, i, arg);
			(*n)++;
		}
	cmd_report_sel_free(&s);
	return 0;
}

size_t
cmd_report_rule_messages(const struct report *r, uint32_t i)
{
	const struct report_launch	*l = &r->launches[i];
	const struct report_rule	*u;
	size_t				 k, n = 0;

	for (k = 0; k < l->nrules; k++) {
		u = &r->rules[l->rule + k];
		if (u->message != 0 && (u->type == RR_OPT ||
		    u->type == RR_WARNING))
			n++;
	}
	return n;
}

void
cmd_report_sel_none(struct out *out, size_t n)
{
	if (n == 0)
		out_warn(out, "no_match", "no launch matches");
}

cJSON *
cmd_report_launch_row(struct out *out, uint32_t id)
{
	cJSON	*row = out_row(out);
	char	 key[32];

	rowkey_buf(key, sizeof key, "launch", "id=%u", id);
	out_str(row, "key", key);
	out_int(row, "launch_id", id);
	return row;
}

cJSON *
cmd_report_metric_row(struct out *out, const struct report *r,
    const struct report_launch *l, const struct report_metric *m)
{
	cJSON	*row = out_row(out);

	out_key(row, "metric", "launch=%u|name=%s", l->id,
	    report_str(r, m->name));
	out_int(row, "launch_id", l->id);
	return row;
}

void
cmd_report_sel_free(struct cmd_report_sel *s)
{
	if (s->has_re)
		regfree(&s->re);
	s->has_re = 0;
}

/*
 * The envelope's source and trace kind ("ncu-rep", for a .ncu-repz too,
 * or "ncu-csv") and source version (the Nsight Compute version the report
 * records, its first word: "2023.3.0.0").
 */
static void
cmd_report_source(struct out *out, const struct report *r)
{
	const char	*tool;
	size_t		 n;

	out->src_kind = r->format == REPORT_NCU_REP ||
	    r->format == REPORT_NCU_REPZ ? "ncu-rep" : "ncu-csv";
	tool = report_prop_get(r, "version.Nsight Compute Target");
	if (tool != NULL && (n = strcspn(tool, " \t")) > 0)
		out->src_version = xstrndup(tool, n);
}

void
cmd_report_out(struct out *out, const struct report *r, const char *path,
    int json)
{
	size_t	i;

	cmd_report_source(out, r);
	for (i = 0; i < r->nwarnings; i++)
		out_warn(out, "report_warning",
		    "%s", r->warnings[i]);
	if (json)
		cmd_report_aux(out, r, path);
}

/* info */

static void
cmd_report_info_counts(const struct report *r, size_t *nrules,
    size_t *nkernels)
{
	size_t	i, j;

	*nrules = 0;
	for (i = 0; i < r->nrules; i++)
		if (r->rules[i].message != 0)
			(*nrules)++;
	*nkernels = 0;
	for (i = 0; i < r->nlaunches; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(report_launch_name(r, (uint32_t)j),
			    report_launch_name(r, (uint32_t)i)) == 0)
				break;
		if (j == i)
			(*nkernels)++;
	}
}

static const char *const cmd_report_dev_attrs[][2] = {
	{ "device__attribute_display_name", "name" },
	{ "device__attribute_compute_capability_major", "cc_major" },
	{ "device__attribute_compute_capability_minor", "cc_minor" },
	{ "device__attribute_multiprocessor_count", "sm_count" },
	{ "device__attribute_global_memory_size", "memory_bytes" },
	{ "device__attribute_l2_cache_size", "l2_cache_bytes" },
	{ "device__attribute_max_gpu_frequency_khz", "max_gpu_khz" },
	{ "device__attribute_max_mem_frequency_khz", "max_mem_khz" },
	{ "device__attribute_fb_bus_width", "bus_width_bits" },
	{ "device__attribute_chip", "chip" },
};
#define CMD_REPORT_NDEV	(sizeof cmd_report_dev_attrs / \
    sizeof cmd_report_dev_attrs[0])

static void
cmd_report_info_print(const struct report *r, const char *path)
{
	const struct report_value	*v;
	size_t				 nrules, nkernels, i, k;
	char				 buf[128];
	static const char *const props[][2] = {
		{ "version.Nsight Compute Target", "ncu" },
		{ "version.CUDA Version", "cuda" },
		{ "version.Display Driver Version", "driver" },
		{ "host.name", "host" },
		{ "host.os_build", "os" },
		{ "host.processor", "cpu" },
		{ "profiler.command", "command" },
	};

	cmd_report_info_counts(r, &nrules, &nkernels);
	printf("report     %s\n", sanitize_tmp(path));
	printf("format     %s", report_format_name(r->format));
	if (r->version != 0)
		printf(" (version %u)", r->version);
	printf("\n");
	for (k = 0; k < sizeof props / sizeof props[0]; k++) {
		const char *p = report_prop_get(r, props[k][0]);
		char *one;
		if (p == NULL || *p == '\0')
			continue;
		one = xstrndup(p, strcspn(p, "\n"));
		printf("%-10s %s\n", props[k][1], sanitize_tmp(one));
		free(one);
	}
	printf("launches   %zu (%zu kernel%s), %zu metrics, %zu rule "
	    "messages\n", r->nlaunches, nkernels, nkernels == 1 ? "" : "s",
	    r->nmetrics, nrules);
	printf("devices    %zu\n", r->ndevices);
	for (i = 0; i < r->ndevices; i++) {
		const struct report_device *d = &r->devices[i];
		printf("  [%u] %s", d->id, d->name != 0 ?
		    sanitize_tmp(report_str(r, d->name)) : "(unnamed GPU)");
		v = report_device_attr_get(r, (uint32_t)i,
		    "device__attribute_compute_capability_major");
		if (v != NULL) {
			const struct report_value *mi = report_device_attr_get(
			    r, (uint32_t)i,
			    "device__attribute_compute_capability_minor");
			printf(", cc %.0f.%.0f", report_value_num(v),
			    mi != NULL ? report_value_num(mi) : 0.0);
		}
		v = report_device_attr_get(r, (uint32_t)i,
		    "device__attribute_multiprocessor_count");
		if (v != NULL)
			printf(", %.0f SMs", report_value_num(v));
		v = report_device_attr_get(r, (uint32_t)i,
		    "device__attribute_global_memory_size");
		if (v != NULL && report_value_num(v) > 0)
			printf(", %s", units_bytes((uint64_t)
			    report_value_num(v), buf, sizeof buf));
		printf("\n");
	}
	for (i = 0; i < r->nwarnings; i++)
		printf("warning    %s\n", sanitize_tmp(r->warnings[i]));
	if (r->skipped != NULL)
		printf("skipped    unknown fields %s\n",
		    sanitize_tmp(r->skipped));
}

int
cmd_report_info_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct report		*r = ctx->in->r;
	const struct opts		*o = ctx->o;
	cJSON				*a = out->aux, *arr, *obj, *row;
	size_t				 nrules, nkernels, i, k;
	const struct report_value	*v;
	/* One row per kind of thing the report holds, with its count. */
	struct {
		const char	*kind;
		size_t		 n;
	} counts[] = {
		{ "launch", 0 }, { "kernel", 0 }, { "metric", 0 },
		{ "section", 0 }, { "rule", 0 }, { "device", 0 }
	};

	(void)code;
	(void)cause;
	out->limit = 0;
	if (o->format == OUT_TABLE) {
		cmd_report_info_print(r, o->args[0]);
		return CMD_PRINTED;
	}
	cmd_report_info_counts(r, &nrules, &nkernels);
	counts[0].n = r->nlaunches;
	counts[1].n = nkernels;
	counts[2].n = r->nmetrics;
	counts[3].n = r->nsections;
	counts[4].n = nrules;
	counts[5].n = r->ndevices;
	for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		row = out_row(out);
		out_str(row, "key", counts[i].kind);
		out_str(row, "kind", counts[i].kind);
		out_int(row, "count", (int64_t)counts[i].n);
	}

	arr = cJSON_AddArrayToObject(a, "devices");
	for (i = 0; i < r->ndevices; i++) {
		obj = cJSON_CreateObject();
		out_int(obj, "device", r->devices[i].id);
		out_str(obj, "name", report_str(r, r->devices[i].name));
		for (k = 1; k < CMD_REPORT_NDEV; k++) {
			v = report_device_attr_get(r, (uint32_t)i,
			    cmd_report_dev_attrs[k][0]);
			if (v != NULL)
				cmd_report_value(obj,
				    cmd_report_dev_attrs[k][1], r, v);
			else
				cJSON_AddNullToObject(obj,
				    cmd_report_dev_attrs[k][1]);
		}
		out_int(obj, "attributes", r->devices[i].nattrs);
		cJSON_AddItemToArray(arr, obj);
	}
	obj = cJSON_AddObjectToObject(a, "properties");
	for (i = 0; i < r->nprops; i++)
		out_str(obj, report_str(r, r->props[i].key),
		    report_str(r, r->props[i].value));
	out_str_or_null(a, "skipped_fields", r->skipped);
	out_next(out, "gpulens launches %s", out_q(out, o->args[0]));
	out_next(out, "gpulens rules %s", out_q(out, o->args[0]));
	return 0;
}

/* summary */

struct cmd_report_kernel {
	const char	*name;
	size_t		 n, nrules;
	double		 total, min, max;
	double		 sm, mem, occ;
	size_t		 nsm, nmem, nocc;
};

/* The kernels of the summary so far. */
struct cmd_report_kernels {
	struct cmd_report_kernel	*k;
	size_t				 n, cap;
};

/* Adds launch i to its kernel's figures. */
static void
cmd_report_summary_add(struct out *out, const struct report *r, uint32_t i,
    void *arg)
{
	struct cmd_report_kernels	*e = arg;
	struct report_headline		 h;
	const char			*name;
	size_t				 j;

	name = report_str(r, r->launches[i].function);
	if (*name == '\0')
		name = report_launch_name(r, i);
	for (j = 0; j < e->n; j++)
		if (strcmp(e->k[j].name, name) == 0)
			break;
	if (j == e->n) {
		XGROW(e->k, e->cap, e->n + 1);
		memset(&e->k[e->n], 0, sizeof e->k[e->n]);
		e->k[e->n].name = name;
		e->k[e->n].min = INFINITY;
		e->k[e->n].max = -INFINITY;
		e->n++;
	}
	report_headline(r, i, &h);
	e->k[j].n++;
	if (!isnan(h.duration_ns)) {
		e->k[j].total += h.duration_ns;
		if (h.duration_ns < e->k[j].min)
			e->k[j].min = h.duration_ns;
		if (h.duration_ns > e->k[j].max)
			e->k[j].max = h.duration_ns;
	}
	if (!isnan(h.sm_pct)) {
		e->k[j].sm += h.sm_pct;
		e->k[j].nsm++;
	}
	if (!isnan(h.mem_pct)) {
		e->k[j].mem += h.mem_pct;
		e->k[j].nmem++;
	}
	if (!isnan(h.occupancy_pct)) {
		e->k[j].occ += h.occupancy_pct;
		e->k[j].nocc++;
	}
	e->k[j].nrules += cmd_report_rule_messages(r, i);
}

int
cmd_report_summary_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct report		*r = ctx->in->r;
	const struct opts		*o = ctx->o;
	struct cmd_report_kernels	 e;
	struct cmd_report_kernel	*k;
	size_t				 nk, j, n;
	cJSON				*row;
	char				 key[64];

	memset(&e, 0, sizeof e);
	if (cmd_report_each(r, o, REPORT_NONE, cmd_report_summary_add, out, &e,
	    &n, cause) != 0)
		return -1;
	k = e.k;
	nk = e.n;
	for (j = 0; j < nk; j++) {
		row = out_row(out);
		rowkey_buf(key, sizeof key, "kernel", "index=%zu", j);
		out_str(row, "key", key);
		out_str(row, "kernel", k[j].name);
		out_int(row, "launches", (int64_t)k[j].n);
		cmd_report_num(row, "total_duration_ns", isinf(k[j].min) ?
		    NAN : k[j].total);
		cmd_report_num(row, "mean_duration_ns", isinf(k[j].min) ?
		    NAN : k[j].total / (double)k[j].n);
		cmd_report_num(row, "min_duration_ns", k[j].min);
		cmd_report_num(row, "max_duration_ns", k[j].max);
		cmd_report_num(row, "sm_throughput_pct", k[j].nsm > 0 ?
		    k[j].sm / (double)k[j].nsm : NAN);
		cmd_report_num(row, "memory_throughput_pct", k[j].nmem > 0 ?
		    k[j].mem / (double)k[j].nmem : NAN);
		cmd_report_num(row, "achieved_occupancy_pct", k[j].nocc > 0 ?
		    k[j].occ / (double)k[j].nocc : NAN);
		out_int(row, "rule_messages", (int64_t)k[j].nrules);
	}
	free(k);
	out->limit = 0;		/* summary takes no --limit */
	out->default_sort = "total_duration_ns:desc";
	cmd_report_sel_none(out, nk);
	out_next(out, "gpulens launches %s", out_q(out, o->args[0]));
	out_next(out, "gpulens rules %s", out_q(out, o->args[0]));
	return 0;
}

/* inspect */

static void
cmd_report_inspect_launch(struct out *out, const struct report *r,
    uint32_t i)
{
	const struct report_launch	*l = &r->launches[i];
	const struct report_metric	*m;
	const struct report_rule	*u;
	const char			*sec;
	cJSON				*row;
	size_t				 k;

	for (k = 0; k < l->nmetrics; k++) {
		m = &r->metrics[l->metric + k];
		row = cmd_report_metric_row(out, r, l, m);
		out_str(row, "kind", "metric");
		sec = m->section < r->nsections ?
		    report_str(r, r->sections[m->section].name) : "";
		out_str(row, "section", sec);
		out_str(row, "name", report_str(r, m->name));
		out_str(row, "label", report_str(r, m->label));
		cmd_report_value(row, "value", r, &m->value);
		out_str(row, "unit", report_str(r, m->unit));
		out_int(row, "instances", m->ninst);
	}
	for (k = 0; k < l->nrules; k++) {
		u = &r->rules[l->rule + k];
		if (u->message == 0)
			continue;
		row = out_row(out);
		out_key(row, "rule", "launch=%u|name=%s|index=%zu", l->id,
		    report_str(r, u->ident), k);
		out_int(row, "launch_id", l->id);
		out_str(row, "kind", "rule");
		out_str(row, "section", report_str(r, u->section));
		out_str(row, "name", report_str(r, u->ident));
		out_str(row, "label", report_str(r, u->name));
		out_str(row, "type", report_rule_type_name(u->type));
		cmd_report_speedup(row, u);
		out_str(row, "message", report_str(r, u->message));
		if (u->focus != 0)
			out_str(row, "focus", report_str(r, u->focus));
		else
			cJSON_AddNullToObject(row, "focus");
	}
}

/* The row of a launch id the report does not have: its key and id, and
 * "status":"not_found". */
static void
cmd_report_inspect_missing(struct out *out, uint32_t id)
{
	cJSON	*row = cmd_report_launch_row(out, id);

	out_str(row, "status", "not_found");
}

/* The launch's identity, for JSON. */
static cJSON *
cmd_report_inspect_aux(const struct report *r, uint32_t i)
{
	const struct report_launch	*l = &r->launches[i];
	struct report_headline		 h;
	cJSON				*obj, *nv, *e;
	size_t				 k;

	obj = cJSON_CreateObject();
	cmd_report_launch_fields(obj, r, i);
	out_str(obj, "mangled", report_str(r, l->mangled));
	out_int(obj, "tid", l->tid);
	out_str(obj, "process", report_str(r, l->process));
	report_headline(r, i, &h);
	cmd_report_num(obj, "duration_ns", h.duration_ns);
	nv = cJSON_AddArrayToObject(obj, "nvtx");
	for (k = 0; k < l->nnvtx; k++) {
		const struct report_nvtx *x = &r->nvtx[l->nvtx + k];
		e = cJSON_CreateObject();
		out_str(e, "domain", report_str(r, x->domain));
		if (x->range != 0)
			out_str(e, "range", report_str(r, x->range));
		else
			cJSON_AddNullToObject(e, "range");
		cJSON_AddItemToArray(nv, e);
	}
	return obj;
}

/* The launch's identity as a line after the table. */
static void
cmd_report_inspect_line(struct out *out, const struct report *r, uint32_t i)
{
	const struct report_launch	*l = &r->launches[i];
	struct report_headline		 h;
	char				 key[32], dur[64], *line;

	report_headline(r, i, &h);
	if (isnan(h.duration_ns))
		snprintf(dur, sizeof dur, "-");
	else
		units_dur((int64_t)llround(h.duration_ns), dur, sizeof dur);
	snprintf(key, sizeof key, "launch %u", l->id);
	line = xasprintf("%s, grid (%llu,%llu,%llu), block (%llu,%llu,%llu), "
	    "%s", report_launch_name(r, i), (unsigned long long)l->grid[0],
	    (unsigned long long)l->grid[1], (unsigned long long)l->grid[2],
	    (unsigned long long)l->block[0], (unsigned long long)l->block[1],
	    (unsigned long long)l->block[2], dur);
	out_str(out->aux, key, line);
	free(line);
}

int
cmd_report_inspect_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct report	*r = ctx->in->r;
	const struct opts	*o = ctx->o;
	uint32_t	*ids, id;
	size_t		 n = 0, nfound = 0, i, j;
	cJSON		*arr, *row;
	const cJSON	*it;
	int		 a;
	char		*list;

	ids = xcalloc((size_t)o->nargs, sizeof *ids);
	for (a = 1; a < o->nargs; a++) {
		if (cmd_report_parse_id(o->args[a], &id) != 0) {
			*code = "usage";
			*cause = xasprintf("'%s' is not a launch id (N or "
			    "launch|id=N as launches prints them)", o->args[a]);
			free(ids);
			return -1;
		}
		for (j = 0; j < n; j++)
			if (ids[j] == id)
				break;
		if (j == n) {
			ids[n++] = id;
			if (id < r->nlaunches)
				nfound++;
		}
	}
	if (nfound == 0) {
		/* Not one launch: the not_found error, naming them all. */
		list = opts_args_list(o, 1);
		*code = "not_found";
		*cause = xasprintf("no launch %s in this report (%zu "
		    "launch%s)", list, r->nlaunches,
		    r->nlaunches == 1 ? "" : "es");
		free(list);
		free(ids);
		return -1;
	}
	if (!o->limit_set)
		out->limit = 0;
	arr = cJSON_AddArrayToObject(out->aux, "launches");
	for (i = 0; i < n; i++) {
		if (ids[i] >= r->nlaunches) {
			cmd_report_inspect_missing(out, ids[i]);
			continue;
		}
		cmd_report_inspect_launch(out, r, ids[i]);
		if (o->format == OUT_TABLE)
			cmd_report_inspect_line(out, r, ids[i]);
		else
			cJSON_AddItemToArray(arr, cmd_report_inspect_aux(r,
			    ids[i]));
	}
	if (o->format == OUT_TABLE)
		cJSON_DeleteItemFromObject(out->aux, "launches");
	/* The rule columns only where a rule row holds them (a CSV export
	 * carries no rules). */
	if (o->format == OUT_TABLE && o->fields == NULL) {
		out->fields = "launch_id,kind,section,label,name,value,unit";
		cJSON_ArrayForEach(row, out->rows) {
			it = cJSON_GetObjectItemCaseSensitive(row, "type");
			if (it != NULL) {
				out->fields = "launch_id,kind,section,label,"
				    "name,value,unit,type,"
				    "estimated_speedup_pct,message";
				break;
			}
		}
	}
	if (n == 1)
		out_next(out, "gpulens metrics %s '*' --name %s",
		    out_q(out, o->args[0]),
		    out_q(out, report_str(r, r->launches[ids[0]].function)));
	free(ids);
	return 0;
}
