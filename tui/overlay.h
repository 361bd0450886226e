/*
 * overlay: boxes drawn over a view: the help (the help lines of the current
 * view's key table and of the global one, keymap.h: the keys of each
 * action and its help, in columns, a page at a time) and
 * text lists (the model's load warnings, bookmarks, range statistics).
 *
 * Everything is drawn into a cellgrid; the layout arithmetic
 * (overlay_help_layout) is pure so tests can check it without a screen.
 */
#ifndef GPULENS_OVERLAY_H
#define GPULENS_OVERLAY_H

#include <stddef.h>
#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/keymap.h"
#include "tui/view.h"

/* The help lines of one key table with its heading, for the help. */
struct overlay_keys {
	const char		*heading;	/* "Timeline", "Every view" */
	const struct keyhelp	*items;		/* keys and help (keymap.h) */
	size_t			 n;
	/* Per item, the attribute of its keys column (a colour legend's
	 * swatches), or NULL: the help's. */
	const uint16_t		*attr;
};

/*
 * The timeline's colour legend as help items: a swatch (blank cells in
 * the colour class, as a background) and what the colour means. *attr
 * gets the swatches' attributes; returns the number of items.
 */
size_t	overlay_legend(const struct keyhelp **items, const uint16_t **attr);

/* Where the help goes on a w x h screen. */
struct overlay_layout {
	int	 x, y, w, h;		/* the box */
	int	 ncol, per;		/* columns, entries per column */
	int	 colw, namew;
	int	 pages;			/* 0: does not fit at all */
};

/* Lays out nitems help entries (headings count as entries). */
void	overlay_help_layout(int w, int h, size_t nitems,
	    struct overlay_layout *);
/* Draws a framed box with a title in its top border; fills it. */
void	overlay_box(struct cellgrid *, const struct glyph *, int x, int y,
	    int w, int h, const char *title);
/* Draws page `page` of the help; returns the number of pages. */
int	overlay_help(struct cellgrid *, const struct glyph *, int w, int h,
	    const struct overlay_keys *, size_t ntabs, int page);
/*
 * Draws a centred box titled title holding lines[first..n) (untrusted
 * text, sanitised with sanflags), as many as fit, with "... N more" when
 * cut. Returns the number of lines shown.
 */
size_t	overlay_lines(struct cellgrid *, const struct glyph *, int w, int h,
	    const char *title, const char *const *lines, size_t n,
	    size_t first, int sanflags);

/*
 * Word-wraps lines[0, n) (untrusted text, measured as sanitised with
 * sanflags) at width columns: a line longer than that becomes several,
 * the later ones indented by two. Returns a malloc'd array of malloc'd
 * strings (*nout of them); overlay_wrap_free() frees it.
 */
char	**overlay_wrap(const char *const *lines, size_t n, int width,
	    int sanflags, size_t *nout);
void	  overlay_wrap_free(char **, size_t);

#endif
