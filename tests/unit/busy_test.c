/*
 * busy_test: the busy-time analyses (analysis/busy.h) over the selected
 * work of a small model: the busy walk from the precomputed sets and from
 * the merged events, the per-bucket class unions, the overlap unions with
 * their exposed communication by tag, and a device's busy time.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/busy.h"
#include "model/builder.h"
#include "model/lane.h"
#include "model/model.h"
#include "util/sort.h"
#include "tsupport.h"

/* An event filter for the busy walks: everything but communication. */
static int
no_comm(void *arg, uint32_t t, uint32_t i)
{
	const struct model	*m = arg;

	return (m->tracks[t].lane.flags[i] & EVF_COMM) == 0;
}

/* The busy analyses over the selected work of device 2 (index 1). */
/* Walks bw to its end: the segments' starts and ends into got (at most max
 * values). Returns how many values. */
static size_t
walk(struct busy_walk *bw, int64_t *got, size_t max)
{
	int64_t	s, e;
	size_t	n;

	for (n = 0; busy_walk_next(bw, &s, &e); n += 2) {
		assert_true(n < max);
		got[n] = s;
		got[n + 1] = e;
	}
	return n;
}

static void
test_busy(void **state)
{
	struct model		*m = ts_model_activity();
	struct work		 w, wf;
	struct work_sel		 all = { NULL, NULL, NULL };
	struct work_sel		 nc = { NULL, no_comm, NULL };
	struct busy_walk	 bw;
	struct busy_buckets	 bb;
	struct busy_overlap	 bo;
	struct busy_tag		*tags = NULL;
	struct iset		 win;
	uint32_t		*tr = NULL;
	size_t			 cap = 0, nt, tcap = 0;
	int64_t			 s, e, edge[] = { 0, 100, 200, 400 };
	int64_t			 got[8];
	/* The union of the two streams over [0, 1000): [0,250) [300,350). */
	static const int64_t	 two_segments[] = { 0, 250, 300, 350 };
	size_t			 n;

	(void)state;
	nc.arg = m;
	work_init(&w, m, &all, 0, 2000);
	work_init(&wf, m, &nc, 0, 2000);
	/* Two work streams. */
	nt = work_tracks(&w, 1, &tr, &cap);
	assert_int_equal(nt, 2);

	memset(&bw, 0, sizeof bw);
	busy_walk_start(&bw, &w, tr, nt, 0, 1000);
	n = walk(&bw, got, 8);
	assert_int_equal(n, 4);
	assert_memory_equal(got, two_segments, sizeof two_segments);
	/* Clamped to a window that cuts both segments. */
	busy_walk_start(&bw, &w, tr, nt, 120, 320);
	assert_true(busy_walk_next(&bw, &s, &e));
	assert_int_equal(s, 120);
	assert_int_equal(e, 250);
	assert_true(busy_walk_next(&bw, &s, &e));
	assert_int_equal(s, 300);
	assert_int_equal(e, 320);
	assert_false(busy_walk_next(&bw, &s, &e));
	/* An empty window, then the event filter (the heap merge). */
	busy_walk_start(&bw, &w, tr, nt, 500, 500);
	assert_false(busy_walk_next(&bw, &s, &e));
	busy_walk_start(&bw, &wf, tr, nt, 0, 1000);
	n = walk(&bw, got, 8);
	assert_int_equal(n, 6);
	assert_int_equal(got[1], 100);
	assert_int_equal(got[2], 150);
	assert_int_equal(got[3], 250);
	assert_int_equal(got[5], 350);
	busy_walk_free(&bw);

	/* Buckets [0,100) [100,200) [200,400): all, compute, comm, copy. */
	iset_init(&win);
	iset_add(&win, 0, 2000);
	busy_buckets_init(&bb, edge, 3);
	busy_buckets_sweep(&bb, &w, &win, tr, nt);
	assert_int_equal(bb.busy[0 * BUSY_NCOL + 0], 100);
	assert_int_equal(bb.busy[1 * BUSY_NCOL + 0], 100);
	assert_int_equal(bb.busy[2 * BUSY_NCOL + 0], 100);
	assert_int_equal(bb.busy[0 * BUSY_NCOL + 1 + WORK_COMPUTE], 100);
	assert_int_equal(bb.busy[1 * BUSY_NCOL + 1 + WORK_COMPUTE], 50);
	assert_int_equal(bb.busy[2 * BUSY_NCOL + 1 + WORK_COMPUTE], 50);
	assert_int_equal(bb.busy[0 * BUSY_NCOL + 1 + WORK_COMM], 50);
	assert_int_equal(bb.busy[1 * BUSY_NCOL + 1 + WORK_COMM], 100);
	assert_int_equal(bb.busy[2 * BUSY_NCOL + 1 + WORK_COPY], 50);
	assert_int_equal(bb.kern[0], 2);
	assert_int_equal(bb.kern[1], 1);
	assert_int_equal(bb.kern[2], 0);
	assert_int_equal(busy_bucket(&bb, 399), 2);
	busy_buckets_free(&bb);
	iset_free(&win);

	/* Class unions, sum, peak; exposed communication by tag. */
	busy_overlap_init(&bo, 1);
	busy_overlap_reset(&bo);
	busy_overlap_sweep(&bo, &w, tr, nt, 0, 1000);
	assert_int_equal(bo.len[BUSY_C], 200);
	assert_int_equal(bo.len[BUSY_M], 150);
	assert_int_equal(bo.len[BUSY_Y], 50);
	assert_int_equal(bo.len[BUSY_CM], 250);
	assert_int_equal(bo.len[BUSY_CY], 250);
	assert_int_equal(bo.len[BUSY_ALL], 300);
	assert_int_equal(bo.sum, 400);
	assert_int_equal(bo.peak, 2);
	assert_int_equal(bo.ncomm, 1);
	n = busy_overlap_tags(&bo, &tags, &tcap);
	assert_int_equal(n, 1);
	assert_int_equal(tags[0].count, 1);
	assert_int_equal(tags[0].comm, 150);
	assert_int_equal(tags[0].exposed, 50);	/* [100, 150) */
	free(tags);
	busy_overlap_free(&bo);

	/* The device's busy set: every event of its GPU tracks (the sync
	 * record sits on a track of its own). */
	assert_int_equal(busy_device(m, 1, 0, 1000), 300);
	assert_int_equal(busy_device(m, 1, 120, 320), 150);
	assert_int_equal(busy_device_total(m, 1), 300);
	assert_int_equal(busy_device(m, 7, 0, 1000), 0);
	free(tr);
	work_free(&w);
	work_free(&wf);
	model_free(m);
}

