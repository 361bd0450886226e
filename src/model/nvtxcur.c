/*
 * nvtxcur: the innermost NVTX range around times asked in order. See
 * nvtxcur.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/lane.h"
#include "model/nvtx.h"
#include "model/nvtxcur.h"
#include "util/xmalloc.h"

/* Ranges a cursor walks past before it restarts from a stab instead. */
#define NVTX_CUR_SKIP	64

/* One NVTX track's cursor. */
struct nvtx_tcur {
	int64_t		 t;		/* last time asked; INT64_MIN: none */
	size_t		 next;		/* first range starting after t */
	uint32_t	*open;		/* push/pop ranges live at t, in
					   index order */
	size_t		 nopen, cap;
	int64_t		 until;		/* the first time after t at which a
					   range opens or one open ends */
};

/*
 * One thread's last answer: the same at every time in [t, until), where
 * no range of its tracks opens or ends (so no cursor would move).
 */
struct nvtx_thcur {
	int64_t		 t, until;	/* until <= t: none */
	uint32_t	 gid;
};

struct nvtx_cur {
	const struct model	*m;
	struct nvtx_tcur	*tc;		/* per track */
	uint8_t			*in;		/* per track: of the domain */
	struct nvtx_thcur	*th;		/* per thread */
	/* Per thread: its NVTX tracks of the domain, in the order
	 * model_thread_nvtx_next() gives them, trk[off[th] .. off[th + 1]). */
	uint32_t		*off, *trk;
	uint32_t		*buf;		/* lane_stab()'s */
	size_t			 bufcap;
};

struct nvtx_cur *
nvtx_cur_new(const struct model *m, const char *domain)
{
	struct nvtx_cur		*c = xcalloc(1, sizeof *c);
	const struct track	*tr;
	size_t			 k, j, n = 0;
	uint32_t		 th, u;

	c->m = m;
	c->tc = xcalloc(m->ntracks + 1, sizeof *c->tc);
	c->in = xcalloc(m->ntracks + 1, sizeof *c->in);
	/* (Zeroed: until == t, no answer yet.) */
	c->th = xcalloc(m->nthreads + 1, sizeof *c->th);
	for (k = 0; k < m->ntracks; k++) {
		tr = &m->tracks[k];
		c->tc[k].t = INT64_MIN;
		c->in[k] = domain == NULL || (tr->domain < m->ndomains &&
		    strcmp(model_str(m, m->domains[tr->domain].name),
		    domain) == 0);
	}
	c->off = xcalloc((size_t)m->nthreads + 2, sizeof *c->off);
	c->trk = xcalloc((size_t)m->ntracks + 1, sizeof *c->trk);
	for (th = 0; th < m->nthreads; th++) {
		c->off[th] = (uint32_t)n;
		for (j = model_thread_nvtx_begin(m, th);
		    (u = model_thread_nvtx_next(m, th, &j)) != NONE32;)
			if (c->in[u] && n < m->ntracks)
				c->trk[n++] = u;
	}
	c->off[m->nthreads] = (uint32_t)n;
	return c;
}

void
nvtx_cur_free(struct nvtx_cur *c)
{
	size_t	k;

	if (c == NULL)
		return;
	for (k = 0; k < c->m->ntracks; k++)
		free(c->tc[k].open);
	free(c->tc);
	free(c->in);
	free(c->th);
	free(c->off);
	free(c->trk);
	free(c->buf);
	free(c);
}

/* Whether range i of l is a push/pop range (what the answer may be). */
static inline int
nvtx_cur_pushpop(const struct lane *l, size_t i)
{
	return l->kind[i] == EV_NVTX && !(l->flags[i] & EVF_STARTEND);
}

/* Restarts cursor tc of lane l at t from a stab. */
static void
nvtx_cur_restart(struct nvtx_cur *c, struct nvtx_tcur *tc,
    const struct lane *l, int64_t t)
{
	size_t	n, j;

	n = lane_stab(l, t, &c->buf, &c->bufcap);
	tc->nopen = 0;
	for (j = 0; j < n; j++)
		if (nvtx_cur_pushpop(l, c->buf[j])) {
			XGROW(tc->open, tc->cap, tc->nopen + 1);
			tc->open[tc->nopen++] = c->buf[j];
		}
	tc->next = t == INT64_MAX ? l->n : lane_lower(l, t + 1);
	tc->t = t;
	tc->until = tc->next < l->n ? l->start[tc->next] : INT64_MAX;
	for (j = 0; j < tc->nopen; j++)
		if (l->end[tc->open[j]] < tc->until)
			tc->until = l->end[tc->open[j]];
}

/* Moves cursor tc of lane l to t: the ranges open there. */
static void
nvtx_cur_move(struct nvtx_cur *c, struct nvtx_tcur *tc,
    const struct lane *l, int64_t t)
{
	size_t	i, r, w;
	int64_t	e, until;

	if (t < tc->t || tc->t == INT64_MIN || (tc->next +
	    NVTX_CUR_SKIP < l->n && l->start[tc->next + NVTX_CUR_SKIP] <= t)) {
		nvtx_cur_restart(c, tc, l, t);
		return;
	}
	for (i = tc->next; i < l->n && l->start[i] <= t; i++)
		if (nvtx_cur_pushpop(l, i)) {
			XGROW(tc->open, tc->cap, tc->nopen + 1);
			tc->open[tc->nopen++] = (uint32_t)i;
		}
	tc->next = i;
	tc->t = t;
	until = i < l->n ? l->start[i] : INT64_MAX;
	for (r = w = 0; r < tc->nopen; r++)
		if ((e = l->end[tc->open[r]]) > t) {
			tc->open[w++] = tc->open[r];
			if (e < until)
				until = e;
		}
	tc->nopen = w;
	tc->until = until;
}

int64_t
nvtx_cur_until(const struct nvtx_cur *c, uint32_t thread, int64_t t)
{
	const struct nvtx_thcur	*th;

	if (thread == NONE32)
		return INT64_MAX;	/* (never a range) */
	if (thread >= c->m->nthreads)
		return t;
	th = &c->th[thread];
	return t >= th->t && t < th->until ? th->until : t;
}

uint32_t
nvtx_cur_at(struct nvtx_cur *c, uint32_t thread, int64_t t)
{
	const struct model	*m = c->m;
	const struct lane	*l;
	struct nvtx_tcur	*tc;
	struct nvtx_thcur	*th = NULL;
	struct nvtx_inner	 best;
	uint32_t		 u, k;
	int64_t			 until = INT64_MAX;

	if (thread == NONE32 || thread >= m->nthreads)
		return NONE32;
	th = &c->th[thread];
	if (t >= th->t && t < th->until)
		return th->gid;
	best.gid = NONE32;
	for (k = c->off[thread]; k < c->off[thread + 1]; k++) {
		u = c->trk[k];
		l = &m->tracks[u].lane;
		tc = &c->tc[u];
		nvtx_cur_move(c, tc, l, t);
		if (tc->until < until)
			until = tc->until;
		/* As nvtx_enclosing_in(): the last open range of each
		 * track. */
		if (tc->nopen > 0)
			nvtx_inner_offer(&best, m, u, tc->open[tc->nopen - 1],
			    (long)tc->nopen - 1);
	}
	th->t = t;
	th->until = until;
	th->gid = best.gid;
	return best.gid;
}
