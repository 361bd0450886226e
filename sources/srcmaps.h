/*
 * srcmaps: one call on all the hash maps of a reader's state, so that a
 * reader names its maps once, for hmap_init() when it starts and for
 * hmap_free() when it ends (or both, to empty them).
 */
#ifndef GPULENS_SRCMAPS_H
#define GPULENS_SRCMAPS_H

struct hmap;

/* Calls fn on each map named, up to the NULL that ends the list. */
void	srcmaps(void (*fn)(struct hmap *), ...) __attribute__((sentinel));

#endif
