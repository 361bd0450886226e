/*
 * table: the component the table views are made of (the NVTX tree, the
 * kernel table, the findings list): column layout, the header, the rows
 * drawn into the cell grid, selection and scrolling, sort-key cycling, the
 * filter prompt, the footer rule and the status line.
 *
 * A view embeds a struct table as its first member and describes itself
 * with a const struct table_spec: its columns, its sort keys, its actions
 * and callbacks that draw one row and give the title, footer and status
 * texts. table_key(), table_draw() and table_resize() take the view
 * pointer (which, the table being the first member, is also the table's),
 * so they serve directly in the view's view_ops, and table_key_move() and
 * the other table_key_*() functions directly in its action table
 * (TABLE_ACTIONS_MOVE and TABLE_ACTIONS_SORT are the usual ones). The view
 * keeps only what is its own: its data, its cells and its other actions.
 *
 * Screen of a table view, top to bottom: the title (row 0), the column
 * header (the row above the rows, when there are columns), the rows, the
 * footer (row h - 2, a rule with the selected row's full name, when the
 * spec has a footer and h >= 5), the status line (row h - 1). The usual
 * layout is table_resize()'s; a view with more panes places the rows
 * itself (table_place()) and draws the rest.
 *
 * Columns have a fixed width and a priority (TABLE_OFF: not shown at all),
 * except one flexible column (the name) that takes what is left. table_layout() drops the columns of
 * lowest priority until the others fit with the flexible column at least
 * TABLE_MIN_FLEX wide, then places them left to right with one blank
 * between.
 *
 * Damage: key functions return reactions (view.h); table_draw() repaints
 * what dirty names: the title and header with REDRAW_RULER, the rows and
 * the footer with REDRAW_BODY, the status line with REDRAW_STATUS, all of
 * them with REDRAW_TIMELINE. Everything draws into a cellgrid, never into
 * ncurses, and the arithmetic (table_layout, table_scroll, table_move,
 * table_keep) is pure, so tests drive and read tables without a terminal.
 *
 * Ownership: a table allocates nothing; the spec, the model, the shared
 * state and the glyphs are borrowed and must outlive it.
 */
#ifndef GPULENS_TABLE_H
#define GPULENS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "tui/action.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "model/model.h"
#include "tui/prompt.h"
#include "tui/view.h"

#define TABLE_MIN_FLEX	16
#define TABLE_OFF	(-1)	/* a column's prio: never shown */
#define TABLE_MAXCOLS	12

/* Moves (the arg of table_key_move): a page, and to the first or last row
 * (negative: up). Any other value moves by that many rows. */
#define TABLE_PAGE	1000
#define TABLE_END	100000

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

/* What a view tells its table; constant. Callbacks get the view. */
struct table_spec {
	const struct table_col	*cols;		/* prototypes, or NULL */
	int			 ncols;		/* at most TABLE_MAXCOLS */
	/* Sort keys: key k is shown by column sortcol[k] (-1: none) and
	 * named sort_name(k); keys in sort_asc (bit k) start ascending,
	 * the others descending. nsort 0: not sortable. */
	int			 nsort;
	const int		*sortcol;
	unsigned		 sort_asc;
	const char		*(*sort_name)(int);
	/* The filter prompt's label ("filter names: ") and the message when
	 * nothing matches. */
	const char		*filter_label;
	const char		*filter_none;
	/* Shown in the rows when there are none, or NULL. */
	const char		*empty;
	/* Damage when the selection moves. */
	int			 move_damage;
	/* The title holds user text (the filter): sanitised for the
	 * terminal and cut with an ellipsis; else ASCII, cut plainly. */
	int			 title_user;
	const struct view_action *actions;	/* the actions it runs */
	size_t			 nactions;

	/* Sort key, direction or filter changed: rebuild the rows, then
	 * table_keep() the selected one. NULL if neither can change. */
	void		 (*refresh)(void *);
	/* Draws row i's cells at y (cleared; the table reverses the
	 * selected row afterwards). */
	void		 (*row)(void *, struct cellgrid *, int y, size_t i);
	/* Texts, into buf or static: the title, the status line's (after
	 * the cursor and window), the footer's (NULL callback: no footer;
	 * NULL text: the rule only). */
	const char	*(*title)(void *, char *buf, size_t len);
	const char	*(*status)(void *, char *buf, size_t len);
	const char	*(*footer)(void *, char *buf, size_t len);
};

