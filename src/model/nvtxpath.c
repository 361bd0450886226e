/*
 * nvtxpath: NVTX range paths as trie nodes. See nvtxpath.h.
 *
 * A range's parent is the one m->nvtx[] records; it always lies earlier
 * on the range's own track (nvtx_build() finds it on a stack of earlier
 * ranges), so a recorded parent at or after the range is ignored: the
 * walk up a chain always ends, even on a damaged model.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/nvtxfam.h"
#include "model/nvtxpath.h"
#include "util/xmalloc.h"

/* Ranges of a lane whose records are fetched ahead of the walk up from a
 * range (the next ones asked are mostly those just after it). */
#define NVTX_PATH_AHEAD	16
#if defined(__GNUC__)
#define NVTX_PATH_PREFETCH(p)	__builtin_prefetch(p)
#else
#define NVTX_PATH_PREFETCH(p)	((void)(p))
#endif

void
nvtx_pathset_init(struct nvtx_pathset *ps, const struct model *m, int fold)
{
	memset(ps, 0, sizeof *ps);
	ps->m = m;
	ps->fold = fold;
	ps->local = strpool_new();
	hmap_init(&ps->of_pair);
	hmap_init(&ps->of_gid);
	ps->nname = strpool_count(m->strs);
	ps->of_name = xcalloc((size_t)ps->nname + 1, sizeof *ps->of_name);
	ps->track = NONE32;
	ps->last_t = NONE32;
}

void
nvtx_pathset_free(struct nvtx_pathset *ps)
{
	strpool_free(ps->local);
	free(ps->node);
	hmap_free(&ps->of_pair);
	hmap_free(&ps->of_gid);
	free(ps->memo);
	free(ps->of_name);
	free(ps->chain);
	free(ps->buf);
	memset(ps, 0, sizeof *ps);
}

void
nvtx_pathset_track(struct nvtx_pathset *ps, uint32_t t)
{
	const struct model	*m = ps->m;

	ps->track = t;
	ps->base = m->track_off[t];
	ps->n = m->track_off[t + 1] - m->track_off[t];
	XGROW(ps->memo, ps->memocap, (size_t)ps->n + 1);
	memset(ps->memo, 0, ((size_t)ps->n + 1) * sizeof *ps->memo);
}

uint32_t
nvtx_pathset_name_id(struct nvtx_pathset *ps, uint32_t sid)
{
	const char	*s;
	size_t		 n;
	uint32_t	 v;
	char		*f;

	if (sid < ps->nname && ps->of_name[sid] != 0)
		return ps->of_name[sid] - 1;
	s = model_str(ps->m, sid);
	n = strlen(s);
	if (ps->fold && nvtx_family_folds(s)) {
		f = xmalloc(2 * n + 1);
		nvtx_family(s, f, 2 * n + 1);
		v = strpool_intern0(ps->local, f);
		free(f);
	} else
		v = strpool_intern(ps->local, s, n);
	if (sid < ps->nname)
		ps->of_name[sid] = v + 1;
	return v;
}

/*
 * The place of range gid: on the memoised track, or on the track of the
 * last one looked up, without a search of the track offsets.
 */
static struct evref
nvtx_pathset_ev(struct nvtx_pathset *ps, uint32_t gid)
{
	struct evref	r;

	if (ps->track != NONE32 && gid - ps->base < ps->n) {
		r.track = ps->track;
		r.idx = gid - ps->base;
		return r;
	}
	return model_ev_near(ps->m, gid, &ps->last_t);
}

/* The node of gid if known, else NONE32. */
static uint32_t
nvtx_pathset_known(struct nvtx_pathset *ps, uint32_t gid)
{
	if (ps->track != NONE32 && gid - ps->base < ps->n)
		return ps->memo[gid - ps->base] != 0 ?
		    ps->memo[gid - ps->base] - 1 : NONE32;
	return hmap_find(&ps->of_gid, gid);
}

