/*
 * nsys-sort: devices, processes, threads and streams in source order.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "model/model.h"
#include "sources/nsys-int.h"
#include "util/xmalloc.h"

/*
 * Entities are declared in the order rows first mention them, which follows
 * whatever order the export has. Put devices, processes, threads and
 * streams in source order instead (device 0 first, processes by pid,
 * threads by tid) and renumber every index that refers to them. The
 * builder's lookup maps are stale afterwards, so this runs only once
 * nothing more is declared.
 */
struct nsys_sortkey {
	uint64_t	 k[3];
	uint32_t	 i;
};

static int
nsys_sortkey_cmp(const void *a, const void *b)
{
	const struct nsys_sortkey	*x = a, *y = b;
	int				 j;

	for (j = 0; j < 3; j++)
		if (x->k[j] != y->k[j])
			return x->k[j] < y->k[j] ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Reorders the n elements (of size sz) at base by keys; returns the
 * old -> new index map (caller frees), NULL when n == 0. */
static uint32_t *
nsys_permute(void *base, size_t n, size_t sz, struct nsys_sortkey *keys)
{
	uint32_t	*map;
	char		*copy;
	size_t		 i;

	if (n == 0)
		return NULL;
	qsort(keys, n, sizeof *keys, nsys_sortkey_cmp);
	map = xreallocarray(NULL, n, sizeof *map);
	copy = xreallocarray(NULL, n, sz);
	memcpy(copy, base, n * sz);
	for (i = 0; i < n; i++) {
		memcpy((char *)base + i * sz, copy + (size_t)keys[i].i * sz,
		    sz);
		map[keys[i].i] = (uint32_t)i;
	}
	free(copy);
	return map;
}

static uint32_t
nsys_remap(const uint32_t *map, uint32_t i)
{
	return map != NULL && i != NONE32 ? map[i] : i;
}

void
nsys_sort_entities(struct nsys *n)
{
	struct model		*m = n->m;
	struct nsys_sortkey	*keys;
	uint32_t		*dmap, *pmap, *tmap, *smap;
	size_t			 i, most;

	most = m->ndevices;
	if (m->nprocesses > most)
		most = m->nprocesses;
	if (m->nthreads > most)
		most = m->nthreads;
	if (m->nstreams > most)
		most = m->nstreams;
	if (most == 0)
		return;
	keys = xcalloc(most, sizeof *keys);

	for (i = 0; i < m->ndevices; i++) {
		keys[i].k[0] = m->devices[i].source_id;
		keys[i].k[1] = keys[i].k[2] = 0;
		keys[i].i = (uint32_t)i;
	}
	dmap = nsys_permute(m->devices, m->ndevices, sizeof *m->devices,
	    keys);
	for (i = 0; i < m->nprocesses; i++) {
		keys[i].k[0] = m->processes[i].pid;
		keys[i].k[1] = m->processes[i].source_id;
		keys[i].k[2] = 0;
		keys[i].i = (uint32_t)i;
	}
	pmap = nsys_permute(m->processes, m->nprocesses,
	    sizeof *m->processes, keys);
	for (i = 0; i < m->nthreads; i++) {
		m->threads[i].process = nsys_remap(pmap, m->threads[i].process);
		keys[i].k[0] = m->threads[i].process;
		keys[i].k[1] = m->threads[i].tid;
		keys[i].k[2] = m->threads[i].source_id;
		keys[i].i = (uint32_t)i;
	}
	tmap = nsys_permute(m->threads, m->nthreads, sizeof *m->threads,
	    keys);
	for (i = 0; i < m->nstreams; i++) {
		struct stream *st = &m->streams[i];
		st->device = nsys_remap(dmap, st->device);
		st->process = nsys_remap(pmap, st->process);
		keys[i].k[0] = st->device;
		keys[i].k[1] = st->process;
		keys[i].k[2] = st->source_id;
		keys[i].i = (uint32_t)i;
	}
	smap = nsys_permute(m->streams, m->nstreams, sizeof *m->streams,
	    keys);
	for (i = 0; i < m->ndomains; i++)
		m->domains[i].process = nsys_remap(pmap,
		    m->domains[i].process);
	for (i = 0; i < m->ntracks; i++) {
		struct track *t = &m->tracks[i];
		t->device = nsys_remap(dmap, t->device);
		t->process = nsys_remap(pmap, t->process);
		t->thread = nsys_remap(tmap, t->thread);
		t->stream = nsys_remap(smap, t->stream);
	}
	free(keys);
	free(dmap);
	free(pmap);
	free(tmap);
	free(smap);
}
