/*
 * search: name search over the layout's rows. See search.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/search.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static int
search_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
search_match(const char *s, const char *pat)
{
	size_t	i;

	if (*pat == '\0')
		return 1;
	for (; *s != '\0'; s++) {
		for (i = 0; pat[i] != '\0' && s[i] != '\0'; i++)
			if (search_lower((unsigned char)s[i]) !=
			    search_lower((unsigned char)pat[i]))
				break;
		if (pat[i] == '\0')
			return 1;
		if (s[i] == '\0')
			return 0;
	}
	return 0;
}

void
search_init(struct search *s)
{
	memset(s, 0, sizeof *s);
}

void
search_free(struct search *s)
{
	XFREE_EACH(s->rows, s->nrows, idx);
	free(s->rows);
	memset(s, 0, sizeof *s);
}

uint64_t
search_build(struct search *s, const struct layout *lay, const char *pat)
{
	const struct model	*m = lay->m;
	const struct layout_row	*r;
	const struct lane	*l;
	uint8_t			*hit;
	uint32_t		 nstr, sid;
	size_t			 a, i, n;
	char			 p[sizeof s->pat];

	/* pat may be s->pat itself. */
	snprintf(p, sizeof p, "%s", pat);
	pat = p;
	search_free(s);
	snprintf(s->pat, sizeof s->pat, "%s", pat);
	if (*pat == '\0')
		return 0;
	nstr = strpool_count(m->strs);
	hit = xcalloc(nstr + 1, 1);
	for (sid = 1; sid < nstr; sid++)
		hit[sid] = (uint8_t)search_match(model_str(m, sid), pat);
	s->nrows = layout_nall(lay);
	s->rows = xcalloc(s->nrows + 1, sizeof *s->rows);
	for (a = 0; a < s->nrows; a++) {
		r = layout_all(lay, a);
		if (r->kind != LROW_LANE || layout_row_hidden(lay, r))
			continue;
		l = r->lane;
		for (i = 0, n = 0; i < l->n; i++)
			if (l->name[i] < nstr && hit[l->name[i]])
				n++;
		if (n == 0)
			continue;
		s->rows[a].idx = xcalloc(n, sizeof *s->rows[a].idx);
		for (i = 0; i < l->n; i++)
			if (l->name[i] < nstr && hit[l->name[i]])
				s->rows[a].idx[s->rows[a].n++] = (uint32_t)i;
		s->total += n;
	}
	free(hit);
	return s->total;
}

/* (start, row, idx) order. */
static int
search_cmp(const struct search_pos *a, const struct search_pos *b)
{
	return sort_lex3(a->start, b->start, (int64_t)a->row,
	    (int64_t)b->row, (int64_t)a->idx, (int64_t)b->idx);
}

struct search_below {
	const struct search_row	*sr;
	const struct lane	*l;
	size_t			 a;
	const struct search_pos	*p;
	int			 strict;
};

/* Whether match i of row a is before p (or at p, when strict). */
static int
search_is_below(const void *ctx, size_t i)
{
	const struct search_below	*b = ctx;
	struct search_pos		 q;
	int				 c;

	q.row = b->a;
	q.start = b->l->start[b->sr->idx[i]];
	q.idx = b->sr->idx[i];
	c = search_cmp(&q, b->p);
	return c < 0 || (b->strict && c == 0);
}

/*
 * In row a, the first match whose position is > p (strict) or >= p, as a
 * position in the row's match list (n if none).
 */
static size_t
search_row_lower(const struct search_row *sr, const struct lane *l,
    size_t a, const struct search_pos *p, int strict)
{
	struct search_below	b = { sr, l, a, p, strict };

	return lbound_if(0, sr->n, search_is_below, &b);
}

int
search_step(const struct search *s, const struct layout *lay,
    const struct search_pos *from, int dir, struct search_pos *out)
{
	const struct search_row	*sr;
	const struct lane	*l;
	struct search_pos	 p = *from, q, best, wrap;
	size_t			 a, k;
	int			 have = 0, havewrap = 0;

	if (s->total == 0)
		return -1;
	if (from->row == (size_t)-1) {
		/* A point in time: before every row at that start. */
		p.row = 0;
		p.idx = 0;
	}
	memset(&best, 0, sizeof best);
	memset(&wrap, 0, sizeof wrap);
	for (a = 0; a < s->nrows; a++) {
		sr = &s->rows[a];
		if (sr->n == 0)
			continue;
		l = layout_all(lay, a)->lane;
		q.row = a;
		if (dir > 0) {
			k = search_row_lower(sr, l, a, &p,
			    from->row != (size_t)-1);
			if (k < sr->n) {
				q.idx = sr->idx[k];
				q.start = l->start[q.idx];
				if (!have || search_cmp(&q, &best) < 0)
					best = q, have = 1;
			}
			q.idx = sr->idx[0];
			q.start = l->start[q.idx];
			if (!havewrap || search_cmp(&q, &wrap) < 0)
				wrap = q, havewrap = 1;
		} else {
			k = search_row_lower(sr, l, a, &p, 0);
			if (k > 0) {
				q.idx = sr->idx[k - 1];
				q.start = l->start[q.idx];
				if (!have || search_cmp(&q, &best) > 0)
					best = q, have = 1;
			}
			q.idx = sr->idx[sr->n - 1];
			q.start = l->start[q.idx];
			if (!havewrap || search_cmp(&q, &wrap) > 0)
				wrap = q, havewrap = 1;
		}
	}
	if (!have && !havewrap)
		return -1;
	*out = have ? best : wrap;
	return 0;
}

uint64_t
search_rank(const struct search *s, const struct layout *lay,
    const struct search_pos *p)
{
	const struct search_row	*sr;
	uint64_t		 rank = 0;
	size_t			 a;

	for (a = 0; a < s->nrows; a++) {
		sr = &s->rows[a];
		if (sr->n > 0)
			rank += search_row_lower(sr, layout_all(lay, a)->lane,
			    a, p, 0);
	}
	return rank + 1;
}
