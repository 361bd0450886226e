/*
 * cols: JSON Schemas from the column descriptions (see cols.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "headless/cols.h"
#include "util/xmalloc.h"

extern const struct coldesc cols_clean, cols_comm, cols_correlate,
    cols_diff, cols_findings, cols_gaps, cols_hardware, cols_info,
    cols_inspect, cols_iters, cols_launch, cols_launches, cols_memcpy,
    cols_metrics, cols_ncu_command, cols_nvtx, cols_overlap, cols_phases,
    cols_prep, cols_ranks, cols_report_inspect, cols_report_summary,
    cols_roofline, cols_rules, cols_search, cols_stats, cols_summary,
    cols_timeline, cols_window,
    cols_flops, cols_graphs, cols_mpi, cols_queue, cols_ranges,
    cols_report_diff, cols_report_graphs, cols_source_metrics,
    cols_sources, cols_streams, cols_warp_stalls, cols_samples,
    cols_threads, cols_counters;

const struct coldesc *const cols_table[] = {
	&cols_clean, &cols_comm, &cols_correlate, &cols_diff, &cols_findings,
	&cols_gaps, &cols_hardware, &cols_info, &cols_inspect, &cols_iters,
	&cols_launch, &cols_launches, &cols_memcpy, &cols_metrics,
	&cols_ncu_command, &cols_nvtx, &cols_overlap, &cols_phases,
	&cols_prep, &cols_ranks, &cols_report_inspect, &cols_report_summary,
	&cols_roofline, &cols_rules, &cols_search, &cols_stats,
	&cols_summary, &cols_timeline, &cols_window,
	&cols_flops, &cols_graphs, &cols_mpi, &cols_queue, &cols_ranges,
	&cols_counters,
	&cols_report_diff, &cols_report_graphs, &cols_source_metrics,
	&cols_sources, &cols_streams, &cols_warp_stalls, &cols_samples,
	&cols_threads, NULL
};

static const struct col *
cols_common_find(const char *name)
{
	const struct col	*c;

	for (c = cols_common; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/*
 * A copy of the list with its common columns filled in from the
 * dictionary, and those of its fields' lists.
 */
static const struct col *
cols_resolve(const struct col *list)
{
	const struct col	*c, *k;
	struct col		*r;
	size_t			 i, n;
	unsigned		 t;

	if (list == NULL)
		return NULL;
	for (n = 0; list[n].name != NULL; n++)
		;
	r = xcalloc(n + 1, sizeof *r);
	for (i = 0; i < n; i++) {
		c = &list[i];
		r[i] = *c;
		if (c->type & COL_COMMON) {
			if ((k = cols_common_find(c->name)) == NULL)
				abort();	/* not in the dictionary: a bug */
			t = c->type & ~COL_COMMON;
			r[i] = *k;
			r[i].type = (t & COL_TYPES) ? t : (k->type | t);
			if (c->more != NULL)
				r[i].more = *c->more != '\0' ? c->more : NULL;
			if (c->sub != NULL)
				r[i].sub = c->sub;
		}
		r[i].sub = cols_resolve(r[i].sub);
	}
	return r;
}

const struct coldesc *
cols_find(const char *verb)
{
	static struct coldesc	*done[sizeof cols_table /
				    sizeof cols_table[0]];
	struct coldesc		*d;
	size_t			 i;

	for (i = 0; cols_table[i] != NULL; i++) {
		if (strcmp(cols_table[i]->verb, verb) != 0)
			continue;
		if (done[i] == NULL) {
			d = xmalloc(sizeof *d);
			*d = *cols_table[i];
			d->rows = cols_resolve(d->rows);
			d->aux = cols_resolve(d->aux);
			done[i] = d;
		}
		return done[i];
	}
	return NULL;
}

