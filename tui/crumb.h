/*
 * crumb: the NVTX ancestry of an event as a breadcrumb line,
 * "ProfilerStep#7 › forward › attention", that the timeline keeps in view
 * for the event under the cursor.
 *
 * crumb_chain() gathers the ranges, outermost first, across NVTX domains
 * (an NCCL range inside a user's range shows both). crumb_fit() lays
 * the names out in a given number of columns: when they do not fit, the
 * outermost names go first (replaced by one ellipsis), then the innermost
 * name is cut; it is arithmetic on sanitised widths only, so unit tests
 * check it (tests/unit/crumb_test.c).
 */
#ifndef GPULENS_CRUMB_H
#define GPULENS_CRUMB_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define CRUMB_MAX	32	/* ranges kept, innermost first */

/*
 * The NVTX ranges around event gid, outermost first, into out (at most max,
 * the innermost kept); returns their number. The ranges are those of every
 * domain on the event's thread (GPU work: its launching call's) around its
 * start (its launching call's), or around an NVTX range itself, which ends
 * the chain. *buf (*cap entries) is scratch space, grown as needed.
 */
size_t	 crumb_chain(const struct model *, uint32_t gid, uint32_t *out,
	    size_t max, uint32_t **buf, size_t *cap);
/*
 * Joins the n names (outermost first) with sep into buf (UTF-8, len
 * bytes) in at most maxw columns, sanitised with the safetext flags;
 * returns the width written.
 */
int	 crumb_fit(const char *const *names, size_t n, const char *sep,
	    int flags, int maxw, char *buf, size_t len);

#endif
