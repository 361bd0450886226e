/*
 * evrow: one event as the event-level verbs present it (search, inspect,
 * correlate, export --to csv): its row id "ev:<gid>", its headline columns,
 * and the small look-ups they share (the thread an event belongs to, the
 * NVTX range around it, API names without their version suffix).
 *
 * A global event id (model.h) is stable for a given file: the model orders
 * its tracks deterministically, so "ev:<gid>" is the row key of an event.
 */
#ifndef GPULENS_EVROW_H
#define GPULENS_EVROW_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "model.h"

/* The search columns, in display order (NULL-terminated). */
extern const char	*evrow_columns[];

/* Parses "ev:123" or "123" into *gid; -1 if malformed (not a range check). */
int		 evrow_parse_id(const char *arg, uint32_t *gid);
/* Writes "ev:<gid>" into buf (always NUL-terminated). */
void		 evrow_key(char *buf, size_t len, uint32_t gid);
/* Orders gids as their keys compare as strings (out.c's tie-break). */
int		 evrow_keycmp(uint32_t a, uint32_t b);
/* A time as verbs print it: relative to the origin unless absolute. */
int64_t		 evrow_time(const struct model *, int64_t t, int absolute);
/*
 * The thread of an event: its CPU track's thread or, for GPU work, the
 * thread of the launching API call. NONE32 if unknown.
 */
uint32_t	 evrow_thread(const struct model *, uint32_t gid);
/* Whether a track belongs to a GPU stream (its work, or its sync waits):
 * device and stream are set. */
int		 evrow_gpu_side(const struct track *);
/* The process of an event (its track's, else its thread's), or NONE32. */
uint32_t	 evrow_process(const struct model *, uint32_t gid);
/* Length of an API name without a trailing "_vNNNN" (as nsys reports). */
size_t		 evrow_api_len(const char *name);
/*
 * The innermost NVTX push/pop range around an event: for GPU work, around
 * its launching API call; for an NVTX range or mark, its parent; for other
 * CPU events, on its thread at its start. NONE32 if none.
 */
uint32_t	 evrow_range(const struct model *, uint32_t gid);
/* The iteration index of the outermost range enclosing range (itself
 * included), NONE32 if none: what `stats --group-by iter` calls iter. */
uint32_t	 evrow_iter(const struct model *, uint32_t range);
/* The kernel_info / copy_info of an event, or NULL. */
const struct kernel_info *evrow_kernel(const struct model *, uint32_t gid);
const struct copy_info	 *evrow_copy(const struct model *, uint32_t gid);
/* Adds the search columns of event gid to row. */
void		 evrow_fill(cJSON *row, const struct model *, uint32_t gid,
		    int absolute);
/* Adds key: value, or key: null when value is NONE32 / negative. */
void		 evrow_device(cJSON *row, const struct model *, uint32_t dev);
void		 evrow_stream(cJSON *row, const struct model *, uint32_t st);
void		 evrow_pid(cJSON *row, const struct model *, uint32_t proc);
void		 evrow_tid(cJSON *row, const struct model *, uint32_t thr);

#endif
