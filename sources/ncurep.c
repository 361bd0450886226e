/*
 * ncurep: Nsight Compute .ncu-rep reports (see ncurep.h).
 *
 * The whole file is read into memory (reports are megabytes, not
 * gigabytes) and walked with protowire.h. Each decoder below handles one
 * message type, switching on the field numbers it knows; anything else is
 * recorded with report_skipped(). A field of a known number but an
 * unexpected wire type is treated as unknown too, so a changed type in a
 * newer writer costs that field, not the load.
 *
 * Files: this one reads the container (the file header, each block's
 * header and payload) and drives the parse; ncurep-str.c keeps the string
 * table; ncurep-session.c decodes the session; ncurep-result.c one
 * launch's result; ncurep-metric.c metrics and sections; ncurep-rule.c
 * rule results; ncurep-int.h holds the state they share.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/ncu.h"
#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

static uint32_t
ncurep_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

int
ncurep_probe(const void *head, size_t len)
{
	return len >= 4 && memcmp(head, NCUREP_MAGIC, 4) == 0;
}

struct ncurep_block {
	uint64_t	 nsources, nresults, nranges, payload;
	int		 has_payload;
};

static int
ncurep_block_header(struct ncurep *c, const uint8_t *p, size_t len,
    size_t at, struct ncurep_block *b, char **cause)
{
	struct pw_reader	rd;
	struct pw_field		f;
	int			rc;

	memset(b, 0, sizeof *b);
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num == 1 && f.wire == PW_VARINT)
			b->nsources = f.u;
		else if (f.num == 2 && f.wire == PW_VARINT)
			b->nresults = f.u;
		else if (f.num == 7 && f.wire == PW_VARINT)
			b->nranges = f.u;
		else if (f.num == 5 && f.wire == PW_VARINT) {
			b->payload = f.u;
			b->has_payload = 1;
		} else if (f.num == 3 && f.wire == PW_LEN)
			ncurep_session(c, f.data, f.len);
		else if (f.num == 6 && f.wire == PW_LEN)
			ncurep_process(c, f.data, f.len);
		/* 4, the strings: gathered before (ncurep_tables()). */
		else if (f.num != 4 || f.wire != PW_LEN)
			report_skipped(c->r, "BlockHeader", f.num);
	}
	if (rc < 0) {
		*cause = xasprintf("%s: corrupt Nsight Compute report: block "
		    "header at byte %zu: %s at byte %zu", c->name, at, rd.err,
		    at + rd.erroff);
		return -1;
	}
	return 0;
}

/*
 * Gathers the string tables of every block before any result is read: a
 * result may name a metric whose string a later block brings. The walk
 * stops quietly where the container is broken; the full read that follows
 * reports it.
 */
static void
ncurep_tables(struct ncurep *c, const uint8_t *p, size_t len, size_t off)
{
	struct pw_reader	rd;
	struct pw_field		f;
	uint64_t		payload;
	uint32_t		sz;

	while (off < len && len - off >= 4) {
		sz = ncurep_le32(p + off);
		off += 4;
		if (sz > len - off)
			return;
		payload = 0;
		pw_init(&rd, p + off, sz);
		while (pw_next(&rd, &f) > 0) {
			if (f.num == 4 && f.wire == PW_LEN && f.len > 0)
				ncurep_strtab(c, f.data, f.len);
			else if (f.num == 5 && f.wire == PW_VARINT)
				payload = f.u;
		}
		off += sz;
		if (rd.err != NULL || payload > len - off)
			return;
		off += (size_t)payload;
	}
}

/*
 * The launch's device, from its launch__device_id metric, or, where the
 * profiler recorded no launch statistics, its device__attribute_*.
 */
static void
ncurep_devices(struct report *r)
{
	const struct report_metric	*m;
	size_t				 i, j;
	double				 id;

	for (i = 0; i < r->nlaunches; i++) {
		if ((report_metric_num(r, (uint32_t)i, "launch__device_id",
		    &id) != 0 && report_metric_num(r, (uint32_t)i,
		    "device__attribute_device_index", &id) != 0) || id < 0 ||
		    id > 1e9)
			continue;
		for (j = 0; j < r->ndevices; j++)
			if (r->devices[j].id == (uint32_t)id)
				break;
		if (j == r->ndevices) {
			m = report_metric(r, (uint32_t)i,
			    "device__attribute_display_name");
			j = report_device(r, (uint32_t)id, m != NULL &&
			    m->value.type == RV_STRING ? m->value.v.s : 0);
		}
		r->launches[i].device = (uint32_t)j;
	}
}

/*
 * A launch the profiler could not measure (its replay failed: ncu then
 * writes the device attributes, no launch statistics and NaN for the
 * rest) reads as a row of blanks; say why.
 */
static void
ncurep_unmeasured(struct report *r, const char *name)
{
	const struct report_metric	*m;
	const struct report_launch	*l;
	size_t				 i, j, nan;
	double				 d;

	for (i = 0; i < r->nlaunches; i++) {
		l = &r->launches[i];
		if (report_metric_num(r, (uint32_t)i, "gpu__time_duration.sum",
		    &d) == 0 && !isnan(d))
			continue;
		if (report_metric(r, (uint32_t)i, "launch__grid_size") != NULL)
			continue;
		nan = 0;
		for (j = 0; j < l->nmetrics; j++) {
			m = &r->metrics[l->metric + j];
			if (m->value.type == RV_DOUBLE && isnan(m->value.v.d))
				nan++;
		}
		report_warn(r, "%s: launch %zu (%s) was not measured: it has "
		    "no launch statistics and %zu of its %u metrics have no "
		    "value", name, i, report_str(r, l->function), nan,
		    l->nmetrics);
	}
}

