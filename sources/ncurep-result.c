/*
 * ncurep-result: one profile result, a kernel launch. Its names, grid and
 * block, NVTX state, metrics, sections and rules.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"

static void
ncurep_xyz(struct ncurep *c, const uint8_t *p, size_t len, uint64_t xyz[3])
{
	struct pw_reader	rd;
	struct pw_field		f;
	int			rc;

	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (f.num >= 1 && f.num <= 3 && f.wire == PW_VARINT)
			xyz[f.num - 1] = f.u;
		else
			report_skipped(c->r, "Uint64x3", f.num);
	}
	if (rc < 0)
		ncurep_subfail(c, "dimensions", &rd);
}

/* Strings anywhere below a message: the ranges of an NVTX domain state. */
static void
ncurep_nvtx_ranges(struct ncurep *c, uint32_t launch, uint32_t domain,
    const uint8_t *p, size_t len, int depth, size_t *found)
{
	struct pw_reader	rd;
	struct pw_field		f;

	if (depth > 4)
		return;
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.wire != PW_LEN || f.len == 0)
			continue;
		if (ncurep_text(&f)) {
			struct pw_reader t;
			struct pw_field g;
			int ok;
			/* A string that does not parse as a message. */
			pw_init(&t, f.data, f.len);
			while ((ok = pw_next(&t, &g)) > 0)
				;
			if (ok < 0) {
				report_add_nvtx(c->r, launch, domain,
				    ncurep_sid(c, &f));
				(*found)++;
				continue;
			}
		}
		ncurep_nvtx_ranges(c, launch, domain, f.data, f.len,
		    depth + 1, found);
	}
}

/*
 * NvtxState: 1 domains {1 id, 2 name}; 2 threads {1 tid, 2 domain states
 * {1 domain id, ranges...}}; 3 process-wide domain states. Only the
 * domains and the names of the ranges are kept; the layout of the ranges
 * is inferred (the fixtures have no open range).
 */
static void
ncurep_nvtx(struct ncurep *c, uint32_t launch, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd, sd, dd;
	struct pw_field		 f, g, h;
	uint64_t		*ids = NULL, did;
	uint32_t		*names = NULL, dom;
	size_t			 n = 0, cap = 0, ncap = 0, found = 0, i;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num != 1 || f.wire != PW_LEN)
			continue;
		XGROW(ids, cap, n + 1);
		XGROW(names, ncap, n + 1);
		ids[n] = 0;
		names[n] = 0;
		pw_init(&sd, f.data, f.len);
		while (pw_next(&sd, &g) > 0) {
			if (g.num == 1 && g.wire == PW_VARINT)
				ids[n] = g.u;
			else if (g.num == 2 && g.wire == PW_LEN)
				names[n] = ncurep_sid(c, &g);
		}
		n++;
	}
	if (rd.err != NULL)
		ncurep_subfail(c, "NVTX state", &rd);
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if ((f.num != 2 && f.num != 3) || f.wire != PW_LEN)
			continue;
		/* A thread holds domain states; a domain state, ranges. */
		pw_init(&sd, f.data, f.len);
		while (pw_next(&sd, &g) > 0) {
			if (g.wire != PW_LEN)
				continue;
			did = 0;
			pw_init(&dd, g.data, g.len);
			while (pw_next(&dd, &h) > 0)
				if (h.num == 1 && h.wire == PW_VARINT)
					did = h.u;
			dom = 0;
			for (i = 0; i < n; i++)
				if (ids[i] == did)
					dom = names[i];
			pw_init(&dd, g.data, g.len);
			while (pw_next(&dd, &h) > 0)
				if (h.num != 1 && h.wire == PW_LEN)
					ncurep_nvtx_ranges(c, launch, dom,
					    h.data, h.len, 0, &found);
		}
	}
	if (found == 0)
		for (i = 0; i < n; i++)
			report_add_nvtx(c->r, launch, names[i], 0);
	free(ids);
	free(names);
}

/* The parts of a ProfileResult that have a reader of their own. */
static const struct {
	uint32_t	 num;
	void		(*read)(struct ncurep *, uint32_t launch,
			    const uint8_t *, size_t);
} ncurep_result_parts[] = {
	{ 13, ncurep_metric }, { 15, ncurep_result_source },
	{ 17, ncurep_section }, { 19, ncurep_rule }, { 21, ncurep_nvtx },
};

/* Reads f if it is one of those parts: 1, else 0. */
static int
ncurep_result_part(struct ncurep *c, uint32_t launch, const struct pw_field *f)
{
	size_t	i;

	if (f->wire != PW_LEN)
		return 0;
	for (i = 0; i < sizeof ncurep_result_parts /
	    sizeof *ncurep_result_parts; i++)
		if (ncurep_result_parts[i].num == f->num) {
			ncurep_result_parts[i].read(c, launch, f->data, f->len);
			return 1;
		}
	return 0;
}

int
ncurep_result(struct ncurep *c, const uint8_t *p, size_t len, size_t at)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	struct report_launch	*l;
	uint32_t		 launch;
	uint64_t		 xyz[3];
	int			 rc;

	l = report_add_launch(c->r);
	launch = l->id;
	l->pid = c->proc.pid;
	l->host = c->proc.host;
	l->process = c->proc.name;
	pw_init(&rd, p, len);
	while ((rc = pw_next(&rd, &f)) > 0) {
		if (ncurep_result_part(c, launch, &f))
			continue;
		l = &c->r->launches[launch];
		switch (f.num) {
		case 1:
			if (f.wire != PW_VARINT)
				goto unknown;
			l->tid = (uint32_t)f.u;
			continue;
		case 2:
			if (f.wire != PW_VARINT)
				goto unknown;
			l->api_call = f.u;
			continue;
		case 5:
		case 6:
		case 7:
			if (f.wire != PW_LEN)
				goto unknown;
			if (f.num == 5)
				l->mangled = ncurep_sid(c, &f);
			else if (f.num == 6)
				l->function = ncurep_sid(c, &f);
			else
				l->demangled = ncurep_sid(c, &f);
			continue;
		case 10:
		case 11:
			if (f.wire != PW_LEN)
				goto unknown;
			memset(xyz, 0, sizeof xyz);
			ncurep_xyz(c, f.data, f.len, xyz);
			l = &c->r->launches[launch];
			memcpy(f.num == 10 ? l->grid : l->block, xyz,
			    sizeof xyz);
			continue;
		case 22:
		case 23:
			if (f.wire != PW_VARINT)
				goto unknown;
			if (f.num == 22)
				l->context = f.u;
			else
				l->stream = f.u;
			continue;
		case 3:		/* program handle */
		case 4:		/* kernel id */
		case 8:		/* work dimensions */
		case 9:		/* global work offset */
		case 12:	/* comments */
		case 14:	/* creation time */
		case 16:	/* API type */
		case 18:	/* section comments */
		case 20:	/* unsupported device */
			continue;
		}
unknown:
		report_skipped(c->r, "ProfileResult", f.num);
	}
	if (rc < 0) {
		report_warn(c->r, "%s: result %u at byte %zu is corrupt (%s "
		    "at byte %zu); kept what was read", c->name, launch, at,
		    rd.err, at + rd.erroff);
	}
	return 0;
}
