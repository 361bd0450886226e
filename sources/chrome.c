/*
 * chrome: the generic Chrome trace reader (chrome.h), on the streaming
 * scanner (jsonscan.h): one pass over the event array, nothing but the
 * model grows with the file.
 *
 * The Trace Event Format says nothing of GPUs: what is GPU work is read
 * from the categories that tools write. A category ("cat", its comma-
 * separated parts lowercased as one string) is, in this order:
 *   memcpy / memset (nsys-style "Memcpy ..."/"Memset ..." names of GPU
 *                     work too)       EV_MEMCPY / EV_MEMSET on a GPU stream
 *   api, runtime, driver (nsightful's "cuda_api", Kineto's "cuda_runtime")
 *                                     EV_API on the thread's API track
 *   nvtx, annotation, marker, user, range, sync
 *                                     CPU ranges (EV_NVTX) in a domain named
 *                                     after the category; with kernel, gpu
 *                                     or device too (nsightful's
 *                                     "nvtx-kernel": NVTX projected onto the
 *                                     GPU), a TRACK_OTHER track of the
 *                                     (pid, tid) named after the category,
 *                                     so that ranges do not count twice
 *   kernel, cuda, gpu, hip, rocm      EV_KERNEL on a GPU stream
 *   anything else, or none            CPU ranges, as above
 * A GPU event's device is args "device", else the integer pid, else the
 * number a string pid ends with ("Device 0", "GPU 3"); its stream is args
 * "stream", else the tid's integer or trailing number ("CUDA API 7"),
 * else 0. Correlation ids come from args "correlation", "correlationId" or
 * "correlation_id"; grid and block from args "grid"/"block" arrays.
 *
 * Phases: X complete events; B/E paired per (pid, tid), an unclosed B an
 * open range (EVF_OPEN); i/I/R instants EV_MARK; C counters EV_COUNTER per
 * numeric arg ("NAME KEY"); M process_name/thread_name name processes and
 * threads; flows and async events (s t f b n e) and others are counted in
 * a warning. Tracks are per (pid, tid); pids and tids are integers or
 * strings (named after themselves). Times are microseconds (ts, dur) read
 * exactly into nanoseconds; displayTimeUnit is display-only.
 *
 * Streams and devices belong to the process that made the most API calls
 * (where GPU work is launched), else to the pid of the GPU work itself.
 * Each load warns what was assumed: the categories read as GPU work and
 * API calls, with their counts.
 *
 * Errors: malformed JSON, an event that is not an object, "ph" missing or
 * not a string, ts/dur missing or not numbers where needed, "name"/"cat"
 * not strings, "args" not an object: a message naming the byte offset.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "sources/chrome.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/srcdev.h"
#include "sources/srcmaps.h"
#include "sources/trevent.h"
#include "util/timing.h"
#include "util/xmalloc.h"

#define CH_PROBE_BYTES	65536
#define CH_PROGRESS	65536
#define CH_STR_KEY	0x4000000000000000ULL
#define CH_NCATS	32		/* categories listed in the warning */

enum ch_class {
	CC_RANGE = 0,
	CC_API,
	CC_KERNEL,
	CC_MEMCPY,
	CC_MEMSET,
	CC_GPU_ANN,
	CC_COUNT
};

struct ch_cat {
	uint32_t	 sid;
	uint8_t		 cls;
	uint64_t	 n;
};

struct ch_begin {
	uint32_t	 thr;
	int64_t		 ts;
	int64_t		 rowid;
	uint32_t	 name, cat, corr;
	uint8_t		 cls;
};

struct ch_ev {
	uint64_t			 index, offset;
	char				 ph;
	struct jsonscan_val		*name, *cat;
	const struct jsonscan_val	*pid, *tid;
	int64_t				 ts, dur;
	int				 has_ts, has_dur;
	const struct jsonscan_member	*args;
	size_t				 nargs;
	uint32_t			 catsid;
	uint8_t				 cls;
};

struct chrome {
	const char		*path;
	struct builder		*b;
	struct model		*m;
	struct jsonscan		*js;
	char			*err;

