/*
 * diffgate: the regression gate of `gpulens diff`: rules that a change from
 * capture A to capture B must not break, for CI.
 *
 * A rule is FIELD OP THRESHOLD:
 *   FIELD      a row field, checked on every row (key) of the diff:
 *              total_ns, count or iter_median_ns; or aux.NAME, checked once
 *              on the side totals: span_ns, busy_ns, idle_ns,
 *              exposed_comm_ns, compute_ns, comm_ns, kernel_ns, kernels,
 *              iter_median_ns
 *   OP         '>' (the change must not exceed the threshold) or '<' (it
 *              must not fall below it)
 *   THRESHOLD  a signed change: a percentage of A ("+5%"), a duration
 *              ("+2ms", "+150us") or a plain number (nanoseconds or a
 *              count)
 * e.g. "total_ns>+5%" (no key's time grows by more than 5%),
 * "aux.iter_median_ns>+2%", "aux.busy_ns<-10%". A percentage of a value
 * that is 0 in A is infinite when B is above 0.
 */
#ifndef GPULENS_DIFFGATE_H
#define GPULENS_DIFFGATE_H

struct diffgate_rule {
	char		*spec;		/* as given (owned) */
	char		*field;		/* without "aux." (owned) */
	int		 aux;		/* a side total, not a row field */
	int		 op;		/* '>' or '<' */
	int		 pct;		/* threshold is a percentage */
	double		 thr;		/* signed: percent, ns or a count */
	const char	*fallback;	/* aux field to check when field has
					   no value on a side, or NULL */
};

/* Parses spec. Returns 0, or -1 with *cause (caller frees). */
int	 diffgate_parse(const char *spec, struct diffgate_rule *, char **cause);
/* 1 if the change from a to b breaks the rule, else 0. */
int	 diffgate_breaks(const struct diffgate_rule *, double a, double b);
void	 diffgate_free(struct diffgate_rule *);

#endif
