/*
 * kineto: the PyTorch profiler (Kineto) Chrome-trace JSON reader
 * (FORMATS.md section 3).
 *
 * The event array is streamed with jsonscan, one event at a time; nothing
 * but the model grows with the file. Top-level members (deviceProperties,
 * distributedInfo, baseTimeNanoseconds, version keys) may come before or
 * after the events, so whatever depends on them is settled at the end.
 *
 * Files: this one streams the event array and dispatches by phase and
 * category; kineto-cat.c classifies events; kineto-ent.c finds threads,
 * devices and streams; kineto-args.c reads "args"; kineto-cpu.c and
 * kineto-range.c map the CPU side; kineto-gpu.c maps GPU work;
 * kineto-meta.c reads the top-level members and settles the end;
 * kineto-int.h holds the state they share.
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
 * "Collective name") and annotations whose name contains "nccl" (but no
 * Python frame: python_function events are never communication) get
 * EVF_COMM. A kernel's collective args, which PyTorch records on its
 * record_param_comms operator and Kineto copies onto the kernel
 * ("Collective name", "In msg nelems", "Out msg nelems", "Group size",
 * "dtype", "Process Group Name" (older traces: the integer "Process Group
 * ID"), "Process Group Description", "Process Group Ranks"), go into its
 * kernel_info comm_* fields, with the element size from the dtype (see
 * kineto-gpu.c). Kernels without them (traces before PyTorch 2.1) take,
 * where the trace recorded shapes, the message of the NCCL annotation
 * around their launch (kineto-comm.c); others (NCCL kernels launched
 * outside a collective) keep 0 there. The record_param_comms operators
 * are not joined to kernels through their External id: every trace we
 * have whose operators carry the args has them on the kernels too.
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

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/builder.h"
#include "util/hmap.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "sources/source.h"
#include "sources/srcerr.h"
#include "sources/srcmaps.h"
#include "util/progress.h"
#include "util/timing.h"
#include "util/xmalloc.h"
int
kineto_fail(struct kineto *k, const struct kev *e, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	if (e != NULL)
		trevent_vfail(&k->err, k->path, e->index, e->offset, fmt, ap);
	else {
		free(k->err);
		k->err = NULL;
		srcerr_set(&k->err, k->path, fmt, ap);
	}
	va_end(ap);
	return -1;
}

/* One event of the array (k is the struct kineto). */
static int
kineto_event(void *arg, struct jsonscan_obj *o)
{
	struct kineto		*k = arg;
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
		trevent_other(&k->te, e.ph);
		return 0;
	}
}

/* Calls fn (hmap_init or hmap_free) on every map of k. */
static void
kineto_maps(struct kineto *k, void (*fn)(struct hmap *))
{
	srcmaps(fn, &k->thr_of, &k->str_of, &k->dom_of, &k->short_of,
	    &k->copy_of, &k->pname, &k->tname, &k->mem_of, NULL);
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
	kineto_maps(k, hmap_init);
	k->names = xcalloc(K_NAMECACHE, sizeof *k->names);
}

void
kineto_free(struct kineto *k)
{
	kineto_ranks_free(k);
	jsonscan_close(k->js);
	kineto_maps(k, hmap_free);
	free(k->thr);
	free(k->str);
	free(k->sflags);
	free(k->cinfo);
	free(k->names);
	free(k->pseudo);
	trevent_free(&k->te);
	free(k->mem_total);
	free(k->err);
	kineto_comm_free(k);
}

static int
kineto_read_meta(void *arg, struct jsonscan_item *it)
{
	return kineto_meta_member(arg, it);
}

struct model *
kineto_load(const char *path, struct progress *prog, char **cause)
{
	struct kineto		 k;
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
	rc = trevent_read(k.js, prog, K_PROGRESS_STEP, kineto_event,
	    kineto_read_meta, &k, &k.err, cause);
	if (rc > 0)
		goto fail;
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
	m = source_finish(k.b, prog, "kineto-read", t0, cause);
	if (m != NULL)
		kineto_comm_sizes(&k, m);
	kineto_free(&k);
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
	char		*buf, *p, *end;
	size_t		 got;
	int		 found = 0;

	if ((buf = trevent_head(path, K_PROBE_BYTES, &got, cause)) == NULL)
		return -1;
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
