/*
 * mpi: time in MPI calls per rank and operation (mpi.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi.h"
#include "analysis/stats.h"
#include "model/lane.h"
#include "util/nametab.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *const mpi_class_names[MPI_CL_COUNT] = {
	"p2p", "wait", "collective", "onesided", "setup", "other"
};

const char *
mpi_class_name(int cls)
{
	return NAMETAB(mpi_class_names, cls, "other");
}

/* Whether s starts with any of the prefixes (NULL-ended). */
static int
mpi_prefix(const char *s, const char *const *p)
{
	for (; *p != NULL; p++)
		if (strncmp(s, *p, strlen(*p)) == 0)
			return 1;
	return 0;
}

int
mpi_classify(const char *name)
{
	static const char *const wait[] = { "Wait", "Test", NULL };
	static const char *const coll[] = { "Barrier", "Ibarrier", "Bcast",
	    "Ibcast", "Reduce", "Ireduce", "Allreduce", "Iallreduce",
	    "Allgather", "Iallgather", "Alltoall", "Ialltoall", "Gather",
	    "Igather", "Scatter", "Iscatter", "Scan", "Iscan", "Exscan",
	    "Iexscan", "Neighbor_", "Ineighbor_", NULL };
	static const char *const p2p[] = { "Send", "Recv", "Isend", "Irecv",
	    "Ssend", "Issend", "Bsend", "Ibsend", "Rsend", "Irsend",
	    "Sendrecv", "Probe", "Iprobe", "Mprobe", "Improbe", "Mrecv",
	    "Imrecv", "Start", NULL };
	static const char *const one[] = { "Put", "Get", "Accumulate",
	    "Get_accumulate", "Fetch_and_op", "Compare_and_swap", "Rput",
	    "Rget", "Raccumulate", "Win_", NULL };
	static const char *const setup[] = { "Init", "Finalize", "Comm_",
	    "Type_", "Group_", "Op_", "Info_", "Errhandler_", "Query_thread",
	    "Is_thread_main", "Get_processor_name", "Get_version",
	    "Initialized", "Finalized", "Abort", "Cart_", "Graph_",
	    "Dist_graph_", NULL };
	const char	*p;

	if (name == NULL)
		return -1;
	if (strncmp(name, "PMPI_", 5) == 0)
		p = name + 5;
	else if (strncmp(name, "MPI_", 4) == 0)
		p = name + 4;
	else
		return -1;
	if (*p < 'A' || *p > 'Z')
		return -1;
	if (mpi_prefix(p, wait))
		return MPI_CL_WAIT;
	/* Win_ before Put/Get: MPI_Win_create is one-sided set-up. */
	if (mpi_prefix(p, one))
		return MPI_CL_ONESIDED;
	if (mpi_prefix(p, coll))
		return MPI_CL_COLLECTIVE;
	if (mpi_prefix(p, setup))
		return MPI_CL_SETUP;
	if (mpi_prefix(p, p2p))
		return MPI_CL_P2P;
	return MPI_CL_OTHER;
}

/* a + b, saturated at UINT64_MAX. */
static uint64_t
mpi_addsat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* One call, before grouping. */
struct mpi_call {
	uint32_t	 process;
	uint32_t	 name;		/* string id */
	int64_t		 dur;
	uint64_t	 bytes;
	int		 hasbytes;
};

static int
mpi_call_cmp(const void *a, const void *b, void *unused)
{
	const struct mpi_call	*x = a, *y = b;

	(void)unused;
	return sort_lex3(x->process, y->process, x->name, y->name, x->dur,
	    y->dur);
}

static int
mpi_op_cmp(const void *a, const void *b, void *unused)
{
	const struct mpi_op	*x = a, *y = b;
	int			 c;

	(void)unused;
	if ((c = sort_lex2(x->rank, y->rank, y->total_ns, x->total_ns)) != 0)
		return c;
	return strcmp(x->name, y->name);
}

static int
mpi_rank_cmp(const void *a, const void *b, void *unused)
{
	const struct mpi_rank	*x = a, *y = b;

	(void)unused;
	return sort_lex2(x->rank, y->rank, x->process, y->process);
}

/* The span of process p: first start to last end of its tracks. */
static int64_t
mpi_span(const struct model *m, uint32_t p)
{
	int64_t	first = INT64_MAX, last = INT64_MIN;
	size_t	t, i;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;

		if (m->tracks[t].process != p || l->n == 0)
			continue;
		if (l->start[0] < first)
			first = l->start[0];
		for (i = 0; i < l->n; i++)
			if (l->end[i] > last)
				last = l->end[i];
	}
	return last > first ? last - first : 0;
}

/* Whether track t holds the calls of the MPI_* tables. */
static int
mpi_tables(const struct model *m, const struct track *tr)
{
	return tr->domain < m->ndomains &&
	    m->domains[tr->domain].source_id == DOMAIN_MPI_TABLES;
}

/* Whether track t is an NVTX track whose domain is "MPI". */
static int
mpi_domain(const struct model *m, const struct track *tr)
{
	uint32_t	d = tr->domain;

	return d < m->ndomains &&
	    strcmp(model_str(m, m->domains[d].name), "MPI") == 0;
}

