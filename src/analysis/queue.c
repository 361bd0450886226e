/*
 * queue: launch queue length and idle breakdown per GPU stream (queue.h
 * gives the definitions).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/queue.h"
#include "analysis/stats.h"
#include "model/correlate.h"
#include "model/lane.h"
#include "util/xmalloc.h"

/* HTA's runtime launch events (trace_symbol_table.py). */
static const char *queue_launch_names[] = {
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",
	"cuLaunchKernelEx", "cudaMemcpyAsync", "cudaMemsetAsync",
	"hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync",
	"hipMemcpyAsync", "hipMemcpyWithStream",
	"runFunction - job_prep_and_submit_for_execution", NULL
};

int
queue_launch_name(const char *s)
{
	size_t		 i, n, k;

	for (i = 0; queue_launch_names[i] != NULL; i++) {
		n = strlen(queue_launch_names[i]);
		if (strncmp(s, queue_launch_names[i], n) != 0)
			continue;
		if (s[n] == '\0')
			return 1;
		/* nsys spells versions: cudaLaunchKernel_v7000. */
		if (s[n] == '_' && s[n + 1] == 'v' && s[n + 2] != '\0') {
			for (k = n + 2; s[k] >= '0' && s[k] <= '9'; k++)
				;
			if (s[k] == '\0')
				return 1;
		}
	}
	return 0;
}

static int
queue_work(int kind)
{
	return kind == EV_KERNEL || kind == EV_MEMCPY || kind == EV_MEMSET;
}

/*
 * The length series of one stream from its points: the launches (rises, in
 * any order: sorted here, a pass when they already are) and the GPU starts
 * (falls, in lane order, which is the points' order), walked as one merge
 * in time order, a rise before a fall at the same time (rises, like falls,
 * at one time are alike: their order changes nothing).
 */
static void
queue_series(struct queue_stream *q, int64_t *rise, size_t nr,
    const int64_t *fall, size_t nf, int64_t max_queue)
{
	double		 sum = 0, wsum = 0;
	int64_t		 len = 0, t, nt;
	size_t		 i, a = 0, b = 0, np = nr + nf;
	int		 d, nd;

	if (np == 0)
		return;
	for (i = 1; i < nr && rise[i - 1] <= rise[i]; i++)
		;
	if (i < nr)
		stats_sort(rise, nr);
#define QUEUE_NEXT(t, d) do {						\
	if (a < nr && (b == nf || rise[a] <= fall[b])) {		\
		(t) = rise[a++];					\
		(d) = 1;						\
	} else {							\
		(t) = fall[b++];					\
		(d) = -1;						\
	}								\
} while (0)
	QUEUE_NEXT(nt, nd);
	q->first = nt;
	q->max = INT64_MIN;
	q->min = INT64_MAX;
	for (i = 0; i < np; i++) {
		t = nt;
		d = nd;
		len += d;
		sum += (double)len;
		if (len > q->max)
			q->max = len;
		if (len < q->min)
			q->min = len;
		if (i + 1 < np) {
			QUEUE_NEXT(nt, nd);
			wsum += (double)len * (double)(nt - t);
			if (len >= max_queue)
				q->at_max_ns = sat_add64(q->at_max_ns,
				    nt - t);
		} else
			q->last = t;
	}
#undef QUEUE_NEXT
	q->mean_samples = sum / (double)np;
	q->mean_time = q->last > q->first ? wsum / (double)(q->last -
	    q->first) : (double)len;
}

/* One stream: returns 0 when it holds no work. */
static int
queue_stream(const struct model *m, uint32_t t, struct queue_stream *q,
    int64_t max_queue, int64_t kernel_delay, int64_t **pp, int64_t **fp,
    size_t *cap, int8_t *launchname)
{
	const struct lane	*l = &m->tracks[t].lane;
	size_t			 i, np = 0, fcap;
	const struct lane	*al = NULL;
	uint32_t		 api, sid, atrack = NONE32;
	int64_t			 prev_end = 0, iv, ast = 0;
	int			 have_prev = 0, c;
	struct evref		 r;

	memset(q, 0, sizeof *q);
	q->track = t;
	for (i = 0; i < l->n; i++) {
		if (!queue_work(l->kind[i]))
			continue;
		q->events++;
		api = m->launch != NULL ? correlate_launch(m,
		    model_gid(m, t, (uint32_t)i)) : NONE32;
		if (api != NONE32) {
			r = model_ev_near(m, api, &atrack);
			al = &m->tracks[r.track].lane;
			ast = al->start[r.idx];
		}
		if (have_prev) {
			iv = l->start[i] - prev_end;
			if (api != NONE32 && ast > prev_end)
				c = QIDLE_HOST;
			else if (iv < kernel_delay)
				c = QIDLE_KERNEL;
			else
				c = QIDLE_OTHER;
			q->idle[c] = sat_add64(q->idle[c], iv);
			q->nidle[c]++;
		}
		prev_end = l->end[i];
		have_prev = 1;
		if (api == NONE32)
			continue;
		sid = al->name[r.idx];
		if (launchname[sid] == 0)
			launchname[sid] = queue_launch_name(model_str(m, sid)) ?
			    1 : -1;
		if (launchname[sid] < 0)
			continue;
		if (np == *cap) {
			fcap = *cap;
			XGROW(*pp, *cap, np + 1);
			XGROW(*fp, fcap, np + 1);
		}
		(*pp)[np] = ast;
		(*fp)[np] = l->start[i];
		np++;
		q->launches++;
	}
	if (q->events == 0)
		return 0;
	queue_series(q, *pp, np, *fp, np, max_queue);
	return 1;
}

void
queue_compute(const struct model *m, int64_t max_queue, int64_t kernel_delay,
    struct queue_result *r)
{
	int64_t		*p = NULL, *f = NULL;
	size_t		 pcap = 0, cap = 0, t;
	int8_t		*launchname;

	memset(r, 0, sizeof *r);
	r->max_queue = max_queue;
	r->kernel_delay = kernel_delay;
	launchname = xcalloc(strpool_count(m->strs) + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		XGROW(r->v, cap, r->n + 1);
		if (queue_stream(m, (uint32_t)t, &r->v[r->n], max_queue,
		    kernel_delay, &p, &f, &pcap, launchname))
			r->n++;
	}
	free(launchname);
	free(p);
	free(f);
}

void
queue_free(struct queue_result *r)
{
	free(r->v);
	memset(r, 0, sizeof *r);
}
