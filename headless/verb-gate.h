/*
 * verb-gate: the regression gate rules (diffgate.h) that a comparing verb
 * (diff, ncu-diff) collects from its options, in the order given.
 *
 * Ownership: the list owns its rules; verb_gate_free() releases them.
 */
#ifndef GPULENS_VERB_GATE_H
#define GPULENS_VERB_GATE_H

#include <stddef.h>

#include "headless/diffgate.h"

struct verb_gate {
	struct diffgate_rule	*rules;
	size_t			 n;
};

/*
 * The rule of --exit-on-regression PCT: FIELD>+PCT%, PCT a percentage of
 * at least 0. Returns 0, or -1 with *cause (caller frees).
 */
int	 verb_gate_regression(const char *field, const char *pct,
	    struct diffgate_rule *, char **cause);
/* Appends r; the list takes over its strings. */
void	 verb_gate_add(struct verb_gate *, const struct diffgate_rule *r);
/* Frees the rules and empties the list. */
void	 verb_gate_free(struct verb_gate *);

#endif
