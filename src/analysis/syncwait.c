/*
 * syncwait: host time blocked on the GPU (syncwait.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/apicall.h"
#include "analysis/syncwait.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static int
syncwait_cmp(const void *a, const void *b, void *unused)
{
	const struct syncwait_thread	*x = a, *y = b;

	(void)unused;
	return sort_lex2(y->blocked, x->blocked, x->track, y->track);
}

/* The per-process unions: the intervals bucketed by process. */
static void
syncwait_procs(struct syncwait *w, size_t np, const int64_t *st,
    const int64_t *en, const uint32_t *pr, size_t n)
{
	size_t	*off, *at, i, p;
	int64_t	*bs, *be;

	w->nproc = np;
	w->proc = xcalloc(np, sizeof *w->proc);
	off = xcalloc(np + 1, sizeof *off);
	at = xcalloc(np, sizeof *at);
	for (i = 0; i < n; i++)
		off[pr[i] + 1]++;
	for (p = 0; p < np; p++)
		off[p + 1] += off[p];
	bs = xcalloc(n + 1, sizeof *bs);
	be = xcalloc(n + 1, sizeof *be);
	for (i = 0; i < n; i++) {
		p = pr[i];
		bs[off[p] + at[p]] = st[i];
		be[off[p] + at[p]++] = en[i];
	}
	for (p = 0; p < np; p++) {
		iset_init(&w->proc[p]);
		if (off[p + 1] > off[p])
			iset_build(&w->proc[p], bs + off[p], be + off[p],
			    off[p + 1] - off[p]);
		iset_index(&w->proc[p]);
	}
	free(bs);
	free(be);
	free(off);
	free(at);
}

/*
 * The class of API name id nm for the per-name table: 1 + its apicall
 * class, with SYNCWAIT_BLOCKS when such calls block (0 stays "not yet
 * looked up").
 */
#define SYNCWAIT_BLOCKS	0x80
_Static_assert(APICALL_MEMSET_SYNC + 1 < SYNCWAIT_BLOCKS,
    "apicall classes reach the blocking bit");
static uint8_t
syncwait_class(const struct model *m, uint32_t nm)
{
	int	k = apicall_class(model_str(m, nm));

	return (uint8_t)((1 + k) | (apicall_blocks(k) ? SYNCWAIT_BLOCKS : 0));
}

void
syncwait_build(struct syncwait *w, const struct model *m, int64_t t0,
    int64_t t1)
{
	const struct track	*tr;
	const struct lane	*l;
	struct syncwait_thread	 th;
	struct iset		 one, syn;
	uint8_t			*cls;
	int64_t			*st = NULL, *en = NULL, s, e;
	uint32_t		*pr = NULL;
	size_t			 t, i, hi, nstr;
	size_t			 n = 0, cap = 0, thcap = 0;
	int			 k;

	memset(w, 0, sizeof *w);
	w->t0 = t0;
	w->t1 = t1;
	iset_init(&w->all);
	iset_init(&one);
	iset_init(&syn);
	nstr = strpool_count(m->strs);
	cls = xcalloc(nstr + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		l = &tr->lane;
		if (tr->type != TRACK_API)
			continue;
		memset(&th, 0, sizeof th);
		iset_clear(&one);
		iset_clear(&syn);
		/* The calls that start before t1; the name first, as most
		 * calls do not block. */
		hi = lbound_i64(l->start, l->n, t1);
		for (i = 0; i < hi; i++) {
			if (l->name[i] >= nstr)
				continue;
			if (cls[l->name[i]] == 0)
				cls[l->name[i]] = syncwait_class(m,
				    l->name[i]);
			if (!(cls[l->name[i]] & SYNCWAIT_BLOCKS) ||
			    l->kind[i] != EV_API || l->end[i] <= t0)
				continue;
			k = (cls[l->name[i]] & ~SYNCWAIT_BLOCKS) - 1;
			s = l->start[i] > t0 ? l->start[i] : t0;
			e = l->end[i] < t1 ? l->end[i] : t1;
			th.calls++;
			iset_add(&one, s, e);
			if (k == APICALL_SYNC) {
				th.sync_calls++;
				iset_add(&syn, s, e);
			}
			if (n == cap) {
				XGROW(st, cap, n + 1);
				en = xreallocarray(en, cap, sizeof *en);
				pr = xreallocarray(pr, cap, sizeof *pr);
			}
			pr[n] = tr->process < m->nprocesses ? tr->process :
			    (uint32_t)m->nprocesses;
			st[n] = s;
			en[n++] = e;
		}
		if (th.calls == 0)
			continue;
		th.track = (uint32_t)t;
		th.thread = tr->thread;
		th.process = tr->process;
		th.blocked = iset_len(&one);
		th.sync = iset_len(&syn);
		XGROW(w->th, thcap, w->n + 1);
		w->th[w->n++] = th;
		w->calls += th.calls;
		w->sync_calls += th.sync_calls;
	}
	iset_free(&one);
	iset_free(&syn);
	free(cls);
	if (n > 0)
		iset_build(&w->all, st, en, n);
	iset_index(&w->all);
	w->blocked = iset_len(&w->all);
	syncwait_procs(w, m->nprocesses + 1, st, en, pr, n);
	free(st);
	free(en);
	free(pr);
	if (w->n > 1)
		sort_stable(w->th, w->n, sizeof *w->th, syncwait_cmp, NULL);
}

int64_t
syncwait_measure(const struct syncwait *w, int64_t a, int64_t b)
{
	if (a < w->t0)
		a = w->t0;
	if (b > w->t1)
		b = w->t1;
	if (b <= a)
		return 0;
	return iset_measure(&w->all, a, b);
}

int64_t
syncwait_measure_proc(const struct syncwait *w, uint32_t p, int64_t a,
    int64_t b)
{
	if (p == NONE32)
		return syncwait_measure(w, a, b);
	if (a < w->t0)
		a = w->t0;
	if (b > w->t1)
		b = w->t1;
	if (b <= a || p >= w->nproc)
		return 0;
	return iset_measure(&w->proc[p], a, b);
}

void
syncwait_free(struct syncwait *w)
{
	size_t	p;

	for (p = 0; p < w->nproc; p++)
		iset_free(&w->proc[p]);
	free(w->proc);
	free(w->th);
	iset_free(&w->all);
	memset(w, 0, sizeof *w);
}
