/*
 * nvtree: the aggregated NVTX tree. See nvtree.h.
 *
 * Grouping key of a range name: the string id shifted left by one, or,
 * for a "<prefix>#<digits>" family, the local id of "<prefix>#*" shifted
 * left by one with the low bit set. Children are found through a hash of
 * (parent node, key), checked on every hit so that a hash collision can
 * never merge two nodes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate.h"
#include "hmap.h"
#include "nvtree.h"
#include "xmalloc.h"

static const char *nvtree_sort_names[NVTREE_SORT_COUNT_] = {
	"cpu", "gpu", "count", "name", "start"
};

const char *
nvtree_sort_name(int k)
{
	return k >= 0 && k < NVTREE_SORT_COUNT_ ? nvtree_sort_names[k] : "?";
}

/* Length of the family prefix ("Step#" of "Step#12"), 0 if none. */
static size_t
nvtree_family(const char *s)
{
	size_t	len = strlen(s), j = len;

	while (j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9')
		j--;
	if (j == len || j < 2 || s[j - 1] != '#')
		return 0;
	return j;
}

static uint32_t
nvtree_key(struct nvtree *t, struct hmap *cache, uint32_t sid)
{
	const char	*s;
	char		 buf[512];
	size_t		 n;
	uint32_t	 k;

	if (hmap_get(cache, sid, &k))
		return k;
	s = model_str(t->m, sid);
	n = nvtree_family(s);
	if (n == 0 || n + 2 > sizeof buf)
		k = sid << 1;
	else {
		memcpy(buf, s, n);
		buf[n] = '*';
		buf[n + 1] = '\0';
		k = (strpool_intern0(t->local, buf) << 1) | 1;
	}
	hmap_put(cache, sid, k);
	return k;
}

static uint32_t
nvtree_node(struct nvtree *t, size_t *cap, uint32_t parent, uint32_t track,
    uint32_t name, uint32_t key)
{
	struct nvtree_node	*n;

	XGROW(t->n, *cap, t->nn + 1);
	n = &t->n[t->nn];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->track = track;
	n->name = name;
	n->famkey = key;
	n->label = (key & 1) ? key >> 1 : 0;
	n->depth = parent == NONE32 ? 0 : (uint16_t)(t->n[parent].depth + 1);
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
 * GPU projection of every range, in two sweeps. First every kernel, copy
 * and memset on a GPU track widens the [amin, amax] of the API call that
 * launched it (correlate_launch(), O(1)), for the API tracks of threads
 * that have NVTX ranges. Then, per (API track, NVTX track) of a thread,
 * the calls are taken in start order and the ranges merged in by start
 * with a stack of the open ones: a range that ended before a call starts
 * can contain neither it nor any later call, and is dropped; every range
 * still open that contains the call (start <= call start, end >= call
 * end: nvtx.h's rule) widens its [pmin, pmax] by the call's. For properly
 * nested push/pop ranges the stack is the nesting: O(events + calls x
 * depth), with 16 bytes per API call of those threads while it runs.
 */
static void
nvtree_project(struct nvtree *t, const size_t *off, int64_t *pmin,
    int64_t *pmax)
{
	const struct model	*m = t->m;
	const struct lane	*al, *nl, *gl;
	uint32_t		*stack = NULL, r, a;
	size_t			*aoff, scap = 0, u, k, i, j, q, sp, w, napi = 0;
	struct evref		 ev;
	int64_t			*amin, *amax, as, ae;
	int			 kind;
	uint8_t			*has;

	/* Threads with NVTX ranges, and their API calls' slots. */
	has = xcalloc(m->nthreads + 1, 1);
	for (k = 0; k < m->ntracks; k++)
		if (m->tracks[k].type == TRACK_NVTX &&
		    m->tracks[k].thread < m->nthreads &&
		    m->tracks[k].lane.n > 0)
			has[m->tracks[k].thread] = 1;
	aoff = xcalloc(m->ntracks + 1, sizeof *aoff);
	for (u = 0; u < m->ntracks; u++) {
		aoff[u] = (size_t)-1;
		if (m->tracks[u].type == TRACK_API &&
		    m->tracks[u].thread < m->nthreads &&
		    has[m->tracks[u].thread] && m->tracks[u].lane.n > 0) {
			aoff[u] = napi;
			napi += m->tracks[u].lane.n;
		}
	}
	if (napi == 0)
		goto done;
	amin = xcalloc(napi, sizeof *amin);
	amax = xcalloc(napi, sizeof *amax);
	for (q = 0; q < napi; q++) {
		amin[q] = INT64_MAX;
		amax[q] = INT64_MIN;
	}
	for (k = 0; k < m->ntracks; k++) {
		if (m->tracks[k].type != TRACK_GPU)
			continue;
		gl = &m->tracks[k].lane;
		for (i = 0; i < gl->n; i++) {
			kind = gl->kind[i];
			if (kind != EV_KERNEL && kind != EV_MEMCPY &&
			    kind != EV_MEMSET)
				continue;
			a = correlate_launch(m, model_gid(m, (uint32_t)k,
			    (uint32_t)i));
			if (a == NONE32 || a >= m->nevents)
				continue;
			ev = model_ev(m, a);
			if (aoff[ev.track] == (size_t)-1)
				continue;
			q = aoff[ev.track] + ev.idx;
			if (gl->start[i] < amin[q])
				amin[q] = gl->start[i];
			if (gl->end[i] > amax[q])
				amax[q] = gl->end[i];
		}
	}
	for (u = 0; u < m->ntracks; u++) {
		if (aoff[u] == (size_t)-1)
			continue;
		al = &m->tracks[u].lane;
		for (k = 0; k < m->ntracks; k++) {
			if (m->tracks[k].type != TRACK_NVTX ||
			    m->tracks[k].thread != m->tracks[u].thread ||
			    m->tracks[k].lane.n == 0)
				continue;
			nl = &m->tracks[k].lane;
			i = 0;
			sp = 0;
			for (j = 0; j < al->n; j++) {
				q = aoff[u] + j;
				if (amin[q] > amax[q])
					continue;
				as = al->start[j];
				ae = al->end[j];
				/* Open the ranges that start by now. */
				for (; i < nl->n && nl->start[i] <= as; i++) {
					if (nl->kind[i] != EV_NVTX)
						continue;
					while (sp > 0 && nl->end[stack[sp - 1]] <
					    nl->start[i])
						sp--;
					XGROW(stack, scap, sp + 1);
					stack[sp++] = (uint32_t)i;
				}
				/* Drop the ended ones; widen the containing. */
				for (w = 0, r = 0; r < sp; r++) {
					if (nl->end[stack[r]] < as)
						continue;
					stack[w++] = stack[r];
					if (nl->end[stack[r]] < ae)
						continue;
					a = (uint32_t)(off[k] + stack[r]);
					if (amin[q] < pmin[a])
						pmin[a] = amin[q];
					if (amax[q] > pmax[a])
						pmax[a] = amax[q];
				}
				sp = w;
			}
		}
	}
	free(amin);
	free(amax);
done:
	free(stack);
	free(aoff);
	free(has);
}

struct nvtree *
nvtree_build(const struct model *m)
{
	struct nvtree		*t;
	struct nvtree_node	*nd;
	const struct lane	*l;
	struct hmap		 cache, kids;
	struct evref		 pe;
	size_t			 cap = 0, *off, total = 0, tr, i, e, rcap = 0;
	size_t			*fill;
	uint32_t		*evnode, root, pn, node, aux;
	int64_t			*pmin, *pmax;

	t = xcalloc(1, sizeof *t);
	t->m = m;
	t->local = strpool_new();
	hmap_init(&cache);
	hmap_init(&kids);
	off = xcalloc(m->ntracks + 1, sizeof *off);
	for (tr = 0; tr < m->ntracks; tr++) {
		off[tr] = total;
		if (m->tracks[tr].type == TRACK_NVTX)
			total += m->tracks[tr].lane.n;
	}
	off[m->ntracks] = total;
	evnode = xcalloc(total + 1, sizeof *evnode);
	pmin = xcalloc(total + 1, sizeof *pmin);
	pmax = xcalloc(total + 1, sizeof *pmax);
	for (e = 0; e < total; e++) {
		pmin[e] = INT64_MAX;
		pmax[e] = INT64_MIN;
	}

	for (tr = 0; tr < m->ntracks; tr++) {
		l = &m->tracks[tr].lane;
		if (m->tracks[tr].type != TRACK_NVTX || l->n == 0)
			continue;
		root = nvtree_node(t, &cap, NONE32, (uint32_t)tr, 0, 0);
		XGROW(t->roots, rcap, t->nroots + 1);
		t->roots[t->nroots++] = root;
		for (i = 0; i < l->n; i++) {
			evnode[off[tr] + i] = NONE32;
			if (l->kind[i] != EV_NVTX)
				continue;
			pn = root;
			aux = l->aux[i];
			if (aux != NONE32 && aux < m->nnvtx &&
			    m->nvtx[aux].parent != NONE32 &&
			    m->nvtx[aux].parent < m->nevents) {
				pe = model_ev(m, m->nvtx[aux].parent);
				if (pe.track == tr && pe.idx < i &&
				    evnode[off[tr] + pe.idx] != NONE32)
					pn = evnode[off[tr] + pe.idx];
			}
			node = nvtree_child(t, &kids, &cap, pn, l->name[i],
			    nvtree_key(t, &cache, l->name[i]));
			evnode[off[tr] + i] = node;
			nd = &t->n[node];
			nd->count++;
			nd->cpu += l->end[i] - l->start[i];
			if (l->start[i] < nd->first)
				nd->first = l->start[i];
			t->n[root].count++;
			if (l->start[i] < t->n[root].first)
				t->n[root].first = l->start[i];
		}
	}

	nvtree_project(t, off, pmin, pmax);
	for (tr = 0; tr < m->ntracks; tr++) {
		if (m->tracks[tr].type != TRACK_NVTX)
			continue;
		for (i = 0; i < m->tracks[tr].lane.n; i++) {
			e = off[tr] + i;
			if (evnode[e] == NONE32 || pmin[e] > pmax[e])
				continue;
			t->n[evnode[e]].gpu += pmax[e] - pmin[e];
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
	free(pmin);
	free(pmax);
	free(off);
	hmap_free(&cache);
	hmap_free(&kids);
	t->sort = NVTREE_SORT_START;
	nvtree_sort(t, NVTREE_SORT_CPU, 1);
	nvtree_flatten(t);
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

static const struct nvtree *nvtree_sorting;

static int
nvtree_cmp(const void *a, const void *b)
{
	const struct nvtree	*t = nvtree_sorting;
	const struct nvtree_node *x = &t->n[*(const uint32_t *)a];
	const struct nvtree_node *y = &t->n[*(const uint32_t *)b];
	char			 bx[256], by[256];
	int			 c = 0;

	switch (t->sort) {
	case NVTREE_SORT_CPU:
		c = x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
		break;
	case NVTREE_SORT_GPU:
		c = x->gpu < y->gpu ? -1 : x->gpu > y->gpu;
		break;
	case NVTREE_SORT_COUNT:
		c = x->count < y->count ? -1 : x->count > y->count;
		break;
	case NVTREE_SORT_NAME:
		c = strcmp(nvtree_label(t, (size_t)(x - t->n), bx, sizeof bx),
		    nvtree_label(t, (size_t)(y - t->n), by, sizeof by));
		break;
	case NVTREE_SORT_START:
		c = x->first < y->first ? -1 : x->first > y->first;
		break;
	}
	if (t->desc)
		c = -c;
	if (c == 0)
		c = x->first < y->first ? -1 : x->first > y->first;
	if (c == 0)
		c = x < y ? -1 : x > y;
	return c;
}

void
nvtree_sort(struct nvtree *t, int key, int desc)
{
	size_t	i;

	t->sort = key;
	t->desc = desc;
	nvtree_sorting = t;
	for (i = 0; i < t->nn; i++)
		if (t->n[i].nkids > 1)
			qsort(t->kids + t->n[i].kid0, t->n[i].nkids,
			    sizeof *t->kids, nvtree_cmp);
	nvtree_sorting = NULL;
}

void
nvtree_flatten(struct nvtree *t)
{
	uint32_t	*stack;
	size_t		 sp = 0, r, k;
	uint32_t	 i;

	t->nrows = 0;
	if (t->nn == 0)
		return;
	XGROW(t->rows, t->rowcap, t->nn);
	stack = xcalloc(t->nn + 1, sizeof *stack);
	for (r = t->nroots; r-- > 0; )
		stack[sp++] = t->roots[r];
	while (sp > 0) {
		i = stack[--sp];
		t->rows[t->nrows++] = i;
		if (!t->n[i].expanded)
			continue;
		for (k = t->n[i].nkids; k-- > 0; )
			stack[sp++] = t->kids[t->n[i].kid0 + k];
	}
	free(stack);
}

void
nvtree_expand_all(struct nvtree *t, int e)
{
	size_t	i;

	for (i = 0; i < t->nn; i++)
		t->n[i].expanded = t->n[i].parent == NONE32 ? 1 : (uint8_t)e;
	nvtree_flatten(t);
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