/*
 * A model built to reach the fast paths' edges: device 1 with three
 * streams, device 2 with two, events of every class (copies among the
 * compute stream's kernels, as traces have them), many starting at the
 * same instant, zero-length ones, and overlaps inside a stream.
 */
static struct model *
busy_model(void)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 e;
	uint32_t		 tr[5], d;
	unsigned		 seed = 7;
	size_t			 k, i;
	int64_t			 st;
	static const int	 kinds[] = { EV_KERNEL, EV_KERNEL, EV_MEMCPY,
	    EV_MEMSET, EV_GRAPH };

	d = ts_gpu_streams(b, tr, 3);
	(void)d;
	(void)ts_gpu_streams(b, tr + 3, 2);
	for (k = 0; k < 5; k++)
		for (i = 0, st = 0; i < 150; i++) {
			seed = seed * 1103515245u + 12345u;
			/* Times on a 10 ns grid: equal starts across
			 * streams, and on the bucket edges of 80, 680... */
			st += 10 * (int64_t)((seed >> 16) % 5);
			e = ts_event(b, "k", kinds[(seed >> 8) % 5], st, st +
			    10 * (int64_t)((seed >> 20) % 7) *
			    ((seed >> 4) % 5 != 0));
			if (e.kind == EV_MEMCPY || e.kind == EV_MEMSET)
				e.aux = ts_copy(b, COPY_HTOD, 0, 0, 0);
			if ((seed >> 12) % 3 == 0 && e.kind != EV_MEMCPY &&
			    e.kind != EV_MEMSET)
				e.flags = EVF_COMM;
			builder_event(b, tr[k], &e);
		}
	return ts_finish(b);
}

/* The item order of a merge: clamped start, then cursor, then the
 * cursor's own order (what qsort of these keys must give back). */
struct mkey {
	int64_t		s;
	size_t		cur, seq;
	uint32_t	t, i;
};

static int
mkey_cmp(const void *x, const void *y)
{
	const struct mkey	*a = x, *b = y;

	return sort_lex3(a->s, b->s, (int64_t)a->cur, (int64_t)b->cur,
	    (int64_t)a->seq, (int64_t)b->seq);
}