static void
nvtx_pathset_remember(struct nvtx_pathset *ps, uint32_t gid, uint32_t node)
{
	if (ps->track != NONE32 && gid - ps->base < ps->n)
		ps->memo[gid - ps->base] = node + 1;
	else
		hmap_put(&ps->of_gid, gid, node);
}

/* The recorded parent of range gid, NONE32 if none (or not earlier). */
static uint32_t
nvtx_pathset_parent(struct nvtx_pathset *ps, uint32_t gid,
    uint32_t *name)
{
	const struct model	*m = ps->m;
	struct evref		 r = nvtx_pathset_ev(ps, gid);
	const struct lane	*l = &m->tracks[r.track].lane;
	uint32_t		 aux = l->aux[r.idx], p = NONE32, ahead;

	if (r.idx + NVTX_PATH_AHEAD < l->n &&
	    (ahead = l->aux[r.idx + NVTX_PATH_AHEAD]) < m->nnvtx)
		NVTX_PATH_PREFETCH(&m->nvtx[ahead]);
	*name = l->name[r.idx];
	if (aux != NONE32 && aux < m->nnvtx)
		p = m->nvtx[aux].parent;
	return p < gid ? p : NONE32;
}

/*
 * Finds node c's key (parent, name) in of_pair, or adds it there: its slot
 * then holds c, and the node found is returned. (Keys of one hash are
 * tried in turn, h, h + 1, ..., until the pair or a free slot.)
 */
static uint32_t
nvtx_pathset_hash(struct nvtx_pathset *ps, uint32_t parent, uint32_t name,
    uint32_t c)
{
	uint64_t	 h = hmap_key2(parent, name);
	uint32_t	*slot;
	int		 isnew;

	for (;; h++) {
		slot = hmap_upsert(&ps->of_pair, h, c, &isnew);
		if (isnew || (ps->node[*slot].parent == parent &&
		    ps->node[*slot].name == name))
			return *slot;
	}
}

/* The child of node parent named name (a local id), or NONE32. */
static uint32_t
nvtx_pathset_find(struct nvtx_pathset *ps, uint32_t parent, uint32_t name)
{
	uint32_t	c;

	if (parent != NONE32 && ps->node[parent].nkid <= NVTX_PATH_KIDS) {
		for (c = ps->node[parent].kid; c != NONE32;
		    c = ps->node[c].sib)
			if (ps->node[c].name == name)
				return c;
		return NONE32;
	}
	c = nvtx_pathset_hash(ps, parent, name, (uint32_t)ps->nn);
	return c != ps->nn ? c : NONE32;
}

/*
 * Links new node c under its parent: on the parent's list, or in of_pair
 * (nvtx_pathset_find() put it there); a parent gaining one child too many
 * for its list has its list and the new child put into of_pair.
 */
static void
nvtx_pathset_link(struct nvtx_pathset *ps, uint32_t c)
{
	struct nvtx_pnode	*n = &ps->node[c], *p;
	uint32_t		 k;

	n->kid = NONE32;
	n->sib = NONE32;
	n->nkid = 0;
	if (n->parent == NONE32)
		return;
	p = &ps->node[n->parent];
	if (p->nkid < NVTX_PATH_KIDS) {
		n->sib = p->kid;
		p->kid = c;
	} else if (p->nkid == NVTX_PATH_KIDS) {
		for (k = p->kid; k != NONE32; k = ps->node[k].sib)
			nvtx_pathset_hash(ps, n->parent, ps->node[k].name, k);
		nvtx_pathset_hash(ps, n->parent, n->name, c);
	}
	p->nkid++;
}

