/*
 * threads: per-thread running time from the scheduling table (threads.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/threads.h"
#include "model/iset.h"
#include "util/sort.h"
#include "util/xmalloc.h"

int
threads_have(const struct model *m)
{
	return m->nsched_runs > 0;
}

uint32_t
threads_find(const struct model *m, uint64_t id)
{
	size_t	lo = 0, hi = m->nsched_threads, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->sched_threads[mid].source_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nsched_threads && m->sched_threads[lo].source_id == id)
		return (uint32_t)lo;
	return NONE32;
}

/* The window of pid: the windows of its process (or of every process) in
 * [t0, t1), or [t0, t1) itself without windows. */
static void
threads_window(const struct threads_query *q, uint32_t pid, struct iset *out)
{
	int64_t		*st, *en;
	size_t		 i, n = 0;

	iset_clear(out);
	if (q->win == NULL) {
		iset_add(out, q->t0, q->t1);
		return;
	}
	st = xreallocarray(NULL, q->nwin + 1, sizeof *st);
	en = xreallocarray(NULL, q->nwin + 1, sizeof *en);
	for (i = 0; i < q->nwin; i++) {
		if (q->win[i].pid != THREADS_ANYPID && q->win[i].pid != pid)
			continue;
		st[n] = q->win[i].start;
		en[n++] = q->win[i].end;
	}
	iset_build_clip(out, st, en, n, q->t0, q->t1);
	free(st);
	free(en);
}

static int
threads_cmp_cpu(const void *a, const void *b)
{
	uint16_t	x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts and dedups a CPU list; returns its new length. */
static size_t
threads_uniq(uint16_t *c, size_t n)
{
	size_t	i, k = 0;

	if (n == 0)
		return 0;
	qsort(c, n, sizeof *c, threads_cmp_cpu);
	for (i = 1; i < n; i++)
		if (c[i] != c[k])
			c[++k] = c[i];
	return k + 1;
}

/* One thread's figures inside window w (sorted, disjoint segments). */
static void
threads_one(const struct model *m, uint32_t k, const struct iset *w,
    struct threads_row *r)
{
	const struct sched_thread	*th = &m->sched_threads[k];
	const struct sched_run		*run;
	size_t				 i, j = 0, s, cap = 0;
	int64_t				 lo, hi, in;
	int				 start_in;

	memset(r, 0, sizeof *r);
	r->st = k;
	r->window = iset_len(w);
	for (i = th->run0; i < (size_t)th->run0 + th->nrun; i++) {
		run = &m->sched_runs[i];
		/* Runs are by start and do not overlap: the windows that end
		 * by this run's start are done with. */
		while (j < w->n && w->end[j] <= run->start)
			j++;
		start_in = j < w->n && w->start[j] <= run->start;
		in = 0;
		for (s = j; s < w->n && w->start[s] < run->end; s++) {
			lo = run->start > w->start[s] ? run->start :
			    w->start[s];
			hi = run->end < w->end[s] ? run->end : w->end[s];
			if (hi > lo)
				in += hi - lo;
		}
		if (start_in)
			r->switches++;
		if (in == 0 && !start_in)
			continue;
		r->running += in;
		if (r->ncpus == cap)
			XGROW(r->cpus, cap, r->ncpus + 1);
		r->cpus[r->ncpus++] = run->cpu;
		if (run->flags & SCHEDF_OPEN)
			r->open = 1;
	}
	r->ncpus = threads_uniq(r->cpus, r->ncpus);
}

static int
threads_cmp_row(const void *a, const void *b, void *ctx)
{
	const struct threads_row	*x = a, *y = b;
	const struct model		*m = ctx;
	const struct sched_thread	*p = &m->sched_threads[x->st];
	const struct sched_thread	*q = &m->sched_threads[y->st];

	if (x->running != y->running)
		return x->running > y->running ? -1 : 1;
	return sort_lex3(p->pid, q->pid, p->tid, q->tid, x->st, y->st);
}

void
threads_build(struct threads *t, const struct model *m,
    const struct threads_query *q)
{
	struct iset	 w;
	struct threads_row r;
	uint16_t	*all = NULL;
	size_t		 k, i, nall = 0, cap = 0, rcap = 0;
	uint32_t	 wpid = NONE32;

	memset(t, 0, sizeof *t);
	iset_init(&w);
	for (k = 0; k < m->nsched_threads; k++) {
		const struct sched_thread *th = &m->sched_threads[k];

		if (q->pid >= 0 && (int64_t)th->pid != q->pid)
			continue;
		if (k == 0 || th->pid != wpid || q->win == NULL) {
			threads_window(q, th->pid, &w);
			wpid = th->pid;
		}
		if (w.n == 0)
			continue;
		threads_one(m, (uint32_t)k, &w, &r);
		if (r.running == 0 && r.switches == 0) {
			free(r.cpus);
			t->nidle++;
			continue;
		}
		XGROW(t->rows, rcap, t->n + 1);
		t->rows[t->n++] = r;
		t->running = sat_add64(t->running, r.running);
		t->switches += r.switches;
		XGROW(all, cap, nall + r.ncpus);
		for (i = 0; i < r.ncpus; i++)
			all[nall++] = r.cpus[i];
		nall = threads_uniq(all, nall);
	}
	iset_free(&w);
	free(all);
	t->ncpus = nall;
	if (t->n > 1)
		sort_stable(t->rows, t->n, sizeof *t->rows, threads_cmp_row,
		    (void *)(uintptr_t)m);
}

void
threads_free(struct threads *t)
{
	XFREE_EACH(t->rows, t->n, cpus);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

void
threads_cpus_text(const uint16_t *c, size_t n, char *buf, size_t len)
{
	size_t	i, j, off = 0;
	int	w;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < n; i = j + 1) {
		for (j = i; j + 1 < n && c[j + 1] == c[j] + 1; j++)
			;
		if (j > i)
			w = snprintf(buf + off, len - off, "%s%u-%u",
			    off > 0 ? "," : "", c[i], c[j]);
		else
			w = snprintf(buf + off, len - off, "%s%u",
			    off > 0 ? "," : "", c[i]);
		if (w < 0 || (size_t)w >= len - off) {
			buf[off] = '\0';
			return;
		}
		off += (size_t)w;
	}
}
