/*
 * detail: the detail pane's fields for one event. See detail.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/correlate.h"
#include "tui/detail.h"
#include "tui/lod.h"
#include "model/nvtx.h"
#include "tui/safetext.h"
#include "tui/fmt.h"
#include "util/units.h"

static void
detail_add(struct detail *d, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
detail_add(struct detail *d, const char *key, const char *fmt, ...)
{
	va_list	ap;

	if (d->nf >= DETAIL_FIELDS)
		return;
	snprintf(d->f[d->nf].key, sizeof d->f[d->nf].key, "%s", key);
	va_start(ap, fmt);
	vsnprintf(d->f[d->nf].val, sizeof d->f[d->nf].val, fmt, ap);
	va_end(ap);
	d->nf++;
}

static void
detail_thread(const struct model *m, uint32_t thr, char *buf, size_t len)
{
	const struct thread	*th;

	if (thr == NONE32 || thr >= m->nthreads) {
		snprintf(buf, len, "?");
		return;
	}
	th = &m->threads[thr];
	if (th->name != 0)
		snprintf(buf, len, "tid %u %s", th->tid,
		    model_str(m, th->name));
	else
		snprintf(buf, len, "tid %u", th->tid);
}

static void
detail_where(const struct model *m, const struct track *tr, struct detail *d)
{
	const struct device	*dev;
	const struct process	*p;
	char			 buf[128];

	if (tr->type == TRACK_GPU || tr->type == TRACK_SYNC) {
		if (tr->device < m->ndevices) {
			dev = &m->devices[tr->device];
			detail_add(d, "gpu", "%u %s", dev->source_id,
			    model_str(m, dev->name));
		}
		if (tr->stream < m->nstreams)
			detail_add(d, "stream", "%llu", (unsigned long long)
			    m->streams[tr->stream].source_id);
		return;
	}
	detail_thread(m, tr->thread, buf, sizeof buf);
	detail_add(d, "thread", "%s", buf);
	if (tr->process < m->nprocesses) {
		p = &m->processes[tr->process];
		detail_add(d, "pid", "%u %s", p->pid, model_str(m, p->name));
	}
}

/*
 * The iteration of NVTX range r: the outermost range above it (or r)
 * and that range's index among its same-name siblings.
 */
static void
detail_iter(const struct model *m, uint32_t r, struct detail *d)
{
	struct evref	ev;
	uint32_t	aux, root = NONE32;
	int		guard = 0;

	while (r != NONE32 && r < m->nevents && guard++ < 4096) {
		ev = model_ev(m, r);
		aux = m->tracks[ev.track].lane.aux[ev.idx];
		if (aux == NONE32 || aux >= m->nnvtx)
			break;
		root = r;
		if (m->nvtx[aux].parent == NONE32) {
			detail_add(d, "iter", "%u (%s)", m->nvtx[aux].iter,
			    model_str(m, model_ev_name(m, root)));
			return;
		}
		r = m->nvtx[aux].parent;
	}
}

/* The NVTX path of the innermost range around t on thread thr, if any. */
static void
detail_enclosing(const struct model *m, uint32_t thr, int64_t t,
    struct detail *d)
{
	uint32_t	r;
	char		path[192];

	if (thr == NONE32)
		return;
	r = nvtx_enclosing(m, thr, t);
	if (r == NONE32)
		return;
	nvtx_path(m, r, path, sizeof path);
	detail_add(d, "nvtx", "%s", path);
	detail_iter(m, r, d);
}

/* A communication kernel's message: "allreduce 25.3MiB in (Float),
 * group 2, pg 0 default_pg [0, 1]" as far as the source records it. */
static void
detail_comm(const struct model *m, const struct kernel_info *k,
    struct detail *d)
{
	char	 a[32], msg[96] = "", pg[160] = "";

	if (k->comm_coll == 0 && k->comm_flags == 0 && k->comm_group_size == 0)
		return;
	if (k->comm_elem_size != 0 && (k->comm_flags & KCOMM_IN))
		snprintf(msg, sizeof msg, " %s in",
		    units_bytes_sig(k->comm_in_nelems *
		    k->comm_elem_size, a, sizeof a));
	else if (k->comm_flags & KCOMM_IN)
		snprintf(msg, sizeof msg, " %llu elements in",
		    (unsigned long long)k->comm_in_nelems);
	if (k->comm_pg_name != 0 || k->comm_pg_desc != 0)
		snprintf(pg, sizeof pg, ", pg %s %s %s", model_str(m,
		    k->comm_pg_name), model_str(m, k->comm_pg_desc),
		    model_str(m, k->comm_pg_ranks));
	detail_add(d, "msg", "%s%s%s%s%s, group %u%s",
	    k->comm_coll != 0 ? model_str(m, k->comm_coll) : "?", msg,
	    k->comm_dtype != 0 ? " (" : "",
	    k->comm_dtype != 0 ? model_str(m, k->comm_dtype) : "",
	    k->comm_dtype != 0 ? ")" : "", k->comm_group_size, pg);
}

