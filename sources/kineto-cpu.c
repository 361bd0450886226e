/*
 * kineto-cpu: the CPU side of the event array. Complete (X), instant (i)
 * and counter (C) events: runtime and driver calls, overhead, counters,
 * PyTorch memory events; M events naming processes and threads.
 */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/builder.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "util/xmalloc.h"

/* Events. */

uint32_t
kineto_name(struct kineto *k, struct kev *e)
{
	if (e->name == NULL)
		return 0;
	jsonscan_str(e->name);
	return kineto_intern(k, e->name->p, e->name->len);
}

/* ts + dur, or -1 (with the error) when it does not fit. */
int
kineto_end_time(struct kineto *k, const struct kev *e, int64_t *end)
{
	if (__builtin_add_overflow(e->ts, e->dur > 0 ? e->dur : 0, end))
		return kineto_fail(k, e, "'ts' + 'dur' out of range");
	return 0;
}

/* Runtime and driver API calls. */
static int
kineto_api(struct kineto *k, struct kev *e, uint32_t name, int64_t start,
    int64_t end, uint32_t corr, uint8_t flags)
{
	struct lane_event	 ev;
	uint32_t		 thr;

	if (kineto_thread(k, e, &thr) != 0)
		return -1;
	if (k->thr[thr].api == NONE32)
		k->thr[thr].api = builder_cpu_track(k->b, TRACK_API, thr, 0);
	trevent_event(&ev, name, start, end, EV_API, flags,
	    (int64_t)e->index);
	if (e->cat == KC_DRIVER || (name != 0 && (kineto_sflags(k, name) &
	    SF_DRIVER)))
		ev.flags |= EVF_DRIVER;
	ev.corr = corr;
	ev.aux = NONE32;
	builder_event(k->b, k->thr[thr].api, &ev);
	return 0;
}

static int
kineto_overhead(struct kineto *k, struct kev *e, uint32_t name)
{
	struct lane_event	 ev;
	uint32_t		 thr;

	if (kineto_thread(k, e, &thr) != 0)
		return -1;
	if (k->thr[thr].other == NONE32)
		k->thr[thr].other = builder_cpu_track(k->b, TRACK_OTHER, thr,
		    0);
	memset(&ev, 0, sizeof ev);
	ev.start = e->ts;
	if (kineto_end_time(k, e, &ev.end) != 0)
		return -1;
	ev.name = name;
	ev.kind = EV_OVERHEAD;
	ev.rowid = (int64_t)e->index;
	ev.aux = NONE32;
	builder_event(k->b, k->thr[thr].other, &ev);
	return 0;
}

static int
kineto_counter(struct kineto *k, struct kev *e, uint32_t name, double value)
{
	struct lane_event	 ev;
	uint32_t		 thr;

	if (kineto_thread(k, e, &thr) != 0)
		return -1;
	if (k->thr[thr].counter == NONE32)
		k->thr[thr].counter = builder_cpu_track(k->b, TRACK_COUNTER,
		    thr, 0);
	memset(&ev, 0, sizeof ev);
	ev.start = ev.end = e->ts;
	ev.name = name;
	ev.kind = EV_COUNTER;
	ev.rowid = (int64_t)e->index;
	ev.aux = builder_counter(k->b, value);
	builder_event(k->b, k->thr[thr].counter, &ev);
	return 0;
}

/* A PyTorch memory event: a "[memory] <device>" counter. */
static int
kineto_memory(struct kineto *k, struct kev *e)
{
	struct kargs	 a;
	char		 buf[64];
	uint32_t	*slot;
	int		 isnew;
	int64_t		 total;

	kineto_args(e, &a);
	if (a.devtype == 0 || a.devid < 0)
		snprintf(buf, sizeof buf, "[memory] cpu");
	else if (a.devtype == 1)
		snprintf(buf, sizeof buf, "[memory] cuda:%lld",
		    (long long)a.devid);
	else
		snprintf(buf, sizeof buf, "[memory] device type %lld:%lld",
		    (long long)a.devtype, (long long)a.devid);
	if (a.has_total)
		total = a.total;
	else {
		slot = hmap_upsert(&k->mem_of, hmap_key2((uint64_t)a.devtype,
		    (uint64_t)a.devid), (uint32_t)k->nmem, &isnew);
		if (isnew) {
			XGROW(k->mem_total, k->memcap, k->nmem + 1);
			k->mem_total[k->nmem++] = 0;
		}
		if (a.has_bytes && __builtin_add_overflow(k->mem_total[*slot],
		    a.bytes, &total))
			total = a.bytes > 0 ? INT64_MAX : INT64_MIN;
		else if (!a.has_bytes)
			total = k->mem_total[*slot];
		k->mem_total[*slot] = total;
	}
	return kineto_counter(k, e, builder_intern(k->b, buf),
	    (double)total);
}

