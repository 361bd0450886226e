/*
 * nvtxcur: the innermost NVTX range around many times, asked mostly in
 * increasing order per thread (the launches of one stream's kernels, the
 * events of one lane): the same answers as nvtx_enclosing_in() (nvtx.h),
 * without a stab of the interval index per question.
 *
 * Per NVTX track a cursor keeps the push/pop ranges open at the last time
 * asked on that track (those lane_stab() would give, in index order) and
 * the next range to open. A later time opens the ranges that start by it
 * and drops those that ended: O(ranges passed + ranges open). An earlier
 * time, or one more than NVTX_CUR_SKIP ranges ahead, restarts the cursor
 * from a stab: O(log n + ranges open). Across the thread's tracks the
 * innermost is chosen as nvtx_enclosing_in() chooses it. Each thread
 * keeps its last answer until the first time after it at which a range
 * of its tracks opens or ends: a later time before that is answered in
 * O(1), no cursor moved (the kernels launched inside one range).
 *
 * Ownership: nvtx_cur_new() returns a cursor set freed with
 * nvtx_cur_free(); it borrows the model and the domain string.
 */
#ifndef GPULENS_NVTXCUR_H
#define GPULENS_NVTXCUR_H

#include <stdint.h>

#include "model/model.h"

struct nvtx_cur;

/* Cursors over the ranges of domain (NULL: every domain). */
struct nvtx_cur	*nvtx_cur_new(const struct model *, const char *domain);
void		 nvtx_cur_free(struct nvtx_cur *);
/* nvtx_enclosing_in(m, thread, t, domain). */
uint32_t	 nvtx_cur_at(struct nvtx_cur *, uint32_t thread, int64_t t);
/*
 * After nvtx_cur_at(c, thread, t): the first time after t at which the
 * answer may change (INT64_MAX: none), so every time in [t, until) has
 * the same answer; t itself where the thread keeps no answer.
 */
int64_t		 nvtx_cur_until(const struct nvtx_cur *, uint32_t thread,
		    int64_t t);

#endif
