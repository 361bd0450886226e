/*
 * comm: communication, defined once for every verb and view.
 *
 * Collective identity (comm_identify). A communication event (EVF_COMM) is
 * one of the known collectives (AllReduce, AllGather, ReduceScatter,
 * Reduce, Broadcast, SendRecv, Send, Recv, AllToAll(v), Gather, Scatter,
 * Barrier), taken, first that names one:
 *   1. from its own name (comm_collective: "ncclDevKernel_AllReduce_Sum_
 *      bf16_RING_LL", "nccl:all_reduce", "ncclAllReduce" are AllReduce);
 *   2. for a kernel, from its collective args (kernel_info comm_coll:
 *      PyTorch's record_param_comms "Collective name", which Kineto copies
 *      onto the kernel: "allreduce", "_allgather_base", ...);
 *   3. for a GPU event, from the NCCL/RCCL annotation around its launch:
 *      the ranges enclosing the launching API call on its thread, innermost
 *      first, whose name names a known collective and either contains
 *      "nccl"/"rccl" or lies in a domain of that name (PyTorch's
 *      "nccl:all_reduce", NCCL's own NVTX "ncclAllReduce");
 * else it keeps the first word of its name after the library prefix
 * ("ncclDevKernel_Generic" -> Generic). Message sizes come from the
 * kernel's collective args where present (struct comm_id.ki; for a
 * Kineto kernel without args, the reader fills them from the annotation
 * around its launch, with KCOMM_ANN).
 *
 * Exposed communication (comm_exposed): on each device, the communication
 * kernel time that no compute kernel of the same device overlaps, |M \ C|
 * with M and C the unions of the device's communication and compute work
 * (activity.h's classes) inside the window; the total is the sum over the
 * devices. This is HTA's get_comm_comp_overlap per rank read the other
 * way round (exposed = |M| x (1 - comp_comm_overlap_pctg)); HTA classifies
 * kernels by name alone and works per rank, where a device is ours.
 * `overlap` and `findings` both report it.
 */
#ifndef GPULENS_COMM_H
#define GPULENS_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/activity.h"
#include "model/model.h"

#define COMM_NAME_MAX	64

/* Where a collective's identity came from. */
enum comm_src {
	COMM_SRC_NAME = 0,	/* the event's own name */
	COMM_SRC_ARGS,		/* the kernel's collective args */
	COMM_SRC_ANNOTATION,	/* an NCCL/RCCL range around the launch */
	COMM_SRC_NONE		/* none names one: first word of the name */
};

/* Which element count is a collective's message size. */
enum comm_size { COMM_SIZE_IN, COMM_SIZE_OUT };

struct comm_id {
	char		 name[COMM_NAME_MAX];	/* "AllReduce", or "Generic" */
	int		 known;		/* index of a known collective, -1 */
	int		 src;		/* enum comm_src */
	uint32_t	 range;		/* COMM_SRC_ANNOTATION: its gid */
	const struct kernel_info *ki;	/* a kernel's info, or NULL */
};

/* The collective of the name (steps 1 and the fallback above) into buf. */
const char	*comm_collective(const char *name, char *buf, size_t len);
/* The known collective a name spells ("_allgather_base"), or -1. */
int		 comm_known_of(const char *);
/* Which element count sizes it; its bus factor over n ranks (0 unknown),
 * -1 when there is none (nccl-tests' factors). */
int		 comm_known_size(int);
double		 comm_bus_factor(int, uint32_t);
/* The identity of event gid (the top comment). */
void		 comm_identify(const struct model *, uint32_t gid,
		    struct comm_id *);

struct comm_exposed_dev {
	uint32_t	 device;	/* index into m->devices */
	size_t		 slot;		/* its activity slot */
	int64_t		 compute, comm;	/* |C|, |M| */
	int64_t		 exposed;	/* |M \ C| */
};

struct comm_exposed {
	struct comm_exposed_dev	*dev;	/* devices with communication */
	size_t			 ndev, cap;
	int64_t			 comm, exposed;	/* summed over devices */
	size_t			 worst;	/* slot in dev with the most exposed */
};

/* |M \ C| from |C| and |C u M|. */
int64_t		 comm_exposed_of(int64_t compute, int64_t compute_or_comm);
/* Exposed communication of every device in [t0, t1). */
void		 comm_exposed(const struct activity *, int64_t t0, int64_t t1,
		    struct comm_exposed *);
void		 comm_exposed_free(struct comm_exposed *);

#endif
