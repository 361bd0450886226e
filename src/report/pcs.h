/*
 * pcs: the per-instruction counters of one launch, as a table: a row per
 * program counter, a column per source counter (the instanced metrics
 * whose correlation ids are the instruction addresses: inst_executed,
 * smsp__pcsamp_sample_count, smsp__pcsamp_warps_issue_stalled_*,
 * memory_l2_theoretical_sectors_global, ...), each row joined to its
 * source file and line where the module has a line table.
 *
 * A metric is a source counter when every one of its elements is keyed
 * by an integer at or past the function's load address
 * (launch__function_pcs) and within its code (the function's size, when
 * the cubin tells it). The address of an instruction is its offset in
 * the function plus that load address.
 */
#ifndef GPULENS_REPORT_PCS_H
#define GPULENS_REPORT_PCS_H

#include <stddef.h>
#include <stdint.h>

struct report;

struct report_pcs {
	uint32_t	 launch;
	uint32_t	 func;		/* index in code.funcs, or NONE */
	uint64_t	 base;		/* the function's load address */
	size_t		 npcs;
	uint64_t	*off;		/* offset of each row, ascending */
	uint32_t	*file;		/* file of each row, or NONE */
	uint32_t	*line;		/* 0 where unknown */
	size_t		 ncols;
	uint32_t	*col;		/* metric name (string id) of each */
	double		*v;		/* npcs x ncols, NAN where absent */
	int		 has_lines;	/* some row has a line */
};

/* Builds the table of a launch; npcs is 0 when it has no source counters. */
void		 report_pcs_build(const struct report *, uint32_t launch,
		    struct report_pcs *);
void		 report_pcs_free(struct report_pcs *);
/* The column of a metric, or -1. */
int		 report_pcs_col(const struct report *,
		    const struct report_pcs *, const char *name);
/* The value at row i, column c (NAN if c < 0 or absent). */
double		 report_pcs_get(const struct report_pcs *, size_t i, int c);

#endif
