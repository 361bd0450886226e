/*
 * ranksetup: a process's distributed rank and parallel layout as a
 * framework writes them into an NVTX range or mark, e.g. Megatron-style
 * "rank=3; pp=1/4 dp=0/2 tp=1/2": the text holds "rank=N" and, for each
 * parallel dimension, "NAME=R/S" (its rank R of S, 0 <= R < S; names of
 * letters, up to 7). Tokens are separated by blanks, ';' or ','; tokens
 * of other shapes are passed over. A text without rank=N is not a setup.
 *
 * ranksetup_build() takes, per process, the earliest NVTX range or mark
 * (of any of its threads and domains) whose text is a setup.
 *
 * Ownership: the array ranksetup_build returns is the caller's (free).
 */
#ifndef GPULENS_RANKSETUP_H
#define GPULENS_RANKSETUP_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define RANKSETUP_AXES	8

struct rank_axis {
	char		 name[8];
	int32_t		 idx, size;
};

struct rank_setup {
	int32_t		 rank;		/* -1: no setup */
	int		 naxes;
	struct rank_axis ax[RANKSETUP_AXES];
};

/* Parses text; 1 when it is a setup (rank=N found), else 0. */
int	 ranksetup_parse(const char *text, struct rank_setup *);
/* "pp=1/4 dp=0/2" (the axes in the text's order; "" for none). */
void	 ranksetup_text(const struct rank_setup *, char *buf, size_t len);
/* One entry per process (rank -1 where none). */
struct rank_setup *ranksetup_build(const struct model *);

#endif
