/*
 * jobrank: the ranks of a distributed job compared (jobrank.h), from a
 * merged model or from the ranks' summaries.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/iters.h"
#include "analysis/jobrank.h"
#include "util/xmalloc.h"

static void
jobrank_base(struct jobrank *j)
{
	memset(j, 0, sizeof *j);
	j->local = strpool_new();
	j->kpool = strpool_new();
	stats_acc_init(&j->all);
	j->straggler = SIZE_MAX;
	j->most = -1;
}

void
jobrank_from_model(const struct model *m, struct jobrank *j)
{
	struct rankscan		 s;
	struct iters		 it;
	struct jobrank_rank	*r;
	char			*why = NULL, buf[RANKSETUP_AXES * 32];
	size_t			 i;
	uint32_t		 p;

	jobrank_base(j);
	rankscan_build(m, 0, j->local, &s);
	j->guessed = s.guessed;
	j->from_nvtx = s.from_nvtx;
	j->nr = s.nr;
	j->r = xcalloc(s.nr + 1, sizeof *j->r);
	for (i = 0; i < s.nr; i++) {
		r = &j->r[i];
		p = s.r[i].process;
		r->rank = s.r[i].rank;
		r->pid = m->processes[p].pid;
		r->name = xstrdup(model_str(m, m->processes[p].name));
		if (model_host(m, p) != NULL)
			r->host = xstrdup(model_host(m, p));
		r->nvtx_rank = s.setup[p].rank;
		buf[0] = '\0';
		if (r->nvtx_rank >= 0)
			ranksetup_text(&s.setup[p], buf, sizeof buf);
		r->parallel = xstrdup(buf);
		r->gpus = s.r[i].gpus;
		r->first = s.r[i].first;
		r->last = s.r[i].last;
		r->busy = s.r[i].busy;
		r->kernel_ns = s.r[i].kernel_ns;
		r->comm_ns = s.r[i].comm_ns;
		r->kernels = s.r[i].kernels;
		r->comm = s.r[i].comm;
		r->mpi_ns = s.r[i].mpi_ns;
		r->mpi_calls = s.r[i].mpi_calls;
		r->c = s.r[i].c;
		r->nc = s.r[i].nc;
		s.r[i].c = NULL;
		stats_acc_init(&r->iters);
	}
	memset(&it, 0, sizeof it);
	if (iters_find(m, NULL, &it, &why) == 0)
		for (i = 0; i < it.n; i++) {
			p = it.v[i].process;
			if (p >= m->nprocesses || s.rank_of[p] == NONE32)
				continue;
			stats_acc_add(&j->r[s.rank_of[p]].iters,
			    it.v[i].end - it.v[i].start);
			stats_acc_add(&j->all, it.v[i].end - it.v[i].start);
		}
	free(why);
	j->marker = xstrdup(it.marker != NULL ? it.marker : "");
	iters_free(&it);
	rankscan_free(&s);
	jobrank_finish(j);
}

void
jobrank_init(struct jobrank *j, size_t nfiles)
{
	size_t	i;

	jobrank_base(j);
	/* Summaries hold one rank each: a job has rank information. */
	j->nfiles = nfiles;
	j->pre = xcalloc(nfiles + 1, sizeof *j->pre);
	j->has_pname = xcalloc(nfiles + 1, 1);
	j->pmarker = xcalloc(nfiles + 1, sizeof *j->pmarker);
	for (i = 0; i < nfiles; i++)
		j->pre[i].rank = -1;
}

static int	jobrank_kern_cmp(const void *, const void *);

/* Sorts r's kernel totals by name id, one entry a name (summed). */
static void
jobrank_kern_sum(struct jobrank_rank *r)
{
	size_t	i, n = 0;

	if (r->nk > 1)
		qsort(r->k, r->nk, sizeof *r->k, jobrank_kern_cmp);
	for (i = 0; i < r->nk; i++) {
		if (n > 0 && r->k[n - 1].name == r->k[i].name)
			r->k[n - 1].total_ns = sat_add64(r->k[n - 1].total_ns,
			    r->k[i].total_ns);
		else
			r->k[n++] = r->k[i];
	}
	r->nk = n;
}

