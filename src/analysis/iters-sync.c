/*
 * iters-sync: time blocked on the GPU per iteration (iters.h).
 */
#include "config.h"

#include "analysis/iters.h"
#include "analysis/syncwait.h"

void
iters_sync(const struct model *m, struct iters *it)
{
	struct syncwait	 w;
	int64_t		 t0, t1;
	size_t		 i;

	it->sync_measured = 1;
	if (it->n == 0)
		return;
	t0 = it->v[0].start;
	t1 = it->v[0].end;
	for (i = 1; i < it->n; i++) {
		if (it->v[i].start < t0)
			t0 = it->v[i].start;
		if (it->v[i].end > t1)
			t1 = it->v[i].end;
	}
	syncwait_build(&w, m, t0, t1);
	for (i = 0; i < it->n; i++)
		it->v[i].sync_blocked = syncwait_measure_proc(&w,
		    it->v[i].process, it->v[i].start, it->v[i].end);
	syncwait_free(&w);
}
