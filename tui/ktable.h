/*
 * ktable: the kernel table view's rows: the kernels grouped by name with
 * their statistics, the result of the grouping analysis (gstats.h) that
 * `gpulens stats --type kernel` prints too (and nsys's cuda_gpu_kern_sum):
 * one row per kernel name (the full, demangled name): count, total, share
 * of all kernel time, mean, median, min, max and sample standard
 * deviation of the durations.
 *
 * What is the view's own: ktable_view() filters the rows by a
 * case-insensitive substring of the full or short name and sorts them by a
 * column; ktable_instances() lists one kernel's instances in start order
 * (one pass over the GPU tracks), for Enter.
 *
 * Ownership: ktable_build() returns a table freed with ktable_free().
 */
#ifndef GPULENS_KTABLE_H
#define GPULENS_KTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/gstats.h"
#include "model/model.h"

enum ktable_sort {
	KT_SORT_TOTAL,		/* also the share */
	KT_SORT_COUNT,
	KT_SORT_MEAN,
	KT_SORT_MEDIAN,
	KT_SORT_MIN,
	KT_SORT_MAX,
	KT_SORT_STDDEV,
	KT_SORT_NAME,
	KT_SORT_COUNT_		/* number of sort keys */
};

struct ktable {
	const struct model	*m;
	struct gstats		*gs;		/* kernels by name: the rows */
	uint32_t		*vis;		/* shown rows (gs->g indices) */
	size_t			 nvis;
	char			 filter[256];
	int			 sort, desc;
};

struct ktable	*ktable_build(const struct model *);
void		 ktable_free(struct ktable *);
/* Recomputes the shown rows for a filter ("" or NULL: all) and order. */
void		 ktable_view(struct ktable *, const char *filter, int sort,
		    int desc);
/*
 * The global ids of the kernels named name, in start order, into *buf
 * (grown as needed); returns their number.
 */
size_t		 ktable_instances(const struct model *, uint32_t name,
		    uint32_t **buf, size_t *cap);
/* "total", "count", ... */
const char	*ktable_sort_name(int);

#endif