	struct hmap		 thr_of;	/* key(pid key, tid key) */
	struct hmap		 str_of;	/* key(device, stream) */
	struct hmap		 dom_of;	/* category sid -> domain */
	struct hmap		 pname, tname;	/* M names */
	struct hmap		 cls_of;	/* category sid -> class + 1 */
	struct ch_cat		 cats[CH_NCATS];
	size_t			 ncats;
	uint32_t		 gpu_proc;	/* first GPU event's process */
	struct trevent		 te;		/* open B events, phases */
	int			 cuda, hip;
	uint64_t		 nflows;
};

static const char *const ch_class_name[CC_COUNT] = {
	"CPU ranges", "API calls", "kernels", "memory copies", "memsets",
	"GPU-side ranges"
};

static int
ch_fail(struct chrome *c, const struct ch_ev *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
ch_fail(struct chrome *c, const struct ch_ev *e, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	trevent_vfail(&c->err, c->path, e->index, e->offset, fmt, ap);
	va_end(ap);
	return -1;
}

static int
ch_has(const char *s, const char *needle)
{
	return strstr(s, needle) != NULL;
}

/* The class of a category (lowercased into buf). */
static uint8_t
ch_classify(const char *p, size_t len, int *cuda, int *hip)
{
	char	buf[128];
	size_t	i, n = len < sizeof buf - 1 ? len : sizeof buf - 1;

	for (i = 0; i < n; i++)
		buf[i] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] - 'A' + 'a' :
		    p[i]);
	buf[n] = '\0';
	if (ch_has(buf, "cuda"))
		*cuda = 1;
	if (ch_has(buf, "hip") || ch_has(buf, "rocm"))
		*hip = 1;
	if (ch_has(buf, "memcpy"))
		return CC_MEMCPY;
	if (ch_has(buf, "memset"))
		return CC_MEMSET;
	if (ch_has(buf, "api") || ch_has(buf, "runtime") ||
	    ch_has(buf, "driver"))
		return CC_API;
	if (ch_has(buf, "nvtx") || ch_has(buf, "annotation") ||
	    ch_has(buf, "marker") || ch_has(buf, "user") ||
	    ch_has(buf, "range") || ch_has(buf, "sync"))
		return ch_has(buf, "kernel") || ch_has(buf, "gpu") ||
		    ch_has(buf, "device") ? CC_GPU_ANN : CC_RANGE;
	if (ch_has(buf, "kernel") || ch_has(buf, "cuda") ||
	    ch_has(buf, "gpu") || ch_has(buf, "hip") || ch_has(buf, "rocm"))
		return CC_KERNEL;
	return CC_RANGE;
}

static void
ch_category(struct chrome *c, struct ch_ev *e)
{
	uint32_t	v, i;

	if (e->cat == NULL) {
		e->catsid = 0;
		e->cls = CC_RANGE;
		return;
	}
	jsonscan_str(e->cat);
	e->catsid = builder_intern_n(c->b, e->cat->p, e->cat->len);
	if (hmap_get(&c->cls_of, e->catsid, &v)) {
		e->cls = (uint8_t)(v & 0xff);
		i = v >> 8;
	} else {
		e->cls = ch_classify(e->cat->p, e->cat->len, &c->cuda,
		    &c->hip);
		i = NONE32 >> 8;
		if (c->ncats < CH_NCATS) {
			i = (uint32_t)c->ncats++;
			c->cats[i].sid = e->catsid;
			c->cats[i].cls = e->cls;
		}
		hmap_put(&c->cls_of, e->catsid, i << 8 | e->cls);
	}
	if (i < c->ncats)
		c->cats[i].n++;
}

/* A pid or tid: its key, number (an integer, or a string's trailing
 * digits, or -1) and whether it is a string. -1 if neither. */
static int
ch_id(const struct jsonscan_val *v, uint64_t *key, int64_t *num, int *str)
{
	int64_t		i;
	size_t		k;

	*str = 0;
	if (v == NULL) {
		*key = 0;
		*num = 0;
		return 0;
	}
	if (jsonscan_i64(v, &i) == 0) {
		*key = (uint64_t)i;
		*num = i;
		return 0;
	}
	if (v->type != JSONSCAN_STRING)
		return -1;
	*str = 1;
	*key = CH_STR_KEY | (hmap_hash(v->p, v->len) & (CH_STR_KEY - 1));
	for (k = v->len; k > 0 && v->p[k - 1] >= '0' && v->p[k - 1] <= '9';
	    k--)
		;
	*num = -1;
	if (k < v->len && v->len - k <= 9) {
		*num = 0;
		for (; k < v->len; k++)
			*num = *num * 10 + (v->p[k] - '0');
	}
	return 0;
}

