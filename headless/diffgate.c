/*
 * diffgate: parsing and checking the rules of diff's regression gate.
 * See diffgate.h.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/diffgate.h"
#include "util/units.h"
#include "util/xmalloc.h"

static const char *const diffgate_row_fields[] = {
	"total_ns", "count", "iter_median_ns", NULL
};
static const char *const diffgate_aux_fields[] = {
	"span_ns", "busy_ns", "idle_ns", "exposed_comm_ns", "compute_ns",
	"comm_ns", "kernel_ns", "kernels", "iter_median_ns", NULL
};

static int
diffgate_known(const char *const *list, const char *f)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], f) == 0)
			return 1;
	return 0;
}

int
diffgate_parse(const char *spec, struct diffgate_rule *r, char **cause)
{
	const char	*op, *t;
	char		*end, *field, *num;
	double		 v;
	int64_t		 ns;
	size_t		 len;

	memset(r, 0, sizeof *r);
	if ((op = strpbrk(spec, "<>")) == NULL || op == spec) {
		*cause = xasprintf("gate rule '%s': expected FIELD>THRESHOLD "
		    "or FIELD<THRESHOLD (e.g. total_ns>+5%%)", spec);
		return -1;
	}
	field = xstrndup(spec, (size_t)(op - spec));
	r->aux = strncmp(field, "aux.", 4) == 0;
	if (!(r->aux ? diffgate_known(diffgate_aux_fields, field + 4) :
	    diffgate_known(diffgate_row_fields, field))) {
		*cause = xasprintf("gate rule '%s': unknown field '%s' (rows: "
		    "total_ns, count, iter_median_ns; totals: aux.span_ns, "
		    "aux.busy_ns, aux.idle_ns, aux.exposed_comm_ns, "
		    "aux.compute_ns, aux.comm_ns, aux.kernel_ns, aux.kernels, "
		    "aux.iter_median_ns)", spec, field);
		free(field);
		return -1;
	}
	r->field = xstrdup(r->aux ? field + 4 : field);
	free(field);
	r->op = *op;
	t = op + 1;
	len = strlen(t);
	if (len > 0 && t[len - 1] == '%') {
		num = xstrndup(t, len - 1);
		v = strtod(num, &end);
		if (*num == '\0' || *end != '\0' || !isfinite(v)) {
			*cause = xasprintf("gate rule '%s': bad percentage",
			    spec);
			free(num);
			free(r->field);
			return -1;
		}
		free(num);
		r->pct = 1;
		r->thr = v;
	} else {
		v = strtod(t, &end);
		if (*t != '\0' && *end == '\0' && isfinite(v))
			r->thr = v;
		else if (units_parse_dur(*t == '+' ? t + 1 : *t == '-' ?
		    t + 1 : t, &ns) == 0)
			r->thr = *t == '-' ? -(double)ns : (double)ns;
		else {
			*cause = xasprintf("gate rule '%s': bad threshold "
			    "'%s' (a percentage, a duration or a number)",
			    spec, t);
			free(r->field);
			return -1;
		}
	}
	r->spec = xstrdup(spec);
	return 0;
}

int
diffgate_breaks(const struct diffgate_rule *r, double a, double b)
{
	double	change = b - a;

	if (r->pct) {
		if (a != 0)
			change = 100.0 * change / fabs(a);
		else
			change = b > 0 ? INFINITY : b < 0 ? -INFINITY : 0;
	}
	return r->op == '>' ? change > r->thr : change < r->thr;
}

void
diffgate_free(struct diffgate_rule *r)
{
	free(r->spec);
	free(r->field);
	r->spec = r->field = NULL;
}
