/*
 * cache-head: frame 0 (scalars, counts, entities, tracks, warnings),
 * written and read field by field, and the head of a file: its frame
 * table, frame 0 and the plan they must agree on. See cache-int.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cache-int.h"
#include "util/xmalloc.h"

static void
cache_put(struct cache_wbuf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	XGROW(b->p, b->cap, b->n + n);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
cache_put8(struct cache_wbuf *b, uint8_t v)
{
	cache_put(b, &v, sizeof v);
}

static void
cache_put32(struct cache_wbuf *b, uint32_t v)
{
	cache_put(b, &v, sizeof v);
}

static void
cache_put64(struct cache_wbuf *b, uint64_t v)
{
	cache_put(b, &v, sizeof v);
}

static void
cache_put_array(struct cache_wbuf *b, const void *a, size_t n, size_t sz)
{
	cache_put64(b, n);
	cache_put(b, a, n * sz);
}

static const uint8_t *
cache_get(struct cache_rbuf *b, size_t n)
{
	const uint8_t	*p;

	if (b->err || n > b->n - b->off) {
		b->err = 1;
		return NULL;
	}
	p = b->p + b->off;
	b->off += n;
	return p;
}

static uint8_t
cache_get8(struct cache_rbuf *b)
{
	const uint8_t	*p = cache_get(b, 1);

	return p != NULL ? *p : 0;
}

static uint32_t
cache_get32(struct cache_rbuf *b)
{
	const uint8_t	*p = cache_get(b, 4);
	uint32_t	 v = 0;

	if (p != NULL)
		memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t
cache_get64(struct cache_rbuf *b)
{
	const uint8_t	*p = cache_get(b, 8);
	uint64_t	 v = 0;

	if (p != NULL)
		memcpy(&v, p, sizeof v);
	return v;
}

/* A count of items of at least sz bytes each that must fit in what is
 * left; 0 with err set otherwise. */
static size_t
cache_get_count(struct cache_rbuf *b, size_t sz)
{
	uint64_t	n = cache_get64(b);

	if (b->err || n > (b->n - b->off) / sz) {
		b->err = 1;
		return 0;
	}
	return (size_t)n;
}

/* A raw array of structs into a new allocation (NULL when empty). */
static void *
cache_get_array(struct cache_rbuf *b, size_t *np, size_t sz)
{
	const uint8_t	*p;
	void		*a;
	size_t		 n = cache_get_count(b, sz);

	*np = 0;
	if (n == 0 || (p = cache_get(b, n * sz)) == NULL)
		return NULL;
	a = xreallocarray(NULL, n, sz);
	memcpy(a, p, n * sz);
	*np = n;
	return a;
}

void
cache_small_write(struct cache_wbuf *b, const struct model *m,
    const struct cache_counts *c)
{
	const struct track	*t;
	size_t			 i, len;
	int			 k;

	cache_put8(b, m->source);
	cache_put32(b, m->source_version);
	cache_put32(b, m->schema_version);
	cache_put64(b, (uint64_t)m->origin_ns);
	cache_put64(b, (uint64_t)m->end_ns);
	cache_put64(b, (uint64_t)m->utc_epoch_ns);
	cache_put32(b, c->nstrs);
	cache_put64(b, c->strbytes);
	for (k = 0; k < TAB_COUNT; k++)
		cache_put64(b, c->ntab[k]);
	for (k = 0; k < EV_KIND_COUNT; k++)
		cache_put64(b, m->kind_count[k]);

	cache_put_array(b, m->devices, m->ndevices, sizeof *m->devices);
	cache_put_array(b, m->processes, m->nprocesses, sizeof *m->processes);
	cache_put_array(b, m->threads, m->nthreads, sizeof *m->threads);
	cache_put_array(b, m->streams, m->nstreams, sizeof *m->streams);
	cache_put_array(b, m->domains, m->ndomains, sizeof *m->domains);
	cache_put_array(b, m->meta, m->nmeta, sizeof *m->meta);

	cache_put64(b, m->ntracks);
	for (i = 0; i < m->ntracks; i++) {
		t = &m->tracks[i];
		cache_put8(b, t->type);
		cache_put32(b, t->device);
		cache_put32(b, t->stream);
		cache_put32(b, t->process);
		cache_put32(b, t->thread);
		cache_put32(b, t->domain);
		cache_put32(b, t->name);
		cache_put64(b, t->lane.n);
		cache_put8(b, c->lanes[i].overlaps);
		cache_put8(b, c->lanes[i].wide);
		cache_put32(b, t->lane.max_depth);
		cache_put64(b, (uint64_t)t->lane.maxdur);
		cache_put64(b, c->lanes[i].cov_n);
	}

	cache_put8(b, c->has_launch);
	cache_put64(b, c->nlinks);
	cache_put64(b, c->ndcov);
	for (i = 0; i < c->ndcov; i++)
		cache_put64(b, c->dcov_n[i]);

	cache_put64(b, m->nwarnings);
	for (i = 0; i < m->nwarnings; i++) {
		len = strlen(m->warnings[i]);
		cache_put64(b, len);
		cache_put(b, m->warnings[i], len);
	}
}

