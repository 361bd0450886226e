/*
 * builder: entity de-duplication, track creation and event appends on a
 * model under construction. See builder.h for the contract.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "util/xmalloc.h"

struct builder *
builder_new(enum source_kind kind)
{
	struct builder	*b;

	xmalloc_doing("reading the trace");
	b = xcalloc(1, sizeof *b);
	b->m = xcalloc(1, sizeof *b->m);
	b->m->strs = strpool_new();
	b->m->source = (uint8_t)kind;
	hmap_init(&b->dev_by_id);
	hmap_init(&b->proc_by_id);
	hmap_init(&b->thr_by_id);
	hmap_init(&b->stream_by_id);
	hmap_init(&b->dom_by_id);
	hmap_init(&b->track_by_key);
	hmap_init(&b->kernel_dedup);
	hmap_init(&b->copy_dedup);
	return b;
}

static void
builder_release(struct builder *b)
{
	hmap_free(&b->dev_by_id);
	hmap_free(&b->proc_by_id);
	hmap_free(&b->thr_by_id);
	hmap_free(&b->stream_by_id);
	hmap_free(&b->dom_by_id);
	hmap_free(&b->track_by_key);
	hmap_free(&b->kernel_dedup);
	hmap_free(&b->copy_dedup);
	free(b);
}

void
builder_abort(struct builder *b)
{
	if (b == NULL)
		return;
	model_free(b->m);
	builder_release(b);
}

struct model *
builder_finish(struct builder *b, char **cause)
{
	struct model	*m = b->m;

	if (b->dropped_time > 0)
		model_warn(m, "%llu events dropped: a time more than "
		    MODEL_TIME_MAX_TEXT " from the clock's zero (corrupt rows)",
		    (unsigned long long)b->dropped_time);
	if (strpool_ncut(m->strs) > 0)
		model_warn(m, "%u string%s longer than %u MiB cut to that "
		    "length", strpool_ncut(m->strs), strpool_ncut(m->strs) ==
		    1 ? "" : "s", STRPOOL_MAX_LEN >> 20);
	builder_release(b);
	xmalloc_doing("indexing the trace");
	if (model_finalize(m, cause) != 0) {
		model_free(m);
		xmalloc_doing(NULL);
		return NULL;
	}
	xmalloc_doing(NULL);
	return m;
}

uint32_t
builder_intern(struct builder *b, const char *s)
{
	return strpool_intern0(b->m->strs, s);
}

uint32_t
builder_intern_n(struct builder *b, const char *s, size_t len)
{
	return strpool_intern(b->m->strs, s, len);
}

/*
 * Names *id (a string id, 0 unnamed) with name unless it has a name: the
 * first record that names a process, thread or domain names it.
 */
static void
builder_name_once(struct builder *b, uint32_t *id, const char *name)
{
	if (*id == 0 && name != NULL && *name != '\0')
		*id = builder_intern(b, name);
}

/*
 * The index (*idx) of an entry of v (*n entries of sz bytes) looked up in
 * map by key. With eq NULL, the entry of key; else the entry that eq()
 * finds equal to want, key its hash (a collision probes key + 1, ...).
 * When there is none, index *n is mapped, and the entry v[*n] is appended
 * (a copy of want, else zeroed), counted and returned for the caller to
 * fill; else NULL.
 */
static void *
builder_upsert(struct hmap *map, uint64_t key, void **v, size_t *cap,
    size_t *n, size_t sz, const void *want,
    int (*eq)(const void *, const void *), uint32_t *idx)
{
	void	*e;
	int	 isnew;

	for (;;) {
		*idx = *hmap_upsert(map, key, (uint32_t)*n, &isnew);
		if (isnew) {
			e = xappend(v, cap, (*n)++, sz);
			if (want != NULL)
				memcpy(e, want, sz);
			return e;
		}
		if (eq == NULL || eq((const char *)*v + (size_t)*idx * sz, want))
			return NULL;
		key++;		/* a hash collision: probe the next key */
	}
}
#define BUILDER_UPSERT(map, key, v, cap, n, idx) \
	builder_upsert((map), (key), (void **)&(v), &(cap), &(n), sizeof *(v), \
	    NULL, NULL, (idx))

