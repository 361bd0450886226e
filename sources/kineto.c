/*
 * kineto: the PyTorch profiler (Kineto) Chrome-trace JSON reader
 * (FORMATS.md section 3).
 *
 * The event array is streamed with jsonscan, one event at a time; nothing
 * but the model grows with the file. Top-level members (deviceProperties,
 * distributedInfo, baseTimeNanoseconds, version keys) may come before or
 * after the events, so whatever depends on them is settled at the end.
 *
 * Files: this one reads the event array, dispatches by phase and category
 * and maps the CPU side; kineto-gpu.c maps GPU work; kineto-meta.c reads
 * the top-level members and settles the end; kineto-int.h holds the state
 * they share.
 *
 * Time: "ts" and "dur" are microseconds with up to three decimals; they are
 * read as text into exact nanoseconds (jsonscan_us_ns), and
 * baseTimeNanoseconds, when present, is added at the end, so model times
 * are absolute nanoseconds (the epoch clock of the host for every Kineto
 * version we know). displayTimeUnit is display-only (FORMATS.md: a trace
 * with "ns" still has microsecond ts) and is kept as metadata.
 *
 * Mapping (categories matched ignoring case; the 2021-era names in
 * parentheses):
 *   kernel (Kernel), cuda_profiler_range
 *                        EV_KERNEL on the GPU track of (device, stream):
 *                        device = args.device, else pid; stream =
 *                        args.stream, else tid ("stream 7" in old files);
 *                        grid, block, registers, "shared memory" (stored
 *                        as static_smem: Kineto gives the sum) into
 *                        kernel_info; short_name is the bare function name
 *   gpu_memcpy (Memcpy)  EV_MEMCPY; direction and memory kinds from the name
 *                        "Memcpy HtoD (Pageable -> Device)", bytes
 *   gpu_memset (Memset)  EV_MEMSET; memory kind from "Memset (Device)"
 *   cuda_sync            EV_SYNC on the stream's sync track (stream -1,
 *                        written 4294967295 too, is the device-wide stream
 *                        4294967295, named "device-wide")
 *   cuda_runtime (Runtime), cuda_driver, xpu/mtia/privateuse1 runtimes
 *                        EV_API on the thread's API track, EVF_DRIVER for
 *                        driver calls (cuda_driver, or cu* but not cuda*)
 *   user_annotation, cpu_op (Operator)
 *                        EV_NVTX ranges on the thread's TRACK_NVTX track of
 *                        domain "pytorch" (see enum kdom), nvtx_info
 *                        category 1 "user_annotation" or 2 "cpu_op", so
 *                        that the nvtx verb (an operator view with GPU
 *                        projection), --nvtx windows and the range tree
 *                        work on them; ProfilerStep#N annotations are the
 *                        iterations
 *   python_function (Python), and X events of any other category
 *                        EV_NVTX ranges in a domain of their own,
 *                        "python_function" or the category's name
 *   gpu_user_annotation  EV_NVTX (no nvtx_info) on a TRACK_OTHER track
 *                        named "gpu_user_annotation" of a pseudo-thread per
 *                        GPU stream (tid = stream id, named "GPU d stream
 *                        s"), owned by the GPU's process. They overlap the
 *                        stream's kernels, so they cannot share its track,
 *                        and they are Kineto's GPU projection of the
 *                        user_annotation ranges (nvtx_project computes the
 *                        same), so they stay out of TRACK_NVTX, where
 *                        ProfilerStep#N would count twice as iterations
 *   overhead             EV_OVERHEAD on TRACK_OTHER of its (pid, tid)
 *   [memory] instants    EV_COUNTER on the thread's TRACK_COUNTER, named
 *                        "[memory] cuda:N" / "[memory] cpu", valued with
 *                        "Total Allocated" (bytes), or with the running sum
 *                        of "Bytes" when the trace has no totals (2021)
 *   other instants (i/I) EV_MARK in "pytorch" (category 3,
 *                        "cpu_instant_event") or in the domain of their
 *                        category, except the profiler's own global
 *                        markers ("Iteration Start: ...", "Record Window
 *                        End", string pids), which are skipped
 *   C counters           EV_COUNTER per numeric arg, named "NAME KEY"
 *   B/E                  paired per thread into ranges, mapped as X; an
 *                        unclosed B becomes an open range (EVF_OPEN)
 *   M                    process_name and thread_name name CPU processes
 *                        and threads; GPU pids' metadata is ignored
 *   s/f/t flows (ac2g, async, async_cpu_to_gpu, async_gpu, fwdbwd)
 *                        counted only: every Kineto version writes the
 *                        CUPTI/roctracer correlation id into both sides'
 *                        args ("correlation"), which is what the model
 *                        joins on (correlate.h); the "Trace" spans of the
 *                        profiler itself are skipped
 * NCCL/RCCL kernels (a name containing "nccl"/"rccl", or an args
 * "Collective name") and annotations whose name contains "nccl" get
 * EVF_COMM. A kernel's collective args, which PyTorch records on its
 * record_param_comms operator and Kineto copies onto the kernel
 * ("Collective name", "In msg nelems", "Out msg nelems", "Group size",
 * "dtype", "Process Group Name" (older traces: the integer "Process Group
 * ID"), "Process Group Description", "Process Group Ranks"), go into its
 * kernel_info comm_* fields, with the element size from the dtype (see
 * kineto-gpu.c). Kernels without them (traces before PyTorch 2.1, NCCL
 * kernels launched outside a collective) keep 0 there: the
 * record_param_comms operators are not joined to kernels through their
 * External id, because no trace we have needs it (every trace whose
 * operators carry the args has them on the kernels too).
 * Every event's rowid is its index in the event array.
 *
 * Processes: CPU events declare their process (pid) and thread (pid, tid);
 * pids and tids may be integers or strings holding integers, and other
 * strings are hashed into ids. GPU events' pid is a device index, not a
 * process: GPU streams, pseudo-threads and devices belong to the trace's
 * GPU process, settled at the end as the process that made the most API
 * calls (else the one with the most events), which is also the process
 * that distributedInfo's rank is given to. Correlation ids are therefore
 * matched within that process, as for nsys.
 *
 * Devices come from deviceProperties (all listed GPUs, used or not),
 * vendor AMD when the trace has roctracer/HIP version keys or an AMD
 * device name, else NVIDIA; GPUs referred to but not listed are declared
 * unnamed. distributedInfo gives the process's rank and the metadata keys
 * rank, world_size, backend, nccl_version, pg_count and pg_config (its
 * JSON). A "host_name" (or "hostname") key names every process's host.
 * Other top-level scalars are kept as metadata under their key.
 *
 * Errors: malformed JSON and bad fields stop the load with a message that
 * names the byte offset: an event that is not an object, "ph" missing or
 * not a string, "ts" missing or not a number in an event that needs one,
 * "dur" missing or not a number in an X event, "name" or "cat" not a
 * string, "args" not an object, "pid"/"tid" neither integer nor string
 * where one is needed, ts + dur (or + baseTimeNanoseconds) beyond 64 bits.
 * Unknown phases and categories are not errors: the former are counted in
 * a warning, the latter become NVTX-like domains.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/builder.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "util/progress.h"
#include "util/timing.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

static const struct {
	const char	*name;
	uint8_t		 cat;
} kineto_cats[] = {
	{ "cpu_op",		KC_CPU_OP },
	{ "operator",		KC_CPU_OP },
	{ "user_annotation",	KC_USER_ANN },
	{ "python_function",	KC_PYTHON },
	{ "python",		KC_PYTHON },
	{ "gpu_user_annotation", KC_GPU_ANN },
	{ "cpu_instant_event",	KC_INSTANT },
	{ "cuda_runtime",	KC_RUNTIME },
	{ "runtime",		KC_RUNTIME },
	{ "xpu_runtime",	KC_RUNTIME },
	{ "mtia_runtime",	KC_RUNTIME },
	{ "privateuse1_runtime", KC_RUNTIME },
	{ "cuda_driver",	KC_DRIVER },
	{ "privateuse1_driver",	KC_DRIVER },
	{ "kernel",		KC_KERNEL },
	{ "cuda_profiler_range", KC_PROFRANGE },
	{ "gpu_memcpy",		KC_MEMCPY },
	{ "memcpy",		KC_MEMCPY },
	{ "gpu_memset",		KC_MEMSET },
	{ "memset",		KC_MEMSET },
	{ "cuda_sync",		KC_SYNC },
	{ "overhead",		KC_OVERHEAD },
	{ "ac2g",		KC_FLOW },
	{ "async",		KC_FLOW },
	{ "async_cpu_to_gpu",	KC_FLOW },
	{ "async_gpu",		KC_FLOW },
	{ "fwdbwd",		KC_FLOW },
	{ "trace",		KC_TRACE },
	{ "memory",		KC_MEMORY },
};
#define K_NCATS	(sizeof kineto_cats / sizeof kineto_cats[0])

static const char *const kineto_dom_names[KD_COUNT] = {
	"pytorch", "python_function"
};
int
kineto_fail(struct kineto *k, const struct kev *e, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	free(k->err);
	if (e != NULL)
		k->err = xasprintf("%s: event %llu at byte %llu: %s", k->path,
		    (unsigned long long)e->index,
		    (unsigned long long)e->offset, msg);
	else
		k->err = xasprintf("%s: %s", k->path, msg);
	free(msg);
	return -1;
}

/* Case-insensitive "does s[0, n) contain needle (lowercase)". */
static int
kineto_contains_ci(const char *s, size_t n, const char *needle)
{
	size_t	i, j, nl = strlen(needle);

	for (i = 0; i + nl <= n; i++) {
		for (j = 0; j < nl; j++) {
			char c = s[i + j];
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[j])
				break;
		}
		if (j == nl)
			return 1;
	}
	return 0;
}

