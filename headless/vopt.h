/*
 * vopt: the values of the options that belong to one verb only
 * (--max-phases, --phases, --min-confidence, diff's windows and gate), as
 * the driver hands them to the verb: one (name, value) pair per option
 * given, in the order given. The verb's descriptor lists them (struct
 * cmd_option, cmd.h), so its --help and the parser agree.
 */
#ifndef GPULENS_VOPT_H
#define GPULENS_VOPT_H

#include <stddef.h>

struct vopt {
	const char	*name;		/* "--max-phases" */
	const char	*value;		/* borrowed from argv; NULL if absent */
};

/* The value of option name in v (the last given), or NULL. */
const char *vopt_get(const struct vopt *v, size_t nv, const char *name);
/* Parses a non-negative integer option (NULL: dflt); -1 on error. */
/* An option vetter (cmd_option.check): v must be an integer from 0 to
 * INT32_MAX. Returns 0, or -1 with *cause. */
int	 vopt_check_count(const char *name, const char *v, char **cause);
/*
 * Sets *index to the position of value in choices (NULL-ended) and
 * returns 0, or -1 with *cause ("NAME takes a, b or c, not 'value'").
 */
int	 vopt_choice(const char *name, const char *value,
	    const char *const *choices, int *index, char **cause);
long long vopt_int(const struct vopt *v, size_t nv, const char *name,
	    long long dflt);

#endif
