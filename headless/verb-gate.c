/*
 * verb-gate: a comparing verb's list of gate rules (see verb-gate.h).
 */
#include "config.h"

#include <stdlib.h>

#include "headless/verb-gate.h"
#include "util/xmalloc.h"

int
verb_gate_regression(const char *field, const char *pct,
    struct diffgate_rule *r, char **cause)
{
	char	*spec, *end;
	double	 p;
	int	 rc;

	p = strtod(pct, &end);
	if (*pct == '\0' || *end != '\0' || !(p >= 0)) {
		*cause = xstrdup("--exit-on-regression needs a percentage");
		return -1;
	}
	spec = xasprintf("%s>+%s%%", field, pct);
	rc = diffgate_parse(spec, r, cause);
	free(spec);
	return rc;
}

void
verb_gate_add(struct verb_gate *g, const struct diffgate_rule *r)
{
	g->rules = xreallocarray(g->rules, g->n + 1, sizeof *g->rules);
	g->rules[g->n++] = *r;
}

void
verb_gate_free(struct verb_gate *g)
{
	while (g->n > 0)
		diffgate_free(&g->rules[--g->n]);
	free(g->rules);
	g->rules = NULL;
}