uint8_t
kineto_sflags(struct kineto *k, uint32_t sid)
{
	const char	*s;
	size_t		 n, old = k->sflagscap;
	uint8_t		 f;

	if (sid >= k->sflagscap) {
		XGROW(k->sflags, k->sflagscap, (size_t)sid + 1);
		memset(k->sflags + old, 0, k->sflagscap - old);
	}
	if ((f = k->sflags[sid]) & SF_KNOWN)
		return f;
	s = strpool_get(k->m->strs, sid);
	n = strpool_len(k->m->strs, sid);
	f = SF_KNOWN;
	if (kineto_contains_ci(s, n, "nccl") || kineto_contains_ci(s, n,
	    "rccl"))
		f |= SF_NCCL;
	if (s[0] == 'c' && s[1] == 'u' && strncmp(s, "cuda", 4) != 0)
		f |= SF_DRIVER;
	if (strncmp(s, "Iteration Start:", 16) == 0 ||
	    strcmp(s, "Record Window End") == 0)
		f |= SF_MARKER;
	k->sflags[sid] = f;
	return f;
}

/*
 * The id of a pid or tid value: an integer (or a string holding one) is
 * itself; another string is a hash tagged with K_STR_KEY. *num is the
 * integer (0 for hashed strings). Returns -1 for other types.
 */
