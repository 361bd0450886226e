/*
 * builder: the one interface through which every reader in sources/ feeds
 * the model (ncdu's dir_output idea).
 *
 * A reader creates a builder, declares entities (devices, processes,
 * threads, streams, domains), asks for tracks, pushes events into them and
 * side-table entries for kind-specific fields, then calls builder_finish(),
 * which finalizes the model (sorting, indices, NVTX tree, correlation) and
 * hands it to the caller.
 *
 * Declaring an entity twice with the same source id returns the same index
 * (the first declaration's fields win unless the set_* helpers update them).
 * All strings passed in are copied (interned); the builder keeps no pointer
 * to caller memory.
 *
 * Ownership: builder_new() allocates; builder_finish() consumes the builder
 * and returns a model the caller frees with model_free(); builder_abort()
 * frees an unfinished builder.
 */
#ifndef GPULENS_BUILDER_H
#define GPULENS_BUILDER_H

#include <stdint.h>

#include "util/hmap.h"
#include "model/model.h"

struct builder {
	struct model	*m;
	struct hmap	 dev_by_id;	/* source id -> device index */
	struct hmap	 proc_by_id;
	struct hmap	 thr_by_id;
	struct hmap	 stream_by_id;	/* key(device, source id) */
	struct hmap	 dom_by_id;	/* key(process, source id) */
	struct hmap	 track_by_key;
	size_t		 devcap, proccap, thrcap, streamcap, domcap, trackcap;
	size_t		 kcap, ccap, ncap, countercap, metacap, warncap;
	size_t		 opcap;
	struct hmap	 kernel_dedup;	/* hash(kernel_info) -> index */
	struct hmap	 copy_dedup;	/* hash(copy_info) -> index */
	uint64_t	 dropped_time;	/* events beyond MODEL_TIME_MAX */
};

struct builder	*builder_new(enum source_kind);
void		 builder_abort(struct builder *);
struct model	*builder_finish(struct builder *, char **cause);

uint32_t	 builder_intern(struct builder *, const char *s);
uint32_t	 builder_intern_n(struct builder *, const char *s, size_t len);
void		 builder_meta(struct builder *, const char *key,
		    const char *value);

/* Entities. proto fields are copied; string ids in proto must come from
 * builder_intern. Return the dense index. */
uint32_t	 builder_device(struct builder *, const struct device *proto);
uint32_t	 builder_process(struct builder *, uint64_t source_id,
		    uint32_t pid, const char *name);
uint32_t	 builder_thread(struct builder *, uint64_t source_id,
		    uint32_t tid, uint32_t process, const char *name);
uint32_t	 builder_stream(struct builder *, uint32_t device,
		    uint64_t source_id, uint32_t process);
uint32_t	 builder_domain(struct builder *, uint32_t process,
		    uint64_t source_id, const char *name);
/* Look-ups without creating (NONE32 if absent). */
uint32_t	 builder_find_device(const struct builder *, uint32_t source_id);
uint32_t	 builder_find_process(const struct builder *, uint64_t source_id);
uint32_t	 builder_find_thread(const struct builder *, uint64_t source_id);

/*
 * Tracks: one per GPU stream (owner = stream index), or per CPU thread and
 * type (owner = thread index; domain = domain index for TRACK_NVTX, else 0).
 * Created on first use.
 */
uint32_t	 builder_gpu_track(struct builder *, uint32_t stream);
/* The stream's synchronization track (EV_SYNC events go here). */
uint32_t	 builder_sync_track(struct builder *, uint32_t stream);
uint32_t	 builder_cpu_track(struct builder *, enum track_type,
		    uint32_t thread, uint32_t domain);

/* A counter track that belongs to no thread: a GPU's (device) or another
 * device's such as a NIC's (device NONE32), one per (device, key). */
uint32_t	 builder_counter_track(struct builder *, uint32_t device,
		    uint64_t key, uint32_t name);
/*
 * Side tables: return the index to store in lane_event.aux. Kernel and
 * copy records are de-duplicated (millions of launches share a handful of
 * configurations), so equal records return the same index.
 */
uint32_t	 builder_kernel(struct builder *, const struct kernel_info *);
uint32_t	 builder_copy(struct builder *, const struct copy_info *);
uint32_t	 builder_nvtx(struct builder *, const struct nvtx_info *);
/* Adds an operator's FLOPs record (op->nvtx an index builder_nvtx gave). */
void		 builder_op(struct builder *, const struct op_info *);
uint32_t	 builder_counter(struct builder *, double value);

/* Appends an event to a track; one with a time beyond +-MODEL_TIME_MAX
 * (a corrupt row) is dropped and counted in a warning. */
void		 builder_event(struct builder *, uint32_t track,
		    const struct lane_event *);

void		 builder_warn(struct builder *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

#endif
