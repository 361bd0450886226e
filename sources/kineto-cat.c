/*
 * kineto-cat: event classification. The categories Kineto writes (matched
 * ignoring case, 2021-era names included), the interned category of one
 * event through a small most-recent-first cache, and the flags cached per
 * pool string (NCCL, driver calls, the profiler's own markers).
 */

#include "config.h"
#include <string.h>
#include "model/builder.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "sources/srcname.h"
#include "util/xmalloc.h"

static const struct srcname kineto_cats[] = {
	{ "cpu_op",		KC_CPU_OP },
	{ "operator",		KC_CPU_OP },
	{ "user_annotation",	KC_USER_ANN },
	{ "python_function",	KC_PYTHON },
	{ "python",		KC_PYTHON },
	{ "gpu_user_annotation", KC_GPU_ANN },
	{ "cpu_instant_event",	KC_INSTANT },
	{ "cuda_runtime",	KC_RUNTIME },
	{ "runtime",		KC_RUNTIME },
	{ "xpu_runtime",	KC_RUNTIME },
	{ "mtia_runtime",	KC_RUNTIME },
	{ "privateuse1_runtime", KC_RUNTIME },
	{ "cuda_driver",	KC_DRIVER },
	{ "privateuse1_driver",	KC_DRIVER },
	{ "kernel",		KC_KERNEL },
	{ "cuda_profiler_range", KC_PROFRANGE },
	{ "gpu_memcpy",		KC_MEMCPY },
	{ "memcpy",		KC_MEMCPY },
	{ "gpu_memset",		KC_MEMSET },
	{ "memset",		KC_MEMSET },
	{ "cuda_sync",		KC_SYNC },
	{ "overhead",		KC_OVERHEAD },
	{ "ac2g",		KC_FLOW },
	{ "async",		KC_FLOW },
	{ "async_cpu_to_gpu",	KC_FLOW },
	{ "async_gpu",		KC_FLOW },
	{ "fwdbwd",		KC_FLOW },
	{ "trace",		KC_TRACE },
	{ "memory",		KC_MEMORY },
};
#define K_NCATS	(sizeof kineto_cats / sizeof kineto_cats[0])

uint8_t
kineto_sflags(struct kineto *k, uint32_t sid)
{
	uint8_t		*slot = srcname_slot(&k->sflags, &k->sflagscap, sid);
	const char	*s;
	size_t		 n;
	uint8_t		 f;

	if ((f = *slot) & SF_KNOWN)
		return f;
	s = strpool_get(k->m->strs, sid);
	n = strpool_len(k->m->strs, sid);
	f = srcname_flags(s, n, 1);
	if (strncmp(s, "Iteration Start:", 16) == 0 ||
	    strcmp(s, "Record Window End") == 0)
		f |= SF_MARKER;
	if (kineto_op_kind(s, n) != OPK_NONE)
		f |= SF_FLOPOP;
	*slot = f;
	return f;
}

/* Categories. */

uint8_t
kineto_cat(struct kineto *k, struct jsonscan_val *v, uint32_t *catname)
{
	struct kcatcache	*c;
	size_t			 i;
	uint8_t			 cat = KC_OTHER;

	for (i = 0; i < k->ncat; i++) {
		c = &k->cat[i];
		if (c->len == v->len && memcmp(c->text, v->p, v->len) == 0) {
			*catname = c->name;
			return c->cat;
		}
	}
	jsonscan_str(v);
	for (i = 0; i < K_NCATS; i++)
		if (jsonscan_is_ci(v, kineto_cats[i].name)) {
			cat = (uint8_t)kineto_cats[i].code;
			break;
		}
	*catname = builder_intern_n(k->b, v->p, v->len);
	if (v->len <= sizeof c->text) {
		/* Remember it (the oldest entry makes room). */
		if (k->ncat < K_CATCACHE)
			k->ncat++;
		memmove(&k->cat[1], &k->cat[0], (k->ncat - 1) *
		    sizeof *k->cat);
		c = &k->cat[0];
		memcpy(c->text, v->p, v->len);
		c->len = v->len;
		c->cat = cat;
		c->name = *catname;
	}
	return cat;
}

int
kineto_is_category(const char *s, size_t len)
{
	return srcname_code(kineto_cats, K_NCATS, s, len, -1) >= 0;
}