static void
detail_kernel(const struct model *m, const struct lane *l, size_t i,
    struct detail *d)
{
	const struct kernel_info	*k;
	char				 a[32], b[32];

	if (l->aux[i] == NONE32 || l->aux[i] >= m->nkernels)
		return;
	k = &m->kernels[l->aux[i]];
	detail_add(d, "grid", "%ux%ux%u", k->grid[0], k->grid[1], k->grid[2]);
	detail_add(d, "block", "%ux%ux%u", k->block[0], k->block[1],
	    k->block[2]);
	/* 0: the trace has no register count (rocprofv3, RPD). */
	if (k->regs != 0)
		detail_add(d, "regs", "%u", (unsigned int)k->regs);
	else
		detail_add(d, "regs", "-");
	units_bytes_sig(k->static_smem, a, sizeof a);
	units_bytes_sig(k->dynamic_smem, b, sizeof b);
	detail_add(d, "smem", "%s static + %s dynamic", a, b);
	if (k->local_mem != 0)
		detail_add(d, "local", "%s/thread",
		    units_bytes_sig(k->local_mem, a, sizeof a));
	detail_comm(m, k, d);
}

static void
detail_copy(const struct model *m, const struct lane *l, size_t i,
    struct detail *d)
{
	const struct copy_info	*c;
	int64_t			 dur = l->end[i] - l->start[i];
	char			 a[32];

	if (l->aux[i] == NONE32 || l->aux[i] >= m->ncopies)
		return;
	c = &m->copies[l->aux[i]];
	detail_add(d, "bytes", "%s", units_bytes_sig(c->bytes, a, sizeof a));
	if (l->kind[i] == EV_MEMCPY)
		detail_add(d, "dir", "%s (%s -> %s)", copy_kind_label(c->kind),
		    mem_kind_label(c->src_kind), mem_kind_label(c->dst_kind));
	else {
		detail_add(d, "value", "%u", c->value);
		detail_add(d, "mem", "%s", mem_kind_label(c->src_kind));
	}
	if (dur > 0)
		detail_add(d, "bw", "%s", units_rate(
		    (double)c->bytes * 1e9 / (double)dur, a, sizeof a));
}

static void
detail_launch(const struct model *m, uint32_t gid, struct detail *d)
{
	struct evref	 api;
	uint32_t	 a;
	int64_t		 lat;
	char		 buf[32], thr[96];

	a = correlate_launch(m, gid);
	if (a == NONE32)
		return;
	api = model_ev(m, a);
	detail_thread(m, m->tracks[api.track].thread, thr, sizeof thr);
	detail_add(d, "launch", "%s (%s)", model_str(m, model_ev_name(m, a)),
	    thr);
	if (correlate_latency(m, gid, &lat) == 0)
		detail_add(d, "latency", "%s", fmt_time(buf, sizeof buf, lat));
	detail_enclosing(m, m->tracks[api.track].thread,
	    m->tracks[api.track].lane.start[api.idx], d);
}

static void
detail_nvtx(const struct model *m, const struct lane *l, size_t i,
    uint32_t gid, struct detail *d)
{
	const struct nvtx_info	*n;
	struct nvtx_proj	 p;
	char			 path[192], a[32], b[32];

	nvtx_path(m, gid, path, sizeof path);
	detail_add(d, "path", "%s", path);
	if (l->aux[i] == NONE32 || l->aux[i] >= m->nnvtx)
		return;
	detail_iter(m, gid, d);
	n = &m->nvtx[l->aux[i]];
	if (n->domain != 0 && n->domain < m->ndomains)
		detail_add(d, "domain", "%s",
		    model_str(m, m->domains[n->domain].name));
	if (n->category_name != 0)
		detail_add(d, "category", "%s",
		    model_str(m, n->category_name));
	else if (n->category != 0)
		detail_add(d, "category", "%u", n->category);
	switch (n->payload_type) {
	case NVTX_PAYLOAD_INT:
		detail_add(d, "payload", "%lld", (long long)n->payload.i);
		break;
	case NVTX_PAYLOAD_UINT:
		detail_add(d, "payload", "%llu",
		    (unsigned long long)n->payload.u);
		break;
	case NVTX_PAYLOAD_DOUBLE:
		detail_add(d, "payload", "%g", n->payload.d);
		break;
	}
	if (l->kind[i] != EV_NVTX)
		return;
	nvtx_project(m, gid, &p);
	if (p.nops > 0)
		detail_add(d, "gpu", "%u ops (%u kernels), busy %s over %s",
		    p.nops, p.nkernels, fmt_time(a, sizeof a, p.busy),
		    fmt_time(b, sizeof b, p.end - p.start));
}

