/*
 * layrank: the timeline's top-level groups by distributed rank.
 *
 * When the trace knows ranks (process.rank >= 0, e.g. Kineto traces of a
 * job), the layout is reordered rank by rank: rank 0's GPUs with their
 * streams, then rank 0's processes with their threads, then rank 1's, ...;
 * groups of no single known rank follow, in their first order. A device's
 * rank is its streams' processes' rank when they all have the same one;
 * its group label then says it ("GPU 0 rank 0 ...").
 *
 * Pure: works on the row list layout_new() built, before anything points
 * into it by index (filtered lanes, the visible list).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "util/sort.h"
#include "tui/layout.h"
#include "tui/layrank.h"

struct layrank_block {
	int32_t		 rank;		/* -1: none */
	size_t		 first, n;	/* rows all[first..+n) */
};

int32_t
layrank_group(const struct layout *l, uint32_t g)
{
	const struct model	*m = l->m;
	const uint32_t		*mem;
	size_t			 i, n;
	uint32_t		 p;
	int32_t			 rank = -1, r;

	mem = layout_members(l, g, &n);
	for (i = 0; i < n; i++) {
		p = m->tracks[mem[i]].process;
		if (p == NONE32 || p >= m->nprocesses)
			return -1;
		r = m->processes[p].rank;
		if (r < 0 || (rank >= 0 && r != rank))
			return -1;
		rank = r;
	}
	return rank;
}

static int
layrank_cmp(const void *a, const void *b, void *ctx)
{
	const struct layrank_block	*x = a, *y = b;
	uint32_t			 rx = (uint32_t)x->rank;
	uint32_t			 ry = (uint32_t)y->rank;

	/* Unknown (-1) becomes the largest: last. */
	return sort_lex2(rx, ry, (int64_t)x->first, (int64_t)y->first);
}

/* "GPU 0 H100" -> "GPU 0 rank R H100" (after the device number). */
static void
layrank_label(char *label, size_t len, int32_t rank)
{
	char	 tmp[LAYOUT_LABEL], *sp;
	size_t	 head;

	if (strncmp(label, "GPU ", 4) != 0)
		return;
	sp = strchr(label + 4, ' ');
	head = sp != NULL ? (size_t)(sp - label) : strlen(label);
	snprintf(tmp, sizeof tmp, "%.*s rank %d%s", (int)head, label,
	    (int)rank, sp != NULL ? sp : "");
	snprintf(label, len, "%s", tmp);
}

void
layrank_order(struct layout *l)
{
	struct layrank_block	*b;
	struct layout_row	*all, *r;
	size_t			 nb = 0, i, k, o;
	int			 known = 0;

	if (l->nall == 0)
		return;
	b = xcalloc(l->nall, sizeof *b);
	for (i = 0; i < l->nall; i++) {
		r = &l->all[i];
		if (nb == 0 || r->level == 0) {
			b[nb].first = i;
			b[nb].rank = -1;
			if (r->kind == LROW_GROUP)
				b[nb].rank = layrank_group(l, r->group);
			if (b[nb].rank >= 0)
				known = 1;
			nb++;
		}
		b[nb - 1].n++;
	}
	if (!known) {
		free(b);
		return;
	}
	/* Device labels say their rank. */
	for (k = 0; k < nb; k++) {
		r = &l->all[b[k].first];
		if (b[k].rank < 0 || r->kind != LROW_GROUP ||
		    l->groups[r->group].kind != LG_DEVICE)
			continue;
		layrank_label(l->groups[r->group].label, LAYOUT_LABEL,
		    b[k].rank);
		memcpy(r->label, l->groups[r->group].label, sizeof r->label);
	}
	sort_stable(b, nb, sizeof *b, layrank_cmp, NULL);
	all = xcalloc(l->allcap, sizeof *all);
	for (k = 0, o = 0; k < nb; k++) {
		memcpy(all + o, l->all + b[k].first, b[k].n * sizeof *all);
		o += b[k].n;
	}
	free(l->all);
	l->all = all;
	free(b);
}
