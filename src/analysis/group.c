/*
 * group: --group-by axis lists, derived names and the group key map shared
 * by the aggregating analyses and verbs (see group.h).
 *
 * The key map hashes a key's components into an open-addressing table of
 * group indices (linear probing, at most half full) and compares the whole
 * key on a hit, so distinct keys never merge whatever their hashes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/group.h"
#include "model/event.h"
#include "util/nametab.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

int
group_parse_axes(const char *spec, const char *dflt,
    const char *const *names, int count, int flags, int *axes, int *naxes,
    char **cause)
{
	char	*list, *a, *save = NULL, all[512];
	size_t	 o = 0;
	int	 k, j;

	*naxes = 0;
	list = xstrdup(spec != NULL ? spec : dflt);
	for (a = strtok_r(list, ",", &save); a != NULL;
	    a = strtok_r(NULL, ",", &save)) {
		if ((flags & GROUP_NONE) &&
		    (strcmp(a, "none") == 0 || strcmp(a, "all") == 0))
			continue;
		if ((k = nametab_find(names, (size_t)count, a)) < 0) {
			for (j = 0; j < count; j++)
				o += (size_t)snprintf(all + o, sizeof all - o,
				    "%s%s", j > 0 ? ", " : "", names[j]);
			if (flags & GROUP_NONE)
				snprintf(all + o, sizeof all - o, ", none");
			*cause = xasprintf("unknown --group-by axis '%s' (%s)",
			    a, all);
			free(list);
			return -1;
		}
		for (j = 0; (flags & GROUP_UNIQUE) && j < *naxes; j++)
			if (axes[j] == k)
				break;
		if (!(flags & GROUP_UNIQUE) || j == *naxes)
			axes[(*naxes)++] = k;
		if (!(flags & GROUP_UNIQUE) && *naxes == count)
			break;
	}
	free(list);
	return 0;
}

void
group_key_part(char *buf, size_t len, size_t *o, const char *axis,
    const char *val)
{
	rowkey_part(buf, len, o, axis, val);
}

void
group_names_init(struct group_names *gn, const struct model *m)
{
	gn->m = m;
	gn->local = strpool_new();
	gn->nloc = strpool_count(m->strs);
	gn->loc = xcalloc((size_t)gn->nloc + 1, sizeof *gn->loc);
	gn->api = xcalloc((size_t)gn->nloc + 1, sizeof *gn->api);
}

void
group_names_free(struct group_names *gn)
{
	free(gn->loc);
	free(gn->api);
	strpool_free(gn->local);
	memset(gn, 0, sizeof *gn);
}

uint32_t
group_local(struct group_names *gn, uint32_t sid)
{
	if (sid >= gn->nloc)
		return strpool_intern0(gn->local, model_str(gn->m, sid));
	if (gn->loc[sid] == 0)
		gn->loc[sid] = strpool_intern0(gn->local,
		    model_str(gn->m, sid)) + 1;
	return gn->loc[sid] - 1;
}

uint32_t
group_api(struct group_names *gn, uint32_t sid)
{
	const char	*s;

	if (sid < gn->nloc && gn->api[sid] != 0)
		return gn->api[sid] - 1;
	s = model_str(gn->m, sid);
	if (sid >= gn->nloc)
		return strpool_intern(gn->local, s, event_api_len(s));
	gn->api[sid] = strpool_intern(gn->local, s, event_api_len(s)) + 1;
	return gn->api[sid] - 1;
}

const char *
group_str(const struct group_names *gn, uint32_t id)
{
	return strpool_get(gn->local, id);
}

void
group_map_init(struct group_map *gm, size_t nv)
{
	memset(gm, 0, sizeof *gm);
	gm->nv = nv;
}

void
group_map_free(struct group_map *gm)
{
	free(gm->keys);
	free(gm->slot);
	free(gm->direct);
	free(gm->memo);
	memset(gm, 0, sizeof *gm);
}

static size_t
group_hash(const uint32_t *v, size_t nv)
{
	uint64_t	h = 0x9E3779B97F4A7C15ULL;
	size_t		k;

	for (k = 0; k < nv; k++)
		h = (h ^ v[k]) * 0xff51afd7ed558ccdULL;
	return (size_t)(h ^ (h >> 29));
}

/*
 * A map of GROUP_MEMO_MIN groups or more keeps a memo of GROUP_MEMO
 * entries, the group last found or made for each low bits of the keys'
 * hashes and its key (group + 1, then the nv components), which it reads
 * before its table. Its table is then megabytes (a grouping by nvtx-path
 * and iter at 1e8 events has 1.7 million groups) and a look-up there two
 * cache misses (its slot, then its key), while the keys asked one after
 * the other are few (a step's ranges) and the memo stays in the cache.
 */
#define GROUP_MEMO	4096
#define GROUP_MEMO_MIN	8192

/*
 * Before its memo and table, a map compares the key with those of the
 * group last found or made and the GROUP_AHEAD groups made after it:
 * where the same keys are asked again in the order they were first made
 * (the ranks of a job that run the same steps, their tracks asked one
 * after the other), the group is found there, the keys in the cache,
 * without a hash or a look-up in a table of megabytes.
 */
#define GROUP_AHEAD	4