static int
kineto_idkey(const struct jsonscan_val *v, uint64_t *key, int64_t *num,
    int *isnum)
{
	int64_t	i;

	if (jsonscan_i64(v, &i) == 0) {
		*key = (uint64_t)i;
		*num = i;
		*isnum = 1;
		return 0;
	}
	if (v->type != JSONSCAN_STRING)
		return -1;
	*key = K_STR_KEY | (hmap_hash(v->p, v->len) & (K_STR_KEY - 1));
	*num = 0;
	*isnum = 0;
	return 0;
}

/* Categories. */

static uint8_t
kineto_cat(struct kineto *k, struct jsonscan_val *v, uint32_t *catname)
{
	struct kcatcache	*c;
	size_t			 i;
	uint8_t			 cat = KC_OTHER;

	for (i = 0; i < k->ncat; i++) {
		c = &k->cat[i];
		if (c->len == v->len && memcmp(c->text, v->p, v->len) == 0) {
			*catname = c->name;
			return c->cat;
		}
	}
	jsonscan_str(v);
	for (i = 0; i < K_NCATS; i++)
		if (jsonscan_is_ci(v, kineto_cats[i].name)) {
			cat = kineto_cats[i].cat;
			break;
		}
	*catname = builder_intern_n(k->b, v->p, v->len);
	if (v->len <= sizeof c->text) {
		/* Remember it (the oldest entry makes room). */
		if (k->ncat < K_CATCACHE)
			k->ncat++;
		memmove(&k->cat[1], &k->cat[0], (k->ncat - 1) *
		    sizeof *k->cat);
		c = &k->cat[0];
		memcpy(c->text, v->p, v->len);
		c->len = v->len;
		c->cat = cat;
		c->name = *catname;
	}
	return cat;
}

