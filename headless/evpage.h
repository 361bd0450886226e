/*
 * evpage: the page of events a verb shows, kept without making a row of
 * every event it matches.
 *
 * Rows are cJSON objects of about a kilobyte each, so a verb that answers
 * one row per event (a million NVTX ranges) and is sorted by a field whose
 * value it can read from the lanes keeps instead the first --offset +
 * --limit events in out.c's order: a bounded max-heap of (value, global
 * id), the order by value (ascending or descending) and ties by the row
 * key "ev|id=<gid>" as a string (evrow_keycmp()), as out_emit() sorts. The
 * rows are then made for those events only, and the verb sets
 * out.total_matched to the number it matched. O(matches x log k) time,
 * 16 bytes per kept event.
 *
 * Ownership: evpage_init() allocates; evpage_free() releases.
 */
#ifndef GPULENS_EVPAGE_H
#define GPULENS_EVPAGE_H

#include <stddef.h>
#include <stdint.h>

struct evpage_item {
	int64_t		 v;
	uint32_t	 gid;
};

struct evpage {
	struct evpage_item	*h;
	size_t			 n, k;
	int			 desc;
};

/*
 * The index in fields (NULL-ended) of the field that sort spec
 * ("field[:asc|desc]", descending unless asc, as out.c reads it) names,
 * with *desc set; -1 for another field or a malformed order.
 */
int	evpage_field(const char *spec, const char *const *fields, int *desc);
/*
 * Starts a page of the offset + limit first events (out.offset and
 * out.limit) in the given direction and returns 1; returns 0 (and keeps
 * nothing) for every row (limit 0) or a page too large to be worth
 * keeping apart.
 */
int	evpage_init(struct evpage *, long long offset, long long limit,
	    int desc);
/* Offers event gid with sort value v. */
void	evpage_add(struct evpage *, int64_t v, uint32_t gid);
/* Puts h[0 .. n) in the output order (after the last evpage_add()). */
void	evpage_sort(struct evpage *);
void	evpage_free(struct evpage *);

#endif
