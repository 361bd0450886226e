/*
 * fevtext: a finding's evidence as text. See fevtext.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui/fevtext.h"
#include "tui/fmt.h"
#include "util/units.h"
#include "util/xmalloc.h"

static int
fevtext_ends(const char *key, const char *suffix)
{
	size_t	a = strlen(key), b = strlen(suffix);

	return a >= b && strcmp(key + a - b, suffix) == 0;
}

static void
fevtext_value(char **s, const struct fev *x)
{
	const char	*k = x->key != NULL ? x->key : "", *v, *p;
	char		 b[64];

	switch (x->type) {
	case FEV_INT:
		if (fevtext_ends(k, "start_ns") || fevtext_ends(k, "end_ns"))
			xstrcatf(s, "+%s", fmt_time(b, sizeof b, x->u.i));
		else if (fevtext_ends(k, "_ns"))
			xstrcatf(s, "%s", fmt_time(b, sizeof b, x->u.i));
		else if ((strcmp(k, "bytes") == 0 ||
		    fevtext_ends(k, "_bytes")) && x->u.i >= 0)
			xstrcatf(s, "%s", units_bytes_sig((uint64_t)x->u.i, b,
			    sizeof b));
		else if (fevtext_ends(k, "_pct"))
			xstrcatf(s, "%lld%%", (long long)x->u.i);
		else
			xstrcatf(s, "%lld", (long long)x->u.i);
		break;
	case FEV_REAL:
		if (fevtext_ends(k, "_pct"))
			xstrcatf(s, "%.1f%%", x->u.r);
		else
			xstrcatf(s, "%.4g", x->u.r);
		break;
	case FEV_BOOL:
		xstrcatf(s, "%s", x->u.b ? "yes" : "no");
		break;
	case FEV_STR:
		v = x->u.s != NULL ? x->u.s : "";
		/* A call site's module: its file name (the JSON has the
		 * path). */
		if (strcmp(k, "module") == 0 && (p = strrchr(v, '/')) != NULL &&
		    p[1] != '\0')
			v = p + 1;
		xstrcatf(s, "%s", v);
		break;
	default:
		xstrcatf(s, "-");
		break;
	}
}

/* The items from *i up to the end of their group; *i ends past it. */
static void
fevtext_group(char **s, const struct fevidence *ev, size_t *i)
{
	const struct fev	*x;
	int			 first = 1;

	while (*i < ev->n) {
		x = &ev->v[(*i)++];
		if (x->type == FEV_END)
			return;
		if (!first)
			xstrcatf(s, ", ");
		first = 0;
		if (x->key != NULL)
			xstrcatf(s, "%s ", x->key);
		if (x->type == FEV_RECORD || x->type == FEV_LIST) {
			xstrcatf(s, x->type == FEV_LIST ? "[" : "{");
			fevtext_group(s, ev, i);
			xstrcatf(s, x->type == FEV_LIST ? "]" : "}");
		} else
			fevtext_value(s, x);
	}
}

char *
fevtext(const struct fevidence *ev)
{
	char	*s = xstrdup("");
	size_t	 i = 0;

	fevtext_group(&s, ev, &i);
	return s;
}
