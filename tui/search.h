/*
 * search: `/` name search over the timeline's rows, with n / N.
 *
 * search_build() matches a pattern (a case-insensitive substring; ASCII
 * case folding) once against every distinct string of the model, then
 * collects, per lane row of the layout (collapsed or not), the indices of
 * the events in the row's lane whose name matches: O(events) once per
 * search, then every n / N is O(rows x log matches) with no allocation.
 * Matches are ordered by (start, row, index); search_step() finds the
 * match after or before a position in that order, wrapping around.
 *
 * Rows of hidden track types are left out. A filter change changes the
 * row lanes, so the caller rebuilds the search after it.
 *
 * Ownership: the struct is the caller's; search_free() releases what
 * search_build() allocated.
 */
#ifndef GPULENS_SEARCH_H
#define GPULENS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "tui/layout.h"
#include "model/model.h"

struct search_row {
	uint32_t	*idx;		/* matching lane indices, ascending */
	size_t		 n;
};

struct search {
	char			 pat[256];	/* "" : no search */
	struct search_row	*rows;		/* per layout all-row */
	size_t			 nrows;
	uint64_t		 total;
};

/* A position: an event of a row's lane. */
struct search_pos {
	int64_t		 start;
	size_t		 row;		/* layout all-row */
	size_t		 idx;		/* index in the row's lane */
};

void	 search_init(struct search *);
void	 search_free(struct search *);
/* Whether name s matches pat (case-insensitive substring). */
int	 search_match(const char *s, const char *pat);
/* Collects the matches of pat; returns their number. */
uint64_t search_build(struct search *, const struct layout *,
	    const char *pat);
/*
 * The match after (dir > 0) or before (dir < 0) *from, wrapping around;
 * a from->row of (size_t)-1 means "a point in time" (from->start only:
 * the first match starting at or after it, or the last one before it).
 * Returns 0 and fills *out, or -1 when there is no match.
 */
int	 search_step(const struct search *, const struct layout *,
	    const struct search_pos *from, int dir, struct search_pos *out);
/* The 1-based rank of match p among all matches. */
uint64_t search_rank(const struct search *, const struct layout *,
	    const struct search_pos *p);

#endif
