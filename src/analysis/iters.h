/*
 * iters: a trace's iterations (training steps), the one definition that
 * `iters`, `window`, `ranks`, `summary`, `diff`, `phases`, `findings` and
 * the steady window (steady.h) share.
 *
 * With a range name (--range NAME), every NVTX range of that name or of
 * that name family (nvtxfam.h: "ProfilerStep#*" covers ProfilerStep#0,
 * #1, ...; the older spelling "ProfilerStep#" is accepted too) is an iteration.
 *
 * Without one, the marker is chosen (iters-marker.c). An NVTX range is
 * eligible when it is
 *   - in a user domain: never a library's (iters_library_domain: CCCL,
 *     CUB, Thrust, NCCL, RCCL, cuBLAS, cuDNN, MPI, ... and Kineto's
 *     python_function stacks),
 *   - not a PyTorch per-operator range: a name starting "aten::" or
 *     holding ", seq = N" or ", op_id = N", or a Kineto cpu_op other than
 *     ProfilerStep#N (PyTorch before 1.9 recorded its steps as operators),
 *   - not communication (EVF_COMM, names starting nccl, rccl or gloo).
 * Its family is nvtx_family() of its name (model/nvtxfam.h). It is top-level when no
 * eligible range of a repeating family (at least ITERS_MIN_REPEAT on the
 * thread) encloses it on its thread, in any domain: wrappers that occur
 * once or twice ("Loop", "main") do not count. A family is a marker when
 * its top-level ranges repeat at least ITERS_MIN_REPEAT times on one thread
 * and cover (their union) at least ITERS_MIN_COVER of the span they run
 * over (first start to last end, per track), as steps that follow one
 * another do and sparse calls (a reduction now and then) do not, and that
 * span is at least ITERS_MIN_EXTENT of their process's (first to last
 * event), which a burst of library calls is not. Of the
 * markers, "ProfilerStep#*" wins, else the one with the most top-level
 * ranges (ties: the larger coverage, then the name). Its top-level ranges
 * are the iterations.
 *
 * Without a marker, the kernel-period fallback runs for every process
 * (and once for GPU tracks of no known process): among the kernel names
 * occurring at least 3 times on one of its GPU streams, the one whose
 * inter-arrival times vary least (lowest coefficient of variation, ties
 * to the more frequent, then the earlier) marks the start of each
 * iteration; an iteration runs from one occurrence to the next. Each
 * process has its own marker kernel.
 *
 * Measures (iters_measure(), which only `iters` needs), each over the
 * iteration's [start, end) and the GPUs its process's streams run on
 * (every GPU for an iteration of no process, or only the selected
 * device): gpu_busy, the union busy of each of those
 * GPUs summed over them (so it can reach ndevices x duration); kernels,
 * copies and memsets, the kernels (EV_KERNEL), copies (EV_MEMCPY) and
 * memsets (EV_MEMSET) that run in it, counted as `search --type KIND
 * --from START --to END --pid PID` counts them (overlapping the window).
 *
 * Ownership: struct iters owns its arrays and marker (iters_free).
 */
#ifndef GPULENS_ITERS_H
#define GPULENS_ITERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define ITERS_MIN_REPEAT	3	/* instances on one thread */
#define ITERS_MIN_COVER		0.5	/* of the span they run over */
#define ITERS_MIN_EXTENT	0.1	/* that span, of their process's */
#define ITERS_MIN_KERNEL	3	/* occurrences of a period kernel */

enum iters_method {
	ITERS_NONE = 0,
	ITERS_NVTX,		/* a repeating NVTX range */
	ITERS_KERNEL,		/* the periodic kernel sequence */
};

struct iter {
	uint32_t	 process;	/* index or NONE32 */
	uint32_t	 index;		/* 0-based within its process */
	uint32_t	 range;		/* NVTX range gid or NONE32 */
	uint32_t	 name;		/* marker name (string id): the range's
					   or the period kernel's */
	int64_t		 start, end;
	int64_t		 gpu_busy;	/* union busy of each of the process's
					   GPUs, summed over those GPUs */
	uint32_t	 ndevices;	/* GPUs measured */
	uint64_t	 kernels;	/* EV_KERNEL running in it */
	uint64_t	 copies;	/* EV_MEMCPY */
	uint64_t	 memsets;	/* EV_MEMSET */
	int64_t		 sync_blocked;	/* iters_sync(): its process's threads'
					   time in blocking calls (union) */
};

/* The iterations of one process (or of no process, NONE32). */
struct iters_proc {
	uint32_t	 process;
	size_t		 first, n;	/* its iterations: v[first, first + n) */
	uint32_t	 marker;	/* string id of its marker name */
};

struct iters {
	enum iters_method method;
	char		*marker;	/* range family or kernel name (that of
					   the process with the most
					   iterations) */
	struct iter	*v;		/* by process, then start */
	size_t		 n;
	struct iters_proc *proc;	/* processes with iterations, in
					   process order (NONE32 last) */
	size_t		 nproc;
	int		 sync_measured;	/* iters_sync() ran */
};

/* What to find: all NONE32 / -1 / NULL for the whole trace. */
struct iters_sel {
	const char	*range;		/* marker range or family, or NULL */
	uint32_t	 process;	/* only this process (index) */
	int32_t		 rank;		/* only processes of this rank
					   (iters_rank_map), or -1 */
	uint32_t	 device;	/* only processes using this device
					   (index), measured on it alone */
};

void	 iters_sel_init(struct iters_sel *);
/*
 * Finds iterations. Returns 0 (n may be 0 when nothing repeats), or -1
 * with *cause when a named range is absent. Free with iters_free().
 * The marker is chosen over the whole trace, whatever the selection.
 * The measures (gpu_busy, ndevices, kernels, copies, memsets) stay 0
 * until iters_measure().
 */
int	 iters_select(const struct model *, const struct iters_sel *,
	    struct iters *, char **cause);
/* iters_select() of the whole trace; range may be NULL (automatic). */
int	 iters_find(const struct model *, const char *range, struct iters *,
	    char **cause);
void	 iters_free(struct iters *);
/*
 * Measures every iteration (see above) over its process's GPUs, or over
 * device alone (index) unless it is NONE32: what iters_sel.device
 * selected.
 */
void	 iters_measure(const struct model *, struct iters *,
	    uint32_t device);
/*
 * Time blocked on the GPU per iteration (iters-sync.c): sync_blocked is
 * the time the threads of the iteration's process spent in blocking API
 * calls (syncwait.h's classifier: synchronisations and synchronous
 * copies), the union over those threads clipped to [start, end), so at
 * most the iteration's duration; for an iteration of no process, the
 * union over every thread. One pass over the API tracks.
 */
void	 iters_sync(const struct model *, struct iters *);
/*
 * Every process's rank as `ranks` numbers them into rank[nprocesses]: the
 * trace's ranks, or in a trace without any, the processes that own GPU
 * streams (else all), numbered in process order; -1 for none. Returns 1
 * when guessed.
 */
int	 iters_rank_map(const struct model *, int32_t *rank);
/* The iterations of process p (index or NONE32), or NULL. */
const struct iters_proc *iters_of(const struct iters *, uint32_t p);
/* Whether an NVTX domain name is a library's (never a marker). */
int	 iters_library_domain(const char *name);

#endif
