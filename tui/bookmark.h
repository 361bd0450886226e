/*
 * bookmark: places on the timeline to come back to (`m` sets one at the
 * cursor, `'` lists them; Enter or a digit jumps).
 *
 * A bookmark keeps the window, the cursor and the selected event. The
 * list is the session's (not saved). bookmark_draw() shows the list as a
 * box with the chosen entry highlighted.
 *
 * Ownership: the struct is the caller's; bookmarks_free() releases it.
 */
#ifndef GPULENS_BOOKMARK_H
#define GPULENS_BOOKMARK_H

#include <stddef.h>
#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"

#define BOOKMARK_MAX	99

struct bookmark {
	int64_t		 t0, span, cursor;
	uint32_t	 gid;		/* selected event or NONE32 */
	int		 id;		/* 1, 2, ...: never reused */
};

struct bookmarks {
	struct bookmark	*b;
	size_t		 n, cap;
	int		 next_id;
};

void	bookmarks_init(struct bookmarks *);
void	bookmarks_free(struct bookmarks *);
/* Adds one; returns its id, or -1 when the list is full. */
int	bookmarks_add(struct bookmarks *, int64_t t0, int64_t span,
	    int64_t cursor, uint32_t gid);
/* Removes entry i. */
void	bookmarks_del(struct bookmarks *, size_t i);
/* Draws the list with entry sel highlighted. */
void	bookmarks_draw(struct cellgrid *, const struct glyph *, int w, int h,
	    const struct bookmarks *, size_t sel, const struct model *,
	    int abs, int sanflags);

#endif