static int
jobrank_kern_cmp(const void *a, const void *b)
{
	const struct jobrank_kern	*x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * File i's kernel totals, by name id: every kernel name's (kall), or the
 * top ones where a summary has no list of every name.
 */
static void
jobrank_take_kernels(struct jobrank *j, struct jobrank_rank *r,
    const struct ranksum *s)
{
	const struct ranksum_kern	*kv = s->nkall > 0 ? s->kall : s->top;
	size_t				 n = s->nkall > 0 ? s->nkall : s->ntop;
	size_t				 i;

	r->k = xcalloc(n + 1, sizeof *r->k);
	for (i = 0; i < n; i++) {
		if (kv[i].name >= s->nnames)
			continue;
		r->k[r->nk].name = strpool_intern0(j->kpool,
		    s->names[kv[i].name]);
		r->k[r->nk].total_ns = kv[i].total_ns;
		r->nk++;
	}
	jobrank_kern_sum(r);
}

void
jobrank_take(void *arg, size_t i, struct ranksum *s)
{
	struct jobrank		*j = arg;
	struct jobrank_rank	*r;
	size_t			 k;

	if (i >= j->nfiles)
		return;
	r = &j->pre[i];
	r->rank = s->nprocs > 0 ? 0 : -1;	/* -1: no process */
	r->pid = s->pid;
	r->name = s->pname;
	s->pname = NULL;
	if (s->host != NULL && s->host[0] != '\0') {
		r->host = s->host;
		s->host = NULL;
	}
	j->has_pname[i] = (uint8_t)s->has_pname;
	r->nvtx_rank = s->nvtx_rank;
	r->parallel = s->parallel;
	s->parallel = NULL;
	r->gpus = s->gpus;
	r->first = s->first;
	r->last = s->last;
	r->busy = s->busy;
	r->kernel_ns = s->kernel_ns;
	r->comm_ns = s->comm_ns;
	r->kernels = s->kernels;
	r->comm = s->comm;
	r->mpi_ns = s->mpi_ns;
	r->mpi_calls = s->mpi_calls;
	r->nc = s->nc;
	r->c = xcalloc(s->nc + 1, sizeof *r->c);
	for (k = 0; k < s->nc; k++) {
		r->c[k].coll = strpool_intern0(j->local,
		    s->names[s->c[k].coll]);
		r->c[k].start = s->c[k].start;
		r->c[k].end = s->c[k].end;
		r->c[k].bytes = s->c[k].bytes;
	}
	stats_acc_init(&r->iters);
	for (k = 0; k < s->niter; k++)
		stats_acc_add(&r->iters, s->iter[2 * k + 1] - s->iter[2 * k]);
	jobrank_take_kernels(j, r, s);
	j->pmarker[i] = s->marker;
	s->marker = NULL;
}

/* Frees what is left of file i's figures. */
static void
jobrank_pre_free(struct jobrank *j, size_t i)
{
	struct jobrank_rank	*f = &j->pre[i];

	free(f->c);
	free(f->k);
	stats_acc_free(&f->iters);
	free(f->name);
	free(f->host);
	free(f->parallel);
	free(f->top_kernel);
	free(j->pmarker[i]);
	memset(f, 0, sizeof *f);
	j->pmarker[i] = NULL;
}

/*
 * Adds file i's figures as rank `rank`, as the merged model would hold
 * it: processes named "rank R NAME", times shifted onto the job's clock; a
 * rank stated by two files is one rank of both. Frees file i's figures.
 */
void
jobrank_place(struct jobrank *j, size_t index, int rank, int64_t shift,
    const char *file)
{
	struct jobrank_rank	*r, *f;
	size_t			 i, n;
	int			 fresh;

	if (index >= j->nfiles)
		return;
	f = &j->pre[index];
	if (f->rank < 0) {
		jobrank_pre_free(j, index);
		return;
	}
	fresh = j->nr == 0 || j->r[j->nr - 1].rank != rank;
	if (fresh) {
		j->r = xreallocarray(j->r, j->nr + 1, sizeof *j->r);
		r = &j->r[j->nr++];
		memset(r, 0, sizeof *r);
		r->rank = rank;
		r->first = INT64_MAX;
		r->last = INT64_MIN;
		r->file = xstrdup(file);
		stats_acc_init(&r->iters);
	} else
		r = &j->r[j->nr - 1];
	r->files = xreallocarray(r->files, r->nfiles + 1, sizeof *r->files);
	r->files[r->nfiles++] = xstrdup(file);
	/* Its process: the first file's, or the first that has GPUs. */
	if (fresh || (r->gpus == 0 && f->gpus > 0)) {
		free(r->name);
		free(r->parallel);
		free(r->host);
		r->pid = f->pid;
		r->name = xasprintf("rank %d%s%s", rank, j->has_pname[index] ?
		    " " : "", f->name);
		r->host = f->host;
		f->host = NULL;
		r->nvtx_rank = f->nvtx_rank;
		r->parallel = f->parallel;
		f->parallel = NULL;
	}
	/* Its kernels: the totals of all its files, by name. */
	if (f->nk > 0) {
		r->k = xreallocarray(r->k, r->nk + f->nk + 1, sizeof *r->k);
		memcpy(r->k + r->nk, f->k, f->nk * sizeof *f->k);
		r->nk += f->nk;
		jobrank_kern_sum(r);
	}
	r->gpus += f->gpus;
	if (f->first != INT64_MAX && sat_add64(f->first, shift) < r->first)
		r->first = sat_add64(f->first, shift);
	if (f->last != INT64_MIN && sat_add64(f->last, shift) > r->last)
		r->last = sat_add64(f->last, shift);
	r->busy = sat_add64(r->busy, f->busy);
	r->kernel_ns += f->kernel_ns;
	r->comm_ns += f->comm_ns;
	r->kernels += f->kernels;
	r->comm += f->comm;
	r->mpi_ns = sat_add64(r->mpi_ns, f->mpi_ns);
	r->mpi_calls += f->mpi_calls;
	for (i = 0; i < f->nc; i++) {
		f->c[i].start = sat_add64(f->c[i].start, shift);
		f->c[i].end = sat_add64(f->c[i].end, shift);
	}
	if (r->nc == 0) {
		free(r->c);
		r->c = f->c;
		r->nc = f->nc;
		f->c = NULL;
	} else {
		n = r->nc;
		r->nc += f->nc;
		r->c = xreallocarray(r->c, r->nc + 1, sizeof *r->c);
		memcpy(r->c + n, f->c, f->nc * sizeof *f->c);
		rankscan_sort(r->c, r->nc);
	}
	for (i = 0; i < f->iters.n; i++) {
		stats_acc_add(&r->iters, f->iters.v[i]);
		stats_acc_add(&j->all, f->iters.v[i]);
	}
	/* The marker of the file with the most iterations. */
	if ((int64_t)f->iters.n > j->most) {
		j->most = (int64_t)f->iters.n;
		free(j->marker);
		j->marker = j->pmarker[index];
		j->pmarker[index] = NULL;
	}
	jobrank_pre_free(j, index);
}

/* r's top kernel: the most time over its files, ties by name. */
static void
jobrank_top(struct jobrank *j, struct jobrank_rank *r)
{
	const struct jobrank_kern	*best = NULL, *k;
	size_t				 i;

	for (i = 0; i < r->nk; i++) {
		k = &r->k[i];
		if (best == NULL || k->total_ns > best->total_ns ||
		    (k->total_ns == best->total_ns &&
		    strcmp(strpool_get(j->kpool, k->name),
		    strpool_get(j->kpool, best->name)) < 0))
			best = k;
	}
	if (best != NULL) {
		free(r->top_kernel);
		r->top_kernel = xstrdup(strpool_get(j->kpool, best->name));
		r->top_kernel_ns = best->total_ns;
	}
	free(r->k);
	r->k = NULL;
	r->nk = 0;
}

/* (max - min) / median of v[0, n), in percent (0 if undefined). */
static double
jobrank_spread(int64_t *v, size_t n)
{
	struct stats	s;

	if (n == 0)
		return 0.0;
	stats_compute(v, n, &s);
	return s.median > 0 ? 100.0 * (double)(s.max - s.min) / s.median :
	    0.0;
}

/*
 * Matches collectives across ranks (jobrank.h); fills each rank's wait,
 * caused and nlast, and the skews. Returns the number matched.
 */
static size_t
jobrank_match(struct jobrank *j, struct stats_acc *skew)
{
	struct jobrank_rank	*r;
	size_t			 i, k, n, matched = 0, end, last;
	uint32_t		 coll;
	int64_t			 lo, hi, s, w;

	if (j->nr < 2)
		return 0;
	for (i = 0; i < j->nr; i++)
		j->r[i].pos = 0;
	for (;;) {
		/* The smallest collective id any rank still has. */
		coll = NONE32;
		for (i = 0; i < j->nr; i++) {
			r = &j->r[i];
			if (r->pos < r->nc && r->c[r->pos].coll < coll)
				coll = r->c[r->pos].coll;
		}
		if (coll == NONE32)
			break;
		/* Occurrences every rank has. */
		n = SIZE_MAX;
		for (i = 0; i < j->nr; i++) {
			r = &j->r[i];
			for (end = r->pos; end < r->nc && r->c[end].coll ==
			    coll; end++)
				;
			if (end - r->pos < n)
				n = end - r->pos;
		}
		for (k = 0; k < n; k++) {
			lo = INT64_MAX;
			hi = INT64_MIN;
			last = 0;
			for (i = 0; i < j->nr; i++) {
				s = j->r[i].c[j->r[i].pos + k].start;
				if (s < lo)
					lo = s;
				if (s > hi) {
					hi = s;
					last = i;
				}
			}
			for (i = 0; i < j->nr; i++) {
				w = hi - j->r[i].c[j->r[i].pos + k].start;
				j->r[i].wait += w;
				j->r[last].caused += w;
			}
			j->r[last].nlast++;
			stats_acc_add(skew, hi - lo);
			matched++;
		}
		/* Skip this collective everywhere. */
		for (i = 0; i < j->nr; i++) {
			r = &j->r[i];
			while (r->pos < r->nc && r->c[r->pos].coll == coll)
				r->pos++;
		}
	}
	return matched;
}

void
jobrank_finish(struct jobrank *j)
{
	struct stats_acc	 skew;
	struct jobrank_rank	*r;
	int64_t			*med, *comm, *busy, *mpiw;
	size_t			 i, nmed = 0;

	for (i = 0; i < j->nfiles; i++)
		jobrank_pre_free(j, i);
	if (j->marker == NULL)
		j->marker = xstrdup("");
	stats_acc_init(&skew);
	j->matched = jobrank_match(j, &skew);
	for (i = 0; i < j->nr && j->matched > 0; i++) {
		r = &j->r[i];
		if (r->nlast == 0)
			continue;
		if (j->straggler == SIZE_MAX ||
		    r->nlast > j->r[j->straggler].nlast ||
		    (r->nlast == j->r[j->straggler].nlast &&
		    r->caused > j->r[j->straggler].caused))
			j->straggler = i;
	}
	if (j->straggler != SIZE_MAX)
		j->straggler_last_pct = 100.0 *
		    (double)j->r[j->straggler].nlast / (double)j->matched;

	med = xcalloc(j->nr + 1, sizeof *med);
	comm = xcalloc(j->nr + 1, sizeof *comm);
	busy = xcalloc(j->nr + 1, sizeof *busy);
	mpiw = xcalloc(j->nr + 1, sizeof *mpiw);
	for (i = 0; i < j->nr; i++) {
		r = &j->r[i];
		j->mpi_calls += r->mpi_calls;
		stats_acc_compute(&r->iters, &r->iter);
		/* A rank without iterations stays out of the spread. */
		if (r->iter.count > 0)
			med[nmed++] = (int64_t)r->iter.median;
		else
			j->noiter++;
		comm[i] = r->comm_ns;
		busy[i] = r->busy;
		mpiw[i] = r->mpi_ns;
		r->span = r->last > r->first ? r->last - r->first : 0;
		r->util_pct = r->span > 0 && r->gpus > 0 ? 100.0 *
		    (double)r->busy / ((double)r->span * r->gpus) : 0.0;
		r->comm_pct = r->busy > 0 ? 100.0 * (double)r->comm_ns /
		    (double)r->busy : 0.0;
		r->mpi_pct = r->span > 0 ? 100.0 * (double)r->mpi_ns /
		    (double)r->span : 0.0;
	}
	stats_acc_compute(&skew, &j->skew);
	stats_acc_compute(&j->all, &j->iter);
	/* What the comparison needed: a rank keeps only its figures. */
	for (i = 0; i < j->nr; i++) {
		jobrank_top(j, &j->r[i]);
		stats_acc_free(&j->r[i].iters);
		free(j->r[i].c);
		j->r[i].c = NULL;
		j->r[i].pos = 0;
	}
	stats_acc_free(&j->all);
	j->iter_spread_pct = jobrank_spread(med, nmed);
	j->comm_spread_pct = jobrank_spread(comm, j->nr);
	j->busy_spread_pct = jobrank_spread(busy, j->nr);
	j->mpi_wait_spread_pct = jobrank_spread(mpiw, j->nr);
	free(med);
	free(comm);
	free(busy);
	free(mpiw);
	stats_acc_free(&skew);
}

void
jobrank_free(struct jobrank *j)
{
	size_t	i;

	for (i = 0; i < j->nfiles; i++)
		jobrank_pre_free(j, i);
	for (i = 0; i < j->nr; i++) {
		stats_acc_free(&j->r[i].iters);
		free(j->r[i].c);
		free(j->r[i].k);
		free(j->r[i].name);
		free(j->r[i].file);
		xfree_strv(j->r[i].files, j->r[i].nfiles);
		free(j->r[i].host);
		free(j->r[i].parallel);
		free(j->r[i].top_kernel);
	}
	free(j->r);
	free(j->pre);
	free(j->has_pname);
	free(j->pmarker);
	free(j->marker);
	stats_acc_free(&j->all);
	strpool_free(j->local);
	strpool_free(j->kpool);
	memset(j, 0, sizeof *j);
}
