/*
 * gapcpu: what the CPU did during a GPU gap (see gapcpu.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gapcpu.h"
#include "model/iset.h"
#include "model/lane.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

const char *
gapcpu_name(int k)
{
	static const char	*names[GAPCPU_N] = {
		"synchronizing", "copying", "launching", "nothing"
	};

	return k >= 0 && k < GAPCPU_N ? names[k] : "?";
}

void
gapcpu_init(struct gapcpu *c, const struct model *m)
{
	memset(c, 0, sizeof *c);
	c->m = m;
	c->api_class = xcalloc((size_t)strpool_count(m->strs) + 1, 1);
}

void
gapcpu_free(struct gapcpu *c)
{
	free(c->api_class);
	free(c->idx);
	memset(c, 0, sizeof *c);
}

static int
gapcpu_has_proc(const uint32_t *procs, size_t n, uint32_t p)
{
	size_t	k;

	if (n == 0)
		return 1;
	for (k = 0; k < n; k++)
		if (procs[k] == p)
			return 1;
	return 0;
}

/* CPU class of an API call name. */
static int
gapcpu_api_class(struct gapcpu *c, uint32_t sid)
{
	const char	*s;
	int		 k;

	if (c->api_class[sid] != 0)
		return c->api_class[sid] - 1;
	s = model_str(c->m, sid);
	if (strstr(s, "Synchronize") != NULL ||
	    strstr(s, "StreamWaitEvent") != NULL)
		k = GAPCPU_SYNC;
	else if (strncmp(s, "cudaMemcpy", 10) == 0 ||
	    strncmp(s, "cuMemcpy", 8) == 0 || strncmp(s, "hipMemcpy", 9) == 0)
		k = GAPCPU_COPY;
	else
		k = GAPCPU_LAUNCH;
	c->api_class[sid] = (uint8_t)(k + 1);
	return k;
}

struct gapcpu_ivs {
	int64_t		*s, *e;
	size_t		 n, cap;
};

static void
gapcpu_iv_push(struct gapcpu_ivs *v, int64_t s, int64_t e)
{
	if (v->n == v->cap) {
		v->cap = v->cap == 0 ? 16 : v->cap * 2;
		v->s = xreallocarray(v->s, v->cap, sizeof *v->s);
		v->e = xreallocarray(v->e, v->cap, sizeof *v->e);
	}
	v->s[v->n] = s;
	v->e[v->n++] = e;
}

int
gapcpu_share(struct gapcpu *c, const uint32_t *procs, size_t np, int64_t s,
    int64_t e, double *pct)
{
	const struct model	*m = c->m;
	struct gapcpu_ivs		 v[3];
	struct iset		 set[3], u;
	int64_t			 len[GAPCPU_N], a, b;
	size_t			 t, k, i;
	int			 cl, best;

	memset(v, 0, sizeof v);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type != TRACK_API && tr->type != TRACK_GPU)
			continue;
		if (tr->process == NONE32 ||
		    !gapcpu_has_proc(procs, np, tr->process))
			continue;
		k = lane_overlap(l, s, e, &c->idx, &c->icap);
		for (i = 0; i < k; i++) {
			uint32_t j = c->idx[i];
			if (tr->type == TRACK_GPU) {
				if (l->kind[j] != EV_SYNC)
					continue;
				cl = GAPCPU_SYNC;
			} else if (l->kind[j] == EV_API)
				cl = gapcpu_api_class(c, l->name[j]);
			else
				continue;
			a = l->start[j] > s ? l->start[j] : s;
			b = l->end[j] < e ? l->end[j] : e;
			if (b > a)
				gapcpu_iv_push(&v[cl], a, b);
		}
	}
	for (k = 0; k < 3; k++) {
		iset_init(&set[k]);
		iset_build(&set[k], v[k].s, v[k].e, v[k].n);
		free(v[k].s);
		free(v[k].e);
	}
	iset_init(&u);
	/* Priority: synchronizing, then copying, then launching. */
	len[GAPCPU_SYNC] = iset_len(&set[GAPCPU_SYNC]);
	len[GAPCPU_COPY] = iset_diff_len(&set[GAPCPU_COPY], &set[GAPCPU_SYNC]);
	iset_union(&u, &set[GAPCPU_SYNC], &set[GAPCPU_COPY]);
	len[GAPCPU_LAUNCH] = iset_diff_len(&set[GAPCPU_LAUNCH], &u);
	len[GAPCPU_NONE] = (e - s) - len[GAPCPU_SYNC] - len[GAPCPU_COPY] -
	    len[GAPCPU_LAUNCH];
	best = 0;
	for (k = 0; k < GAPCPU_N; k++) {
		pct[k] = e > s ? 100.0 * (double)len[k] / (double)(e - s) : 0;
		if (len[k] > len[best])
			best = (int)k;
	}
	for (k = 0; k < 3; k++)
		iset_free(&set[k]);
	iset_free(&u);
	return best;
}
