/*
 * jobload: a job's ranks compared from their summaries (jobload.h).
 */
#include "config.h"

#include <string.h>

#include "sources/jobload.h"

int
jobload_ranks(char **files, size_t n, const struct load_opts *lo,
    struct jobrank *jr, struct jobsum *js, char **cause)
{
	size_t	i;
	int	rc;

	jobrank_init(jr, n);
	rc = jobsum_load(files, n, lo, jobrank_take, jr, js, cause);
	if (rc != 0) {
		jobrank_free(jr);
		return rc;
	}
	for (i = 0; i < js->n; i++)
		jobrank_place(jr, js->r[i].index, js->r[i].rank,
		    js->r[i].shift_ns, js->r[i].file);
	jobrank_finish(jr);
	return 0;
}
