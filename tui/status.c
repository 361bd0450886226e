/*
 * status: the common part of every view's status line. See status.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/fmt.h"
#include "tui/safetext.h"
#include "tui/status.h"

#define STATUS_HINT	" ? help  q quit "
#define STATUS_HINT_WIDE " 1 2 3 4 views  ? help  q quit "
/* A rank opened from a job's overview: q goes back to it. */
#define STATUS_HINT_JOB	" ? help  q back  Q quit "
#define STATUS_HINT_JOB_WIDE " 1 2 3 4 views  ? help  q back to job  Q quit "

int
status_begin(struct cellgrid *g, int y, int w, const struct model *m,
    const struct view_shared *sh, int64_t res, int *end)
{
	const char	*hint;
	char		 a[48], b[32], buf[128];
	int		 n;

	cellgrid_fill(g, 0, y, w, 1, L' ', CG_STATUS);
	if (sh->in_job)
		hint = w >= 120 ? STATUS_HINT_JOB_WIDE : STATUS_HINT_JOB;
	else
		hint = w >= 120 ? STATUS_HINT_WIDE : STATUS_HINT;
	n = (int)strlen(hint);
	*end = w;
	if (w >= 60) {
		cellgrid_text(g, w - n, y, n, hint, ST_ASCII,
		    CG_STATUS | CGA_BOLD);
		*end = w - n - 1;
	}
	/* A job overview has no model: no cursor or window. */
	if (m == NULL)
		return cellgrid_text(g, 0, y, *end, " ", ST_ASCII, CG_STATUS);
	fmt_when(a, sizeof a, sh->cursor, m->origin_ns, sh->abs_time,
	    res > 0 ? res : 1);
	fmt_time(b, sizeof b, sh->span);
	snprintf(buf, sizeof buf, " cursor %s  window %s  ", a, b);
	return cellgrid_text(g, 0, y, *end, buf, ST_ASCII, CG_STATUS);
}