/* Doubles the slot table (first use: 64 slots) and rehashes every key. */
static void
group_map_grow(struct group_map *gm)
{
	size_t	size = gm->mask == 0 ? 64 : (gm->mask + 1) * 2, g, h;

	free(gm->slot);
	gm->slot = xcalloc_rw(size, sizeof *gm->slot);
	gm->mask = size - 1;
	for (g = 0; g < gm->ng; g++) {
		h = group_hash(gm->keys + g * gm->nv, gm->nv) & gm->mask;
		while (gm->slot[h] != 0)
			h = (h + 1) & gm->mask;
		gm->slot[h] = (uint32_t)g + 1;
	}
}

/* Whether keys a and b (nv components) are the same. */
static inline int
group_key_eq(const uint32_t *a, const uint32_t *b, size_t nv)
{
	size_t	k;

	for (k = 0; k < nv && a[k] == b[k]; k++)
		;
	return k == nv;
}

/*
 * The group of key v, or gm->ng when it has none: the direct table, the
 * groups at *hint and the GROUP_AHEAD after it, the memo, then the slot
 * table. *hint becomes the group found before the slot table; *tab says
 * whether the slot table was asked, *hv then holding the key's hash.
 */
static inline size_t
group_map_look(const struct group_map *gm, const uint32_t *v, size_t *hint,
    size_t *hv, int *tab)
{
	size_t		 h, g, nv = gm->nv;
	uint32_t	 s;
	const uint32_t	*memo;

	*tab = 0;
	if (nv == 1 && v[0] < gm->ndirect && gm->direct[v[0]] != 0)
		return gm->direct[v[0]] - 1;
	for (g = *hint; g < gm->ng && g <= *hint + GROUP_AHEAD; g++)
		if (group_key_eq(gm->keys + g * nv, v, nv))
			return *hint = g;
	*hv = group_hash(v, nv);
	if (gm->memo != NULL) {
		memo = &gm->memo[(*hv & (GROUP_MEMO - 1)) * (nv + 1)];
		if (memo[0] != 0 && group_key_eq(memo + 1, v, nv))
			return *hint = memo[0] - 1;
	}
	*tab = 1;
	if (gm->mask == 0)
		return gm->ng;
	for (h = *hv & gm->mask; (s = gm->slot[h]) != 0;
	    h = (h + 1) & gm->mask)
		if (group_key_eq(gm->keys + (size_t)(s - 1) * nv, v, nv))
			return s - 1;
	return gm->ng;
}

size_t
group_map_find(struct group_map *gm, const uint32_t *v, int *isnew)
{
	size_t		 h, hv = 0, g, k, nv = gm->nv;
	uint32_t	*memo = NULL;
	int		 tab;

	*isnew = 0;
	g = group_map_look(gm, v, &gm->last, &hv, &tab);
	if (!tab)
		return g;
	/* The slot table's answer, found or not, goes into the memo. */
	if (gm->memo != NULL) {
		memo = &gm->memo[(hv & (GROUP_MEMO - 1)) * (nv + 1)];
		memo[0] = (uint32_t)g + 1;
		memcpy(memo + 1, v, nv * sizeof *v);
	}
	gm->last = g;
	if (g < gm->ng)
		return g;
	*isnew = 1;
	XGROW(gm->keys, gm->cap, (g + 1) * nv);
	memcpy(gm->keys + g * nv, v, nv * sizeof *v);
	gm->ng++;
	if (memo == NULL && gm->ng == GROUP_MEMO_MIN)
		gm->memo = xcalloc_rw(GROUP_MEMO * (nv + 1), sizeof *gm->memo);
	if (gm->ng * 2 > gm->mask)
		group_map_grow(gm);	/* rehashes the new key too */
	else {
		h = hv & gm->mask;
		while (gm->slot[h] != 0)
			h = (h + 1) & gm->mask;
		gm->slot[h] = (uint32_t)g + 1;
	}
	if (nv == 1 && v[0] < GROUP_DIRECT) {
		if (v[0] >= gm->ndirect) {
			k = gm->ndirect;
			XGROW(gm->direct, gm->ndirect, (size_t)v[0] + 1);
			memset(gm->direct + k, 0,
			    (gm->ndirect - k) * sizeof *gm->direct);
		}
		gm->direct[v[0]] = (uint32_t)g + 1;
	}
	return g;
}

void
group_map_prefetch(const struct group_map *gm, const uint32_t *v)
{
	size_t	hv;

	if (gm->mask == 0 || (gm->nv == 1 && v[0] < gm->ndirect))
		return;
	hv = group_hash(v, gm->nv);
#if defined(__GNUC__)
	__builtin_prefetch(&gm->slot[hv & gm->mask]);
	if (gm->memo != NULL)
		__builtin_prefetch(&gm->memo[(hv & (GROUP_MEMO - 1)) *
		    (gm->nv + 1)]);
#endif
}

size_t
group_map_get(const struct group_map *gm, const uint32_t *v, size_t *hint)
{
	size_t	hv, g;
	int	tab;

	g = group_map_look(gm, v, hint, &hv, &tab);
	if (tab && g < gm->ng)
		*hint = g;
	return g;
}

const uint32_t *
group_map_key(const struct group_map *gm, size_t g)
{
	return gm->keys + g * gm->nv;
}