void
mpi_build(const struct model *m, int64_t t0, int64_t t1,
    struct mpi_result *r)
{
	struct mpi_call		*c = NULL;
	struct stats_acc	 acc;
	struct stats		 st;
	struct mpi_rank		*rk;
	size_t			 n = 0, cap = 0, t, i, j, k;
	uint32_t		*slot;		/* process -> ranks index + 1 */
	int			 cls, any, tab;
	int32_t			 next;

	memset(r, 0, sizeof *r);
	slot = xcalloc(m->nprocesses + 1, sizeof *slot);
	for (t = 0; t < m->ntracks; t++) {
		const struct track	*tr = &m->tracks[t];
		const struct lane	*l = &tr->lane;
		int64_t			 end = INT64_MIN;

		if (tr->type != TRACK_NVTX || tr->process >= m->nprocesses)
			continue;
		any = mpi_domain(m, tr);
		tab = mpi_tables(m, tr);
		for (i = lane_lower(l, t0); i < l->n && l->start[i] < t1;
		    i++) {
			if (l->kind[i] != EV_NVTX)
				continue;
			cls = mpi_classify(model_str(m, l->name[i]));
			if (cls < 0 && !any)
				continue;
			if (cls < 0)
				cls = MPI_CL_OTHER;
			if (n == cap) {
				cap = cap == 0 ? 256 : cap * 2;
				c = xreallocarray(c, cap, sizeof *c);
			}
			c[n].process = tr->process;
			c[n].name = l->name[i];
			c[n].dur = l->end[i] - l->start[i];
			c[n].bytes = 0;
			c[n].hasbytes = 0;
			if (tab && l->aux[i] < m->nnvtx && m->nvtx[l->aux[i]].
			    payload_type == NVTX_PAYLOAD_UINT) {
				c[n].bytes = m->nvtx[l->aux[i]].payload.u;
				c[n].hasbytes = 1;
				r->nbytes++;
			}
			if (tab)
				r->ntables++;
			n++;
			if (slot[tr->process] == 0) {
				r->ranks = xreallocarray(r->ranks,
				    r->nranks + 1, sizeof *r->ranks);
				rk = &r->ranks[r->nranks];
				memset(rk, 0, sizeof *rk);
				rk->process = tr->process;
				rk->rank = m->processes[tr->process].rank;
				slot[tr->process] = (uint32_t)++r->nranks;
			}
			rk = &r->ranks[slot[tr->process] - 1];
			rk->calls++;
			rk->bytes = mpi_addsat(rk->bytes, c[n - 1].bytes);
			rk->class_ns[cls] += c[n - 1].dur;
			if (cls == MPI_CL_SETUP) {
				rk->setup_ns += c[n - 1].dur;
				continue;
			}
			/* Nested calls count once: the outermost. */
			if (l->start[i] >= end) {
				rk->mpi_ns += c[n - 1].dur;
				end = l->end[i];
			} else if (l->end[i] > end) {
				rk->mpi_ns += l->end[i] - end;
				end = l->end[i];
			}
		}
	}
	r->calls = n;
	/* Ranks: the source's, else in process order after the known ones. */
	next = 0;
	for (k = 0; k < r->nranks; k++)
		if (r->ranks[k].rank >= next)
			next = r->ranks[k].rank + 1;
	for (k = 0; k < r->nranks; k++) {
		if (r->ranks[k].rank < 0)
			r->ranks[k].rank = next++;
		r->ranks[k].span_ns = mpi_span(m, r->ranks[k].process);
	}
	sort_stable(c, n, sizeof *c, mpi_call_cmp, NULL);
	stats_acc_init(&acc);
	for (i = 0; i < n; i = j) {
		struct mpi_op	*op;

		uint64_t	bytes = 0, nb = 0;

		stats_acc_reset(&acc);
		for (j = i; j < n && c[j].process == c[i].process &&
		    c[j].name == c[i].name; j++) {
			stats_acc_add(&acc, c[j].dur);
			if (c[j].hasbytes) {
				bytes = mpi_addsat(bytes, c[j].bytes);
				nb++;
			}
		}
		stats_acc_compute(&acc, &st);
		r->ops = xreallocarray(r->ops, r->nops + 1, sizeof *r->ops);
		op = &r->ops[r->nops++];
		op->bytes = bytes;
		op->nbytes = nb;
		op->process = c[i].process;
		op->rank = r->ranks[slot[c[i].process] - 1].rank;
		op->name = model_str(m, c[i].name);
		cls = mpi_classify(op->name);
		op->cls = cls < 0 ? MPI_CL_OTHER : cls;
		op->count = st.count;
		op->total_ns = st.total;
		op->min_ns = st.min;
		op->max_ns = st.max;
		op->median_ns = st.median;
	}
	stats_acc_free(&acc);
	sort_stable(r->ops, r->nops, sizeof *r->ops, mpi_op_cmp, NULL);
	sort_stable(r->ranks, r->nranks, sizeof *r->ranks, mpi_rank_cmp,
	    NULL);
	free(c);
	free(slot);
}

void
mpi_free(struct mpi_result *r)
{
	free(r->ops);
	free(r->ranks);
	memset(r, 0, sizeof *r);
}
