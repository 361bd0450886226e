/*
 * detail: what the detail pane says about one event.
 *
 * detail_build() gathers, once per selection, everything worth showing:
 * name (demangled) and short name, kind, start (relative to the trace
 * origin, or absolute), duration, where it ran
 * (device and stream, or process and thread), launch configuration and
 * resources of kernels, size, direction and bandwidth of copies, the
 * launching API call and its latency (correlate.h), the enclosing or own
 * NVTX path (nvtx.h) with the iteration (the outermost enclosing range's
 * index among its same-name siblings: ProfilerStep#N) and, for NVTX
 * ranges, their GPU projection.
 * detail_draw() lays the fields out in flowing "key value" pairs over the
 * pane, sanitising every value (they hold profile strings).
 */
#ifndef GPULENS_DETAIL_H
#define GPULENS_DETAIL_H

#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"

#define DETAIL_FIELDS	24

struct detail_field {
	char		 key[16];
	char		 val[192];	/* raw UTF-8, sanitised when drawn */
};

struct detail {
	uint32_t		 gid;		/* NONE32: empty */
	int			 cls;		/* colour class of the kind */
	char			 kind[32];	/* "kernel", "memcpy" */
	char			 name[512];	/* raw event name */
	struct detail_field	 f[DETAIL_FIELDS];
	int			 nf;
};

/* Fills d for event gid (NONE32 clears it); abs: absolute start time. */
void	 detail_build(const struct model *, uint32_t gid, int abs,
	    struct detail *d);
/* Draws d into the w x h rectangle at (x, y). */
void	 detail_draw(struct cellgrid *, int x, int y, int w, int h,
	    const struct detail *d, int sanflags, const struct glyph *);

#endif