/* The index of the entry of v equal to *want, added if there is none. */
static uint32_t
builder_dedup(struct hmap *map, uint64_t hash, void **v, size_t *cap,
    size_t *n, size_t sz, const void *want,
    int (*eq)(const void *, const void *))
{
	uint32_t	i;

	builder_upsert(map, hash, v, cap, n, sz, want, eq, &i);
	return i;
}
#define BUILDER_DEDUP(map, hash, v, cap, n, want, eq) \
	((void)sizeof (*(v) = *(want)), \
	builder_dedup((map), (hash), (void **)&(v), &(cap), &(n), \
	    sizeof *(v), (want), (eq)))

void
builder_meta(struct builder *b, const char *key, const char *value)
{
	model_set_meta(b->m, &b->metacap, key, value);
}

uint32_t
builder_device(struct builder *b, const struct device *proto)
{
	struct model	*m = b->m;
	struct device	*d;
	uint32_t	 i;

	d = BUILDER_UPSERT(&b->dev_by_id, proto->source_id, m->devices,
	    b->devcap, m->ndevices, &i);
	if (d != NULL)
		*d = *proto;
	return i;
}

uint32_t
builder_find_device(const struct builder *b, uint32_t source_id)
{
	return hmap_find(&b->dev_by_id, source_id);
}

uint32_t
builder_process(struct builder *b, uint64_t source_id, uint32_t pid,
    const char *name)
{
	struct model	*m = b->m;
	struct process	*p;
	uint32_t	 i;

	p = BUILDER_UPSERT(&b->proc_by_id, source_id, m->processes,
	    b->proccap, m->nprocesses, &i);
	if (p != NULL) {
		p->source_id = source_id;
		p->pid = pid;
		p->hw_id = (uint8_t)(source_id >> 56);
		p->vm_id = (uint8_t)(source_id >> 48);
		p->rank = -1;
	}
	builder_name_once(b, &m->processes[i].name, name);
	return i;
}

uint32_t
builder_find_process(const struct builder *b, uint64_t source_id)
{
	return hmap_find(&b->proc_by_id, source_id);
}

uint32_t
builder_thread(struct builder *b, uint64_t source_id, uint32_t tid,
    uint32_t process, const char *name)
{
	struct model	*m = b->m;
	struct thread	*t;
	uint32_t	 i;

	t = BUILDER_UPSERT(&b->thr_by_id, source_id, m->threads, b->thrcap,
	    m->nthreads, &i);
	if (t != NULL) {
		t->source_id = source_id;
		t->tid = tid;
		t->process = process;
	}
	builder_name_once(b, &m->threads[i].name, name);
	return i;
}

uint32_t
builder_find_thread(const struct builder *b, uint64_t source_id)
{
	return hmap_find(&b->thr_by_id, source_id);
}

uint32_t
builder_stream(struct builder *b, uint32_t device, uint64_t source_id,
    uint32_t process)
{
	struct model	*m = b->m;
	struct stream	*s;
	uint32_t	 i;

	/* Stream ids are unique per device and process (context). */
	s = BUILDER_UPSERT(&b->stream_by_id,
	    hmap_key2(hmap_key2(device, process), source_id), m->streams,
	    b->streamcap, m->nstreams, &i);
	if (s != NULL) {
		s->source_id = source_id;
		s->device = device;
		s->process = process;
	}
	return i;
}

uint32_t
builder_domain(struct builder *b, uint32_t process, uint64_t source_id,
    const char *name)
{
	struct model	*m = b->m;
	struct domain	*d;
	uint32_t	 i;

	if (m->ndomains == 0) {
		/* Index 0: the default domain, shared by all processes. */
		d = XAPPEND(m->domains, b->domcap, 0);
		d->process = NONE32;
		m->ndomains = 1;
	}
	if (source_id == 0)
		return 0;
	d = BUILDER_UPSERT(&b->dom_by_id, hmap_key2(process, source_id),
	    m->domains, b->domcap, m->ndomains, &i);
	if (d != NULL) {
		d->source_id = source_id;
		d->process = process;
	}
	builder_name_once(b, &m->domains[i].name, name);
	return i;
}