/* The thread of (pid, tid), declared on first use. */
static int
ch_thread(struct chrome *c, const struct ch_ev *e, uint32_t *thr)
{
	uint64_t	pk, tk, key;
	int64_t		pn, tn;
	int		ps, ts;
	uint32_t	p;
	char		name[128];

	if (e->pid == NULL)
		return ch_fail(c, e, "no 'pid'");
	if (ch_id(e->pid, &pk, &pn, &ps) != 0 || ch_id(e->tid, &tk, &tn,
	    &ts) != 0)
		return ch_fail(c, e, "'pid' or 'tid' is neither an integer "
		    "nor a string");
	key = hmap_key2(pk, tk);
	if (hmap_get(&c->thr_of, key, thr))
		return 0;
	if ((p = builder_find_process(c->b, pk)) == NONE32) {
		snprintf(name, sizeof name, "%.*s", (int)(e->pid->len < 100 ?
		    e->pid->len : 100), e->pid->p);
		p = builder_process(c->b, pk, ps || pn < 0 ? 0 : (uint32_t)pn,
		    ps ? name : NULL);
	}
	if (ts)
		snprintf(name, sizeof name, "%.*s", (int)(e->tid->len < 100 ?
		    e->tid->len : 100), e->tid->p);
	*thr = builder_thread(c->b, key, ts || tn < 0 ? (uint32_t)tk :
	    (uint32_t)tn, p, ts ? name : NULL);
	hmap_put(&c->thr_of, key, *thr);
	return 0;
}

static const struct jsonscan_member *
ch_arg(const struct ch_ev *e, const char *key)
{
	size_t	i, n = strlen(key);

	for (i = 0; i < e->nargs; i++)
		if (e->args[i].key.len == n && memcmp(e->args[i].key.p, key,
		    n) == 0)
			return &e->args[i];
	return NULL;
}

static int
ch_arg_i64(const struct ch_ev *e, const char *key, int64_t *v)
{
	const struct jsonscan_member	*mb = ch_arg(e, key);

	return mb != NULL && jsonscan_i64(&mb->val, v) == 0 ? 0 : -1;
}

static uint32_t
ch_corr(const struct ch_ev *e)
{
	int64_t	v;

	if (ch_arg_i64(e, "correlation", &v) == 0 || ch_arg_i64(e,
	    "correlationId", &v) == 0 || ch_arg_i64(e, "correlation_id",
	    &v) == 0)
		return (uint32_t)v;
	return 0;
}

static uint32_t
ch_name(struct chrome *c, struct jsonscan_val *v)
{
	if (v == NULL)
		return 0;
	jsonscan_str(v);
	return builder_intern_n(c->b, v->p, v->len);
}

static int
ch_comm(const struct model *m, uint32_t name)
{
	const char	*s = strpool_get(m->strs, name);

	return strstr(s, "nccl") != NULL || strstr(s, "Nccl") != NULL ||
	    strstr(s, "rccl") != NULL;
}

