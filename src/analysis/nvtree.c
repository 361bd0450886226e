/*
 * nvtree: the aggregated NVTX tree. See nvtree.h.
 *
 * Grouping key of a range name: the string id shifted left by one, or,
 * for a name that folds into a family (nvtxfam.h), the local id of the
 * family shifted left by one with the low bit set, cached per string id in
 * an array.
 * Children are found through a hash of (parent node, key), checked on
 * every hit so that a hash collision can never merge two nodes, behind a
 * small direct-mapped memo of the last child found (checked the same way).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "analysis/nvtree.h"
#include "model/nvtxfam.h"
#include "util/xmalloc.h"

#define NVTREE_MEMO	1021	/* entries of nvtree_track()'s memo */

/*
 * The grouping key of string sid, cached in keyof[sid] (NONE32: not yet):
 * the name's family (nvtxfam.h).
 */
static uint32_t
nvtree_key(struct nvtree *t, uint32_t *keyof, size_t nkey, uint32_t sid)
{
	const char	*s;
	char		*buf;
	size_t		 n;
	uint32_t	 k;

	if (sid < nkey && keyof[sid] != NONE32)
		return keyof[sid];
	s = model_str(t->m, sid);
	if (!nvtx_family_folds(s))
		k = sid << 1;
	else {
		n = strlen(s);
		buf = xmalloc(2 * n + 1);
		nvtx_family(s, buf, 2 * n + 1);
		k = (strpool_intern0(t->local, buf) << 1) | 1;
		free(buf);
	}
	if (sid < nkey)
		keyof[sid] = k;
	return k;
}

static uint32_t
nvtree_node(struct nvtree *t, size_t *cap, uint32_t parent, uint32_t track,
    uint32_t name, uint32_t key)
{
	struct nvtree_node	*n;

	n = XAPPEND(t->n, *cap, t->nn);
	n->parent = parent;
	n->track = track;
	n->name = name;
	n->famkey = key;
	n->label = (key & 1) ? key >> 1 : 0;
	/* Saturated: past 65535 levels only the indentation (already
	 * clamped) would tell, and a wrap would make a deep node look like
	 * a root's child. */
	n->depth = parent == NONE32 ? 0 : t->n[parent].depth == UINT16_MAX ?
	    UINT16_MAX : (uint16_t)(t->n[parent].depth + 1);
	n->expanded = parent == NONE32;
	n->first = INT64_MAX;
	return (uint32_t)t->nn++;
}

/* The child of parent with key, created if absent. */
static uint32_t
nvtree_child(struct nvtree *t, struct hmap *kids, size_t *cap,
    uint32_t parent, uint32_t name, uint32_t key)
{
	uint64_t	 h = hmap_key2(parent, key);
	uint32_t	*slot, c;
	int		 isnew;

	for (;;) {
		slot = hmap_upsert(kids, h, (uint32_t)t->nn, &isnew);
		if (isnew)
			return nvtree_node(t, cap, parent, t->n[parent].track,
			    name, key);
		c = *slot;
		if (t->n[c].parent == parent && t->n[c].famkey == key)
			return c;
		h++;
	}
}

/*
 * Whether range c of lane l contains event i, as nvtx_build() decides an
 * NVTX parent: closed for ranges, half-open for zero-length events.
 */
static inline int
nvtree_contains(const struct lane *l, size_t c, size_t i)
{
	if (l->start[i] == l->end[i])
		return l->start[c] <= l->start[i] && l->start[i] < l->end[c];
	return l->start[c] <= l->start[i] && l->end[i] <= l->end[c];
}

/*
 * The ranges of NVTX track tr into the tree below root, in one pass over
 * the lane in start order: the parent of a range is the innermost open
 * range that contains it, found with a stack of the open ranges exactly
 * as nvtx_build() finds m->nvtx[].parent (marks close ranges but open
 * none), so the (scattered) NVTX records are never read. A range without
 * an NVTX record has no parent there, and goes below the root. evnode[i]
 * gets the node of range i (NONE32 for anything else).
 */
static void
nvtree_track(struct nvtree *t, size_t *cap, struct hmap *kids,
    uint32_t *keyof, size_t nkey, uint32_t tr, uint32_t root,
    uint32_t *evnode, uint32_t **stackp, size_t *scap)
{
	/* The last child found per (parent, key) hash: most lookups. */
	uint32_t		 memo[NVTREE_MEMO];
	const struct model	*m = t->m;
	const struct lane	*l = &m->tracks[tr].lane;
	struct nvtree_node	*nd;
	uint32_t		*stack = *stackp, pn, node, aux, key, h;
	size_t			 i, sp = 0;
	int			 kind;
	int64_t			 s;

	memset(memo, 0xff, sizeof memo);

	for (i = 0; i < l->n; i++) {
		evnode[i] = NONE32;
		kind = l->kind[i];
		if (kind != EV_NVTX && kind != EV_MARK)
			continue;
		while (sp > 0 && !nvtree_contains(l, stack[sp - 1], i))
			sp--;
		if (kind != EV_NVTX)
			continue;
		aux = l->aux[i];
		pn = root;
		if (sp > 0 && aux != NONE32 && aux < m->nnvtx)
			pn = evnode[stack[sp - 1]];
		key = nvtree_key(t, keyof, nkey, l->name[i]);
		h = (pn * 0x9e3779b1U ^ key) % NVTREE_MEMO;
		node = memo[h];
		if (node == NONE32 || t->n[node].parent != pn ||
		    t->n[node].famkey != key) {
			node = nvtree_child(t, kids, cap, pn, l->name[i], key);
			memo[h] = node;
		}
		evnode[i] = node;
		s = l->start[i];
		nd = &t->n[node];
		nd->count++;
		nd->cpu += l->end[i] - s;
		if (s < nd->first)
			nd->first = s;
		nd = &t->n[root];
		nd->count++;
		if (s < nd->first)
			nd->first = s;
		XGROW(stack, *scap, sp + 1);
		stack[sp++] = (uint32_t)i;
	}
	*stackp = stack;
}