/* The merge of tracks on [a, b) against a sort of its items. */
static void
check_merge(const struct work *w, const uint32_t *tr, size_t nt, int64_t a,
    int64_t b)
{
	struct work_merge	 mg;
	struct work_item	 it;
	struct mkey		 v[2000], got;
	const struct lane	*l;
	size_t			 n = 0, k, i, seq, cur = 0;

	for (k = 0; k < nt && a < b; k++) {
		l = &w->m->tracks[tr[k]].lane;
		seq = 0;
		/* Straddlers first, then the events starting inside. */
		for (i = 0; i < l->n; i++)
			if (l->start[i] < a && l->end[i] > a &&
			    work_event(w, tr[k], (uint32_t)i) >= 0) {
				v[n].s = a;
				v[n].cur = cur;
				v[n].seq = seq++;
				v[n].t = tr[k];
				v[n++].i = (uint32_t)i;
			}
		for (i = 0; i < l->n; i++)
			if (l->start[i] >= a && l->start[i] < b &&
			    work_event(w, tr[k], (uint32_t)i) >= 0) {
				v[n].s = l->start[i];
				v[n].cur = cur;
				v[n].seq = seq++;
				v[n].t = tr[k];
				v[n++].i = (uint32_t)i;
			}
		cur += seq > 0;
	}
	qsort(v, n, sizeof *v, mkey_cmp);
	memset(&mg, 0, sizeof mg);
	work_merge_start(&mg, w, tr, nt, a, b);
	for (k = 0; work_merge_next(&mg, &it); k++) {
		assert_true(k < n);
		got.t = it.t;
		got.i = it.i;
		assert_int_equal(it.s, v[k].s);
		assert_int_equal(got.t, v[k].t);
		assert_int_equal(got.i, v[k].i);
	}
	assert_int_equal(k, n);
	work_merge_free(&mg);
}

/* The union of the selected work of class cls (-1: any) of tracks,
 * clipped to the window segments of win. */
static void
union_of(const struct work *w, const uint32_t *tr, size_t nt,
    const struct iset *win, int cls, struct iset *out)
{
	int64_t			 st[2000], en[2000];
	const struct lane	*l;
	size_t			 n = 0, k, i, j;
	int			 c;

	for (j = 0; j < win->n; j++)
		for (k = 0; k < nt; k++) {
			l = &w->m->tracks[tr[k]].lane;
			for (i = 0; i < l->n; i++) {
				c = work_event(w, tr[k], (uint32_t)i);
				if (c < 0 || (cls >= 0 && c != cls))
					continue;
				st[n] = l->start[i] > win->start[j] ?
				    l->start[i] : win->start[j];
				en[n] = l->end[i] < win->end[j] ?
				    l->end[i] : win->end[j];
				n += en[n] > st[n];
			}
		}
	iset_build(out, st, en, n);
}

/* The fast paths (busy sets, cursors over the edges, inline unions, the
 * threads' rounds) agree with the plain ones and with sets built here. */