/* A complete CPU-side event of the given category. */
int
kineto_cpu(struct kineto *k, struct kev *e, uint32_t name, int64_t start,
    int64_t end, uint32_t corr, uint8_t flags)
{
	switch (e->cat) {
	case KC_RUNTIME:
	case KC_DRIVER:
		return kineto_api(k, e, name, start, end, corr, flags);
	case KC_OVERHEAD:
		return kineto_overhead(k, e, name);
	default:
		return kineto_range(k, e, name, start, end, EV_NVTX, flags);
	}
}

int
kineto_x(struct kineto *k, struct kev *e)
{
	struct kargs	a;
	uint32_t	name;
	int64_t		end;

	if (!e->has_dur)
		return kineto_fail(k, e, "an X event without a numeric 'dur'");
	switch (e->cat) {
	case KC_FLOW:
		k->nflows++;
		return 0;
	case KC_TRACE:
		k->ntrace++;
		return 0;
	case KC_KERNEL:
	case KC_PROFRANGE:
	case KC_MEMCPY:
	case KC_MEMSET:
	case KC_SYNC:
		return kineto_gpu_event(k, e);
	}
	if (kineto_end_time(k, e, &end) != 0)
		return -1;
	if (e->cat == KC_GPU_ANN)
		return kineto_range(k, e, kineto_name(k, e), e->ts, end,
		    EV_NVTX, e->dur < 0 ? EVF_ENDCLAMP : 0);
	/* The profiler's own spans: string pids ("Spans", "Traces"). */
	if (e->pid != NULL && e->pid->type == JSONSCAN_STRING &&
	    jsonscan_i64(e->pid, &(int64_t){ 0 }) != 0 && e->cat == KC_NONE) {
		k->ntrace++;
		return 0;
	}
	name = kineto_name(k, e);
	memset(&a, 0, sizeof a);
	if (e->cat == KC_RUNTIME || e->cat == KC_DRIVER)
		kineto_args(e, &a);
	return kineto_cpu(k, e, name, e->ts, end,
	    a.has_corr ? (uint32_t)a.corr : 0, e->dur < 0 ? EVF_ENDCLAMP : 0);
}

int
kineto_instant(struct kineto *k, struct kev *e)
{
	uint32_t	name;
	int64_t		dummy;

	if (e->cat == KC_FLOW) {
		k->nflows++;
		return 0;
	}
	name = kineto_name(k, e);
	if ((name != 0 && (kineto_sflags(k, name) & SF_MARKER)) ||
	    e->pid == NULL || (e->pid->type == JSONSCAN_STRING &&
	    jsonscan_i64(e->pid, &dummy) != 0)) {
		k->nmarkers++;
		return 0;
	}
	if (e->cat == KC_MEMORY || (e->name != NULL &&
	    jsonscan_is(e->name, "[memory]")))
		return kineto_memory(k, e);
	return kineto_range(k, e, name, e->ts, e->ts, EV_MARK, 0);
}

int
kineto_counter_event(struct kineto *k, struct kev *e)
{
	const struct jsonscan_member	*mb;
	double				 v;
	size_t				 i;
	char				*s;
	uint32_t			 name;
	int				 rc;

	name = kineto_name(k, e);
	for (i = 0; i < e->nargs; i++) {
		mb = &e->args[i];
		if (jsonscan_double(&mb->val, &v) != 0)
			continue;
		s = xasprintf("%s %.*s", strpool_get(k->m->strs, name),
		    (int)mb->key.len, mb->key.p);
		rc = kineto_counter(k, e, builder_intern(k->b, s), v);
		free(s);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* M events: names of CPU processes and threads, applied at the end. */
int
kineto_metadata(struct kineto *k, struct kev *e)
{
	const struct jsonscan_member	*mb = NULL;
	struct jsonscan_val		 v;
	uint64_t			 pidk = 0, tidk = 0;
	int64_t				 num;
	int				 isnum, proc;
	size_t				 i;

	if (e->name == NULL)
		return 0;
	if (jsonscan_is(e->name, "process_name"))
		proc = 1;
	else if (jsonscan_is(e->name, "thread_name"))
		proc = 0;
	else
		return 0;
	for (i = 0; i < e->nargs; i++)
		if (KEY(&e->args[i], "name"))
			mb = &e->args[i];
	if (mb == NULL || mb->val.type != JSONSCAN_STRING || e->pid == NULL ||
	    kineto_idkey(e->pid, &pidk, &num, &isnum) != 0)
		return 0;
	if (e->tid != NULL && kineto_idkey(e->tid, &tidk, &num, &isnum) != 0)
		return 0;
	v = mb->val;
	jsonscan_str(&v);
	if (proc)
		hmap_put(&k->pname, pidk, builder_intern_n(k->b, v.p, v.len));
	else
		hmap_put(&k->tname, hmap_key2(pidk, tidk),
		    builder_intern_n(k->b, v.p, v.len));
	return 0;
}
