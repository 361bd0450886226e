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
#include "util/bytebuf.h"
#include "util/xmalloc.h"

void
cache_small_write(struct bytebuf *b, const struct model *m,
    const struct cache_counts *c)
{
	const struct track	*t;
	size_t			 i, len;
	int			 k;

	bytebuf_put8(b, m->source);
	bytebuf_put32(b, m->source_version);
	bytebuf_put32(b, m->schema_version);
	bytebuf_put64(b, (uint64_t)m->origin_ns);
	bytebuf_put64(b, (uint64_t)m->end_ns);
	bytebuf_put64(b, (uint64_t)m->utc_epoch_ns);
	bytebuf_put32(b, c->nstrs);
	bytebuf_put64(b, c->strbytes);
	for (k = 0; k < TAB_COUNT; k++)
		bytebuf_put64(b, c->ntab[k]);
	for (k = 0; k < EV_KIND_COUNT; k++)
		bytebuf_put64(b, m->kind_count[k]);

	bytebuf_putarray(b, m->devices, m->ndevices, sizeof *m->devices);
	bytebuf_putarray(b, m->processes, m->nprocesses, sizeof *m->processes);
	bytebuf_putarray(b, m->threads, m->nthreads, sizeof *m->threads);
	bytebuf_putarray(b, m->streams, m->nstreams, sizeof *m->streams);
	bytebuf_putarray(b, m->domains, m->ndomains, sizeof *m->domains);
	bytebuf_putarray(b, m->meta, m->nmeta, sizeof *m->meta);

	bytebuf_put64(b, m->ntracks);
	for (i = 0; i < m->ntracks; i++) {
		t = &m->tracks[i];
		bytebuf_put8(b, t->type);
		bytebuf_put32(b, t->device);
		bytebuf_put32(b, t->stream);
		bytebuf_put32(b, t->process);
		bytebuf_put32(b, t->thread);
		bytebuf_put32(b, t->domain);
		bytebuf_put32(b, t->name);
		bytebuf_put64(b, t->lane.n);
		bytebuf_put8(b, c->lanes[i].overlaps);
		bytebuf_put8(b, c->lanes[i].wide);
		bytebuf_put32(b, t->lane.max_depth);
		bytebuf_put64(b, (uint64_t)t->lane.maxdur);
		bytebuf_put64(b, c->lanes[i].cov_n);
	}

	bytebuf_put8(b, c->has_launch);
	bytebuf_put64(b, c->nlinks);
	bytebuf_put64(b, c->ndcov);
	for (i = 0; i < c->ndcov; i++)
		bytebuf_put64(b, c->dcov_n[i]);

	bytebuf_put64(b, m->nwarnings);
	for (i = 0; i < m->nwarnings; i++) {
		len = strlen(m->warnings[i]);
		bytebuf_put64(b, len);
		bytebuf_put(b, m->warnings[i], len);
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
cache_small_read(struct bytebuf_rd *b, struct model *m,
    struct cache_counts *c, char ***warn, size_t *nwarn)
{
	struct track		*t;
	struct cache_lanedim	*ld;
	const uint8_t		*p;
	uint32_t		 md;
	size_t			 i, n, len;
	int			 k;

	m->source = bytebuf_get8(b);
	m->source_version = bytebuf_get32(b);
	m->schema_version = bytebuf_get32(b);
	m->origin_ns = (int64_t)bytebuf_get64(b);
	m->end_ns = (int64_t)bytebuf_get64(b);
	m->utc_epoch_ns = (int64_t)bytebuf_get64(b);
	c->nstrs = bytebuf_get32(b);
	c->strbytes = bytebuf_get64(b);
	for (k = 0; k < TAB_COUNT; k++)
		c->ntab[k] = bytebuf_get64(b);
	for (k = 0; k < EV_KIND_COUNT; k++)
		m->kind_count[k] = bytebuf_get64(b);

	m->devices = bytebuf_getarray(b, &m->ndevices, sizeof *m->devices);
	m->processes = bytebuf_getarray(b, &m->nprocesses,
	    sizeof *m->processes);
	m->threads = bytebuf_getarray(b, &m->nthreads, sizeof *m->threads);
	m->streams = bytebuf_getarray(b, &m->nstreams, sizeof *m->streams);
	m->domains = bytebuf_getarray(b, &m->ndomains, sizeof *m->domains);
	m->meta = bytebuf_getarray(b, &m->nmeta, sizeof *m->meta);

	n = bytebuf_getcount(b, CACHE_TRACK_BYTES);
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
		t->type = bytebuf_get8(b);
		t->device = bytebuf_get32(b);
		t->stream = bytebuf_get32(b);
		t->process = bytebuf_get32(b);
		t->thread = bytebuf_get32(b);
		t->domain = bytebuf_get32(b);
		t->name = bytebuf_get32(b);
		ld->n = bytebuf_get64(b);
		ld->overlaps = bytebuf_get8(b);
		ld->wide = bytebuf_get8(b);
		md = bytebuf_get32(b);
		t->lane.maxdur = (int64_t)bytebuf_get64(b);
		ld->cov_n = bytebuf_get64(b);
		if (ld->overlaps > 1 || ld->wide > 1 || md > UINT16_MAX ||
		    ld->n >= NONE32 ||
		    ld->cov_n > ld->n || (!ld->overlaps && ld->cov_n != 0))
			b->bad = 1;
		t->lane.overlaps = ld->overlaps;
		t->lane.max_depth = (uint16_t)md;
		c->nevents += ld->n;
		if (c->nevents >= NONE32)
			b->bad = 1;
	}

	/* launch covers the GPU and sync tracks, first in track order. */
	c->nlaunch = 0;
	for (i = 0; i < m->ntracks && (m->tracks[i].type == TRACK_GPU ||
	    m->tracks[i].type == TRACK_SYNC); i++)
		c->nlaunch += c->lanes[i].n;
	c->has_launch = bytebuf_get8(b);
	c->nlinks = bytebuf_get64(b);
	if (c->has_launch > 1 || c->nlinks > c->nlaunch ||
	    (c->has_launch ? c->nlinks == 0 : c->nlinks != 0))
		b->bad = 1;
	n = bytebuf_getcount(b, 8);
	if (n != 0 && n != m->ndevices)
		b->bad = 1;
	if (n > 0 && !b->bad) {
		c->dcov_n = xcalloc(n, sizeof *c->dcov_n);
		c->ndcov = n;
		for (i = 0; i < n; i++)
			c->dcov_n[i] = bytebuf_get64(b);
	}

	n = bytebuf_getcount(b, 8);
	if (n > 0)
		*warn = xcalloc(n, sizeof **warn);
	for (i = 0; i < n; i++) {
		len = bytebuf_getcount(b, 1);
		if ((p = bytebuf_get(b, len)) == NULL)
			break;
		(*warn)[(*nwarn)++] = xstrndup((const char *)p, len);
	}
	return b->bad || b->pos != b->len ? -1 : 0;
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
	struct bytebuf_rd	 rb;
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
	bytebuf_rd_init(&rb, small, rl);
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
