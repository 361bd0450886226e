/*
 * layrank: the timeline's top-level groups ordered by distributed rank
 * (see layrank.c).
 */
#ifndef GPULENS_LAYRANK_H
#define GPULENS_LAYRANK_H

#include <stdint.h>

#include "tui/layout.h"

/* The single known rank of group g's tracks' processes, or -1. */
int32_t		 layrank_group(const struct layout *, uint32_t g);
/* Reorders the rows rank by rank; labels devices with their rank. */
void		 layrank_order(struct layout *);

#endif
