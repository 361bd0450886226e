/*
 * ncucmd: the command line that profiles exactly one kernel launch of a
 * trace, in one place for `gpulens ncu-command` and the findings.
 *
 * NVIDIA (tool "ncu"):
 *   ncu --kernel-name NAME --launch-skip K --launch-count 1 --export evID
 *       <application> [arguments]
 * NAME is the kernel's base name (what ncu matches by default) and K the
 * launches of kernels of that name earlier in the same process, in the
 * order ncu sees them (their launching API calls; the kernel's own start
 * where there is no call). The demangled form matches the whole demangled
 * name (--kernel-name-base demangled --kernel-name regex:^...$) with its
 * own skip count, for base names several template instances share.
 *
 * AMD (the launch's device vendor is AMD, or the trace is rocpd, RPD or
 * rocprofv3 JSON; tool "rocprofv3", and "rocprof-compute" beside it):
 *   rocprofv3 --kernel-include-regex '^NAME$' --kernel-iteration-range N
 *       --pmc SQ_WAVES GRBM_GUI_ACTIVE -d evID -- <application> [arguments]
 * NAME is the whole kernel name (rocprofv3 matches the regex in the
 * demangled name) and N counts that kernel's launches in the process from
 * 1 (rocprofv3 filters counter collection per matching kernel);
 *   rocprof-compute profile -n evID -k NAME -- <application> [arguments]
 * profiles every launch of the kernel with the full counter set.
 * The application and its arguments are left for the user.
 */
#ifndef GPULENS_NCUCMD_H
#define GPULENS_NCUCMD_H

#include <stdint.h>

#include "model/model.h"

#define NCUCMD_MAX	2	/* commands for one launch */

struct ncucmd {
	uint32_t	 gid;
	const char	*kernel;	/* whole name (model string) */
	const char	*short_name;	/* base name (model string) */
	uint32_t	 proc;		/* process index, or NONE32 */
	int		 amd;
	int64_t		 skip;		/* earlier launches, same base name */
	int64_t		 dskip;		/* earlier launches, same whole name */
	size_t		 n;		/* commands, the first the exact one */
	const char	*tool[NCUCMD_MAX];	/* "ncu", "rocprofv3",
						   "rocprof-compute" */
	char		*command[NCUCMD_MAX];
	char		*demangled[NCUCMD_MAX];	/* the whole-name form */
};

/*
 * Builds the commands for kernel event gid. Returns 0, or -1 with *code
 * ("not_found", "bad_input") and *cause (caller frees) when gid is not a
 * kernel launch.
 */
int	 ncucmd_build(const struct model *, uint32_t gid, struct ncucmd *,
	    const char **code, char **cause);
void	 ncucmd_free(struct ncucmd *);

#endif