/* GPU work: a kernel, copy or memset on its (device, stream). */
static int
ch_gpu(struct chrome *c, struct ch_ev *e, uint8_t cls, uint32_t name,
    int64_t start, int64_t end)
{
	struct lane_event	 ev;
	struct kernel_info	 ki;
	struct copy_info	 ci;
	uint64_t		 pk, tk;
	int64_t			 dev, str, g[3], bl[3];
	int			 ps, ts, i;
	uint32_t		 s, di, thr;
	const struct jsonscan_member *mb;

	if (ch_thread(c, e, &thr) != 0)
		return -1;
	if (c->gpu_proc == NONE32)
		c->gpu_proc = c->m->threads[thr].process;
	(void)ch_id(e->pid, &pk, &dev, &ps);
	(void)ch_id(e->tid, &tk, &str, &ts);
	if (ch_arg_i64(e, "device", &dev) != 0 && dev < 0)
		dev = 0;
	if (ch_arg_i64(e, "stream", &str) != 0 && str < 0)
		str = 0;
	if (hmap_get(&c->str_of, hmap_key2((uint64_t)dev, (uint64_t)str), &s)
	    == 0) {
		di = srcdev_get(c->b, (uint32_t)dev, NULL, NULL);
		s = builder_stream(c->b, di, (uint64_t)str, NONE32);
		hmap_put(&c->str_of, hmap_key2((uint64_t)dev, (uint64_t)str),
		    s);
	}
	if (cls == CC_KERNEL && name != 0) {
		const char *n = strpool_get(c->m->strs, name);
		if (strncmp(n, "Memcpy", 6) == 0)
			cls = CC_MEMCPY;
		else if (strncmp(n, "Memset", 6) == 0)
			cls = CC_MEMSET;
	}
	memset(&ev, 0, sizeof ev);
	ev.start = start;
	ev.end = end;
	ev.name = name;
	ev.rowid = (int64_t)e->index;
	ev.corr = ch_corr(e);
	if (end < start)
		ev.flags |= EVF_ENDCLAMP;
	if (cls == CC_KERNEL) {
		ev.kind = EV_KERNEL;
		memset(&ki, 0, sizeof ki);
		ki.short_name = name;
		if ((mb = ch_arg(e, "grid")) != NULL &&
		    jsonscan_i64_array(&mb->val, g, 3) == 3 &&
		    (mb = ch_arg(e, "block")) != NULL &&
		    jsonscan_i64_array(&mb->val, bl, 3) == 3)
			for (i = 0; i < 3; i++) {
				ki.grid[i] = (uint32_t)g[i];
				ki.block[i] = (uint32_t)bl[i];
			}
		ev.aux = builder_kernel(c->b, &ki);
		if (name != 0 && ch_comm(c->m, name))
			ev.flags |= EVF_COMM;
	} else {
		ev.kind = cls == CC_MEMCPY ? EV_MEMCPY : EV_MEMSET;
		memset(&ci, 0, sizeof ci);
		ci.kind = COPY_UNKNOWN;
		ci.src_dev = ci.dst_dev = NONE32;
		if (ch_arg_i64(e, "bytes", &g[0]) == 0 && g[0] > 0)
			ci.bytes = (uint64_t)g[0];
		ev.aux = builder_copy(c->b, &ci);
	}
	builder_event(c->b, builder_gpu_track(c->b, s), &ev);
	return 0;
}

/* A CPU range or mark in the category's domain; GPU-side ranges on a
 * TRACK_OTHER track of their (pid, tid); API calls. */
static int
ch_cpu(struct chrome *c, struct ch_ev *e, uint8_t cls, uint32_t catsid,
    uint32_t name, int64_t start, int64_t end, uint8_t kind, uint8_t flags,
    uint32_t corr)
{
	struct lane_event	 ev;
	struct nvtx_info	 ni;
	uint32_t		 thr, t, dom;

	if (ch_thread(c, e, &thr) != 0)
		return -1;
	trevent_event(&ev, name, start, end, kind, flags, (int64_t)e->index);
	ev.aux = NONE32;
	if (end < start)
		ev.flags |= EVF_ENDCLAMP;
	if (name != 0 && ch_comm(c->m, name))
		ev.flags |= EVF_COMM;
	if (cls == CC_API && kind != EV_MARK) {
		ev.kind = EV_API;
		ev.corr = corr;
		t = builder_cpu_track(c->b, TRACK_API, thr, 0);
	} else if (cls == CC_GPU_ANN) {
		t = builder_cpu_track(c->b, TRACK_OTHER, thr, 0);
		if (c->m->tracks[t].name == 0)
			c->m->tracks[t].name = catsid;
	} else {
		if (!hmap_get(&c->dom_of, catsid, &dom)) {
			dom = builder_domain(c->b, NONE32, 1000 +
			    (uint64_t)c->dom_of.n, catsid != 0 ?
			    strpool_get(c->m->strs, catsid) : "default");
			hmap_put(&c->dom_of, catsid, dom);
		}
		t = builder_cpu_track(c->b, TRACK_NVTX, thr, dom);
		memset(&ni, 0, sizeof ni);
		ni.domain = dom;
		ev.aux = builder_nvtx(c->b, &ni);
	}
	builder_event(c->b, t, &ev);
	return 0;
}

