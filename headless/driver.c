/*
 * driver: cmd_run(), the one driver of every verb (cmd.h).
 *
 *   1. The options: the entry's own (and the shared ones it refuses) are
 *      taken out of argv first, in order, each vetted by its check; then
 *      opts_parse() reads the shared options of the entry's groups. The
 *      first error of either is the answer (a JSON envelope with --json).
 *   2. The input: an entry with a report form becomes a report verb (the
 *      form's command, argument counts and run) when the first argument
 *      is an Nsight Compute report. The argument count is checked, then
 *      the input of the entry's kind is loaded (input.h) and its paths go
 *      to the envelope's trace.inputs.
 *   3. run, with the typed input; then the answer with out_emit(), or the
 *      error with out_error().
 * A CMD_IN_NONE entry gets argc and argv and does all of that itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "headless/answers.h"
#include "headless/cmd.h"
#include "headless/cmd-report.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/vopt.h"
#include "model/cache.h"
#include "sources/input.h"
#include "sources/multi.h"
#include "util/timing.h"
#include "util/xmalloc.h"

/* An export with no events is an answer (empty rows), not an error: every
 * verb says so once in meta.warnings. */
static void
drv_warn_empty(const struct model *m, const char *path, int n,
    struct out *o)
{
	if (m->nevents != 0)
		return;
	if (n == 1)
		out_warn(o, "empty_capture",
		    "%s holds no events (an empty capture)", path);
	else
		out_warn(o, "empty_capture",
		    "the traces hold no events (an empty capture)");
}

/* The envelope lists every trace file read (directories expanded), also
 * on a load error. */
static void
drv_add_inputs(struct out *o, char *const *paths, int n)
{
	char	*cause = NULL, **files = NULL;
	int	 nf, i;

	if ((nf = multi_expand(paths, n, &files, &cause)) < 0) {
		free(cause);
		out_inputs(o, paths, (size_t)n);
		return;
	}
	out_inputs(o, files, (size_t)nf);
	for (i = 0; i < nf; i++)
		free(files[i]);
	free(files);
}

/* Loads paths[0, n) as one timeline into in; 0, or -1 with the error
 * printed through o. */
static int
drv_load_traces(const struct cmd_entry *e, struct input *in,
    char *const *paths, int n, const struct cmd_global *g, struct out *o)
{
	struct load_opts	 lo;
	struct model		*m = NULL;
	char			*cause = NULL;
	double			 t0 = timing_now();

	/* All a summary needs is in the head of a valid cache. */
	if ((e->flags & CMD_SUMMARY) && n == 1 && !g->no_cache &&
	    cache_load_summary(paths[0], &m, NULL) == 1) {
		timing_report("cache-read", t0);
		input_set_model(in, m, paths[0]);
		return 0;
	}
	drv_add_inputs(o, paths, n);
	cmd_load_opts(g, &lo);
	if (input_load(in, INPUT_TIMELINE, paths, n, &lo, &cause) != 0) {
		out_error(o, NULL, paths[0], "bad_input", "%s", cause != NULL ?
		    cause : "cannot load trace");
		free(cause);
		return -1;
	}
	drv_warn_empty(in->m, paths[0], n, o);
	return 0;
}

/* Loads the report at path into in; 0, or -1 with the error printed. */
static int
drv_load_report(struct input *in, char *path, const struct opts *opt,
    struct out *o)
{
	char	*cause = NULL;

	if (input_load(in, INPUT_REPORT, &path, 1, NULL, &cause) != 0) {
		out_error(o, NULL, path, "bad_input", "%s", cause != NULL ?
		    cause : "cannot load the report");
		free(cause);
		return -1;
	}
	cmd_report_out(o, in->r, path, opt->format == OUT_JSON);
	return 0;
}

/*
 * Takes the entry's own options, and the shared ones it refuses, out of
 * argv[1, argc) up to "--": their values go to v (*nv of them, in order),
 * the other words to rest (*nrest, argv[0] first). Returns 0, or -1 with
 * *cause for the first one refused, missing its value or failing its check.
 */
