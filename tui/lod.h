/*
 * lod: level of detail, from lane queries to glyphs.
 *
 * The visible window [t0, t0 + span) is cut into ncols columns; column c
 * covers [lod_colt(v, c), lod_colt(v, c + 1)). For each row and column
 * lod_lane() asks the lane for {count, busy, dominant event} (three
 * O(log n) queries, lane.h), so a frame costs O(rows x columns x log n)
 * whatever the number of events. lod_draw_lane() then picks glyphs as
 * ../shared/docs/STYLE.md "Drawing a dense timeline" says:
 *
 *   box		the dominant event spans >= 2 columns and covers at
 *			least half of this one: consecutive such columns form
 *			a box filled with the event's colour (CGA_FILL),
 *			opened by box_open, with the name inside when at least
 *			3 columns remain for it (ellipsis when cut);
 *   eighth block	a single event thinner than the column: a left-aligned
 *			n/8 block (right-aligned when the event starts inside
 *			the column and runs on past it);
 *   ramp		several events share the column: a height ramp by busy
 *			fraction (CGA_FOLD), coloured by the dominant event.
 *
 * A column with at least one event is never blank: the smallest glyph is
 * the 1/8 block or the lowest ramp step, even for zero-length events.
 * Group rows show an aggregate ramp of their member tracks.
 *
 * Everything here is pure: it writes into a cellgrid and allocates nothing.
 */
#ifndef GPULENS_LOD_H
#define GPULENS_LOD_H

#include <stddef.h>
#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"

struct lod_view {
	int64_t		 t0;		/* window start, ns */
	int64_t		 span;		/* window length, ns (>= ncols) */
	int		 ncols;
};

struct lod_col {
	uint32_t	 count;		/* events overlapping the column */
	int64_t		 busy;		/* union busy ns within the column */
	int64_t		 dom;		/* lane: dominant event index, or -1;
					   group: -1 */
	uint16_t	 cls;		/* colour class of the dominant event */
};

/* Start of column c (0 <= c <= ncols; lod_colt(v, ncols) == t0 + span). */
int64_t	 lod_colt(const struct lod_view *, int c);
/* The column containing t (may be < 0 or >= ncols). */
int	 lod_col_of(const struct lod_view *, int64_t t);
/* Colour class (enum cg_class) of an event of this kind and flags. */
int	 lod_class(int kind, int flags);
/* Display name of event idx of lane l: a kernel's short name if known. */
const char *lod_event_name(const struct model *, const struct lane *l,
	    size_t idx);

/* Fills out[0..ncols) for one lane. */
void	 lod_lane(const struct lane *, const struct lod_view *,
	    struct lod_col *out);
/*
 * Fills out[0..ncols) for a group of tracks: count is 1 when any member has
 * an event in the column, else 0 (not a sum: that would cost a count query
 * per member and column); busy is the device's busy time (busy_device of
 * analysis/busy.h) when device is not NONE32, else the busiest member's;
 * the class is that of the busiest member's dominant event; dom is -1.
 */
void	 lod_group(const struct model *, const uint32_t *tracks, size_t n,
	    uint32_t device, const struct lod_view *, struct lod_col *out);

/* Draws a lane row from x on row y (cells with no events are untouched). */
void	 lod_draw_lane(struct cellgrid *, int x, int y, const struct model *,
	    const struct lane *, const struct lod_view *,
	    const struct lod_col *cols, const struct glyph *, int sanflags);
/* Draws a group row's aggregate ramp (dim). */
void	 lod_draw_group(struct cellgrid *, int x, int y,
	    const struct lod_view *, const struct lod_col *cols,
	    const struct glyph *);

#endif