struct report *
ncurep_parse(const void *buf, size_t len, const char *name, char **cause)
{
	const uint8_t		*p = buf;
	struct ncurep		 c;
	struct ncurep_block	 b;
	struct pw_reader	 rd;
	struct pw_field		 f;
	size_t			 off, hlen, end, at;
	uint64_t		 e, nentries;
	uint32_t		 sz;
	char			 ver[16];

	if (len < 8 || !ncurep_probe(buf, len)) {
		*cause = xasprintf("%s: not an Nsight Compute report (no NVR "
		    "header)", name);
		return NULL;
	}
	memset(&c, 0, sizeof c);
	c.name = name;
	c.r = report_new(REPORT_NCU_REP);
	hlen = ncurep_le32(p + 4);
	if (hlen > len - 8) {
		*cause = xasprintf("%s: truncated Nsight Compute report: the "
		    "file header needs %zu bytes, %zu remain", name, hlen,
		    len - 8);
		goto fail;
	}
	pw_init(&rd, p + 8, hlen);
	while (pw_next(&rd, &f) > 0)
		if (f.num == 1 && f.wire == PW_VARINT)
			c.r->version = (uint32_t)f.u;
	if (rd.err != NULL) {
		*cause = xasprintf("%s: corrupt Nsight Compute report: file "
		    "header: %s", name, rd.err);
		goto fail;
	}
	snprintf(ver, sizeof ver, "%u", c.r->version);
	report_prop(c.r, "format.version", ver);
	if (c.r->version > NCUREP_KNOWN_VERSION)
		report_warn(c.r, "%s: report format version %u is newer than "
		    "%u, the newest gpulens knows: what could be read was "
		    "loaded", name, c.r->version, NCUREP_KNOWN_VERSION);
	else if (c.r->version == 0)
		report_warn(c.r, "%s: the file header has no format version",
		    name);

	off = 8 + hlen;
	ncurep_tables(&c, p, len, off);
	while (off < len) {
		at = off;
		if (len - off < 4) {
			*cause = xasprintf("%s: truncated Nsight Compute "
			    "report: %zu stray bytes at byte %zu", name,
			    len - off, off);
			goto fail;
		}
		sz = ncurep_le32(p + off);
		off += 4;
		if (sz > len - off) {
			*cause = xasprintf("%s: truncated Nsight Compute "
			    "report: block header at byte %zu needs %u bytes, "
			    "%zu remain", name, at, sz, len - off);
			goto fail;
		}
		if (ncurep_block_header(&c, p + off, sz, off, &b, cause) != 0)
			goto fail;
		off += sz;
		if (b.payload > len - off) {
			*cause = xasprintf("%s: truncated Nsight Compute "
			    "report: the payload of the block at byte %zu "
			    "needs %llu bytes, %zu remain", name, at,
			    (unsigned long long)b.payload, len - off);
			goto fail;
		}
		end = off + (size_t)b.payload;
		/* Each entry takes at least its 4-byte size. */
		nentries = b.nsources + b.nresults + b.nranges;
		if (b.nsources > b.payload / 4 || b.nresults > b.payload / 4 ||
		    b.nranges > b.payload / 4 || nentries > b.payload / 4) {
			*cause = xasprintf("%s: corrupt Nsight Compute "
			    "report: the block at byte %zu claims %llu "
			    "entries in %llu bytes", name, at,
			    (unsigned long long)nentries,
			    (unsigned long long)b.payload);
			goto fail;
		}
		for (e = 0; e < nentries; e++) {
			if (end - off < 4 ||
			    (sz = ncurep_le32(p + off)) > end - off - 4) {
				*cause = xasprintf("%s: corrupt Nsight "
				    "Compute report: entry %llu of the block "
				    "at byte %zu runs past its payload (byte "
				    "%zu)", name, (unsigned long long)e, at,
				    off);
				goto fail;
			}
			off += 4;
			if (e < b.nsources) {
				c.nsources++;
				ncurep_source(&c, p + off, sz);
			}
			else if (e < b.nsources + b.nresults)
				ncurep_result(&c, p + off, sz, off);
			else {
				c.nranges++;
				XGROW(c.r->range_bytes, c.r->rangescap,
				    c.r->nranges + 1);
				c.r->range_bytes[c.r->nranges++] = sz;
			}
			off += sz;
		}
		off = end;
	}
	if (c.bad_name_ids > 0)
		report_warn(c.r, "%s: %zu metric name ids lie outside the "
		    "string table", name, c.bad_name_ids);
	if (c.nranges > 0)
		report_warn(c.r, "%s: %zu range results (range replay) were "
		    "not read", name, c.nranges);
	if (c.r->nlaunches == 0)
		report_warn(c.r, "%s: the report holds no profiled launch",
		    name);
	ncurep_sources_finish(&c);
	free(c.tab.s);
	free(c.tab.len);
	free(c.tab.sid);
	report_finish(c.r);
	ncurep_devices(c.r);
	ncurep_unmeasured(c.r, name);
	return c.r;

fail:
	free(c.tab.s);
	free(c.tab.len);
	free(c.tab.sid);
	report_free(c.r);
	return NULL;
}

struct report *
ncurep_load(const char *path, char **cause)
{
	struct report	*r;
	struct zfile	*z;
	enum zfile_kind	 kind;

	if ((z = zfile_open(path, cause)) == NULL)
		return NULL;
	kind = zfile_kind(z);
	zfile_close(z);
	r = ncu_read(path, NCUREP_MAX_FILE, ncurep_parse, cause);
	if (r != NULL && kind != ZFILE_PLAIN)
		r->format = REPORT_NCU_REPZ;
	return r;
}