/*
 * Interning through a direct-mapped cache: a cheap hash of the length and
 * three 8-byte windows picks a slot, and a hit is confirmed with memcmp,
 * so a kernel name seen before costs no full hash of its few hundred
 * bytes.
 */
uint32_t
kineto_intern(struct kineto *k, const char *p, size_t len)
{
	struct kname	*e;
	uint64_t	 a = 0, b = 0, c = 0, h;

	if (len == 0)
		return 0;
	memcpy(&a, p, len < 8 ? len : 8);
	if (len > 8) {
		memcpy(&b, p + len - 8, 8);
		memcpy(&c, p + len / 2 - 4, 8);
	}
	h = hmap_key2(hmap_key2(a ^ len, b), c);
	e = &k->names[h & (K_NAMECACHE - 1)];
	if (e->h == h && e->len == len && memcmp(strpool_get(k->m->strs,
	    e->sid), p, len) == 0)
		return e->sid;
	e->h = h;
	e->len = len;
	e->sid = builder_intern_n(k->b, p, len);
	return e->sid;
}

/* Entities. */

static uint32_t
kineto_domain(struct kineto *k, int d)
{
	if (k->dom[d] == NONE32)
		k->dom[d] = builder_domain(k->b, NONE32, (uint64_t)d + 1,
		    kineto_dom_names[d]);
	return k->dom[d];
}

/* The domain of another category (by its name's sid). */
static uint32_t
kineto_other_domain(struct kineto *k, uint32_t catname)
{
	uint32_t	v;

	if (hmap_get(&k->dom_of, catname, &v))
		return v;
	v = builder_domain(k->b, NONE32, 1000 + (uint64_t)k->dom_of.n,
	    catname != 0 ? strpool_get(k->m->strs, catname) : "other");
	hmap_put(&k->dom_of, catname, v);
	return v;
}

void
kineto_grow_thr(struct kineto *k, uint32_t t)
{
	size_t	old = k->thrcap, i;
	int	d;

	if (t < k->thrcap)
		return;
	XGROW(k->thr, k->thrcap, (size_t)t + 1);
	for (i = old; i < k->thrcap; i++) {
		for (d = 0; d < KD_COUNT; d++)
			k->thr[i].nvtx[d] = NONE32;
		k->thr[i].api = k->thr[i].other = k->thr[i].counter = NONE32;
	}
}

/* The thread of a CPU event. */
static int
kineto_thread(struct kineto *k, const struct kev *e, uint32_t *thr)
{
	uint64_t	pidk = 0, tidk = 0, key;
	int64_t		pid = 0, tid = 0;
	int		pnum = 1, tnum = 1;
	uint32_t	p, t;
	char		name[128];

	if (e->pid == NULL || kineto_idkey(e->pid, &pidk, &pid, &pnum) != 0)
		return kineto_fail(k, e, "'pid' is %s",
		    e->pid == NULL ? "missing" : "not an integer or string");
	if (e->tid != NULL && kineto_idkey(e->tid, &tidk, &tid, &tnum) != 0)
		return kineto_fail(k, e, "'tid' is not an integer or string");
	key = hmap_key2(pidk, tidk);
	if (hmap_get(&k->thr_of, key, thr))
		return 0;
	if ((p = builder_find_process(k->b, pidk)) == NONE32) {
		if (!pnum)
			snprintf(name, sizeof name, "%.*s",
			    (int)(e->pid->len < 100 ? e->pid->len : 100),
			    e->pid->p);
		if (pnum && pid < 0)	/* Kineto's overhead rows: pid -1 */
			snprintf(name, sizeof name, "profiler");
		p = builder_process(k->b, pidk, (uint32_t)pid, pnum && pid >=
		    0 ? NULL : name);
	}
	if (!tnum)
		snprintf(name, sizeof name, "%.*s", (int)(e->tid->len < 100 ?
		    e->tid->len : 100), e->tid->p);
	t = builder_thread(k->b, key, tnum ? (uint32_t)(tid < 0 ? 0 -
	    (uint64_t)tid : (uint64_t)tid) : (uint32_t)tidk, p, tnum ? NULL :
	    name);
	hmap_put(&k->thr_of, key, t);
	kineto_grow_thr(k, t);
	*thr = t;
	return 0;
}