/* A complete event (X, or a B closed by its E). */
static int
ch_complete(struct chrome *c, struct ch_ev *e, uint8_t cls, uint32_t catsid,
    uint32_t name, int64_t start, int64_t end, uint8_t flags, uint32_t corr)
{
	if (cls == CC_KERNEL || cls == CC_MEMCPY || cls == CC_MEMSET)
		return ch_gpu(c, e, cls, name, start, end);
	return ch_cpu(c, e, cls, catsid, name, start, end, EV_NVTX, flags,
	    corr);
}

static int
ch_x(struct chrome *c, struct ch_ev *e)
{
	int64_t	end;

	if (!e->has_dur)
		return ch_fail(c, e, "an X event without a numeric 'dur'");
	if (__builtin_add_overflow(e->ts, e->dur > 0 ? e->dur : 0, &end))
		return ch_fail(c, e, "'ts' + 'dur' out of range");
	return ch_complete(c, e, e->cls, e->catsid, ch_name(c, e->name), e->ts,
	    end, 0, ch_corr(e));
}

static int
ch_b(struct chrome *c, struct ch_ev *e)
{
	struct ch_begin	*o;
	uint64_t	 pk, tk;
	int64_t		 n;
	int		 s;
	uint32_t	 thr;

	if (ch_thread(c, e, &thr) != 0)
		return -1;
	(void)ch_id(e->pid, &pk, &n, &s);
	(void)ch_id(e->tid, &tk, &n, &s);
	o = trevent_begin(&c->te, hmap_key2(pk, tk), sizeof *o);
	o->thr = thr;
	o->ts = e->ts;
	o->rowid = (int64_t)e->index;
	o->name = ch_name(c, e->name);
	o->cat = e->catsid;
	o->cls = e->cls;
	o->corr = ch_corr(e);
	return 0;
}

static int
ch_e(struct chrome *c, struct ch_ev *e)
{
	struct ch_begin	 o;
	uint64_t	 pk, tk;
	int64_t		 n;
	int		 s;

	if (e->pid == NULL || ch_id(e->pid, &pk, &n, &s) != 0 ||
	    ch_id(e->tid, &tk, &n, &s) != 0)
		return ch_fail(c, e, "an E event without an integer or string "
		    "'pid'/'tid'");
	if (!trevent_end(&c->te, hmap_key2(pk, tk), &o))
		return 0;
	e->index = (uint64_t)o.rowid;
	return ch_complete(c, e, o.cls, o.cat, o.name, o.ts, e->ts, 0, o.corr);
}

/* Unclosed B events: open ranges on their own thread's tracks. */
static int
ch_close_open(struct chrome *c)
{
	struct ch_ev	e;
	size_t		i;

	for (i = 0; i < c->te.nopen; i++) {
		const struct ch_begin *o = trevent_open_at(&c->te, i);
		struct lane_event ev;
		struct nvtx_info ni;
		uint32_t t, dom;

		memset(&e, 0, sizeof e);
		e.index = (uint64_t)o->rowid;
		if (!hmap_get(&c->dom_of, o->cat, &dom)) {
			dom = builder_domain(c->b, NONE32, 1000 +
			    (uint64_t)c->dom_of.n, o->cat != 0 ?
			    strpool_get(c->m->strs, o->cat) : "default");
			hmap_put(&c->dom_of, o->cat, dom);
		}
		t = builder_cpu_track(c->b, TRACK_NVTX, o->thr, dom);
		trevent_event(&ev, o->name, o->ts, o->ts, EV_NVTX, EVF_OPEN,
		    o->rowid);
		memset(&ni, 0, sizeof ni);
		ni.domain = dom;
		ev.aux = builder_nvtx(c->b, &ni);
		builder_event(c->b, t, &ev);
	}
	c->te.nopen = 0;
	return 0;
}