/* The child of node parent named name (a local id), made if new. */
static uint32_t
nvtx_pathset_child(struct nvtx_pathset *ps, uint32_t parent, uint32_t name)
{
	struct nvtx_pnode	*n, *p;
	struct nvtx_pmemo	*memo;
	uint32_t		 c;

	/* The last child found with this memo slot: most look-ups. */
	memo = &ps->cmemo[(parent * 0x9e3779b1U ^ name) % NVTX_PATH_MEMO];
	if (memo->node != 0 && memo->parent == parent && memo->name == name)
		return memo->node - 1;
	memo->parent = parent;
	memo->name = name;
	if ((c = nvtx_pathset_find(ps, parent, name)) != NONE32) {
		memo->node = c + 1;
		return c;
	}
	memo->node = (uint32_t)ps->nn + 1;
	XGROW(ps->node, ps->ncap, ps->nn + 1);
	n = &ps->node[ps->nn];
	n->parent = parent;
	n->name = name;
	nvtx_pathset_link(ps, (uint32_t)ps->nn);
	n->len = strpool_len(ps->local, name);
	if (parent == NONE32) {
		n->depth = 0;
		n->root = (uint32_t)ps->nn;
		n->head = n->len <= NVTX_PATH_HALF ? (uint32_t)ps->nn : NONE32;
		/* (NVTX_PATH_LEVELS / 2 >= 1: a root always fits by count.) */
	} else {
		p = &ps->node[parent];
		n->depth = p->depth + 1;
		n->root = p->root;
		n->len += p->len + 1;
		n->head = n->len <= NVTX_PATH_HALF && n->depth <
		    NVTX_PATH_LEVELS / 2 ? (uint32_t)ps->nn : p->head;
	}
	return (uint32_t)ps->nn++;
}

/*
 * Walks up from gid to the first range whose node is known (or a root),
 * then makes the nodes back down: no recursion, and in lane order the
 * parent is always known, so O(1) per range. The walk keeps each range's
 * parent and name (chain: 2 per range), so the way down reads neither
 * again, and each node made is the parent node of the range below.
 */
uint32_t
nvtx_pathset_id(struct nvtx_pathset *ps, uint32_t gid)
{
	const struct model	*m = ps->m;
	uint32_t		 g, p, name, node, pnode = NONE32;
	size_t			 n = 0;

	if (gid >= m->nevents)
		return NONE32;
	if ((node = nvtx_pathset_known(ps, gid)) != NONE32)
		return node;
	for (g = gid;;) {
		XGROW(ps->chain, ps->chaincap, 2 * n + 2);
		p = nvtx_pathset_parent(ps, g, &name);
		ps->chain[2 * n] = p;
		ps->chain[2 * n + 1] = name;
		n++;
		if (p == NONE32 ||
		    (pnode = nvtx_pathset_known(ps, p)) != NONE32)
			break;
		g = p;
	}
	while (n-- > 0) {
		node = nvtx_pathset_child(ps, pnode,
		    nvtx_pathset_name_id(ps, ps->chain[2 * n + 1]));
		/* Range n of the walk: gid, or the parent of range n - 1. */
		nvtx_pathset_remember(ps, n == 0 ? gid : ps->chain[2 * n - 2],
		    node);
		pnode = node;
	}
	return node;
}

uint32_t
nvtx_pathset_import(struct nvtx_pathset *dst, const struct nvtx_pathset *src,
    uint32_t node, uint32_t *memo)
{
	const char	*s;
	uint32_t	 c, p;
	size_t		 n = 0;

	/* Up to a node already imported (or past the root), then down
	 * making dst's nodes: each node of src is imported once. */
	for (c = node; c != NONE32 && memo[c] == 0; c = src->node[c].parent) {
		XGROW(dst->chain, dst->chaincap, n + 1);
		dst->chain[n++] = c;
	}
	p = c == NONE32 ? NONE32 : memo[c] - 1;
	while (n-- > 0) {
		c = dst->chain[n];
		s = strpool_get(src->local, src->node[c].name);
		p = nvtx_pathset_child(dst, p,
		    strpool_intern(dst->local, s, strlen(s)));
		memo[c] = p + 1;
	}
	return node == NONE32 ? NONE32 : p;
}

