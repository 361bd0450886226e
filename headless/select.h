/*
 * select: which events a verb's options select.
 *
 * sel_init() resolves the options once: the time window (relative times
 * are offsets from the trace origin; the default window is the whole
 * trace), device/stream/process/thread filters (by source ids as printed
 * by `info`), the event kind (or "comm": communication kernels and ranges),
 * name glob or regex (matched against the full and the short name, cached
 * per string id), minimum duration, and --nvtx/--iter scoping.
 *
 * --nvtx RANGE[@DOMAIN] keeps events of a process that overlap an instance
 * of that range in the same process; --iter N keeps only the Nth instance
 * (0-based, in start order) of each process.
 *
 * --tid keeps CPU events of that thread and GPU events launched from it.
 *
 * Ownership: struct sel owns its caches; sel_free() releases them.
 */
#ifndef GPULENS_SELECT_H
#define GPULENS_SELECT_H

#include <regex.h>
#include <stdint.h>

#include "model/lane.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"

struct sel_window {
	uint32_t	 process;
	int64_t		 start, end;
};

struct sel {
	const struct model	*m;
	int64_t			 t0, t1;	/* [t0, t1) in source clock */
	int			 kind;		/* 0 any, -1 comm, else kind */
	uint32_t		 device;	/* index or NONE32 */
	int			 has_device;
	int64_t			 stream;	/* source id or -1 */
	int64_t			 pid, tid;	/* -1 = any */
	const char		*glob;
	regex_t			 re;
	int			 has_re;
	uint8_t			*name_cache;	/* per string id: 0 ?, 1 y, 2 n */
	int64_t			 min_dur;
	struct sel_window	*win;		/* --nvtx instances */
	size_t			 nwin;
	int			 has_nvtx;
};

/* Returns 0, or -1 with *cause (unknown device, bad regex, ...). */
int	 sel_init(struct sel *, const struct model *, const struct opts *,
	    char **cause);
/*
 * sel_init() for a verb: on error *code is "usage"; a window that lies
 * outside the trace is warned about (window_outside).
 */
int	 sel_open(struct sel *, const struct model *, const struct opts *,
	    struct out *, const char **code, char **cause);
void	 sel_free(struct sel *);
enum sel_of {
	SEL_OF_DEVICE,		/* a device by its source id */
	SEL_OF_PROCESS,		/* a process by its pid */
};
/*
 * The index of the device printed as id (its source id) or of the process
 * id; -1 with *cause if the trace has none.
 */
int	 sel_index(const struct model *, enum sel_of, long long id,
	    uint32_t *, char **cause);
/* Does track t possibly hold selected events? */
int	 sel_track(const struct sel *, uint32_t t);
/* Is event idx of track t selected? (Call only for tracks that pass.) */
int	 sel_event(struct sel *, uint32_t t, uint32_t idx);
/*
 * Whether the selection has no filter that looks at single events beyond
 * their kind and time: then, on a track that sel_track() passes, an event
 * that lane_overlap() returns is selected exactly when sel_kind() says so.
 * sel_plain() answers for every track, sel_lane_plain() for track t (--tid
 * looks at each GPU event's launching thread, and only at those).
 */
int	 sel_plain(const struct sel *);
int	 sel_lane_plain(const struct sel *, uint32_t t);
/* Whether event i of l is of the selected kind (sel_event's first test). */
static inline int
sel_kind(const struct sel *s, const struct lane *l, size_t i)
{
	if (s->kind > 0)
		return l->kind[i] == s->kind;
	return s->kind == 0 || (l->flags[i] & EVF_COMM) != 0;
}
/* Does a name (string id) match the name filter? */
int	 sel_name(struct sel *, uint32_t sid, uint32_t short_sid);
/* The window relative to the origin, for messages. */
int	 sel_window_empty(const struct sel *);
/*
 * data.auxiliary's window_start_ns and window_end_ns of the window [t0,
 * t1) (an end before the start is the start), relative to the trace origin
 * unless --absolute.
 */
void	 sel_window_aux(struct out *, const struct model *,
	    const struct opts *, int64_t t0, int64_t t1);
/*
 * The window of a verb that reads a whole window (phases, findings):
 * [*t0, *t1) in the source clock from --from and --to, the trace end at
 * the latest unless --to; --nvtx is refused. Returns 1 with the window; 0
 * when it is empty (warned window_empty, unless the capture is: the loader
 * says so), not an error; -1 with *cause.
 */
int	 sel_span(const struct model *, const struct opts *, struct out *,
	    int64_t *t0, int64_t *t1, char **cause);

#endif
