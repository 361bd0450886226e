/*
 * samples: CPU hotspots (samples.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/samples.h"
#include "model/callchain.h"
#include "util/hmap.h"
#include "util/nametab.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *const samples_groups[] = { "function", "module", "tid" };

const char *
samples_group_name(int g)
{
	return NAMETAB(samples_groups, g, "?");
}

int
samples_group_parse(const char *s)
{
	return NAMETAB_FIND(samples_groups, s);
}

uint32_t
samples_process(const struct model *m, uint32_t h)
{
	const struct csthread	*th;
	size_t			 p;

	if (h >= m->cs.nth)
		return NONE32;
	th = &m->cs.th[h];
	if (th->thread != NONE32 && th->thread < m->nthreads)
		return m->threads[th->thread].process;
	for (p = 0; p < m->nprocesses; p++)
		if (m->processes[p].pid == th->pid)
			return (uint32_t)p;
	return NONE32;
}

static int
samples_win_cmp(const void *a, const void *b, void *ctx)
{
	const struct samples_win	*x = a, *y = b;

	(void)ctx;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* Counts the samples of thread h in [a, b) into cnt[] per chain. */
static void
samples_count(const struct model *m, uint32_t h, int64_t a, int64_t b,
    uint64_t *cnt, struct samples_result *r, uint64_t *nh)
{
	const struct cpusamp	*cs = &m->cs;
	size_t			 i0, i1, i;
	uint32_t		 c;

	cpusamp_range(cs, h, a, b, &i0, &i1);
	for (i = i0; i < i1; i++) {
		c = cs->s[i].chain;
		if (c == NONE32 || c >= cs->nchains)
			r->without_chain++;
		else
			cnt[c]++;
	}
	r->samples += i1 - i0;
	*nh += i1 - i0;
}

/* The samples of thread h in the query's window, per chain. */
static void
samples_thread(const struct model *m, const struct samples_query *q,
    uint32_t h, uint64_t *cnt, struct samples_result *r, uint64_t *nh)
{
	struct samples_win	*w;
	uint32_t		 p;
	size_t			 i, n = 0;
	int64_t			 a, b, reach;

	if (!q->has_win) {
		samples_count(m, h, q->t0, q->t1, cnt, r, nh);
		return;
	}
	p = samples_process(m, h);
	if (p == NONE32 || q->nwin == 0)
		return;
	w = xreallocarray(NULL, q->nwin, sizeof *w);
	for (i = 0; i < q->nwin; i++)
		if (q->win[i].process == p)
			w[n++] = q->win[i];
	sort_stable(w, n, sizeof *w, samples_win_cmp, NULL);
	/* The union of the windows, clipped to [t0, t1). */
	for (i = 0; i < n; ) {
		a = w[i].start;
		reach = w[i].end;
		for (i++; i < n && w[i].start <= reach; i++)
			if (w[i].end > reach)
				reach = w[i].end;
		b = reach;
		if (a < q->t0)
			a = q->t0;
		if (b > q->t1)
			b = q->t1;
		if (a < b)
			samples_count(m, h, a, b, cnt, r, nh);
	}
	free(w);
}

static int
samples_row_cmp(const void *a, const void *b, void *ctx)
{
	const struct samples_row	*x = a, *y = b;
	const struct model		*m = ctx;
	int				 c;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->sthread != y->sthread)
		return x->sthread < y->sthread ? -1 : 1;
	if ((c = strcmp(model_str(m, x->func), model_str(m, y->func))) != 0)
		return c;
	return strcmp(model_str(m, x->module), model_str(m, y->module));
}

/* Frames (or modules) of the counted chains: self and total. */
static void
samples_frames(const struct model *m, const uint64_t *cnt, int bymod,
    struct samples_result *r)
{
	const struct cpusamp	*cs = &m->cs;
	struct hmap		 idx;		/* frame or module -> row */
	struct samples_row	*row;
	const uint32_t		*fr;
	uint32_t		*seen, *v, key;
	size_t			 c, k, n, rowcap = 0;
	int			 isnew;

	hmap_init(&idx);
	seen = xcalloc(cs->nframes + 1, sizeof *seen);	/* row -> chain + 1 */
	for (c = 0; c < cs->nchains; c++) {
		if (cnt[c] == 0)
			continue;
		n = cpusamp_chain(cs, (uint32_t)c, &fr);
		for (k = 0; k < n; k++) {
			key = bymod ? cs->frame[fr[k]].module : fr[k];
			v = hmap_upsert(&idx, key, (uint32_t)r->nrows, &isnew);
			if (isnew) {
				row = XAPPEND(r->rows, rowcap, r->nrows++);
				row->sthread = NONE32;
				if (!bymod)
					row->func = cs->frame[fr[k]].func;
				row->module = cs->frame[fr[k]].module;
			}
			if (k == 0)
				r->rows[*v].self += cnt[c];
			/* A row counts once per chain in total. */
			if (seen[*v] != c + 1) {
				seen[*v] = (uint32_t)(c + 1);
				r->rows[*v].total += cnt[c];
			}
		}
	}
	free(seen);
	hmap_free(&idx);
}

void
samples_build(const struct model *m, const struct samples_query *q,
    struct samples_result *r)
{
	const struct cpusamp	*cs = &m->cs;
	struct samples_row	*row;
	uint64_t		*cnt, nh;
	size_t			 h, rowcap = 0;

	memset(r, 0, sizeof *r);
	cnt = xcalloc(cs->nchains + 1, sizeof *cnt);
	for (h = 0; h < cs->nth; h++) {
		if (q->tid >= 0 && cs->th[h].tid != (uint64_t)q->tid)
			continue;
		nh = 0;
		samples_thread(m, q, (uint32_t)h, cnt, r, &nh);
		if (nh == 0)
			continue;
		r->threads++;
		if (q->group == SAMPLES_BY_TID) {
			row = XAPPEND(r->rows, rowcap, r->nrows++);
			row->sthread = (uint32_t)h;
			row->self = row->total = nh;
		}
	}
	if (q->group != SAMPLES_BY_TID)
		samples_frames(m, cnt, q->group == SAMPLES_BY_MODULE, r);
	free(cnt);
	sort_stable(r->rows, r->nrows, sizeof *r->rows, samples_row_cmp,
	    (void *)(uintptr_t)m);
}

void
samples_free(struct samples_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof *r);
}