static int
drv_take(const struct cmd_entry *e, int argc, char **argv, struct vopt *v,
    size_t *nv, char **rest, int *nrest, char **cause)
{
	const struct cmd_option	*c;
	const char		*a, *val;
	size_t			 len;
	int			 i, eq;

	*nv = 0;
	*nrest = 0;
	rest[(*nrest)++] = argv[0];
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--") == 0) {
			while (i < argc)
				rest[(*nrest)++] = argv[i++];
			break;
		}
		eq = 0;
		for (c = e->vopts; c != NULL && c->name != NULL; c++) {
			if (c->how == CMD_OPT_AS)
				continue;
			len = strlen(c->name);
			if (strcmp(a, c->name) == 0)
				break;
			if (c->how == CMD_OPT_OWN &&
			    strncmp(a, c->name, len) == 0 && a[len] == '=') {
				eq = 1;
				break;
			}
		}
		if (c == NULL || c->name == NULL) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (c->how == CMD_OPT_REFUSE) {
			*cause = xstrdup(c->help);
			return -1;
		}
		if (eq)
			val = a + strlen(c->name) + 1;
		else if (c->arg == NULL)
			val = "";
		else
			val = i + 1 < argc ? argv[++i] : NULL;
		if (c->check != NULL) {
			if (c->check(c->name, val, cause) != 0)
				return -1;
		} else if (val == NULL) {
			*cause = xasprintf("%s needs a value", c->name);
			return -1;
		}
		v[*nv].name = c->name;
		v[(*nv)++].value = val;
	}
	rest[*nrest] = NULL;
	return 0;
}

/* The run of a verb that gives its model function (and finish) and hints. */
static int
drv_model_run(const struct cmd_ctx *c, struct out *out, const char **code,
    char **cause)
{
	const struct cmd_entry	*e = c->entry;
	const struct cmd_hint	*h;
	size_t			 i;

	if ((e->flags & CMD_ALL_ROWS) && !c->o->limit_set)
		out->limit = 0;
	if (e->model(c->in->m, c->o, out, code, cause) != 0)
		return -1;
	if (e->finish != NULL)
		e->finish(c->in->m, c->o, out);
	for (i = 0; i < CMD_HINTS_MAX && e->hints[i].fmt != NULL; i++) {
		h = &e->hints[i];
		if (!h->if_rows || cJSON_GetArraySize(out->rows) > 0)
			out_next(out, h->fmt, out_q(out, c->o->args[0]));
	}
	return CMD_EMIT;
}

/* The run of a report verb that gives its report function. */
static int
drv_rmodel_run(const struct cmd_ctx *c, struct out *out, const char **code,
    char **cause)
{
	if (c->entry->rmodel(c->in->r, c->o, out, code, cause) != 0)
		return -1;
	return CMD_EMIT;
}

