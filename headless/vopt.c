/*
 * vopt: verb-specific options and the driver that accepts them (vopt.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headless/vopt.h"
#include "util/xmalloc.h"

int
vopt_take(int argc, char **argv, struct vopt *v, size_t nv, char ***out,
    char **cause)
{
	char	**nav;
	size_t	  k, len;
	int	  i, n = 0, taken;

	nav = xcalloc((size_t)argc + 1, sizeof *nav);
	for (i = 0; i < argc; i++) {
		taken = 0;
		for (k = 0; i > 0 && k < nv && !taken; k++) {
			len = strlen(v[k].name);
			if (strcmp(argv[i], v[k].name) == 0) {
				if (i + 1 >= argc) {
					*cause = xasprintf("%s needs a value",
					    v[k].name);
					free(nav);
					return -1;
				}
				v[k].value = argv[++i];
				taken = 1;
			} else if (strncmp(argv[i], v[k].name, len) == 0 &&
			    argv[i][len] == '=') {
				v[k].value = argv[i] + len + 1;
				taken = 1;
			}
		}
		if (!taken)
			nav[n++] = argv[i];
	}
	*out = nav;
	return n;
}

const char *
vopt_get(const struct vopt *v, size_t nv, const char *name)
{
	size_t	k;

	for (k = 0; k < nv; k++)
		if (strcmp(v[k].name, name) == 0)
			return v[k].value;
	return NULL;
}

long long
vopt_int(const struct vopt *v, size_t nv, const char *name, long long dflt)
{
	const char	*s = vopt_get(v, nv, name);
	char		*end;
	long long	 x;

	if (s == NULL)
		return dflt;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || x < 0)
		return -1;
	return x;
}

int
vopt_main(const struct cmd_entry *e, int argc, char **argv,
    const struct cmd_global *g, struct vopt *v, size_t nv, int minargs,
    int maxargs, vopt_run_fn run)
{
	struct opts	 o;
	struct out	 out;
	struct model	*m = NULL;
	char		*cause = NULL, *vcause = NULL, **av = NULL;
	const char	*code = NULL;
	size_t		 k;
	int		 rc, ac;

	for (k = 0; k < nv; k++)
		v[k].value = NULL;
	out_init(&out, e->name);
	ac = vopt_take(argc, argv, v, nv, &av, &vcause);
	if (opts_parse(&o, e->options, ac < 0 ? argc : ac, ac < 0 ? argv : av,
	    &cause) != 0 || vcause != NULL) {
		opts_apply_out(&o, &out);
		rc = out_error(&out, NULL, NULL, "usage", "%s",
		    vcause != NULL ? vcause : cause);
		goto done;
	}
	opts_apply_out(&o, &out);
	if (o.nargs < minargs || (maxargs >= 0 && o.nargs > maxargs)) {
		rc = out_error(&out, NULL, NULL, "usage", "%s (usage: %s)",
		    o.nargs < minargs ? "missing arguments" :
		    "too many arguments", e->usage);
		goto done;
	}
	if ((m = cmd_load_out(o.args[0], g, &out)) == NULL) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (run(m, &o, v, nv, &out, &code, &cause) != 0) {
		rc = out_error(&out, m, o.args[0], code != NULL ? code :
		    "usage", "%s", cause != NULL ? cause : "failed");
		goto done;
	}
	rc = out_emit(&out, m, o.args[0]);
done:
	free(cause);
	free(vcause);
	free(av);
	opts_free(&o);
	out_free(&out);
	model_free(m);
	return rc;
}
