/*
 * group: what the analyses and verbs that aggregate (gstats.h, behind
 * stats and the TUI's kernel table; launch, nvtx) share to put events into
 * groups: the --group-by axis list, an own string pool for the names they
 * derive (API names without "_vNNNN"), and the map from a group's key, a
 * vector of uint32 components, to a dense group index.
 *
 * Groups are numbered 0, 1, ... in the order their first event is seen, so
 * verbs that emit rows in group order keep the event order of their loop.
 * Name look-ups are arrays indexed by the model's string id, and the key map
 * is an open-addressing table of group indices that compares whole keys (or,
 * for one-component keys below GROUP_DIRECT, an array indexed by the key),
 * so grouping an event costs a few array reads and at most one short probe.
 *
 * Ownership: struct group_names owns its pool and arrays, struct group_map
 * its keys and table; the _free functions release them. Returned strings
 * are borrowed from the pool.
 */
#ifndef GPULENS_GROUP_H
#define GPULENS_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/strpool.h"

#define GROUP_DIRECT	(1u << 20)	/* direct table bound (nv == 1) */

/* group_parse_axes flags. */
#define GROUP_NONE	0x1	/* "none" and "all" mean no axis */
#define GROUP_UNIQUE	0x2	/* an axis named twice counts once */

struct group_names {
	const struct model	*m;
	struct strpool		*local;		/* derived names, owned */
	uint32_t		*loc;		/* model sid -> local id + 1 */
	uint32_t		*api;		/* model sid -> stripped id + 1 */
	uint32_t		 nloc;		/* model strings */
};

struct group_map {
	size_t		 nv;		/* components per key */
	uint32_t	*keys;		/* ng keys of nv components */
	size_t		 ng, cap;	/* groups; keys capacity (components) */
	uint32_t	*slot;		/* group + 1, 0 empty */
	size_t		 mask;		/* slot table size - 1 */
	uint32_t	*direct;	/* nv == 1: value -> group + 1 */
	size_t		 ndirect;
	uint32_t	*memo;		/* a large map: group + 1 and key by
					   hash (group.c) */
	size_t		 last;		/* the group last found or made */
};

/*
 * Parses a comma-separated axis list (spec, or dflt when spec is NULL)
 * against names[0 .. count - 1] into axes (room for count entries; at most
 * count are stored) and *naxes. Returns 0, or -1 with *cause ("unknown
 * --group-by axis 'x' (a, b, ...)", listing "none" with GROUP_NONE).
 */
int		 group_parse_axes(const char *spec, const char *dflt,
		    const char *const *names, int count, int flags,
		    int *axes, int *naxes, char **cause);
/*
 * Appends "axis=val" to the key in buf (len bytes, *o used), after a '|'
 * unless it is the first part; truncates at len.
 */
void		 group_key_part(char *buf, size_t len, size_t *o,
		    const char *axis, const char *val);

void		 group_names_init(struct group_names *, const struct model *);
void		 group_names_free(struct group_names *);
/* The local id of model string sid (interned once per distinct string). */
uint32_t	 group_local(struct group_names *, uint32_t sid);
/* The local id of model string sid without a trailing "_vNNNN". */
uint32_t	 group_api(struct group_names *, uint32_t sid);
/* The string of a local id (borrowed). */
const char	*group_str(const struct group_names *, uint32_t id);

/* A map from keys of nv (at least 1) components. */
void		 group_map_init(struct group_map *, size_t nv);
void		 group_map_free(struct group_map *);
/*
 * The index of key v (nv components). An unseen key gets the next index,
 * ng - 1 after the call, and sets *isnew.
 */
size_t		 group_map_find(struct group_map *, const uint32_t *v,
		    int *isnew);
/*
 * The index of key v, or gm->ng when it has none: group_map_find() that
 * makes no group and writes nothing in the map, so threads may ask it
 * together (while none calls group_map_find()). *hint is the caller's
 * own group last found (first 0), which it looks at and past first, as
 * group_map_find() does at the map's.
 */
size_t		 group_map_get(const struct group_map *, const uint32_t *v,
		    size_t *hint);
/* Starts loading the memory group_map_find() of key v will read first
 * past its look-ahead (a hint: nothing changes). */
void		 group_map_prefetch(const struct group_map *,
		    const uint32_t *v);
/* The key of group g (nv components, valid until the next find). */
const uint32_t	*group_map_key(const struct group_map *, size_t g);

#endif
