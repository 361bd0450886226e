/*
 * kpfam: the family path (nvtx_family_path(), nvtx.h) of NVTX ranges asked
 * one after another, each range's worked out once, from its parent's.
 *
 * nvtx_family() folds a path one component at a time: no fold reaches
 * over a '/', and what decides a component's fold is only whether it
 * opens the path (a number at the very start is a word) and whether it
 * ends it (a number at the end is a word only there). So a range's family
 * path is its parent's written with a '/' after it (the parent's prefix)
 * followed by the range's name folded as the last component. A state is
 * one (parent state, folded name as a middle and as a last component,
 * raw name length): it holds its family path and prefix, and the raw
 * path's length and depth, so that a path nvtx_path() would cut (over
 * NVTX_PATH_LEVELS components or 4 KB) is left to nvtx_family_path().
 * Each NVTX record remembers its range's state, and each name the state
 * it last gave under one parent state: most ranges cost two reads.
 *
 * Ownership: kpfam_new() returns a context freed with kpfam_free(); it
 * borrows the model and the pool of paths.
 */
#ifndef GPULENS_KPFAM_H
#define GPULENS_KPFAM_H

#include <stdint.h>

#include "model/model.h"

struct kpfam;
struct strpool;

/* Family paths are interned into strs. */
struct kpfam	*kpfam_new(const struct model *, struct strpool *strs);
void		 kpfam_free(struct kpfam *);
/* The family path of NVTX range gid as an id of strs. */
uint32_t	 kpfam_id(struct kpfam *, uint32_t gid);

#endif
