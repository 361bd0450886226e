/*
 * figreq: what a figure of a trace shows (`export --to svg|html`).
 *
 * The export verb fills it from its options (window, filters); the figure
 * writer of the terminal UI layer (tui/figure.c) draws it with the same
 * rows, colours and labels as the timeline view. The program's entry
 * connects the two (struct cmd_global), as it connects the verbs to the
 * terminal UI, so neither front-end includes the other.
 *
 * Ownership: the caller owns every pointer; the writer fills the counts.
 */
#ifndef GPULENS_FIGREQ_H
#define GPULENS_FIGREQ_H

#include <stdint.h>

struct figreq {
	int64_t		 t0, t1;	/* window [t0, t1), source clock */
	int64_t		 origin;	/* times are labelled from here */
	int		 width;		/* pixels of the time axis */
	int		 html;		/* a self-contained HTML page */
	int		 detail;	/* sync and overlap rows too */
	const char	*title;		/* the trace (untrusted text) */
	/* Whether event gid is drawn (the verb's filters); NULL: all. */
	int		(*keep)(void *arg, uint32_t gid);
	void		*arg;
	uint64_t	 max_shapes;	/* above it, rows draw per pixel */
	/* Filled by the writer. */
	uint64_t	 nshapes;	/* event shapes drawn */
	uint64_t	 nrows;		/* rows drawn */
	uint64_t	 nbinned;	/* rows drawn per pixel column */
};

#endif