static int
ch_counter(struct chrome *c, struct ch_ev *e)
{
	struct lane_event	 ev;
	double			 v;
	size_t			 i;
	char			*s;
	uint32_t		 thr, name = ch_name(c, e->name);

	if (ch_thread(c, e, &thr) != 0)
		return -1;
	for (i = 0; i < e->nargs; i++) {
		if (jsonscan_double(&e->args[i].val, &v) != 0)
			continue;
		s = xasprintf("%s %.*s", strpool_get(c->m->strs, name),
		    (int)e->args[i].key.len, e->args[i].key.p);
		memset(&ev, 0, sizeof ev);
		ev.start = ev.end = e->ts;
		ev.name = builder_intern(c->b, s);
		ev.kind = EV_COUNTER;
		ev.rowid = (int64_t)e->index;
		ev.aux = builder_counter(c->b, v);
		builder_event(c->b, builder_cpu_track(c->b, TRACK_COUNTER, thr,
		    0), &ev);
		free(s);
	}
	return 0;
}

static void
ch_metadata(struct chrome *c, struct ch_ev *e)
{
	const struct jsonscan_member	*mb;
	struct jsonscan_val		 v;
	uint64_t			 pk, tk;
	int64_t				 n;
	int				 s, proc;

	if (e->name == NULL)
		return;
	if (jsonscan_is(e->name, "process_name"))
		proc = 1;
	else if (jsonscan_is(e->name, "thread_name"))
		proc = 0;
	else
		return;
	if ((mb = ch_arg(e, "name")) == NULL || mb->val.type !=
	    JSONSCAN_STRING || e->pid == NULL || ch_id(e->pid, &pk, &n,
	    &s) != 0 || ch_id(e->tid, &tk, &n, &s) != 0)
		return;
	v = mb->val;
	jsonscan_str(&v);
	if (proc)
		hmap_put(&c->pname, pk, builder_intern_n(c->b, v.p, v.len));
	else
		hmap_put(&c->tname, hmap_key2(pk, tk), builder_intern_n(c->b,
		    v.p, v.len));
}

/* One event of the array (c is the struct chrome). */
static int
ch_event(void *arg, struct jsonscan_obj *o)
{
	struct chrome		*c = arg;
	struct ch_ev		 e;
	struct jsonscan_member	*mb;
	size_t			 i;

	memset(&e, 0, sizeof e);
	e.index = o->index;
	e.offset = o->offset;
	for (i = 0; i < o->n; i += 1 + o->m[i].nkids) {
		mb = &o->m[i];
		if (jsonscan_is(&mb->key, "ph")) {
			if (mb->val.type != JSONSCAN_STRING || mb->val.len == 0)
				return ch_fail(c, &e, "'ph' is not a string");
			e.ph = mb->val.p[0];
		} else if (jsonscan_is(&mb->key, "ts")) {
			if (jsonscan_us_ns(&mb->val, &e.ts) != 0)
				return ch_fail(c, &e, "'ts' is not a number "
				    "(or out of range)");
			e.has_ts = 1;
		} else if (jsonscan_is(&mb->key, "dur")) {
			if (jsonscan_us_ns(&mb->val, &e.dur) != 0)
				return ch_fail(c, &e, "'dur' is not a number "
				    "(or out of range)");
			e.has_dur = 1;
		} else if (jsonscan_is(&mb->key, "pid"))
			e.pid = &mb->val;
		else if (jsonscan_is(&mb->key, "tid"))
			e.tid = &mb->val;
		else if (jsonscan_is(&mb->key, "cat")) {
			if (mb->val.type != JSONSCAN_STRING)
				return ch_fail(c, &e, "'cat' is not a string");
			e.cat = &mb->val;
		} else if (jsonscan_is(&mb->key, "name")) {
			if (mb->val.type == JSONSCAN_STRING)
				e.name = &mb->val;
			else if (mb->val.type != JSONSCAN_NULL)
				return ch_fail(c, &e, "'name' is not a "
				    "string");
		} else if (jsonscan_is(&mb->key, "args")) {
			if (mb->val.type != JSONSCAN_OBJECT)
				return ch_fail(c, &e, "'args' is not an "
				    "object");
			e.args = mb + 1;
			e.nargs = mb->nkids;
		}
	}
	if (e.ph == 0)
		return ch_fail(c, &e, "no 'ph' (phase)");
	if (strchr("XBEiIRC", e.ph) != NULL && !e.has_ts)
		return ch_fail(c, &e, "no 'ts' in a '%c' event", e.ph);
	if (strchr("XBiIRC", e.ph) != NULL)	/* an E takes its B's */
		ch_category(c, &e);
	switch (e.ph) {
	case 'X':
		return ch_x(c, &e);
	case 'B':
		return ch_b(c, &e);
	case 'E':
		return ch_e(c, &e);
	case 'i':
	case 'I':
	case 'R':
		return ch_cpu(c, &e, e.cls == CC_GPU_ANN || e.cls == CC_API ?
		    CC_RANGE : e.cls, e.catsid, ch_name(c, e.name), e.ts, e.ts,
		    EV_MARK, 0, 0);
	case 'C':
		return ch_counter(c, &e);
	case 'M':
		ch_metadata(c, &e);
		return 0;
	case 's':
	case 't':
	case 'f':
		c->nflows++;
		return 0;
	default:
		trevent_other(&c->te, e.ph);
		return 0;
	}
}

