/*
 * srcdev: the devices a reader meets in its events before (or without) a
 * description of them.
 */
#ifndef GPULENS_SRCDEV_H
#define GPULENS_SRCDEV_H

#include <stdint.h>

struct builder;

/*
 * The index of the device with source_id, declared if the builder has none
 * yet: no process, vendor and name interned in that order when not NULL.
 */
uint32_t	 srcdev_get(struct builder *, uint32_t source_id,
		     const char *vendor, const char *name);

#endif
