/*
 * vopt: options that belong to one verb only (--max-phases, --phases,
 * --min-confidence, ...), taken out of argv before opts_parse() sees the
 * options every verb shares, and a verb driver that runs with them.
 *
 * A verb lists its own options in an array of struct vopt; vopt_take()
 * removes "--name VALUE" and "--name=VALUE" from a copy of argv and records
 * the values. vopt_main() is cmd_verb_main() with that step first: errors
 * in either kind of option are reported the same way (a JSON error
 * envelope with --json).
 */
#ifndef GPULENS_VOPT_H
#define GPULENS_VOPT_H

#include <stddef.h>

#include "headless/cmd.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"

struct vopt {
	const char	*name;		/* "--max-phases" */
	const char	*value;		/* borrowed from argv; NULL if absent */
};

/*
 * Copies argv without the options in v into *out (allocated; free() it,
 * the strings stay argv's) and returns the new argc, or -1 with *cause
 * (caller frees) when an option lacks its value.
 */
int	 vopt_take(int argc, char **argv, struct vopt *v, size_t nv,
	    char ***out, char **cause);
/* The value of option name in v, or NULL. */
const char *vopt_get(const struct vopt *v, size_t nv, const char *name);
/* Parses a non-negative integer option (NULL: dflt); -1 on error. */
long long vopt_int(const struct vopt *v, size_t nv, const char *name,
	    long long dflt);

typedef int (*vopt_run_fn)(const struct model *, const struct opts *,
	    const struct vopt *, size_t nv, struct out *, const char **code,
	    char **cause);

/* As cmd_verb_main, with the verb's own options v (values reset first). */
int	 vopt_main(const struct cmd_entry *, int argc, char **argv,
	    const struct cmd_global *, struct vopt *v, size_t nv,
	    int minargs, int maxargs, vopt_run_fn run);

#endif