/* The end: owners, names, track names, what was assumed. */
static void
ch_finish(struct chrome *c)
{
	struct model	*m = c->m;
	uint64_t	*api, best = 0;
	uint32_t	 gp = c->gpu_proc, v, vendor = 0;
	size_t		 i, len;
	char		 buf[1024], tmp[160];
	int		 k, any;

	api = xcalloc(m->nprocesses + 1, sizeof *api);
	for (i = 0; i < m->ntracks; i++)
		if (m->tracks[i].type == TRACK_API && m->tracks[i].process <
		    m->nprocesses)
			api[m->tracks[i].process] += m->tracks[i].lane.n;
	for (i = 0; i < m->nprocesses; i++)
		if (api[i] > best) {
			best = api[i];
			gp = (uint32_t)i;
		}
	free(api);
	if (c->cuda && !c->hip)
		vendor = builder_intern(c->b, "NVIDIA");
	else if (c->hip && !c->cuda)
		vendor = builder_intern(c->b, "AMD");
	for (i = 0; i < m->nstreams; i++)
		m->streams[i].process = gp;
	for (i = 0; i < m->ndevices; i++) {
		m->devices[i].process = gp;
		m->devices[i].vendor = vendor;
	}
	for (i = 0; i < m->ntracks; i++) {
		struct track *t = &m->tracks[i];
		if (t->type == TRACK_GPU || t->type == TRACK_SYNC) {
			t->process = gp;
			if (t->stream < m->nstreams) {
				snprintf(tmp, sizeof tmp, "Stream %llu",
				    (unsigned long long)
				    m->streams[t->stream].source_id);
				t->name = builder_intern(c->b, tmp);
			}
		} else if (t->type == TRACK_API)
			t->name = builder_intern(c->b, "API");
		else if (t->type == TRACK_NVTX && t->domain < m->ndomains)
			t->name = m->domains[t->domain].name;
		else if (t->type == TRACK_COUNTER)
			t->name = builder_intern(c->b, "counters");
	}
	for (i = 0; i < m->nprocesses; i++)
		if (hmap_get(&c->pname, m->processes[i].source_id, &v))
			m->processes[i].name = v;
	for (i = 0; i < m->nthreads; i++)
		if (hmap_get(&c->tname, m->threads[i].source_id, &v))
			m->threads[i].name = v;
	m->source_version = builder_intern(c->b, "Trace Event Format");

	/* What was assumed, with the counts. */
	len = (size_t)snprintf(buf, sizeof buf, "a generic Chrome trace, not "
	    "a PyTorch profiler trace: events read by category");
	any = 0;
	for (k = 0; k < CC_COUNT; k++)
		for (i = 0; i < c->ncats; i++) {
			if (c->cats[i].cls != k || c->cats[i].n == 0 ||
			    len >= sizeof buf - 1)
				continue;
			snprintf(tmp, sizeof tmp, "%.40s", strpool_get(m->strs,
			    c->cats[i].sid));
			for (v = 0; tmp[v] != '\0'; v++)
				if ((unsigned char)tmp[v] < 0x20 ||
				    tmp[v] == 0x7f)
					tmp[v] = '?';
			len += (size_t)snprintf(buf + len, sizeof buf - len,
			    "%s \"%s\" as %s (%llu)", any ? "," : ":", tmp,
			    ch_class_name[k],
			    (unsigned long long)c->cats[i].n);
			any = 1;
		}
	if (len < sizeof buf - 1)
		snprintf(buf + len, sizeof buf - len, "%s; GPU devices and "
		    "streams taken from args device/stream or the numbers "
		    "in pid/tid; times in microseconds", any ? "" :
		    " (none had one: all read as CPU ranges)");
	builder_warn(c->b, "%s", buf);
	trevent_warn(&c->te, c->b);
}