uint32_t
kineto_device(struct kineto *k, int64_t id)
{
	struct device	d;
	uint32_t	i;

	if ((i = builder_find_device(k->b, (uint32_t)id)) != NONE32)
		return i;
	memset(&d, 0, sizeof d);
	d.source_id = (uint32_t)id;
	d.process = NONE32;
	return builder_device(k->b, &d);
}

/* The stream (and its track cache) of a GPU event. */
uint32_t
kineto_stream(struct kineto *k, int64_t device, int64_t stream)
{
	uint64_t	key;
	uint32_t	s, d;
	size_t		old = k->strcap, i;

	if (stream == -1)
		stream = (int64_t)K_STREAM_ALL;
	key = hmap_key2((uint64_t)device, (uint64_t)stream);
	if (hmap_get(&k->str_of, key, &s))
		return s;
	d = kineto_device(k, device);
	s = builder_stream(k->b, d, (uint64_t)stream, NONE32);
	if ((uint64_t)stream == K_STREAM_ALL)
		k->m->streams[s].name = builder_intern(k->b, "device-wide");
	hmap_put(&k->str_of, key, s);
	if (s >= k->strcap) {
		XGROW(k->str, k->strcap, (size_t)s + 1);
		for (i = old; i < k->strcap; i++)
			k->str[i].gpu = k->str[i].sync = k->str[i].ann =
			    NONE32;
	}
	return s;
}

/* Args. */

static int
kineto_key(const struct jsonscan_member *mb, const char *s, size_t n)
{
	return mb->key.len == n && memcmp(mb->key.p, s, n) == 0;
}
#define KEY(mb, lit)	kineto_key((mb), (lit), sizeof(lit) - 1)

void
kineto_args(const struct kev *e, struct kargs *a)
{
	const struct jsonscan_member	*mb;
	int64_t				 v[3];
	size_t				 i;
	int				 n;

	memset(a, 0, sizeof *a);
	a->devid = -1;
	for (i = 0; i < e->nargs; i++) {
		mb = &e->args[i];
		switch (mb->key.len) {
		case 4:
			if (KEY(mb, "grid") && (n = jsonscan_i64_array(&mb->val,
			    v, 3)) == 3)
				memcpy(a->grid, v, sizeof v);
			else if (KEY(mb, "kind"))
				a->kind = &mb->val;
			break;
		case 5:
			if (KEY(mb, "block") && (n = jsonscan_i64_array(
			    &mb->val, v, 3)) == 3)
				memcpy(a->block, v, sizeof v);
			else if (KEY(mb, "bytes"))
				a->has_bytes = jsonscan_i64(&mb->val,
				    &a->bytes) == 0;
			else if (KEY(mb, "Bytes"))
				a->has_bytes = jsonscan_i64(&mb->val,
				    &a->bytes) == 0;
			else if (KEY(mb, "dtype"))
				a->dtype = &mb->val;
			break;
		case 6:
			if (KEY(mb, "device"))
				a->has_device = jsonscan_i64(&mb->val,
				    &a->device) == 0;
			else if (KEY(mb, "stream"))
				a->has_stream = jsonscan_i64(&mb->val,
				    &a->stream) == 0;
			break;
		case 8:
			if (KEY(mb, "toDevice"))
				a->has_to = jsonscan_i64(&mb->val,
				    &a->to_dev) == 0;
			break;
		case 9:
			if (KEY(mb, "Device Id"))
				jsonscan_i64(&mb->val, &a->devid);
			break;
		case 10:
			if (KEY(mb, "fromDevice"))
				a->has_from = jsonscan_i64(&mb->val,
				    &a->from_dev) == 0;
			else if (KEY(mb, "Group size"))
				a->has_group = jsonscan_i64(&mb->val,
				    &a->group_size) == 0;
			break;
		case 11:
			if (KEY(mb, "correlation"))
				a->has_corr = jsonscan_i64(&mb->val,
				    &a->corr) == 0;
			else if (KEY(mb, "Device Type"))
				jsonscan_i64(&mb->val, &a->devtype);
			break;
		case 13:
			if (KEY(mb, "shared memory"))
				jsonscan_i64(&mb->val, &a->smem);
			else if (KEY(mb, "In msg nelems"))
				a->has_in = jsonscan_i64(&mb->val,
				    &a->in_nelems) == 0;
			break;
		case 14:
			if (KEY(mb, "Out msg nelems"))
				a->has_out = jsonscan_i64(&mb->val,
				    &a->out_nelems) == 0;
			break;
		case 15:
			if (KEY(mb, "correlation_raw"))
				a->has_corr_raw = jsonscan_i64(&mb->val,
				    &a->corr_raw) == 0;
			else if (KEY(mb, "Collective name")) {
				a->coll = 1;
				a->coll_name = &mb->val;
			}
			else if (KEY(mb, "Total Allocated"))
				a->has_total = jsonscan_i64(&mb->val,
				    &a->total) == 0;
			break;
		case 16:
			if (KEY(mb, "Process Group ID"))
				a->pg_id = &mb->val;
			break;
		case 18:
			if (KEY(mb, "Process Group Name"))
				a->pg_name = &mb->val;
			break;
		case 19:
			if (KEY(mb, "Process Group Ranks"))
				a->pg_ranks = &mb->val;
			break;
		case 20:
			if (KEY(mb, "registers per thread"))
				jsonscan_i64(&mb->val, &a->regs);
			break;
		case 25:
			if (KEY(mb, "Process Group Description"))
				a->pg_desc = &mb->val;
			break;
		}
	}
	/* A merged trace's ids are offset per rank (kineto-ranks.c). */
	if (a->has_corr_raw) {
		a->corr = a->corr_raw;
		a->has_corr = 1;
	}
}

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