struct nvtree *
nvtree_build(const struct model *m)
{
	struct nvtree		*t;
	struct nvtree_node	*nd;
	struct hmap		 kids;
	size_t			 cap = 0, *off, total, tr, i, e, rcap = 0;
	size_t			*fill, nkey, scap = 0;
	uint32_t		*evnode, *keyof, *stack = NULL, root, node;
	struct nvtree_span	*span;
	struct nvtree_proj	 pr;

	t = xcalloc(1, sizeof *t);
	t->m = m;
	t->local = strpool_new();
	hmap_init(&kids);
	nvtree_proj_build(m, &pr);
	off = pr.off;
	span = pr.span;
	total = off[m->ntracks];
	evnode = xcalloc(total + 1, sizeof *evnode);

	nkey = strpool_count(m->strs);
	keyof = xreallocarray(NULL, nkey + 1, sizeof *keyof);
	memset(keyof, 0xff, (nkey + 1) * sizeof *keyof);
	for (tr = 0; tr < m->ntracks; tr++) {
		if (m->tracks[tr].type != TRACK_NVTX ||
		    m->tracks[tr].lane.n == 0)
			continue;
		root = nvtree_node(t, &cap, NONE32, (uint32_t)tr, 0, 0);
		XGROW(t->roots, rcap, t->nroots + 1);
		t->roots[t->nroots++] = root;
		nvtree_track(t, &cap, &kids, keyof, nkey, (uint32_t)tr, root,
		    evnode + off[tr], &stack, &scap);
	}
	free(stack);
	free(keyof);

	for (tr = 0; tr < m->ntracks; tr++) {
		if (m->tracks[tr].type != TRACK_NVTX)
			continue;
		for (i = 0; i < m->tracks[tr].lane.n; i++) {
			e = off[tr] + i;
			if (evnode[e] == NONE32 || span[e].lo > span[e].hi)
				continue;
			t->n[evnode[e]].gpu += span[e].hi - span[e].lo;
			t->n[evnode[e]].with_gpu++;
		}
	}

	/* Children lists (in creation order: by first start) and roots'
	 * totals. */
	for (i = 0; i < t->nn; i++) {
		nd = &t->n[i];
		if (nd->parent != NONE32)
			t->n[nd->parent].nkids++;
	}
	for (i = 0, e = 0; i < t->nn; i++) {
		t->n[i].kid0 = e;
		e += t->n[i].nkids;
		t->n[i].nkids = 0;
	}
	t->kids = xcalloc(e + 1, sizeof *t->kids);
	for (i = 0; i < t->nn; i++) {
		nd = &t->n[i];
		if (nd->parent == NONE32)
			continue;
		t->kids[t->n[nd->parent].kid0 + t->n[nd->parent].nkids++] =
		    (uint32_t)i;
		if (nd->depth == 1) {
			t->n[nd->parent].cpu += nd->cpu;
			t->n[nd->parent].gpu += nd->gpu;
			t->n[nd->parent].with_gpu += nd->with_gpu;
		}
	}

	/* Instances, in start order per node. */
	for (i = 0, e = 0; i < t->nn; i++) {
		t->n[i].inst0 = e;
		e += t->n[i].parent == NONE32 ? 0 : t->n[i].count;
	}
	t->inst = xcalloc(e + 1, sizeof *t->inst);
	fill = xcalloc(t->nn + 1, sizeof *fill);
	for (tr = 0; tr < m->ntracks; tr++) {
		if (m->tracks[tr].type != TRACK_NVTX)
			continue;
		for (i = 0; i < m->tracks[tr].lane.n; i++) {
			node = evnode[off[tr] + i];
			if (node == NONE32)
				continue;
			t->inst[t->n[node].inst0 + fill[node]++] =
			    model_gid(m, (uint32_t)tr, (uint32_t)i);
		}
	}
	for (i = 0; i < t->nn; i++)
		t->n[i].ninst = fill[i];
	free(fill);
	free(evnode);
	nvtree_proj_free(&pr);
	hmap_free(&kids);
	return t;
}

void
nvtree_free(struct nvtree *t)
{
	if (t == NULL)
		return;
	strpool_free(t->local);
	free(t->n);
	free(t->kids);
	free(t->roots);
	free(t->inst);
	free(t->rows);
	free(t);
}

const char *
nvtree_label(const struct nvtree *t, size_t i, char *buf, size_t len)
{
	const struct model	*m = t->m;
	const struct nvtree_node *n = &t->n[i];
	const struct track	*tr = &m->tracks[n->track];
	const struct thread	*th;
	char			 dom[96];

	if (n->parent != NONE32) {
		snprintf(buf, len, "%s", n->label != 0 ?
		    strpool_get(t->local, n->label) : model_str(m, n->name));
		return buf;
	}
	dom[0] = '\0';
	if (tr->domain != 0 && tr->domain < m->ndomains &&
	    m->domains[tr->domain].name != 0)
		snprintf(dom, sizeof dom, " [%s]",
		    model_str(m, m->domains[tr->domain].name));
	if (tr->thread < m->nthreads) {
		th = &m->threads[tr->thread];
		snprintf(buf, len, "tid %u%s%s%s", th->tid, th->name != 0 ?
		    " " : "", model_str(m, th->name), dom);
	} else
		snprintf(buf, len, "thread ?%s", dom);
	return buf;
}
