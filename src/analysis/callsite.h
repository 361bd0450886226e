/*
 * callsite: where in the program an API or OS runtime call came from, from
 * its call chain (callchain.h: CUDA_CALLCHAINS, OSRT_CALLCHAINS).
 *
 * The call site of a chain is its first frame, leaf first, whose module
 * is the program's: not a library of the CUDA or HIP stack (the driver,
 * the runtime, the profiler's injection: libcuda, libcudart, libcupti,
 * libnvidia-*, libnvToolsExt, libToolsInjection*, libamdhip64,
 * libhsa-runtime64, librocprofiler*, libroctracer*), not the C library
 * (libc, libpthread, libdl, librt, libm, ld-linux*), and not a kernel or
 * pseudo module ("[vdso]", "[kernel.kallsyms]"). The module is judged by
 * the base name of its path. A frame with no module is passed over (it
 * cannot be judged). A chain with no such frame, and a call with no chain,
 * have no call site: nothing is guessed.
 *
 * struct callsites gathers the calls a finding cites: per call site (a
 * frame, so a function and module) their count and summed duration, the
 * costliest call of each site, and the costliest call of all.
 *
 * Ownership: struct callsites owns its arrays (callsites_free).
 */
#ifndef GPULENS_CALLSITE_H
#define GPULENS_CALLSITE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/fevidence.h"
#include "model/model.h"

struct callsite {
	uint32_t	 frame;		/* index into m->cs.frame */
	uint32_t	 gid;		/* its costliest call */
	uint32_t	 chain;		/* that call's chain */
	uint64_t	 count;
	int64_t		 ns, max_ns;
};

struct callsites {
	struct callsite	*v;		/* by ns, most first, after finish */
	size_t		 n, cap;
	uint64_t	 calls;		/* every call added */
	uint64_t	 chained;	/* of which with a chain */
	uint32_t	 top_gid;	/* the costliest call, NONE32 */
	int64_t		 top_ns;
	uint32_t	*chain_site;	/* chain -> site index + 1, 0 unknown,
					   NONE32 none (lazy) */
	uint32_t	*frame_site;	/* frame -> site index + 1 (lazy) */
};

/* Whether module path names a library of the CUDA/HIP stack or of libc. */
int	 callsite_system_module(const char *);
/* The call-site frame of chain c, or NONE32. */
uint32_t callsite_frame(const struct model *, uint32_t c);

void	 callsites_init(struct callsites *);
/* Adds call gid (an API or OS runtime call) lasting ns. */
void	 callsites_add(struct callsites *, const struct model *, uint32_t gid,
	    int64_t ns);
/* Orders the sites, most time first. */
void	 callsites_finish(struct callsites *);
void	 callsites_free(struct callsites *);
/*
 * The evidence of the calls gathered, when at least one has a chain
 * (otherwise nothing is added):
 *   call_site   record: the costliest call's event (its row id, for
 *               inspect), dur_ns, function, module and chain; null when
 *               that call has no chain or its chain no call site
 *   call_sites  list of the top sites (at most top): function, module,
 *               chain (of the site's costliest call), count, total_ns
 */
void	 callsites_evidence(struct fevidence *, const struct model *,
	    const struct callsites *, size_t top);

#endif