static void
detail_api(const struct model *m, uint32_t gid, const struct track *tr,
    const struct lane *l, size_t i, struct detail *d)
{
	const uint32_t	*gpu;
	size_t		 n;

	n = correlate_gpu(m, gid, &gpu);
	if (n > 0)
		detail_add(d, "gpu ops", "%zu (first: %s)", n,
		    model_str(m, model_ev_name(m, gpu[0])));
	detail_enclosing(m, tr->thread, l->start[i], d);
}

void
detail_build(const struct model *m, uint32_t gid, int abs, struct detail *d)
{
	const struct track	*tr;
	const struct lane	*l;
	struct evref		 ev;
	size_t			 i;
	char			 a[32];
	int			 kind;

	memset(d, 0, sizeof *d);
	d->gid = gid;
	if (gid == NONE32 || gid >= m->nevents)
		return;
	ev = model_ev(m, gid);
	tr = &m->tracks[ev.track];
	l = &tr->lane;
	i = ev.idx;
	kind = l->kind[i];
	d->cls = lod_class(kind, l->flags[i]);
	snprintf(d->kind, sizeof d->kind, "%s", ev_kind_name(kind));
	snprintf(d->name, sizeof d->name, "%s", model_str(m, l->name[i]));

	if (kind == EV_KERNEL && l->aux[i] != NONE32 &&
	    l->aux[i] < m->nkernels && m->kernels[l->aux[i]].short_name != 0 &&
	    m->kernels[l->aux[i]].short_name != l->name[i])
		detail_add(d, "short", "%s",
		    model_str(m, m->kernels[l->aux[i]].short_name));
	detail_add(d, "start", "%s", fmt_when(a, sizeof a, l->start[i],
	    m->origin_ns, abs, 1));
	detail_add(d, "dur", "%s%s", fmt_time(a, sizeof a,
	    l->end[i] - l->start[i]), (l->flags[i] & EVF_OPEN) ?
	    " (never ended)" : "");
	detail_where(m, tr, d);
	if (l->flags[i] & EVF_COMM)
		detail_add(d, "comm", "collective communication");
	switch (kind) {
	case EV_KERNEL:
		detail_kernel(m, l, i, d);
		detail_launch(m, gid, d);
		break;
	case EV_MEMCPY:
	case EV_MEMSET:
		detail_copy(m, l, i, d);
		detail_launch(m, gid, d);
		break;
	case EV_SYNC:
	case EV_GRAPH:
		detail_launch(m, gid, d);
		break;
	case EV_NVTX:
	case EV_MARK:
		detail_nvtx(m, l, i, gid, d);
		break;
	case EV_API:
		detail_api(m, gid, tr, l, i, d);
		break;
	default:
		break;
	}
	if (kind == EV_KERNEL && l->aux[i] != NONE32 &&
	    l->aux[i] < m->nkernels && m->kernels[l->aux[i]].mangled != 0)
		detail_add(d, "mangled", "%s",
		    model_str(m, m->kernels[l->aux[i]].mangled));
}

void
detail_draw(struct cellgrid *g, int x, int y, int w, int h,
    const struct detail *d, int sanflags, const struct glyph *gl)
{
	int	cx, cy, i, kw, vw, n;
	char	tag[40];

	cellgrid_fill(g, x, y, w, h, L' ', CG_DETAIL);
	if (d->gid == NONE32 || h <= 0)
		return;
	/* Line 1: the kind as a coloured tag, then the name. */
	snprintf(tag, sizeof tag, " %s ", d->kind);
	cx = x + cellgrid_text(g, x, y, w, tag, ST_ASCII,
	    (uint16_t)(d->cls | CGA_FILL));
	cx++;
	cellgrid_text(g, cx, y, x + w - cx, d->name, sanflags | ST_ELLIPSIS,
	    CG_DETAIL | CGA_BOLD);
	/* Then the fields, flowing left to right. */
	cx = x;
	cy = y + 1;
	for (i = 0; i < d->nf && cy < y + h; i++) {
		kw = (int)strlen(d->f[i].key);
		vw = safetext_width(d->f[i].val, (size_t)-1, sanflags);
		n = kw + 1 + vw;
		if (cx > x && cx + n > x + w) {
			cx = x;
			cy++;
			if (cy >= y + h)
				break;
		}
		cx += cellgrid_text(g, cx, cy, x + w - cx, d->f[i].key,
		    ST_ASCII, CG_KEY);
		cx++;
		cx += cellgrid_text(g, cx, cy, x + w - cx, d->f[i].val,
		    sanflags | ST_ELLIPSIS, CG_DETAIL);
		cx += 2;
	}
	(void)gl;
}