static void
test_busy_paths(void **state)
{
	struct model		*m = busy_model();
	struct work		 w, wf;
	struct work_sel		 all = { NULL, NULL, NULL };
	/* A filter that keeps everything: the plain (merged) paths. */
	struct work_sel		 kf = { NULL, ts_every_event, NULL };
	struct busy_walk	 b1, b2;
	struct busy_buckets	 bb;
	struct busy_overlap	 bo;
	struct iset		 win, u[BUSY_NCOL], cm, cy;
	uint32_t		*tr = NULL;
	size_t			 cap = 0, nt, k, j, col, d, nk;
	int64_t			 s1, e1, s2, e2, edge[40], sum, peak, cnt;
	const struct lane	*l;
	static const int64_t	 wins[][2] = { { 0, 9000 }, { 37, 2100 },
	    { 500, 501 }, { 1200, 1200 } };

	(void)state;
	work_init(&w, m, &all, 0, 9000);
	work_init(&wf, m, &kf, 0, 9000);
	assert_int_equal(work_threads(&wf, 4), 1);
	assert_true(work_threads(&w, 1) == 1);
	memset(&b1, 0, sizeof b1);
	memset(&b2, 0, sizeof b2);
	/* Every device, one device (its own set), one track of one. */
	for (d = 0; d < 4; d++) {
		nt = work_tracks(&w, d < 2 ? (uint32_t)d : NONE32, &tr, &cap);
		if (d == 3)
			nt = 1;
		for (k = 0; k < sizeof wins / sizeof wins[0]; k++) {
			check_merge(&w, tr, nt, wins[k][0], wins[k][1]);
			busy_walk_start(&b1, &w, tr, nt, wins[k][0],
			    wins[k][1]);
			busy_walk_start(&b2, &wf, tr, nt, wins[k][0],
			    wins[k][1]);
			assert_int_equal(b1.by_cov, 1);
			assert_int_equal(b2.by_cov, 0);
			while (busy_walk_next(&b1, &s1, &e1)) {
				assert_true(busy_walk_next(&b2, &s2, &e2));
				assert_int_equal(s1, s2);
				assert_int_equal(e1, e2);
			}
			assert_false(busy_walk_next(&b2, &s2, &e2));
		}
	}
	busy_walk_free(&b1);
	busy_walk_free(&b2);

	/* Buckets of uneven widths over a window of three segments. */
	nt = work_tracks(&w, 0, &tr, &cap);
	iset_init(&win);
	iset_add(&win, 10, 700);
	iset_add(&win, 900, 1500);
	iset_add(&win, 1501, 8000);
	for (k = 0; k < 40; k++)
		edge[k] = 5 + (int64_t)(k * k) * 3;
	busy_buckets_init(&bb, edge, 39);
	busy_buckets_sweep(&bb, &w, &win, tr, nt);
	for (col = 0; col < BUSY_NCOL; col++) {
		iset_init(&u[col]);
		union_of(&w, tr, nt, &win, (int)col - 1, &u[col]);
		for (k = 0; k < 39; k++)
			assert_int_equal(bb.busy[k * BUSY_NCOL + col],
			    iset_measure(&u[col], edge[k], edge[k + 1]));
	}
	for (k = 0; k < 39; k++) {
		for (j = 0, nk = 0; j < nt; j++) {
			l = &m->tracks[tr[j]].lane;
			for (d = 0; d < l->n; d++)
				nk += l->kind[d] == EV_KERNEL &&
				    l->start[d] >= edge[k] &&
				    l->start[d] < edge[k + 1] &&
				    iset_measure(&win, l->start[d],
				    l->start[d] + 1) == 1;
		}
		assert_int_equal(bb.kern[k], nk);
	}
	busy_buckets_free(&bb);

	/* The overlap unions, sum and peak of the same window. */
	busy_overlap_init(&bo, 0);
	busy_overlap_reset(&bo);
	for (k = 0; k < win.n; k++)
		busy_overlap_sweep(&bo, &w, tr, nt, win.start[k], win.end[k]);
	iset_init(&cm);
	iset_init(&cy);
	iset_union(&cm, &u[1 + WORK_COMPUTE], &u[1 + WORK_COMM]);
	iset_union(&cy, &u[1 + WORK_COMPUTE], &u[1 + WORK_COPY]);
	assert_int_equal(bo.len[BUSY_ALL], iset_len(&u[0]));
	assert_int_equal(bo.len[BUSY_C], iset_len(&u[1 + WORK_COMPUTE]));
	assert_int_equal(bo.len[BUSY_M], iset_len(&u[1 + WORK_COMM]));
	assert_int_equal(bo.len[BUSY_Y], iset_len(&u[1 + WORK_COPY]));
	assert_int_equal(bo.len[BUSY_CM], iset_len(&cm));
	assert_int_equal(bo.len[BUSY_CY], iset_len(&cy));
	sum = peak = 0;
	for (s1 = 0; s1 < 9000; s1++) {
		if (iset_measure(&win, s1, s1 + 1) == 0)
			continue;
		for (j = 0, cnt = 0; j < nt; j++) {
			l = &m->tracks[tr[j]].lane;
			for (d = 0; d < l->n; d++)
				cnt += l->start[d] <= s1 && s1 < l->end[d] &&
				    work_event(&w, tr[j], (uint32_t)d) >= 0;
		}
		sum += cnt;
		if (cnt > peak)
			peak = cnt;
	}
	assert_int_equal(bo.sum, sum);
	assert_int_equal(bo.peak, peak);
	busy_overlap_free(&bo);
	for (col = 0; col < BUSY_NCOL; col++)
		iset_free(&u[col]);
	iset_free(&cm);
	iset_free(&cy);
	iset_free(&win);
	free(tr);
	work_free(&w);
	work_free(&wf);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_busy),
	cmocka_unit_test(test_busy_paths))
