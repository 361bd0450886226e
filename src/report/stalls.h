/*
 * stalls: where the warps of a launch stall, from ncu's PC sampling
 * (--set full, the WarpStateStats and SourceCounters sections).
 *
 * Each sample is a warp caught at an instruction, with the reason it was
 * not issuing (or "selected": it was). Per instruction the report holds
 * smsp__pcsamp_sample_count (every sample), smsp__pcsamp_warps_issue_
 * stalled_REASON (the samples of each reason, all samples: they add up to
 * the sample count) and smsp__pcsamp_warps_issue_stalled_REASON_not_issued
 * (those in which no warp of the scheduler issued), as the Source page of
 * Nsight Compute shows them under "Warp Stall Sampling (All Samples)" and
 * "(Not-issued Samples)". The reasons are those the report's
 * group:smsp__pcsamp_warp_stall_reasons metric lists, else every metric
 * of that prefix.
 *
 * report_stalls_group() sums the samples by reason, by instruction or by
 * source line (where the cubin has a line table).
 */
#ifndef GPULENS_REPORT_STALLS_H
#define GPULENS_REPORT_STALLS_H

#include <stddef.h>
#include <stdint.h>

#include "report/pcs.h"

struct report;

struct report_stalls {
	uint32_t		 launch;
	struct report_pcs	 pcs;
	size_t			 nreasons;
	char			**reason;	/* "long_scoreboard" */
	int			*col;		/* pcs column of each reason */
	int			*nicol;		/* ..._not_issued, or -1 */
	int			 samplecol;	/* smsp__pcsamp_sample_count */
	double			 samples;	/* the launch's sample count
						   (its scalar metric) */
	double			 reason_sum;	/* samples over every reason */
	double			 not_issued;	/* not-issued samples */
};

enum report_stalls_by {
	RSB_REASON,
	RSB_PC,
	RSB_LINE,
};

/* One group: a reason, an instruction or a source line. */
struct report_stall_group {
	uint32_t	 reason;	/* RSB_REASON: the reason's index */
	uint64_t	 off;		/* RSB_PC: offset in the function */
	uint32_t	 file;		/* RSB_PC, RSB_LINE: or NONE */
	uint32_t	 line;		/* 0 if unknown */
	size_t		 npcs;		/* instructions in the group */
	double		 samples;
	double		 not_issued;
	double		*by_reason;	/* RSB_PC, RSB_LINE: samples per
					   reason (nreasons) */
	double		*ni_by_reason;	/* and not-issued samples */
};

/* Returns 0, or -1 when the launch has no PC sampling data. */
int		 report_stalls_build(const struct report *, uint32_t launch,
		    struct report_stalls *);
void		 report_stalls_free(struct report_stalls *);
/* Groups, most samples first (ties: reason index, offset, line). */
size_t		 report_stalls_group(const struct report_stalls *, int by,
		    struct report_stall_group **);
void		 report_stalls_groups_free(struct report_stall_group *, size_t);
/* The reason with most samples of a group, or -1 if none. */
int		 report_stalls_top(const struct report_stalls *,
		    const struct report_stall_group *);

#endif