/* Writes the whole path of node (len bytes) at dst, from the leaf up. */
static void
nvtx_pathset_whole(struct nvtx_pathset *ps, uint32_t node, char *dst)
{
	const struct nvtx_pnode	*n;
	size_t			 pos, k;

	pos = (size_t)ps->node[node].len;
	for (; node != NONE32; node = n->parent) {
		n = &ps->node[node];
		k = strpool_len(ps->local, n->name);
		pos -= k;
		memcpy(dst + pos, strpool_get(ps->local, n->name), k);
		if (n->parent != NONE32)
			dst[--pos] = '/';
	}
}

/* Bytes of s (n long) to keep from its start: at most max, not inside a
 * UTF-8 sequence. */
static size_t
nvtx_pathset_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	return max;
}

const char *
nvtx_pathset_str(struct nvtx_pathset *ps, uint32_t node)
{
	const struct nvtx_pnode	*n, *h;
	const char		*s;
	size_t			 len, pos, k, nt = 0, sl, tb = 0;
	uint32_t		 x, first;
	char			 mid[48];
	int			 cut = 0;

	XGROW(ps->buf, ps->bufcap, NVTX_PATH_MAX + 64);
	ps->buf[0] = '\0';
	if (node == NONE32 || node >= ps->nn)
		return ps->buf;
	n = &ps->node[node];
	if (n->len <= NVTX_PATH_MAX && n->depth < NVTX_PATH_LEVELS) {
		nvtx_pathset_whole(ps, node, ps->buf);
		ps->buf[n->len] = '\0';
		return ps->buf;
	}

	/* The head: the deepest ancestor that fits, or the root cut. */
	if (n->head != NONE32) {
		h = &ps->node[n->head];
		nvtx_pathset_whole(ps, n->head, ps->buf);
		pos = (size_t)h->len;
		first = h->depth + 1;	/* components in the head */
	} else {
		h = &ps->node[n->root];
		s = strpool_get(ps->local, h->name);
		sl = strpool_len(ps->local, h->name);
		pos = nvtx_pathset_cut(s, sl, NVTX_PATH_HALF);
		memcpy(ps->buf, s, pos);
		memcpy(ps->buf + pos, "...", 3);
		pos += 3;
		first = 1;
	}

	/* The tail: whole components from the leaf up while they fit,
	 * below the head's; the leaf alone cut if it does not fit. */
	for (x = node; x != NONE32 && ps->node[x].depth >= first;
	    x = ps->node[x].parent) {
		k = strpool_len(ps->local, ps->node[x].name) + 1;
		if (tb + k > NVTX_PATH_HALF || nt == NVTX_PATH_LEVELS / 2)
			break;
		tb += k;
		XGROW(ps->chain, ps->chaincap, nt + 1);
		ps->chain[nt++] = x;
	}
	if (nt == 0 && n->depth >= first) {
		cut = 1;
		XGROW(ps->chain, ps->chaincap, 1);
		ps->chain[nt++] = node;
	}
	len = (size_t)(n->depth + 1 - first) - nt;
	if (len > 0)
		snprintf(mid, sizeof mid, "/[%zu more]/", len);
	else
		snprintf(mid, sizeof mid, "%s", nt > 0 ? "/" : "");
	memcpy(ps->buf + pos, mid, strlen(mid));
	pos += strlen(mid);
	while (nt-- > 0) {
		x = ps->chain[nt];
		s = strpool_get(ps->local, ps->node[x].name);
		sl = strpool_len(ps->local, ps->node[x].name);
		if (cut) {
			k = sl - NVTX_PATH_HALF;
			while (k < sl && ((unsigned char)s[k] & 0xC0) == 0x80)
				k++;
			memcpy(ps->buf + pos, "...", 3);
			pos += 3;
			memcpy(ps->buf + pos, s + k, sl - k);
			pos += sl - k;
		} else {
			memcpy(ps->buf + pos, s, sl);
			pos += sl;
			if (nt > 0)
				ps->buf[pos++] = '/';
		}
	}
	ps->buf[pos] = '\0';
	return ps->buf;
}
