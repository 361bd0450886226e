/*
 * nvtxpath: NVTX range paths ("outer/inner/leaf") as ids, for verbs that
 * name many ranges by path.
 *
 * Each distinct path is a node of a trie: its parent path's node and its
 * last component, so a path of depth d costs one node, never d bytes, and
 * a million nested ranges cost a million nodes (memory linear in the
 * ranges, whatever the depth). A range's node is found from its parent's
 * (memoised per range of the track being read, and the parent chain is
 * walked without recursion), so ranges read in lane order cost O(1) each.
 * A node's first few children are found on a list from it, the others
 * (and the roots) by a hash of (parent, name): where most paths are new
 * (names unique per iteration) a new node costs no hash insert.
 *
 * The text of a path is made only to be printed, and is bounded: a path
 * of at most NVTX_PATH_LEVELS components and NVTX_PATH_MAX bytes is
 * printed whole; a longer one keeps its first components and its last
 * components, up to NVTX_PATH_LEVELS / 2 components and NVTX_PATH_HALF
 * bytes at each end, with "/[N more]/" between them for the N components
 * left out (a single component longer than that is cut at a character
 * boundary, and "..." marks the cut). Making it costs O(NVTX_PATH_MAX),
 * not O(depth).
 *
 * With fold set, every component is its family (nvtxfam.h):
 * ProfilerStep#12 and ProfilerStep#13 aggregate as ProfilerStep#*, and
 * "aten::mm, seq = 1, op_id = 2" as aten::mm.
 */
#ifndef GPULENS_NVTXPATH_H
#define GPULENS_NVTXPATH_H

#include <stddef.h>
#include <stdint.h>

#include "util/hmap.h"
#include "model/model.h"

#define NVTX_PATH_MAX	8192	/* longest path printed whole, bytes */
#define NVTX_PATH_LEVELS 64	/* deepest printed whole, components */
#define NVTX_PATH_HALF	4000	/* bytes kept at each end of a longer one */
#define NVTX_PATH_MEMO	1021	/* the memo of recent (parent, name) */
#define NVTX_PATH_KIDS	64	/* children of a node in a list: more
				   are hashed */

struct nvtx_pnode {
	uint32_t	 parent;	/* node, NONE32 for a root */
	uint32_t	 name;		/* local string id of the component */
	uint32_t	 depth;		/* 0 for a root */
	uint32_t	 root;		/* the root node above it (or itself) */
	uint32_t	 head;		/* deepest ancestor-or-self whose path
					   fits in NVTX_PATH_HALF bytes and
					   NVTX_PATH_LEVELS / 2 components,
					   or NONE32 */
	uint32_t	 kid;		/* its newest child, NONE32 if none */
	uint64_t	 len;		/* bytes of the whole path */
	uint32_t	 sib;		/* the parent's child made before it,
					   NONE32 if none */
	uint32_t	 nkid;		/* children; past NVTX_PATH_KIDS
					   they are found by of_pair */
};

struct nvtx_pathset {
	const struct model	*m;
	struct strpool		*local;		/* components */
	int			 fold;
	struct nvtx_pnode	*node;
	size_t			 nn, ncap;
	struct hmap		 of_pair;	/* (parent, name) -> node, for
						   roots and the children of
						   nodes with many */
	struct nvtx_pmemo {
		uint32_t	 parent, name;
		uint32_t	 node;		/* + 1, or 0 */
	}			 cmemo[NVTX_PATH_MEMO];	/* per (parent,
					   name) hash: its last child found,
					   read without the node's memory */
	uint32_t		*memo;		/* track's ranges: node + 1 */
	size_t			 memocap;
	uint32_t		 track, base, n;
	uint32_t		 last_t;	/* track last looked up */
	struct hmap		 of_gid;	/* other ranges -> node */
	uint32_t		*of_name;	/* model sid -> name id + 1 */
	uint32_t		 nname;
	uint32_t		*chain;		/* the walk up a parent chain */
	size_t			 chaincap;
	char			*buf;		/* nvtx_pathset_str()'s */
	size_t			 bufcap;
};

void		 nvtx_pathset_init(struct nvtx_pathset *, const struct model *,
		    int fold);
void		 nvtx_pathset_free(struct nvtx_pathset *);
/* Memoises the ranges of track t (optional: speeds up reading it). */
void		 nvtx_pathset_track(struct nvtx_pathset *, uint32_t t);
/* The node of range gid's path; NONE32 if gid is no NVTX event. */
uint32_t	 nvtx_pathset_id(struct nvtx_pathset *, uint32_t gid);
/*
 * The node of dst whose path is that of node of src (pathsets of one
 * model, both folding or neither), made if new; NONE32 for NONE32: how
 * the paths that pathsets on several threads found become one set. memo
 * (src's node count of entries, zeroed before the first call) keeps the
 * src nodes imported (dst's node + 1), so that a path is walked only up
 * to its first imported node: O(nodes) in all, however deep.
 */
uint32_t	 nvtx_pathset_import(struct nvtx_pathset *dst,
		    const struct nvtx_pathset *src, uint32_t node,
		    uint32_t *memo);
/* The local string id of (the folded) model string sid. */
uint32_t	 nvtx_pathset_name_id(struct nvtx_pathset *, uint32_t sid);
/*
 * The printed text of node's path (bounded, see above), valid until the
 * next call; "" for NONE32.
 */
const char	*nvtx_pathset_str(struct nvtx_pathset *, uint32_t node);

#endif
