/*
 * nvtree: the NVTX view's state over the aggregated NVTX tree
 * (analysis/nvtree.h): the sort order of every node's children, which
 * nodes are expanded, and the visible rows. See tui/nvtree.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/nvtree.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *nvtree_sort_names[NVTREE_SORT_COUNT_] = {
	"cpu", "gpu", "count", "name", "start"
};

const char *
nvtree_sort_name(int k)
{
	return k >= 0 && k < NVTREE_SORT_COUNT_ ? nvtree_sort_names[k] : "?";
}

static int
nvtree_cmp(const void *a, const void *b, void *ctx)
{
	const struct nvtree	*t = ctx;
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
	for (i = 0; i < t->nn; i++)
		sort_stable(t->kids + t->n[i].kid0, t->n[i].nkids,
		    sizeof *t->kids, nvtree_cmp, t);
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

struct nvtree *
nvtree_open(const struct model *m)
{
	struct nvtree	*t = nvtree_build(m);

	t->sort = NVTREE_SORT_START;
	nvtree_sort(t, NVTREE_SORT_CPU, 1);
	nvtree_flatten(t);
	return t;
}
