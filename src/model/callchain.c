/*
 * callchain: CPU samples and call chains (callchain.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/callchain.h"
#include "model/model.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const size_t cpusamp_arrays[CPUSAMP_NARRAYS] = {
	offsetof(struct cpusamp, frame),
	offsetof(struct cpusamp, off),
	offsetof(struct cpusamp, fr),
	offsetof(struct cpusamp, th),
	offsetof(struct cpusamp, s),
};

void **
cpusamp_array(struct cpusamp *c, size_t i)
{
	return &XARRAY_AT(c, cpusamp_arrays[i]);
}

void
cpusamp_free(struct cpusamp *c)
{
	size_t	i;

	for (i = 0; i < CPUSAMP_NARRAYS; i++)
		free(*cpusamp_array(c, i));
	memset(c, 0, sizeof *c);
}

size_t
cpusamp_chain(const struct cpusamp *c, uint32_t id, const uint32_t **frames)
{
	*frames = NULL;
	if (id == NONE32 || id >= c->nchains)
		return 0;
	*frames = c->fr + c->off[id];
	return c->off[id + 1] - c->off[id];
}

uint32_t
cpusamp_event_chain(const struct model *m, uint32_t gid)
{
	struct evref		 r;
	const struct lane	*l;

	if (m->cs.nchains == 0 || (uint64_t)gid >= m->nevents)
		return NONE32;
	r = model_ev(m, gid);
	l = &m->tracks[r.track].lane;
	if (l->kind[r.idx] != EV_API && l->kind[r.idx] != EV_OSRT)
		return NONE32;
	return l->aux[r.idx] < m->cs.nchains ? l->aux[r.idx] : NONE32;
}

void
cpusamp_range(const struct cpusamp *c, uint32_t h, int64_t t0, int64_t t1,
    size_t *i0, size_t *i1)
{
	const struct csample	*s;
	size_t			 lo, hi, mid, n;

	*i0 = *i1 = 0;
	if (h >= c->nth || t1 <= t0)
		return;
	s = c->s + c->th[h].first;
	n = c->th[h].n;
	for (lo = 0, hi = n; lo < hi; ) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].t < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*i0 = c->th[h].first + lo;
	for (hi = n; lo < hi; ) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].t < t1)
			lo = mid + 1;
		else
			hi = mid;
	}
	*i1 = c->th[h].first + lo;
}

uint32_t
cpusamp_of_thread(const struct cpusamp *c, uint32_t th)
{
	size_t	h;

	for (h = 0; h < c->nth; h++)
		if (c->th[h].thread == th)
			return (uint32_t)h;
	return NONE32;
}

int
cpusamp_check(const struct cpusamp *c, uint32_t nstrs, size_t nthreads)
{
	size_t	i, j, at = 0;

	for (i = 0; i < c->nframes; i++)
		if (c->frame[i].func >= nstrs || c->frame[i].module >= nstrs)
			return -1;
	if (c->nchains != 0 && (c->off == NULL || c->off[0] != 0 ||
	    c->off[c->nchains] != c->nfr))
		return -1;
	if (c->nchains == 0 && c->nfr != 0)
		return -1;
	for (i = 0; i < c->nchains; i++)
		if (c->off[i] > c->off[i + 1])
			return -1;
	for (i = 0; i < c->nfr; i++)
		if (c->fr[i] >= c->nframes)
			return -1;
	for (i = 0; i < c->nth; i++) {
		const struct csthread *h = &c->th[i];

		if (h->name >= nstrs || (h->thread != NONE32 &&
		    h->thread >= nthreads) || h->first != at ||
		    h->n > c->ns - at)
			return -1;
		for (j = at; j < at + h->n; j++)
			if (c->s[j].sthread != i || (c->s[j].chain != NONE32 &&
			    c->s[j].chain >= c->nchains) ||
			    (j > at && c->s[j].t < c->s[j - 1].t))
				return -1;
		at += h->n;
	}
	return at == c->ns ? 0 : -1;
}

/* Building. */

void
cpusamp_build_init(struct cpusamp_build *b)
{
	memset(b, 0, sizeof *b);
	hmap_init(&b->fmap);
	hmap_init(&b->cmap);
}

void
cpusamp_build_free(struct cpusamp_build *b)
{
	hmap_free(&b->fmap);
	hmap_free(&b->cmap);
}

uint32_t
cpusamp_frame(struct cpusamp *c, struct cpusamp_build *b, uint32_t func,
    uint32_t module)
{
	uint32_t	*v;
	int		 isnew;

	v = hmap_upsert(&b->fmap, ((uint64_t)func << 32) | module,
	    (uint32_t)c->nframes, &isnew);
	if (isnew) {
		XGROW(c->frame, b->fcap, c->nframes + 1);
		c->frame[c->nframes].func = func;
		c->frame[c->nframes].module = module;
		c->nframes++;
	}
	return *v;
}

uint32_t
cpusamp_add_chain(struct cpusamp *c, struct cpusamp_build *b,
    const uint32_t *frames, size_t n)
{
	uint64_t	 key;
	uint32_t	 id;
	size_t		 len;

	if (n == 0)
		return NONE32;
	key = hmap_fnv(HMAP_FNV0, frames, n * sizeof *frames);
	/* Equal hashes of different runs probe on. */
	while (hmap_get(&b->cmap, key, &id)) {
		len = c->off[id + 1] - c->off[id];
		if (len == n && memcmp(c->fr + c->off[id], frames,
		    n * sizeof *frames) == 0)
			return id;
		key++;
	}
	id = (uint32_t)c->nchains;
	XGROW(c->off, b->ocap, c->nchains + 2);
	XGROW(c->fr, b->frcap, c->nfr + n);
	if (c->nchains == 0)
		c->off[0] = 0;
	memcpy(c->fr + c->nfr, frames, n * sizeof *frames);
	c->nfr += n;
	c->off[++c->nchains] = (uint32_t)c->nfr;
	hmap_put(&b->cmap, key, id);
	return id;
}

uint32_t
cpusamp_add_thread(struct cpusamp *c, struct cpusamp_build *b,
    const struct csthread *h)
{
	XGROW(c->th, b->thcap, c->nth + 1);
	c->th[c->nth] = *h;
	c->th[c->nth].first = c->th[c->nth].n = 0;
	return (uint32_t)c->nth++;
}

void
cpusamp_add(struct cpusamp *c, struct cpusamp_build *b, int64_t t,
    uint32_t sthread, uint32_t chain)
{
	XGROW(c->s, b->scap, c->ns + 1);
	c->s[c->ns].t = t;
	c->s[c->ns].chain = chain;
	c->s[c->ns].sthread = sthread;
	c->ns++;
}

static int
cpusamp_cmp(const void *a, const void *b, void *ctx)
{
	const struct csample	*x = a, *y = b;

	(void)ctx;
	return sort_lex2(x->sthread, y->sthread, x->t, y->t);
}

void
cpusamp_build_finish(struct cpusamp *c)
{
	size_t		i;
	uint32_t	at = 0;

	sort_stable(c->s, c->ns, sizeof *c->s, cpusamp_cmp, NULL);
	for (i = 0; i < c->nth; i++)
		c->th[i].first = c->th[i].n = 0;
	for (i = 0; i < c->ns; i++)
		c->th[c->s[i].sthread].n++;
	for (i = 0; i < c->nth; i++) {
		c->th[i].first = at;
		at += c->th[i].n;
	}
	if (c->s != NULL)
		c->s = xreallocarray(c->s, c->ns > 0 ? c->ns : 1, sizeof *c->s);
}