/* A CPU-side range (or mark) in an NVTX-like domain. */
static int
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
	memset(&ev, 0, sizeof ev);
	ev.start = start;
	ev.end = end;
	ev.name = name;
	ev.kind = kind;
	ev.flags = flags;
	ev.rowid = (int64_t)e->index;
	if (name != 0 && (kineto_sflags(k, name) & SF_NCCL))
		ev.flags |= EVF_COMM;
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
	} else
		ev.aux = NONE32;
	builder_event(k->b, t, &ev);
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
	memset(&ev, 0, sizeof ev);
	ev.start = start;
	ev.end = end;
	ev.name = name;
	ev.kind = EV_API;
	ev.flags = flags;
	if (e->cat == KC_DRIVER || (name != 0 && (kineto_sflags(k, name) &
	    SF_DRIVER)))
		ev.flags |= EVF_DRIVER;
	ev.rowid = (int64_t)e->index;
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
static int
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

static int
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

static int
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

static int
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

static int
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
	XGROW(k->open, k->opencap, k->nopen + 1);
	o = &k->open[k->nopen++];
	o->thrkey = hmap_key2(pidk, tidk);
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

static int
kineto_end(struct kineto *k, struct kev *e)
{
	uint64_t	pidk = 0, tidk = 0, key;
	int64_t		num;
	int		isnum;
	size_t		i;
	struct kbegin	o;

	if (e->pid == NULL || kineto_idkey(e->pid, &pidk, &num, &isnum) != 0 ||
	    (e->tid != NULL && kineto_idkey(e->tid, &tidk, &num, &isnum) != 0))
		return kineto_fail(k, e, "an E event without an integer or "
		    "string 'pid'/'tid'");
	key = hmap_key2(pidk, tidk);
	for (i = k->nopen; i > 0; i--)
		if (k->open[i - 1].thrkey == key)
			break;
	if (i == 0) {
		k->nunmatched_e++;
		return 0;
	}
	o = k->open[i - 1];
	memmove(&k->open[i - 1], &k->open[i], (k->nopen - i) *
	    sizeof *k->open);
	k->nopen--;
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

	for (i = 0; i < k->nopen; i++) {
		const struct kbegin *o = &k->open[i];
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
	k->nopen = 0;
	return 0;
}

/* M events: names of CPU processes and threads, applied at the end. */
static int
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

/* One event of the array. */
static int
kineto_event(struct kineto *k, struct jsonscan_obj *o)
{
	struct kev		 e;
	struct jsonscan_member	*mb;
	const char		*ks;
	size_t			 i;

	memset(&e, 0, sizeof e);
	e.index = o->index;
	e.offset = o->offset;
	e.ph = 0;
	for (i = 0; i < o->n; i += 1 + o->m[i].nkids) {
		mb = &o->m[i];
		ks = mb->key.p;
		switch (mb->key.len) {
		case 2:
			if (ks[0] == 'p' && ks[1] == 'h') {
				if (mb->val.type != JSONSCAN_STRING ||
				    mb->val.len == 0)
					return kineto_fail(k, &e, "'ph' is "
					    "not a string");
				e.ph = mb->val.p[0];
			} else if (ks[0] == 't' && ks[1] == 's') {
				if (jsonscan_us_ns(&mb->val, &e.ts) != 0)
					return kineto_fail(k, &e, "'ts' is "
					    "not a number (or out of range)");
				e.has_ts = 1;
			} else if (ks[0] == 'i' && ks[1] == 'd')
				e.id = &mb->val;
			break;
		case 3:
			if (memcmp(ks, "pid", 3) == 0)
				e.pid = &mb->val;
			else if (memcmp(ks, "tid", 3) == 0)
				e.tid = &mb->val;
			else if (memcmp(ks, "dur", 3) == 0) {
				if (jsonscan_us_ns(&mb->val, &e.dur) != 0)
					return kineto_fail(k, &e, "'dur' is "
					    "not a number (or out of range)");
				e.has_dur = 1;
			} else if (memcmp(ks, "cat", 3) == 0) {
				if (mb->val.type != JSONSCAN_STRING)
					return kineto_fail(k, &e, "'cat' is "
					    "not a string");
				e.cat = kineto_cat(k, &mb->val, &e.catname);
			}
			break;
		case 4:
			if (memcmp(ks, "name", 4) == 0) {
				if (mb->val.type != JSONSCAN_STRING &&
				    mb->val.type != JSONSCAN_NULL)
					return kineto_fail(k, &e, "'name' is "
					    "not a string");
				if (mb->val.type == JSONSCAN_STRING)
					e.name = &mb->val;
			} else if (memcmp(ks, "args", 4) == 0) {
				if (mb->val.type != JSONSCAN_OBJECT)
					return kineto_fail(k, &e, "'args' is "
					    "not an object");
				e.args = mb + 1;
				e.nargs = mb->nkids;
			}
			break;
		}
	}
	if (e.ph == 0)
		return kineto_fail(k, &e, "no 'ph' (phase)");
	if (e.nargs > 0)
		k = kineto_rank_of(k, &e);
	if (e.ph != 'M' && e.ph != 's' && e.ph != 'f' && e.ph != 't' &&
	    strchr("XBEiIC", e.ph) != NULL && !e.has_ts)
		return kineto_fail(k, &e, "no 'ts' in a '%c' event", e.ph);
	k->nevents++;

	switch (e.ph) {
	case 'X':
		return kineto_x(k, &e);
	case 'B':
		return kineto_begin(k, &e);
	case 'E':
		return kineto_end(k, &e);
	case 'i':
	case 'I':
		return kineto_instant(k, &e);
	case 'C':
		return kineto_counter_event(k, &e);
	case 's':
	case 'f':
	case 't':
		k->nflows++;
		return 0;
	case 'M':
		return kineto_metadata(k, &e);
	default:
		if (k->nphase_other++ == 0 || strchr(k->phase_other, e.ph) ==
		    NULL) {
			size_t n = strlen(k->phase_other);
			if (n + 1 < sizeof k->phase_other)
				k->phase_other[n] = e.ph;
		}
		return 0;
	}
}

void
kineto_init(struct kineto *k, const char *path, struct progress *prog)
{
	int	d;

	memset(k, 0, sizeof *k);
	k->path = path;
	k->prog = prog;
	k->rank = -1;
	for (d = 0; d < KD_COUNT; d++)
		k->dom[d] = NONE32;
	hmap_init(&k->thr_of);
	hmap_init(&k->str_of);
	hmap_init(&k->dom_of);
	hmap_init(&k->short_of);
	hmap_init(&k->copy_of);
	hmap_init(&k->pname);
	hmap_init(&k->tname);
	hmap_init(&k->mem_of);
	k->names = xcalloc(K_NAMECACHE, sizeof *k->names);
}

void
kineto_free(struct kineto *k)
{
	kineto_ranks_free(k);
	jsonscan_close(k->js);
	hmap_free(&k->thr_of);
	hmap_free(&k->str_of);
	hmap_free(&k->dom_of);
	hmap_free(&k->short_of);
	hmap_free(&k->copy_of);
	hmap_free(&k->pname);
	hmap_free(&k->tname);
	hmap_free(&k->mem_of);
	free(k->thr);
	free(k->str);
	free(k->sflags);
	free(k->cinfo);
	free(k->names);
	free(k->pseudo);
	free(k->open);
	free(k->mem_total);
	free(k->err);
}

struct model *
kineto_load(const char *path, struct progress *prog, char **cause)
{
	struct kineto		 k;
	struct jsonscan_item	*it;
	struct model		*m;
	double			 t0 = timing_now();
	int			 rc;

	kineto_init(&k, path, prog);
	if ((k.js = jsonscan_open(path, cause)) == NULL) {
		kineto_free(&k);
		return NULL;
	}
	jsonscan_want(k.js, kineto_meta_keys);
	k.b = builder_new(SOURCE_KINETO);
	k.m = k.b->m;
	progress_phase(prog, "kineto", jsonscan_raw_size(k.js));
	while ((rc = jsonscan_next(k.js, &it, cause)) == 1) {
		if (it->kind == JSONSCAN_EVENT) {
			if (kineto_event(&k, &it->ev) != 0)
				goto fail;
			if ((it->ev.index & (K_PROGRESS_STEP - 1)) == 0)
				progress_rows(prog, jsonscan_raw_offset(k.js));
		} else if (kineto_meta_member(&k, it) != 0)
			goto fail;
	}
	if (rc < 0) {
		builder_abort(k.b);
		kineto_free(&k);
		progress_done(prog);
		return NULL;
	}
	if (kineto_close_open(&k) != 0 || kineto_meta_finish(&k) != 0)
		goto fail;
	if (k.nranks > 0) {
		/* Several ranks in one file: one model each, merged. */
		m = kineto_ranks_finish(&k, cause);
		kineto_free(&k);
		progress_done(prog);
		timing_report("kineto-read", t0);
		return m;
	}
	kineto_free(&k);
	progress_done(prog);
	timing_report("kineto-read", t0);
	t0 = timing_now();
	m = builder_finish(k.b, cause);
	timing_report("finalize", t0);
	return m;

fail:
	*cause = k.err != NULL ? k.err : kineto_ranks_err(&k);
	k.err = NULL;
	builder_abort(k.b);
	kineto_free(&k);
	progress_done(prog);
	return NULL;
}

int
kineto_probe(const char *path, char **cause)
{
	struct zfile	*zf;
	char		*buf, *p, *end, *why = NULL;
	ssize_t		 r;
	size_t		 got = 0;
	int		 found = 0;

	if ((zf = zfile_open(path, cause)) == NULL)
		return -1;
	buf = xmalloc(K_PROBE_BYTES + 1);
	while (got < K_PROBE_BYTES) {
		r = zfile_read(zf, buf + got, K_PROBE_BYTES - got, &why);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	free(why);	/* a short or damaged file: judge the head we have */
	zfile_close(zf);
	buf[got] = '\0';
	for (p = buf; p < buf + got; p++)
		if (*p == '\0')
			*p = ' ';
	end = buf + got;
	p = buf;
	if (end - p >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'))
		p++;
	if (p < end && *p == '{')
		found = strstr(p, "\"traceEvents\"") != NULL ||
		    strstr(p, "\"schemaVersion\"") != NULL ||
		    strstr(p, "\"deviceProperties\"") != NULL;
	else if (p < end && *p == '[')
		found = strstr(p, "\"ph\"") != NULL;
	free(buf);
	return found;
}

int
kineto_is_category(const char *s, size_t len)
{
	size_t	i, j;

	for (i = 0; i < K_NCATS; i++) {
		if (strlen(kineto_cats[i].name) != len)
			continue;
		for (j = 0; j < len; j++)
			if ((s[j] >= 'A' && s[j] <= 'Z' ? s[j] - 'A' + 'a' :
			    s[j]) != kineto_cats[i].name[j])
				break;
		if (j == len)
			return 1;
	}
	return 0;
}

int
kineto_rank_from_name(const char *path)
{
	const char	*base = strrchr(path, '/'), *p, *q;
	long		 r;

	base = base != NULL ? base + 1 : path;
	for (p = base; *p != '\0'; p++) {
		if (strncasecmp(p, "rank", 4) != 0)
			continue;
		q = p + 4;
		if (*q == '-' || *q == '_' || *q == '.')
			q++;
		if (*q < '0' || *q > '9')
			continue;
		for (r = 0; *q >= '0' && *q <= '9' && r < 100000000; q++)
			r = r * 10 + (*q - '0');
		return (int)r;
	}
	return -1;
}