const struct col *
cols_field(const struct coldesc *d, const char *name)
{
	const struct col	*c;

	if (d == NULL || d->rows == NULL)
		return NULL;
	for (c = d->rows; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* Adds the members of the JSON object text "{more}" to s. */
static void
cols_more(cJSON *s, const char *more)
{
	cJSON	*m, *it;
	char	*t;

	if (more == NULL)
		return;
	t = xasprintf("{%s}", more);
	m = cJSON_Parse(t);
	free(t);
	if (m == NULL)
		abort();	/* a description that is not JSON: a bug */
	while ((it = m->child) != NULL) {
		cJSON_DetachItemViaPointer(m, it);
		cJSON_DeleteItemFromObjectCaseSensitive(s, it->string);
		cJSON_AddItemToObject(s, it->string, it);
	}
	cJSON_Delete(m);
}

static cJSON	*cols_object(const struct col *, const char *, const char *);

static cJSON *
cols_type(unsigned t)
{
	static const struct {
		unsigned	 bit;
		const char	*name;
	} names[] = {
		{ COL_STR, "string" }, { COL_INT, "integer" },
		{ COL_NUM, "number" }, { COL_BOOL, "boolean" },
		{ COL_ARR, "array" }, { COL_OBJ, "object" },
		{ COL_NULL, "null" }
	};
	cJSON	*a;
	size_t	 i, n = 0;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (t & names[i].bit)
			n++;
	if (n == 1) {
		for (i = 0; !(t & names[i].bit); i++)
			;
		return cJSON_CreateString(names[i].name);
	}
	a = cJSON_CreateArray();
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (t & names[i].bit)
			cJSON_AddItemToArray(a, cJSON_CreateString(
			    names[i].name));
	return a;
}

static cJSON *
cols_one(const struct col *c)
{
	cJSON	*s = cJSON_CreateObject(), *o, *it;
	char	*d;

	if (c->type & ~(COL_OPT | COL_NAME))
		cJSON_AddItemToObject(s, "type", cols_type(c->type &
		    ~(COL_OPT | COL_NAME)));
	if (c->desc != NULL) {
		if (c->unit != NULL)
			d = xasprintf("%s (%s)", c->desc, c->unit);
		else
			d = xstrdup(c->desc);
		cJSON_AddStringToObject(s, "description", d);
		free(d);
	}
	if (c->unit != NULL)
		cJSON_AddStringToObject(s, "x-unit", c->unit);
	if (c->type & COL_NAME)
		cJSON_AddStringToObject(s, "x-name", "template arguments "
		    "elided (<...>) unless --full-names");
	if (c->sub != NULL && (c->type & COL_OBJ)) {
		o = cols_object(c->sub, NULL, NULL);
		while ((it = o->child) != NULL) {
			cJSON_DetachItemViaPointer(o, it);
			if (strcmp(it->string, "type") == 0)
				cJSON_Delete(it);
			else
				cJSON_AddItemToObject(s, it->string, it);
		}
		cJSON_Delete(o);
	}
	else if (c->sub != NULL && (c->type & COL_ARR))
		cJSON_AddItemToObject(s, "items", cols_object(c->sub, NULL,
		    NULL));
	cols_more(s, c->more);
	return s;
}

/* Whether name is a word of the space-separated list. */
static int
cols_listed(const char *list, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p = list;

	while (p != NULL && *p != '\0') {
		while (*p == ' ')
			p++;
		if (strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return 1;
		p = strchr(p, ' ');
	}
	return 0;
}

/*
 * The schema of an object whose fields are cols: those of the list fields
 * only (all when NULL), required those of the list required (when fields
 * is NULL: those without COL_OPT), no others.
 */
static cJSON *
cols_object(const struct col *cols, const char *fields, const char *required)
{
	cJSON			*s = cJSON_CreateObject(), *p, *r;
	const struct col	*c;

	cJSON_AddStringToObject(s, "type", "object");
	r = cJSON_AddArrayToObject(s, "required");
	p = cJSON_AddObjectToObject(s, "properties");
	for (c = cols; c->name != NULL; c++) {
		if (fields != NULL && !cols_listed(fields, c->name))
			continue;
		cJSON_AddItemToObject(p, c->name, cols_one(c));
		if (fields != NULL ? cols_listed(required, c->name) :
		    !(c->type & COL_OPT))
			cJSON_AddItemToArray(r, cJSON_CreateString(c->name));
	}
	cJSON_AddBoolToObject(s, "additionalProperties", 0);
	return s;
}

cJSON *
cols_rows_schema(const struct coldesc *d)
{
	const struct colvar	*v;
	cJSON			*s, *one, *props, *f, *shapes;
	const char		*eq;
	char			*name;

	if (d->variants == NULL) {
		s = cols_object(d->rows, NULL, NULL);
		cols_more(s, d->rows_more);
		return s;
	}
	s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "type", "object");
	shapes = cJSON_AddArrayToObject(s, "oneOf");
	for (v = d->variants; v->fields != NULL; v++) {
		one = cols_object(d->rows, v->fields, v->required != NULL ?
		    v->required : v->fields);
		if (v->when != NULL && (eq = strchr(v->when, '=')) != NULL) {
			props = cJSON_GetObjectItemCaseSensitive(one,
			    "properties");
			name = xstrndup(v->when, (size_t)(eq - v->when));
			f = cJSON_GetObjectItemCaseSensitive(props, name);
			cJSON_DeleteItemFromObjectCaseSensitive(f, "enum");
			cJSON_AddStringToObject(f, "const", eq + 1);
			free(name);
		}
		cJSON_AddItemToArray(shapes, one);
	}
	return s;
}

cJSON *
cols_aux_schema(const struct coldesc *d)
{
	static const struct col	 none[] = { { NULL, 0, NULL, NULL, NULL,
					    NULL } };
	cJSON			*s;

	s = cols_object(d->aux != NULL ? d->aux : none, NULL, NULL);
	cols_more(s, d->aux_more);
	return s;
}