#define CACHE_TRACK_BYTES	(1 + 6 * 4 + 8 + 1 + 1 + 4 + 8 + 8)

/*
 * Reads frame 0 into m (scalars, kind counts, entities, tracks with empty
 * lanes but their index flags) and c; the warnings go to *warn (not m:
 * finalize would add its own again). Sizes that cannot belong to a
 * finalized model are refused.
 */
static int
cache_small_read(struct cache_rbuf *b, struct model *m,
    struct cache_counts *c, char ***warn, size_t *nwarn)
{
	struct track		*t;
	struct cache_lanedim	*ld;
	const uint8_t		*p;
	uint32_t		 md;
	size_t			 i, n, len;
	int			 k;

	m->source = cache_get8(b);
	m->source_version = cache_get32(b);
	m->schema_version = cache_get32(b);
	m->origin_ns = (int64_t)cache_get64(b);
	m->end_ns = (int64_t)cache_get64(b);
	m->utc_epoch_ns = (int64_t)cache_get64(b);
	c->nstrs = cache_get32(b);
	c->strbytes = cache_get64(b);
	for (k = 0; k < TAB_COUNT; k++)
		c->ntab[k] = cache_get64(b);
	for (k = 0; k < EV_KIND_COUNT; k++)
		m->kind_count[k] = cache_get64(b);

	m->devices = cache_get_array(b, &m->ndevices, sizeof *m->devices);
	m->processes = cache_get_array(b, &m->nprocesses,
	    sizeof *m->processes);
	m->threads = cache_get_array(b, &m->nthreads, sizeof *m->threads);
	m->streams = cache_get_array(b, &m->nstreams, sizeof *m->streams);
	m->domains = cache_get_array(b, &m->ndomains, sizeof *m->domains);
	m->meta = cache_get_array(b, &m->nmeta, sizeof *m->meta);

	n = cache_get_count(b, CACHE_TRACK_BYTES);
	if (n > 0) {
		m->tracks = xcalloc(n, sizeof *m->tracks);
		c->lanes = xcalloc(n, sizeof *c->lanes);
		m->ntracks = c->ntracks = n;
	}
	c->nevents = 0;
	for (i = 0; i < n; i++) {
		t = &m->tracks[i];
		ld = &c->lanes[i];
		lane_init(&t->lane);
		t->type = cache_get8(b);
		t->device = cache_get32(b);
		t->stream = cache_get32(b);
		t->process = cache_get32(b);
		t->thread = cache_get32(b);
		t->domain = cache_get32(b);
		t->name = cache_get32(b);
		ld->n = cache_get64(b);
		ld->overlaps = cache_get8(b);
		ld->wide = cache_get8(b);
		md = cache_get32(b);
		t->lane.maxdur = (int64_t)cache_get64(b);
		ld->cov_n = cache_get64(b);
		if (ld->overlaps > 1 || ld->wide > 1 || md > UINT16_MAX ||
		    ld->n >= NONE32 ||
		    ld->cov_n > ld->n || (!ld->overlaps && ld->cov_n != 0))
			b->err = 1;
		t->lane.overlaps = ld->overlaps;
		t->lane.max_depth = (uint16_t)md;
		c->nevents += ld->n;
		if (c->nevents >= NONE32)
			b->err = 1;
	}

	/* launch covers the GPU and sync tracks, first in track order. */
	c->nlaunch = 0;
	for (i = 0; i < m->ntracks && (m->tracks[i].type == TRACK_GPU ||
	    m->tracks[i].type == TRACK_SYNC); i++)
		c->nlaunch += c->lanes[i].n;
	c->has_launch = cache_get8(b);
	c->nlinks = cache_get64(b);
	if (c->has_launch > 1 || c->nlinks > c->nlaunch ||
	    (c->has_launch ? c->nlinks == 0 : c->nlinks != 0))
		b->err = 1;
	n = cache_get_count(b, 8);
	if (n != 0 && n != m->ndevices)
		b->err = 1;
	if (n > 0 && !b->err) {
		c->dcov_n = xcalloc(n, sizeof *c->dcov_n);
		c->ndcov = n;
		for (i = 0; i < n; i++)
			c->dcov_n[i] = cache_get64(b);
	}

