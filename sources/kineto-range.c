/*
 * kineto-range: CPU ranges in the NVTX-like domains (annotations,
 * operators, python functions, instants), and the pairing of B and E
 * events into ranges, open ones closed at the end of the file.
 */

#include "config.h"
#include <stdio.h>
#include <string.h>
#include "model/builder.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "util/xmalloc.h"

/* A CPU-side range (or mark) in an NVTX-like domain. */
int
kineto_range(struct kineto *k, struct kev *e, uint32_t name, int64_t start,
    int64_t end, uint8_t kind, uint8_t flags)
{
	struct lane_event	 ev;
	struct nvtx_info	 ni;
	uint32_t		 thr, t, dom;
	int			 d = -1, cat = 0;

	switch (e->cat) {
	case KC_USER_ANN:
		d = KD_TORCH;
		cat = K_CATEGORY_USER;
		break;
	case KC_CPU_OP:
		d = KD_TORCH;
		cat = K_CATEGORY_CPU_OP;
		break;
	case KC_INSTANT:
		d = KD_TORCH;
		cat = K_CATEGORY_INSTANT;
		break;
	case KC_PYTHON:
		d = KD_PYTHON;
		break;
	}
	if (e->cat == KC_GPU_ANN) {
		/* Not an NVTX track: see the top of the file. */
		t = kineto_gpu_ann_track(k, e);
		dom = NONE32;
	} else {
		if (kineto_thread(k, e, &thr) != 0)
			return -1;
		if (d >= 0) {
			if ((t = k->thr[thr].nvtx[d]) == NONE32)
				t = k->thr[thr].nvtx[d] = builder_cpu_track(
				    k->b, TRACK_NVTX, thr, kineto_domain(k, d));
			dom = kineto_domain(k, d);
		} else {
			dom = kineto_other_domain(k, e->catname);
			t = builder_cpu_track(k->b, TRACK_NVTX, thr, dom);
		}
	}
	trevent_event(&ev, name, start, end, kind, flags, (int64_t)e->index);
	/* A Python frame is no collective, whatever its function's name
	 * ("pynccl_allocator.py(48): is_symmetric_memory_enabled"). */
	if (name != 0 && e->cat != KC_PYTHON &&
	    (kineto_sflags(k, name) & SF_NCCL)) {
		ev.flags |= EVF_COMM;
		if (e->cat == KC_USER_ANN || e->cat == KC_CPU_OP)
			kineto_comm_note(k, e, name);
	}
	if (dom != NONE32) {
		memset(&ni, 0, sizeof ni);
		ni.domain = dom;
		if (cat != 0) {
			if (k->catname[cat] == 0)
				k->catname[cat] = builder_intern(k->b,
				    cat == K_CATEGORY_USER ? "user_annotation" :
				    cat == K_CATEGORY_CPU_OP ? "cpu_op" :
				    "cpu_instant_event");
			ni.category = (uint32_t)cat;
			ni.category_name = k->catname[cat];
		}
		ev.aux = builder_nvtx(k->b, &ni);
		if (cat == K_CATEGORY_CPU_OP && name != 0 &&
		    (kineto_sflags(k, name) & SF_FLOPOP))
			kineto_op(k, e, name, ev.aux);
	} else
		ev.aux = NONE32;
	builder_event(k->b, t, &ev);
	return 0;
}

int
kineto_begin(struct kineto *k, struct kev *e)
{
	struct kbegin	*o;
	struct kargs	 a;
	uint64_t	 pidk = 0, tidk = 0;
	int64_t		 num;
	int		 isnum;
	uint32_t	 thr;

	if (e->pid == NULL || kineto_idkey(e->pid, &pidk, &num, &isnum) != 0 ||
	    (e->tid != NULL && kineto_idkey(e->tid, &tidk, &num, &isnum) != 0))
		return kineto_fail(k, e, "a B event without an integer or "
		    "string 'pid'/'tid'");
	/* Declare the thread now, with the B's own pid and tid text. */
	if (kineto_thread(k, e, &thr) != 0)
		return -1;
	o = trevent_begin(&k->te, hmap_key2(pidk, tidk), sizeof *o);
	o->pidk = pidk;
	o->tidk = tidk;
	o->ts = e->ts;
	o->rowid = (int64_t)e->index;
	o->name = kineto_name(k, e);
	o->cat = e->cat;
	o->catname = e->catname;
	kineto_args(e, &a);
	o->corr = a.has_corr ? (uint32_t)a.corr : 0;
	return 0;
}

/* Emits an open B as a range ending at end (flags: EVF_OPEN if none). */
static int
kineto_emit_begin(struct kineto *k, struct kev *e, const struct kbegin *o,
    int64_t end, uint8_t flags)
{
	struct kev	b = *e;

	b.cat = o->cat;
	b.catname = o->catname;
	b.index = (uint64_t)o->rowid;
	if (o->cat == KC_FLOW || o->cat == KC_TRACE)
		return 0;
	if (o->cat == KC_KERNEL || o->cat == KC_MEMCPY || o->cat == KC_MEMSET ||
	    o->cat == KC_SYNC || o->cat == KC_PROFRANGE || o->cat == KC_GPU_ANN)
		b.cat = KC_OTHER;	/* GPU B/E: not a Kineto form */
	return kineto_cpu(k, &b, o->name, o->ts, end, o->corr, flags);
}

int
kineto_end(struct kineto *k, struct kev *e)
{
	uint64_t	pidk = 0, tidk = 0;
	int64_t		num;
	int		isnum;
	struct kbegin	o;

	if (e->pid == NULL || kineto_idkey(e->pid, &pidk, &num, &isnum) != 0 ||
	    (e->tid != NULL && kineto_idkey(e->tid, &tidk, &num, &isnum) != 0))
		return kineto_fail(k, e, "an E event without an integer or "
		    "string 'pid'/'tid'");
	if (!trevent_end(&k->te, hmap_key2(pidk, tidk), &o))
		return 0;
	return kineto_emit_begin(k, e, &o, e->ts, 0);
}

/* The B events never closed: open ranges (pid/tid from the B). */
int
kineto_close_open(struct kineto *k)
{
	struct kev		 e;
	struct jsonscan_val	 pid, tid;
	char			 pbuf[32], tbuf[32];
	size_t			 i;

	for (i = 0; i < k->te.nopen; i++) {
		const struct kbegin *o = trevent_open_at(&k->te, i);
		memset(&e, 0, sizeof e);
		snprintf(pbuf, sizeof pbuf, "%lld", (long long)o->pidk);
		snprintf(tbuf, sizeof tbuf, "%lld", (long long)o->tidk);
		memset(&pid, 0, sizeof pid);
		pid.type = JSONSCAN_NUMBER;
		pid.p = pbuf;
		pid.len = strlen(pbuf);
		tid = pid;
		tid.p = tbuf;
		tid.len = strlen(tbuf);
		e.pid = &pid;
		e.tid = &tid;
		e.index = (uint64_t)o->rowid;
		if (kineto_emit_begin(k, &e, o, o->ts, EVF_OPEN) != 0)
			return -1;
	}
	k->te.nopen = 0;
	return 0;
}
