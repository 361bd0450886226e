/*
 * syncwait: host time blocked on the GPU (syncwait.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/apicall.h"
#include "analysis/syncwait.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static int
syncwait_cmp(const void *a, const void *b, void *unused)
{
	const struct syncwait_thread	*x = a, *y = b;

	(void)unused;
	if (x->blocked != y->blocked)
		return x->blocked > y->blocked ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
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
	size_t			 t, i, n = 0, cap = 0, thcap = 0, nstr;
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
		for (i = 0; i < l->n; i++) {
			if (l->start[i] >= t1)
				break;
			if (l->end[i] <= t0 || l->kind[i] != EV_API ||
			    l->name[i] >= nstr)
				continue;
			if (cls[l->name[i]] == 0)
				cls[l->name[i]] = (uint8_t)(1 + apicall_class(
				    model_str(m, l->name[i])));
			k = cls[l->name[i]] - 1;
			if (!apicall_blocks(k))
				continue;
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
			}
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
	free(st);
	free(en);
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

void
syncwait_free(struct syncwait *w)
{
	free(w->th);
	iset_free(&w->all);
	memset(w, 0, sizeof *w);
}