	n = cache_get_count(b, 8);
	if (n > 0)
		*warn = xcalloc(n, sizeof **warn);
	for (i = 0; i < n; i++) {
		len = cache_get_count(b, 1);
		if ((p = cache_get(b, len)) == NULL)
			break;
		(*warn)[(*nwarn)++] = xstrndup((const char *)p, len);
	}
	return b->err || b->off != b->n ? -1 : 0;
}

/* Parses the frame table into r; -1 with *why if it does not add up. */
static int
cache_parse_table(const struct cache_hdr *h, const uint8_t *payload,
    struct cache_rctx *r, char **why)
{
	uint64_t	tablen, left, raw = 0, rl, cl;
	size_t		f;

	if (h->nframes == 0 || h->nframes > h->payload_size / 16 ||
	    h->nframes > h->head_size / 16) {
		*why = xasprintf("bad frame count %u", h->nframes);
		return -1;
	}
	tablen = (uint64_t)h->nframes * 16;
	left = h->payload_size - tablen;
	r->off = xreallocarray(NULL, h->nframes, sizeof *r->off);
	r->clen = xreallocarray(NULL, h->nframes, sizeof *r->clen);
	for (f = 0; f < h->nframes; f++) {
		memcpy(&rl, payload + 16 * f, 8);
		memcpy(&cl, payload + 16 * f + 8, 8);
		if (cl > left || rl / CACHE_MAXRATIO > cl ||
		    rl > SIZE_MAX / 4) {
			*why = xasprintf("frame %zu: bad length", f);
			return -1;
		}
		r->off[f] = h->payload_size - tablen - left;
		r->clen[f] = cl;
		left -= cl;
		raw += rl;
	}
	if (left != 0 || raw != h->raw_size) {
		*why = xstrdup("frame lengths do not add up");
		return -1;
	}
	r->frames = payload + tablen;
	return 0;
}

/*
 * Decodes the head of a CRC-checked file image (payload: the bytes after
 * the header, of which at least h->head_size are present): the frame table,
 * frame 0 into m and r->c (warnings to *warn), and the plan, which must
 * match the table. The string frames are left to their job. Returns 0, or
 * -1 with *why.
 */
int
cache_read_head(const struct cache_hdr *h, const uint8_t *payload,
    struct cache_rctx *r, struct cache_plan *plan, char ***warn,
    size_t *nwarn, char **why)
{
	struct cache_plan	 small_plan;
	struct cache_rbuf	 rb;
	uint8_t			*small;
	uint64_t		 rl, head;
	size_t			 f;
	int			 rc = -1;

	memset(plan, 0, sizeof *plan);
	if (cache_parse_table(h, payload, r, why) != 0)
		return -1;

	/* Frame 0, whose length the table alone gives. */
	memset(&small_plan, 0, sizeof small_plan);
	memcpy(&rl, payload, 8);
	small_plan.rawlen = &rl;
	r->plan = &small_plan;
	if (r->off[0] + r->clen[0] > h->head_size - 16 * (uint64_t)h->nframes) {
		*why = xstrdup("head size mismatch");
		return -1;
	}
	small = xmalloc(rl + 1);
	if (cache_decompress(r, 0, 0, small, why) != 0)
		goto out;
	rb.p = small;
	rb.n = rl;
	rb.off = 0;
	rb.err = 0;
	if (cache_small_read(&rb, r->m, &r->c, warn, nwarn) != 0) {
		*why = xstrdup("model header truncated or inconsistent");
		goto out;
	}

	/* The plan from the counts must match the table exactly. */
	if (cache_plan_build(plan, &r->c) != 0 ||
	    plan->nframes != h->nframes) {
		*why = xstrdup("frame table does not match the model");
		goto out;
	}
	plan->rawlen[0] = rl;
	for (f = 1; f < plan->nframes; f++) {
		memcpy(&rl, payload + 16 * f, 8);
		if (rl != plan->rawlen[f]) {
			*why = xasprintf("frame %zu: unexpected length", f);
			goto out;
		}
	}
	head = 16 * (uint64_t)h->nframes;
	for (f = 0; f < plan->nhead; f++)
		head += r->clen[f];
	if (head != h->head_size) {
		*why = xstrdup("head size mismatch");
		goto out;
	}
	r->plan = plan;
	rc = 0;
out:
	if (rc != 0)
		r->plan = NULL;
	free(small);
	return rc;
}
