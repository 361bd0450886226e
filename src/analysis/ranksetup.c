/*
 * ranksetup: rank and parallel layout from NVTX text (ranksetup.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ranksetup.h"
#include "util/xmalloc.h"

/* A non-negative decimal of at most 9 digits at *p; -1 if none. */
static int32_t
ranksetup_num(const char **p)
{
	int32_t	v = 0;
	int	n = 0;

	while (isdigit((unsigned char)**p) && n < 9) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	if (n == 0 || isdigit((unsigned char)**p))
		return -1;
	return v;
}

static int
ranksetup_sep(char c)
{
	return c == '\0' || c == ';' || c == ',' || isspace((unsigned char)c);
}

int
ranksetup_parse(const char *text, struct rank_setup *rs)
{
	const char	*p = text, *k;
	size_t		 klen;
	int32_t		 a, b;

	memset(rs, 0, sizeof *rs);
	rs->rank = -1;
	while (*p != '\0') {
		while (*p != '\0' && ranksetup_sep(*p))
			p++;
		k = p;
		while (isalpha((unsigned char)*p))
			p++;
		klen = (size_t)(p - k);
		if (klen > 0 && klen < sizeof rs->ax[0].name && *p == '=') {
			p++;
			a = ranksetup_num(&p);
			if (klen == 4 && strncmp(k, "rank", 4) == 0) {
				if (a >= 0 && ranksetup_sep(*p) && rs->rank < 0)
					rs->rank = a;
			} else if (a >= 0 && *p == '/') {
				p++;
				b = ranksetup_num(&p);
				if (b > 0 && a < b && ranksetup_sep(*p) &&
				    rs->naxes < RANKSETUP_AXES) {
					memcpy(rs->ax[rs->naxes].name, k, klen);
					rs->ax[rs->naxes].name[klen] = '\0';
					rs->ax[rs->naxes].idx = a;
					rs->ax[rs->naxes].size = b;
					rs->naxes++;
				}
			}
		}
		while (*p != '\0' && !ranksetup_sep(*p))
			p++;
	}
	if (rs->rank < 0) {
		rs->naxes = 0;
		return 0;
	}
	return 1;
}

void
ranksetup_text(const struct rank_setup *rs, char *buf, size_t len)
{
	size_t	o = 0;
	int	i, n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < rs->naxes && o < len; i++) {
		n = snprintf(buf + o, len - o, "%s%s=%d/%d", i ? " " : "",
		    rs->ax[i].name, rs->ax[i].idx, rs->ax[i].size);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

struct rank_setup *
ranksetup_build(const struct model *m)
{
	struct rank_setup	*out, rs;
	const struct track	*tr;
	const struct lane	*l;
	int64_t			*at;
	uint32_t		 p;
	size_t			 t, i;
	const char		*s;

	out = xcalloc(m->nprocesses + 1, sizeof *out);
	at = xcalloc(m->nprocesses + 1, sizeof *at);
	for (p = 0; p < m->nprocesses; p++)
		out[p].rank = -1;
	for (t = 0; (tr = model_track_next(m, TRACK_NVTX, &t)) != NULL; t++) {
		p = tr->process;
		if (p == NONE32 && tr->thread < m->nthreads)
			p = m->threads[tr->thread].process;
		if (p >= m->nprocesses)
			continue;
		l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			if (out[p].rank >= 0 && l->start[i] >= at[p])
				break;
			s = model_str(m, l->name[i]);
			if (strstr(s, "rank=") == NULL ||
			    !ranksetup_parse(s, &rs))
				continue;
			out[p] = rs;
			at[p] = l->start[i];
			break;
		}
	}
	free(at);
	return out;
}