struct table {
	const struct table_spec	*spec;
	const struct model	*m;
	struct view_shared	*sh;
	const struct glyph	*gl;
	int			 san;		/* sanitising flags for names */
	int			 w, h;
	int			 rows_y, rows_h;	/* the rows on screen */
	size_t			 n;		/* rows */
	size_t			 top, sel;	/* first row shown, selected */
	int			 sort, desc;
	char			 filter[PROMPT_MAX];	/* "" for none */
	struct table_col	 col[TABLE_MAXCOLS];	/* laid out */
	struct prompt		 pr;		/* the filter prompt */
	char			 msg[160];	/* until the next key */
};

/* Sets t up for a view (no rows yet, sort key 0 descending). */
void	table_init(struct table *, const struct table_spec *,
	    const struct model *, const struct view_env *);
/* table_init(), then the order: sort key sort (desc: descending), and n
 * rows. */
void	table_open(struct table *, const struct table_spec *,
	    const struct model *, const struct view_env *, int sort, int desc,
	    size_t n);
/* Places rows_h rows from rows_y on a w x h screen and lays the columns
 * out. */
void	table_place(struct table *, int w, int h, int rows_y, int rows_h);
/* The row count changed to n: clamps the selection, scrolls. */
void	table_rows(struct table *, size_t n);
/* The rows are now ids[0..n): selects the one holding id if any (else
 * the selection stays, clamped), scrolls. */
void	table_keep(struct table *, const uint32_t *ids, size_t n,
	    uint32_t id);
/* Moves the selection (TABLE_PAGE, TABLE_END or rows); returns 1 if it
 * moved. */
int	table_move(struct table *, int d);
/* Points the timeline at instance pos of n of label (gid): the switch
 * request and the note "instance 2/5 of label (key Enter: next)". */
int	table_show_instance(struct table *, uint32_t gid, size_t pos,
	    size_t n, const char *label, int key);
/* The switch request to the timeline: a message of type about gid,
 * returned for the rest (range, note). */
struct view_msg *table_to_timeline(struct table *, int type, uint32_t gid);

/* view_ops functions; p is the view (its table first). */
/* The usual layout: title, header, rows, footer, status. */
void	table_resize(void *p, int w, int h);
/* Clears the message, feeds the filter prompt or runs the action. */
int	table_key(void *p, const struct tui_key *, int act);
void	table_draw(void *p, struct cellgrid *, int dirty);

/* Action functions; p is the view (its table first). */
int	table_key_move(void *p, const struct tui_key *, int d);
/* The row shown at screen line y, or (size_t)-1. */
size_t	table_row_at(const struct table *, int y);
/* row-click: selects the clicked row; on the selected row, runs the
 * view's Enter action (next-instance, show-evidence or open-rank). */
int	table_key_click(void *p, const struct tui_key *, int arg);
/* Next sort key (its own direction), or with rev the other direction. */
int	table_key_sort(void *p, const struct tui_key *, int rev);
int	table_key_filter(void *p, const struct tui_key *, int arg);
/* Clears the filter. */
int	table_key_clear(void *p, const struct tui_key *, int arg);

/* The actions every table runs the same way: moving and sorting. */
#define TABLE_ACTIONS_MOVE						\
	{ ACT_ROW_UP, table_key_move, -1 },				\
	{ ACT_ROW_DOWN, table_key_move, 1 },				\
	{ ACT_PAGE_UP, table_key_move, -TABLE_PAGE },			\
	{ ACT_PAGE_DOWN, table_key_move, TABLE_PAGE },			\
	{ ACT_ROW_FIRST, table_key_move, -TABLE_END },			\
	{ ACT_ROW_LAST, table_key_move, TABLE_END },			\
	{ ACT_ROW_CLICK, table_key_click, 0 }
#define TABLE_ACTIONS_SORT						\
	{ ACT_SORT_NEXT, table_key_sort, 0 },				\
	{ ACT_SORT_REVERSE, table_key_sort, 1 }

/* Lays the n columns out in width cells. */
void	table_layout(struct table_col *, int n, int width);
/*
 * Draws the header row at y: titles, the sort column (index sortcol, -1
 * for none) marked with an arrow for its direction.
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
/* Draws the footer rule at y, with text (sanitised, bold) if not NULL. */
void	table_footer(struct table *, struct cellgrid *, int y,
	    const char *text);

#endif
