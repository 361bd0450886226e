/*
 * streams: the role of each GPU stream, as PithTrain's analysis skill
 * classifies streams, by purity:
 *   communication  every kernel of the stream is a communication kernel
 *                  (NCCL/RCCL, EVF_COMM); a single compute kernel makes it
 *                  a compute stream
 *   compute        it runs kernels (or whole-graph launches), not all of
 *                  them communication
 *   copy           no kernel: only memory copies and memsets
 * Streams with no GPU work (only synchronization) have no role and are
 * left out.
 *
 * A communication stream's purpose comes from the NVTX ranges around its
 * kernels' launches: for each kernel, the innermost push/pop range
 * enclosing its launching call, passing over communication ranges (NCCL's
 * own, flagged EVF_COMM or named nccl* or rccl*, and PyTorch's c10d::*
 * and record_param_comms operators) to the range that called them, as its family
 * (nvtxfam.h: "ProfilerStep#12" is "ProfilerStep#*"). When every kernel
 * of the stream names the same one, that is the purpose; when none has
 * one it is unknown (NULL); otherwise (two ranges, or a range for some
 * kernels and none for others) it is "mixed".
 *
 * Cost: one pass over the GPU tracks; the purpose costs an NVTX look-up
 * per communication kernel.
 *
 * Ownership: struct streams owns its array and purpose strings
 * (streams_free).
 */
#ifndef GPULENS_STREAMS_H
#define GPULENS_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum stream_role {
	STREAM_COMPUTE = 0,
	STREAM_COMM,
	STREAM_COPY,
	STREAM_NONE
};

struct stream_role_info {
	uint32_t	 track;		/* the stream's GPU track */
	uint8_t		 role;		/* enum stream_role */
	uint64_t	 kernels;	/* kernels and whole-graph launches */
	uint64_t	 comm_kernels;
	uint64_t	 copies, memsets;
	int64_t		 busy;		/* union of its work */
	char		*purpose;	/* communication streams: the range
					   family, "mixed", or NULL */
};

struct streams {
	struct stream_role_info	*s;	/* in track order */
	size_t			 n;
};

const char	*stream_role_name(int);
/* The role of one GPU track (STREAM_NONE: no work, or not a stream). */
int		 streams_track_role(const struct model *, uint32_t track);
/* Every stream with work: its role and, for communication, purpose. */
void		 streams_build(struct streams *, const struct model *);
void		 streams_free(struct streams *);

#endif
