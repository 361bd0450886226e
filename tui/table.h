/*
 * table: column layout and drawing for the table views (the NVTX tree and
 * the kernel table).
 *
 * Columns have a fixed width and a priority, except one flexible column
 * (the name) that takes what is left. table_layout() drops the columns of
 * lowest priority until the others fit with the flexible column at least
 * TABLE_MIN_FLEX wide, then places them left to right with one blank
 * between. The arithmetic is pure (tested without a screen).
 */
#ifndef GPULENS_TABLE_H
#define GPULENS_TABLE_H

#include <stddef.h>

#include "cellgrid.h"
#include "glyph.h"

#define TABLE_MIN_FLEX	16

struct table_col {
	const char	*title;
	int		 width;		/* fixed columns */
	int		 prio;		/* higher stays longer */
	int		 right;		/* right-aligned */
	int		 flex;		/* takes the rest (one column) */
	/* Set by table_layout(): */
	int		 shown;
	int		 x, w;
};

/* Lays the n columns out in width cells. */
void	table_layout(struct table_col *, int n, int width);
/*
 * Draws the header row at y: titles, the sort column (index sortcol)
 * marked with an arrow for its direction.
 */
void	table_header(struct cellgrid *, int y, int width,
	    const struct table_col *, int n, int sortcol, int desc,
	    const struct glyph *);
/* Draws text in column c of row y (sanitised with sanflags, cut with an
 * ellipsis, right-aligned if the column is). */
void	table_cell(struct cellgrid *, int y, const struct table_col *c,
	    const char *text, int sanflags, uint16_t attr);
/* Keeps row sel of n inside a window of rows lines starting at *top. */
void	table_scroll(size_t *top, size_t sel, size_t n, int rows);

#endif
