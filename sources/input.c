/*
 * input: detection and loading of a front-end's typed input (input.h).
 */
#include "config.h"

#include <string.h>

#include "model/model.h"
#include "report/report.h"
#include "sources/input.h"
#include "sources/multi.h"
#include "sources/ncu.h"
#include "util/xmalloc.h"

enum input_kind
input_detect(const char *path)
{
	return ncu_detect(path) != NCU_NONE ? INPUT_REPORT : INPUT_TIMELINE;
}

int
input_load(struct input *in, enum input_kind kind, char *const *paths, int n,
    const struct load_opts *lo, char **cause)
{
	memset(in, 0, sizeof *in);
	if (n < 1) {
		*cause = NULL;
		return -1;
	}
	if (kind == INPUT_NONE)
		kind = input_detect(paths[0]);
	if (kind == INPUT_REPORT) {
		if (n > 2) {
			*cause = xasprintf("%d reports: a report opens alone "
			    "or after its baseline (BASELINE REPORT)", n);
			return -1;
		}
		if ((in->r = ncu_load(paths[n - 1], cause)) == NULL)
			return -1;
		if (n == 2 && (in->base = ncu_load(paths[0], cause)) ==
		    NULL) {
			report_free(in->r);
			in->r = NULL;
			return -1;
		}
		in->base_path = n == 2 ? paths[0] : NULL;
		in->path = paths[n - 1];
	} else {
		if ((in->m = multi_load(paths, n, lo, cause)) == NULL)
			return -1;
		in->path = paths[0];
	}
	in->kind = kind;
	return 0;
}

void
input_set_model(struct input *in, struct model *m, const char *path)
{
	memset(in, 0, sizeof *in);
	in->kind = INPUT_TIMELINE;
	in->m = m;
	in->path = path;
}

void
input_free(struct input *in)
{
	model_free(in->m);
	report_free(in->r);
	report_free(in->base);
	memset(in, 0, sizeof *in);
}
