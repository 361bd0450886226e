/*
 * kineto-ranks: one file holding the traces of several ranks, as tools
 * merge them for one view (TraceLens's TraceFuse: each rank's events get
 * args "rank", and their "pid", "id" and "correlation" (or "External id")
 * are offset by rank times a power of ten, the originals kept in args
 * "pid_raw", "id_raw", "correlation_raw"; the file has no other top-level
 * member, and its process names are TraceFuse's "RANK r - CPU/GPU").
 * Read as one trace, such a file shows a phantom GPU per rank (GPU events
 * without args "device" take the offset pid), every stream under one
 * process and no rank.
 *
 * An event with both args "rank" (an integer from 0 to K_MAX_RANKS - 1)
 * and "pid_raw" goes to a reader state of its own rank, with its pid
 * taken from pid_raw (its correlation from correlation_raw: kineto_args);
 * events without them stay in the file's state. At the end every rank's
 * state is settled as a trace of its own (its GPU process, devices,
 * names), with the file's base time, and the models are merged as
 * several files are (merge.h: rank per process, "rank R" names, devices
 * of the same id on two ranks renumbered with a warning). A warning says
 * what was assumed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/kineto-int.h"
#include "model/merge.h"
#include "util/xmalloc.h"

struct kineto *
kineto_rank_of(struct kineto *k, struct kev *e)
{
	const struct jsonscan_member	*mb, *praw = NULL;
	struct kineto			*r;
	int64_t				 rank = -1, v;
	size_t				 i, old;

	for (i = 0; i < e->nargs; i++) {
		mb = &e->args[i];
		if (mb->key.len == 4 && memcmp(mb->key.p, "rank", 4) == 0 &&
		    jsonscan_i64(&mb->val, &v) == 0)
			rank = v;
		else if (mb->key.len == 7 && memcmp(mb->key.p, "pid_raw",
		    7) == 0 && (mb->val.type == JSONSCAN_NUMBER ||
		    mb->val.type == JSONSCAN_STRING))
			praw = mb;
	}
	if (rank < 0 || rank >= K_MAX_RANKS || praw == NULL)
		return k;
	if ((size_t)rank >= k->nranks) {
		old = k->nranks;
		k->ranks = xreallocarray(k->ranks, (size_t)rank + 1,
		    sizeof *k->ranks);
		memset(k->ranks + old, 0, ((size_t)rank + 1 - old) *
		    sizeof *k->ranks);
		k->nranks = (size_t)rank + 1;
	}
	if ((r = k->ranks[rank]) == NULL) {
		r = k->ranks[rank] = xmalloc(sizeof *r);
		kineto_init(r, k->path, NULL);
		r->b = builder_new(SOURCE_KINETO);
		r->m = r->b->m;
		r->rank = (int)rank;
	}
	e->pid = &praw->val;
	return r;
}

struct model *
kineto_ranks_finish(struct kineto *k, char **cause)
{
	struct merge_in	*in;
	struct model	*m, *own;
	struct kineto	*r;
	size_t		 i, n = 0, nr = 0;
	int		 fail = 0;

	in = xcalloc(k->nranks + 1, sizeof *in);
	for (i = 0; i < k->nranks; i++) {
		if ((r = k->ranks[i]) == NULL)
			continue;
		/* The file's top-level members hold for every rank. */
		r->base_ns = k->base_ns;
		r->have_base = k->have_base;
		r->amd = k->amd;
		r->host = 0;
		if (fail || kineto_close_open(r) != 0 ||
		    kineto_meta_finish(r) != 0) {
			if (!fail)
				*cause = xstrdup(r->err != NULL ? r->err :
				    "kineto: rank failed");
			fail = 1;
			continue;
		}
		if (r->m->utc_epoch_ns == 0)
			r->m->utc_epoch_ns = k->m->utc_epoch_ns;
		m = builder_finish(r->b, cause);
		r->b = NULL;
		if (m == NULL) {
			fail = 1;
			continue;
		}
		kineto_comm_sizes(r, m);
		in[n].m = m;
		in[n].rank = (int)i;
		in[n].label = k->path;
		n++;
		nr++;
	}
	/* Events without a rank: their own input, ranks left as they are. */
	own = builder_finish(k->b, cause);
	k->b = NULL;
	if (own == NULL)
		fail = 1;
	else if (own->nevents > 0 && !fail) {
		kineto_comm_sizes(k, own);
		in[n].m = own;
		in[n].rank = -1;
		in[n].label = k->path;
		n++;
	} else
		model_free(own);
	if (fail) {
		for (i = 0; i < n; i++)
			model_free(in[i].m);
		free(in);
		return NULL;
	}
	m = merge_models(in, n, cause);
	free(in);
	if (m != NULL)
		model_warn(m, "one file holding %zu ranks merged by a tool "
		    "(events with args rank and pid_raw, as TraceLens's "
		    "TraceFuse writes them): each rank read as a trace of its "
		    "own, with the original pids and correlation ids", nr);
	return m;
}

char *
kineto_ranks_err(struct kineto *k)
{
	char	*err;
	size_t	 i;

	for (i = 0; i < k->nranks; i++)
		if (k->ranks[i] != NULL && k->ranks[i]->err != NULL) {
			err = k->ranks[i]->err;
			k->ranks[i]->err = NULL;
			return err;
		}
	return NULL;
}

void
kineto_ranks_free(struct kineto *k)
{
	size_t	i;

	for (i = 0; i < k->nranks; i++) {
		if (k->ranks[i] == NULL)
			continue;
		if (k->ranks[i]->b != NULL)
			builder_abort(k->ranks[i]->b);
		k->ranks[i]->js = NULL;
		kineto_free(k->ranks[i]);
		free(k->ranks[i]);
	}
	free(k->ranks);
	k->ranks = NULL;
	k->nranks = 0;
}