static uint32_t
builder_new_track(struct builder *b, uint64_t key, struct track *proto)
{
	struct model	*m = b->m;
	struct track	*t;
	uint32_t	 i;

	t = BUILDER_UPSERT(&b->track_by_key, key, m->tracks, b->trackcap,
	    m->ntracks, &i);
	if (t != NULL) {
		*t = *proto;
		lane_init(&t->lane);
	}
	return i;
}

/* A track of no device, stream, process, thread or domain (static, so
 * its padding bytes are zero too). */
static const struct track builder_track_none = {
	.device = NONE32, .stream = NONE32, .process = NONE32,
	.thread = NONE32, .domain = NONE32
};

/* A track of this type with no device, stream, process, thread or domain. */
static void
builder_track_proto(struct track *t, int type)
{
	memcpy(t, &builder_track_none, sizeof *t);
	t->type = (uint8_t)type;
}

/* The GPU or sync track (type) of a stream. */
static uint32_t
builder_stream_track(struct builder *b, int type, uint32_t stream)
{
	struct track	 t;
	struct stream	*s = &b->m->streams[stream];

	builder_track_proto(&t, type);
	t.device = s->device;
	t.stream = stream;
	t.process = s->process;
	return builder_new_track(b, hmap_key2((uint64_t)type, stream), &t);
}

uint32_t
builder_gpu_track(struct builder *b, uint32_t stream)
{
	return builder_stream_track(b, TRACK_GPU, stream);
}

uint32_t
builder_sync_track(struct builder *b, uint32_t stream)
{
	return builder_stream_track(b, TRACK_SYNC, stream);
}

uint32_t
builder_cpu_track(struct builder *b, enum track_type type, uint32_t thread,
    uint32_t domain)
{
	struct track	 t;

	builder_track_proto(&t, type);
	t.thread = thread;
	if (thread != NONE32)
		t.process = b->m->threads[thread].process;
	if (type == TRACK_NVTX)
		t.domain = domain;
	return builder_new_track(b,
	    hmap_key2(hmap_key2(type, thread), type == TRACK_NVTX ? domain : 0),
	    &t);
}

/*
 * A counter track of no thread: a GPU's metrics (device set) or a NIC's
 * (device NONE32), told apart by key; name is its label.
 */
uint32_t
builder_counter_track(struct builder *b, uint32_t device, uint64_t key,
    uint32_t name)
{
	struct track	 t;

	builder_track_proto(&t, TRACK_COUNTER);
	t.device = device;
	t.name = name;
	return builder_new_track(b, hmap_key2(hmap_key2(TRACK_COUNTER,
	    UINT64_C(0xC0C0C0C000000000) | device), key), &t);
}

static uint64_t
kernel_info_hash(const struct kernel_info *k)
{
	uint64_t	h = 0x6b65726e656cULL;
	int		i;

	for (i = 0; i < 3; i++)
		h = hmap_key2(hmap_key2(h, k->grid[i]), k->block[i]);
	h = hmap_key2(h, k->short_name);
	h = hmap_key2(h, k->mangled);
	h = hmap_key2(h, ((uint64_t)k->static_smem << 32) | k->dynamic_smem);
	h = hmap_key2(h, ((uint64_t)k->local_mem << 32) | k->regs);
	h = hmap_key2(h, ((uint64_t)k->launch_type << 32) | k->graph_node);
	h = hmap_key2(h, ((uint64_t)k->comm_coll << 32) | k->comm_dtype);
	h = hmap_key2(h, ((uint64_t)k->comm_pg_name << 32) | k->comm_pg_desc);
	h = hmap_key2(h, ((uint64_t)k->comm_pg_ranks << 32) |
	    k->comm_group_size);
	h = hmap_key2(h, ((uint64_t)k->comm_elem_size << 8) | k->comm_flags);
	h = hmap_key2(hmap_key2(h, k->comm_in_nelems), k->comm_out_nelems);
	h = hmap_key2(h, k->graph_id);
	return h;
}