int
cmd_run(const struct cmd_entry *e, int argc, char **argv,
    const struct cmd_global *g)
{
	struct cmd_ctx		 c;
	struct opts		 o;
	struct out		 out;
	struct input		 in[2];
	struct vopt		*v;
	struct answers		*ans = NULL;
	const struct cmd_args	*args = &e->args;
	const struct model	*m;
	enum cmd_input		 kind = e->input;
	cmd_run_fn		 run = e->run != NULL ? e->run :
				    e->rmodel != NULL ? drv_rmodel_run :
				    drv_model_run;
	char			**rest, *cause = NULL, *vcause = NULL;
	const char		*code = NULL;
	size_t			 nv = 0;
	int			 nrest, rc, bad, keep = 0;

	if (kind == CMD_IN_NONE)
		return e->main(argc, argv, g);
	memset(&c, 0, sizeof c);
	c.entry = e;
	c.g = g;
	memset(in, 0, sizeof in);
	v = xcalloc((size_t)argc + 1, sizeof *v);
	rest = xcalloc((size_t)argc + 1, sizeof *rest);
	out_init(&out, e->name);
	/* On an error in its own options the shared ones are still read,
	 * for the output format of the error. */
	bad = drv_take(e, argc, argv, v, &nv, rest, &nrest, &vcause) != 0;
	if (opts_parse(&o, e->options, bad ? argc : nrest, bad ? argv : rest,
	    &cause) != 0 || bad) {
		opts_apply_out(&o, &out);
		rc = out_error(&out, NULL, NULL, "usage", "%s",
		    vcause != NULL ? vcause : cause);
		goto done;
	}
	opts_apply_out(&o, &out);

	if (e->report != NULL && o.nargs >= 1 &&
	    input_detect(o.args[0]) == INPUT_REPORT) {
		kind = CMD_IN_REPORT;
		args = &e->report->args;
		run = e->report->run;
		out.verb = e->report->command;
	}
	if (o.nargs < args->min || (args->max >= 0 && o.nargs > args->max)) {
		rc = out_error(&out, NULL, NULL, "usage", "%s (usage: %s)",
		    o.nargs >= args->min ? "too many arguments" :
		    args->missing != NULL ? args->missing :
		    "missing arguments", e->usage);
		goto done;
	}

	/* One trace: its stored answer, else capture the computed one. */
	if ((kind == CMD_IN_TRACE || (kind == CMD_IN_TRACES &&
	    o.nargs == 1)) && (ans = answers_open(e, argc, argv, o.args[0],
	    (int)o.format)) != NULL && (rc = answers_serve(ans)) >= 0)
		goto done;
	if ((kind == CMD_IN_TRACES || kind == CMD_IN_PAIR) && e->job != NULL) {
		c.o = &o;
		c.v = v;
		c.nv = nv;
		rc = e->job(&c, &out, &code, &cause);
		if (rc != CMD_LOAD) {
			m = NULL;
			goto answered;
		}
		/* The load lists the inputs again. */
		cJSON_Delete(out.inputs);
		out.inputs = NULL;
	}
	switch (kind) {
	case CMD_IN_TRACE:
		bad = drv_load_traces(e, &in[0], o.args, 1, g, &out);
		break;
	case CMD_IN_TRACES:
		bad = drv_load_traces(e, &in[0], o.args, o.nargs, g, &out);
		break;
	case CMD_IN_PAIR:
		bad = drv_load_traces(e, &in[0], o.args, 1, g, &out) != 0 ||
		    drv_load_traces(e, &in[1], o.args + 1, 1, g, &out) != 0;
		c.in2 = &in[1];
		break;
	case CMD_IN_REPORT:
		bad = drv_load_report(&in[0], o.args[0], &o, &out);
		break;
	default:
		bad = 1;
		out_error(&out, NULL, NULL, "internal", "bad input kind");
		break;
	}
	if (bad) {
		rc = EXIT_USAGE;
		goto done;
	}

	c.o = &o;
	c.v = v;
	c.nv = nv;
	c.in = &in[0];
	m = in[0].m;		/* NULL for a report */
	keep = 1;		/* answered from the loaded model */
	rc = run(&c, &out, &code, &cause);
answered:
	if (rc < 0) {
		keep = 0;
		rc = out_error(&out, m, o.args[0], code != NULL ? code :
		    "usage", "%s", cause != NULL ? cause : "failed");
		goto done;
	}
	if (rc == CMD_PRINTED) {
		rc = 0;
		goto done;
	}
	bad = rc == CMD_EMIT_FAIL;
	answers_err_begin(ans);
	rc = out_emit(&out, m, o.args[0]);
	answers_err_end(ans);
	keep = keep && rc == 0;
	if (rc == 0 && bad)
		rc = 1;
done:
	rc = answers_close(ans, rc, keep);
	free(cause);
	free(vcause);
	opts_free(&o);
	out_free(&out);
	input_free(&in[0]);
	input_free(&in[1]);
	free(rest);
	free(v);
	return rc;
}
