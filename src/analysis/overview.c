/*
 * overview: the one-screen overview of a trace (see overview.h).
 *
 * The jobs of the pool: the activity (job 0), the iterations (job 1), each
 * device's kernels and copies (jobs 2 to ndevices + 1) and the
 * synchronisation waits (the last job). A device's sums go to its own
 * struct overview_dev, its names and directions to the thread's
 * accumulator; the accumulators are added up once the pool is done.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/overview.h"
#include "analysis/stats.h"
#include "model/lane.h"
#include "util/pool.h"
#include "util/xmalloc.h"

/* The kernels per name and the copies per direction of the devices one
 * thread of the pool summed. */
struct ov_acc {
	struct ktop		 kt;
	struct overview_copy	 copy[COPY_KIND_COUNT];
	POOL_PAD;
};

struct ov_build {
	struct overview		*ov;
	uint32_t		*doff, *dtrk;	/* model_device_tracks() */
	struct ov_acc		*acc;		/* per thread */
};

static void
overview_device(struct ov_build *ob, size_t d, unsigned tid)
{
	const struct model	*m = ob->ov->m;
	struct overview_dev	*od = &ob->ov->dev[d];
	struct ov_acc		*oa = &ob->acc[tid];
	struct overview_copy	*oc;
	size_t			 t, i;
	int64_t			 dur, kns = 0;
	uint64_t		 nk = 0, bytes = 0;
	int			 ck;

	/* (Summed here, stored once: the devices' sums are side by side,
	 * and other threads sum the other devices.) */
	for (t = ob->doff[d]; t < ob->doff[d + 1]; t++) {
		const struct lane *l = &m->tracks[ob->dtrk[t]].lane;
		for (i = 0; i < l->n; i++) {
			dur = l->end[i] - l->start[i];
			if (l->kind[i] == EV_KERNEL) {
				nk++;
				kns += dur;
				ktop_add(&oa->kt, l->name[i], dur);
			} else if (l->kind[i] == EV_MEMCPY &&
			    l->aux[i] < m->ncopies) {
				const struct copy_info *c =
				    &m->copies[l->aux[i]];
				ck = c->kind < COPY_KIND_COUNT ? c->kind :
				    COPY_UNKNOWN;
				oc = &oa->copy[ck];
				bytes += c->bytes;
				oc->count++;
				oc->bytes += c->bytes;
				oc->ns += dur;
			}
		}
	}
	od->kernels += nk;
	od->kernel_ns += kns;
	od->memcpy_bytes += bytes;
}

static int
overview_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct ov_build		*ob = arg;
	struct overview		*ov = ob->ov;
	const struct model	*m = ov->m;
	char			*why = NULL;

	(void)cause;
	if (job == 0)
		activity_build_devices(&ov->act, m);
	else if (job == 1) {
		ov->it_ok = iters_find(m, NULL, &ov->it, &why) == 0;
		free(why);
	} else if (job - 2 < m->ndevices)
		overview_device(ob, job - 2, tid);
	else
		syncwait_build(&ov->sw, m, m->origin_ns, m->end_ns);
	return 0;
}

/* The devices' activity over the span, and its sums. */
static void
overview_activity(struct overview *ov)
{
	const struct model	*m = ov->m;
	struct overview_dev	*od;
	struct act_window	 w;
	size_t			 d;
	int			 slot;

	for (d = 0; d < m->ndevices; d++) {
		od = &ov->dev[d];
		slot = activity_slot(&ov->act, (uint32_t)d);
		activity_window(&ov->act, slot >= 0 ? (size_t)slot :
		    ov->act.ndev, m->origin_ns, m->end_ns, &w);
		od->used = slot >= 0;
		od->busy = w.busy;
		od->comm = w.comm;
		od->copy = w.copy;
		ov->busy = sat_add64(ov->busy, w.busy);
		ov->comm = sat_add64(ov->comm, w.comm);
	}
	activity_share(&ov->act, m->origin_ns, m->end_ns, &ov->share);
}

/* The medians of the iterations' lengths and of their blocked times. */
static void
overview_iters(struct overview *ov)
{
	const struct iters	*it = &ov->it;
	struct stats		 st;
	int64_t			*v;
	size_t			 i;

	if (!ov->it_ok || it->n == 0)
		return;
	v = xcalloc(it->n, sizeof *v);
	for (i = 0; i < it->n; i++)
		v[i] = it->v[i].end - it->v[i].start;
	stats_compute(v, it->n, &st);
	ov->it_median = st.median;
	for (i = 0; i < it->n; i++)
		v[i] = syncwait_measure(&ov->sw, it->v[i].start,
		    it->v[i].end);
	stats_compute(v, it->n, &st);
	ov->it_sync_median = st.median;
	free(v);
}

void
overview_build(const struct model *m, struct overview *ov)
{
	struct ov_build	 ob;
	unsigned	 nth, j;
	int		 k;

	memset(ov, 0, sizeof *ov);
	ov->m = m;
	ov->span = m->end_ns - m->origin_ns;
	ov->ndev = m->ndevices;
	ov->dev = xcalloc(m->ndevices + 1, sizeof *ov->dev);
	ktop_init(&ov->ktop);
	memset(&ob, 0, sizeof ob);
	ob.ov = ov;
	model_device_tracks(m, &ob.doff, &ob.dtrk);
	nth = pool_sweep_threads();
	ob.acc = xcalloc(nth, sizeof *ob.acc);
	for (j = 0; j < nth; j++)
		ktop_init(&ob.acc[j].kt);
	(void)pool_run(m->ndevices + 3, nth, overview_job, &ob, NULL);
	for (j = 0; j < nth; j++) {
		ktop_merge(&ov->ktop, &ob.acc[j].kt);
		for (k = 0; k < COPY_KIND_COUNT; k++) {
			ov->copy[k].count += ob.acc[j].copy[k].count;
			ov->copy[k].bytes += ob.acc[j].copy[k].bytes;
			ov->copy[k].ns += ob.acc[j].copy[k].ns;
		}
		ktop_free(&ob.acc[j].kt);
	}
	ktop_sort(&ov->ktop);
	free(ob.acc);
	free(ob.doff);
	free(ob.dtrk);
	overview_activity(ov);
	overview_iters(ov);
}

void
overview_free(struct overview *ov)
{
	free(ov->dev);
	ktop_free(&ov->ktop);
	activity_free(&ov->act);
	iters_free(&ov->it);
	syncwait_free(&ov->sw);
	memset(ov, 0, sizeof *ov);
}