static int
kernel_info_eq(const void *x, const void *y)
{
	const struct kernel_info	*a = x, *b = y;

	return memcmp(a->grid, b->grid, sizeof a->grid) == 0 &&
	    memcmp(a->block, b->block, sizeof a->block) == 0 &&
	    a->short_name == b->short_name && a->mangled == b->mangled &&
	    a->static_smem == b->static_smem &&
	    a->dynamic_smem == b->dynamic_smem &&
	    a->local_mem == b->local_mem && a->regs == b->regs &&
	    a->launch_type == b->launch_type && a->graph_node == b->graph_node &&
	    a->comm_coll == b->comm_coll && a->comm_dtype == b->comm_dtype &&
	    a->comm_pg_name == b->comm_pg_name &&
	    a->comm_pg_desc == b->comm_pg_desc &&
	    a->comm_pg_ranks == b->comm_pg_ranks &&
	    a->comm_group_size == b->comm_group_size &&
	    a->comm_elem_size == b->comm_elem_size &&
	    a->comm_flags == b->comm_flags &&
	    a->comm_in_nelems == b->comm_in_nelems &&
	    a->comm_out_nelems == b->comm_out_nelems &&
	    a->graph_id == b->graph_id;
}

uint32_t
builder_kernel(struct builder *b, const struct kernel_info *k)
{
	struct model	*m = b->m;

	return BUILDER_DEDUP(&b->kernel_dedup, kernel_info_hash(k), m->kernels,
	    b->kcap, m->nkernels, k, kernel_info_eq);
}

static uint64_t
copy_info_hash(const struct copy_info *c)
{
	uint64_t	h = 0x636f7079ULL;

	h = hmap_key2(h, c->bytes);
	h = hmap_key2(h, ((uint64_t)c->kind << 16) | ((uint64_t)c->src_kind <<
	    8) | c->dst_kind);
	h = hmap_key2(h, ((uint64_t)c->src_dev << 32) | c->dst_dev);
	return hmap_key2(h, c->value);
}

static int
copy_info_eq(const void *x, const void *y)
{
	const struct copy_info	*a = x, *b = y;

	return a->bytes == b->bytes && a->kind == b->kind &&
	    a->src_kind == b->src_kind && a->dst_kind == b->dst_kind &&
	    a->src_dev == b->src_dev && a->dst_dev == b->dst_dev &&
	    a->value == b->value;
}

uint32_t
builder_copy(struct builder *b, const struct copy_info *c)
{
	struct model	*m = b->m;

	return BUILDER_DEDUP(&b->copy_dedup, copy_info_hash(c), m->copies,
	    b->ccap, m->ncopies, c, copy_info_eq);
}

uint32_t
builder_nvtx(struct builder *b, const struct nvtx_info *n)
{
	struct model	*m = b->m;

	XGROW(m->nvtx, b->ncap, m->nnvtx + 1);
	m->nvtx[m->nnvtx] = *n;
	m->nvtx[m->nnvtx].parent = NONE32;
	return (uint32_t)m->nnvtx++;
}

void
builder_op(struct builder *b, const struct op_info *op)
{
	struct model	*m = b->m;

	XGROW(m->ops, b->opcap, m->nops + 1);
	m->ops[m->nops] = *op;
	m->ops[m->nops].pad = 0;
	m->ops[m->nops].pad2 = 0;
	m->nops++;
}

uint32_t
builder_counter(struct builder *b, double value)
{
	struct model	*m = b->m;

	return (uint32_t)XPUSH(m->counters, b->countercap, m->ncounters,
	    value);
}

void
builder_event(struct builder *b, uint32_t track, const struct lane_event *ev)
{
	if (ev->start < -MODEL_TIME_MAX || ev->start > MODEL_TIME_MAX ||
	    ev->end < -MODEL_TIME_MAX || ev->end > MODEL_TIME_MAX) {
		b->dropped_time++;
		return;
	}
	lane_push(&b->m->tracks[track].lane, ev);
}

void
builder_warn(struct builder *b, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	model_vwarn(b->m, fmt, ap);
	va_end(ap);
}