/* Calls fn (hmap_init or hmap_free) on every map of c. */
static void
ch_maps(struct chrome *c, void (*fn)(struct hmap *))
{
	srcmaps(fn, &c->thr_of, &c->str_of, &c->dom_of, &c->pname, &c->tname,
	    &c->cls_of, NULL);
}

static void
ch_free(struct chrome *c)
{
	jsonscan_close(c->js);
	ch_maps(c, hmap_free);
	trevent_free(&c->te);
	free(c->err);
}

static const char *const ch_want[] = { NULL };

/* Top-level scalars are kept as metadata. */
static int
ch_read_meta(void *arg, struct jsonscan_item *it)
{
	struct chrome	*c = arg;
	char		*s;

	if (it->kind != JSONSCAN_META || !(cJSON_IsString(it->meta) ||
	    cJSON_IsNumber(it->meta)))
		return 0;
	s = xstrndup(it->val.p, it->val.len);
	if (cJSON_IsString(it->meta))
		builder_meta(c->b, it->key, it->meta->valuestring);
	else
		builder_meta(c->b, it->key, s);
	free(s);
	return 0;
}

struct model *
chrome_load(const char *path, struct progress *prog, char **cause)
{
	struct chrome		 c;
	double			 t0 = timing_now();
	int			 rc;

	memset(&c, 0, sizeof c);
	c.path = path;
	c.gpu_proc = NONE32;
	ch_maps(&c, hmap_init);
	if ((c.js = jsonscan_open(path, cause)) == NULL) {
		ch_free(&c);
		return NULL;
	}
	jsonscan_want(c.js, ch_want);
	c.b = builder_new(SOURCE_CHROME);
	c.m = c.b->m;
	progress_phase(prog, "chrome", jsonscan_raw_size(c.js));
	rc = trevent_read(c.js, prog, CH_PROGRESS, ch_event, ch_read_meta,
	    &c, &c.err, cause);
	if (rc > 0)
		goto fail;
	if (rc < 0) {
		builder_abort(c.b);
		ch_free(&c);
		progress_done(prog);
		return NULL;
	}
	ch_close_open(&c);
	ch_finish(&c);
	ch_free(&c);
	progress_done(prog);
	timing_report("chrome-read", t0);
	return builder_finish(c.b, cause);

fail:
	*cause = c.err;
	c.err = NULL;
	builder_abort(c.b);
	ch_free(&c);
	progress_done(prog);
	return NULL;
}

int
chrome_probe(const char *path, char **cause)
{
	static const char *const keys[] = {
		"\"schemaVersion\"", "\"deviceProperties\"",
		"\"distributedInfo\"", "\"baseTimeNanoseconds\""
	};
	char		*buf, *p, *q;
	size_t		 got, i;
	int		 generic = 1;

	if ((buf = trevent_head(path, CH_PROBE_BYTES, &got, cause)) == NULL)
		return -1;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strstr(buf, keys[i]) != NULL)
			generic = 0;
	/* Categories: "cat": "NAME" (the usual spacing). */
	for (p = buf; generic && (p = strstr(p, "\"cat\"")) != NULL; p = q) {
		q = p + 5;
		while (*q == ' ' || *q == ':' || *q == '\t' || *q == '\n' ||
		    *q == '\r')
			q++;
		if (*q != '"')
			continue;
		p = ++q;
		while (*q != '\0' && *q != '"')
			q++;
		if (*q == '\0')
			break;
		if (kineto_is_category(p, (size_t)(q - p)))
			generic = 0;
	}
	free(buf);
	return generic;
}
