/*
 * samples: CPU hotspots from the model's CPU samples (model/callchain.h).
 *
 * Every sample in the window counts once. Grouped by function (a frame:
 * function and module), a sample adds one to the self count of its leaf
 * frame (stack depth 0, where the thread was when sampled) and one to the
 * total count of every distinct frame of its call chain (a recursive
 * function counts once per sample). Grouped by module, the same with the
 * frames' modules. Grouped by thread, a thread's self and total are its
 * samples. Samples without a call chain count in samples and
 * without_chain only.
 *
 * The window: samples at t0 <= t < t1; with windows (--nvtx instances,
 * each of one process), only samples of a thread of that process inside
 * one of them (overlapping windows count a sample once). A sampled thread's
 * process is its model thread's, else the process with its pid.
 *
 * Rows: by self (largest first), then total, then name (module, tid).
 *
 * Ownership: struct samples_result owns its rows (samples_free).
 */
#ifndef GPULENS_SAMPLES_H
#define GPULENS_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum samples_group {
	SAMPLES_BY_FUNCTION,
	SAMPLES_BY_MODULE,
	SAMPLES_BY_TID
};

struct samples_win {
	uint32_t	 process;	/* index into the model's processes */
	int64_t		 start, end;
};

struct samples_query {
	int64_t			 t0, t1;
	const struct samples_win *win;	/* NULL: no window list */
	size_t			 nwin;
	int			 has_win;	/* a list was given (maybe empty) */
	int			 group;		/* enum samples_group */
	int64_t			 tid;		/* OS tid, -1 any */
};

struct samples_row {
	uint32_t	 func;		/* string ids; 0 where the group has
					   none */
	uint32_t	 module;
	uint32_t	 sthread;	/* SAMPLES_BY_TID: index into m->cs.th,
					   else NONE32 */
	uint64_t	 self, total;
};

struct samples_result {
	struct samples_row	*rows;
	size_t			 nrows;
	uint64_t		 samples;	/* in the window */
	uint64_t		 without_chain;
	size_t			 threads;	/* sampled threads with one */
};

/* "function", "module", "tid"; samples_group_parse gives -1 if unknown. */
const char	*samples_group_name(int);
int		 samples_group_parse(const char *);
/* The process of sampled thread h, or NONE32. */
uint32_t	 samples_process(const struct model *, uint32_t h);
void		 samples_build(const struct model *,
		    const struct samples_query *, struct samples_result *);
void		 samples_free(struct samples_result *);

#endif
