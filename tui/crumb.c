/*
 * crumb: the NVTX breadcrumb. See crumb.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "model/correlate.h"
#include "model/event.h"
#include "model/lane.h"
#include "tui/crumb.h"
#include "tui/safetext.h"

/*
 * The thread and the time whose ranges are the event's: GPU work's
 * launching call, else the event itself. 0 if there is none.
 */
static int
crumb_anchor(const struct model *m, uint32_t gid, uint32_t *th, int64_t *t)
{
	struct evref		 r = model_ev(m, gid);
	const struct track	*tr = &m->tracks[r.track];
	uint32_t		 api;

	if (event_gpu_side(tr)) {
		if ((api = correlate_launch(m, gid)) == NONE32)
			return 0;
		r = model_ev(m, api);
		tr = &m->tracks[r.track];
	}
	if (tr->thread == NONE32)
		return 0;
	*th = tr->thread;
	*t = tr->lane.start[r.idx];
	return 1;
}

/* Outer first: earlier start, then later end, then global id. */
static int
crumb_outer(const struct model *m, uint32_t a, uint32_t b)
{
	int64_t	sa = model_ev_start(m, a), sb = model_ev_start(m, b);
	int64_t	ea = model_ev_end(m, a), eb = model_ev_end(m, b);

	if (sa != sb)
		return sa < sb;
	if (ea != eb)
		return ea > eb;
	return a < b;
}

size_t
crumb_chain(const struct model *m, uint32_t gid, uint32_t *out, size_t max,
    uint32_t **buf, size_t *cap)
{
	const struct track	*tr;
	uint32_t		 th, ti, g;
	int64_t			 t, s0 = 0, e0 = 0;
	size_t			 n = 0, i, k, j;
	int			 self;

	if (gid == NONE32 || gid >= m->nevents || max == 0 ||
	    !crumb_anchor(m, gid, &th, &t))
		return 0;
	tr = event_track(m, gid);
	s0 = model_ev_start(m, gid);
	e0 = model_ev_end(m, gid);
	self = tr->type == TRACK_NVTX && e0 > s0;
	/* Every range of the thread, in any domain, around the anchor. */
	for (ti = 0; ti < m->ntracks; ti++) {
		tr = &m->tracks[ti];
		if (tr->type != TRACK_NVTX || tr->thread != th)
			continue;
		k = lane_stab(&tr->lane, t, buf, cap);
		for (i = 0; i < k; i++) {
			g = model_gid(m, ti, (*buf)[i]);
			if (g == gid || tr->lane.end[(*buf)[i]] <=
			    tr->lane.start[(*buf)[i]])
				continue;
			if (self && (tr->lane.start[(*buf)[i]] > s0 ||
			    tr->lane.end[(*buf)[i]] < e0))
				continue;
			/* Insertion, outer first, at most max kept. */
			for (j = n; j > 0 && crumb_outer(m, g, out[j - 1]);
			    j--)
				;
			if (n < max) {
				memmove(&out[j + 1], &out[j], (n - j) *
				    sizeof *out);
				out[j] = g;
				n++;
			} else if (j > 0) {
				/* Full: keep the inner ones. */
				memmove(&out[0], &out[1], (j - 1) *
				    sizeof *out);
				out[j - 1] = g;
			}
		}
	}
	if (self) {
		if (n == max) {
			memmove(&out[0], &out[1], (n - 1) * sizeof *out);
			n--;
		}
		out[n++] = gid;
	}
	return n;
}

int
crumb_fit(const char *const *names, size_t n, const char *sep, int flags,
    int maxw, char *buf, size_t len)
{
	const char	*ell = (flags & ST_ASCII) ? "~" : "\xe2\x80\xa6";
	size_t		 first, i, o = 0;
	int		 w, sepw, total, fits = 0;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (n == 0 || maxw <= 0)
		return 0;
	sepw = safetext_width(sep, (size_t)-1, flags);
	/* Drop outer names while the rest (and an ellipsis) do not fit. */
	for (first = 0; first < n; first++) {
		total = first > 0 ? 1 + sepw : 0;
		for (i = first; i < n; i++)
			total += safetext_width(names[i], (size_t)-1, flags) +
			    (i > first ? sepw : 0);
		if (total <= maxw) {
			fits = 1;
			break;
		}
	}
	if (first == n)
		first = n - 1;
	w = 0;
	/* The ellipsis only ahead of names that fit whole after it. */
	if (first > 0 && fits) {
		o += (size_t)snprintf(buf + o, len - o, "%s%s", ell, sep);
		w += 1 + sepw;
	}
	for (i = first; i < n && o < len && w < maxw; i++) {
		if (i > first) {
			if (w + sepw >= maxw)
				break;
			o += (size_t)snprintf(buf + o, len - o, "%s", sep);
			w += sepw;
		}
		if (o >= len)
			break;
		w += safetext_utf8(names[i], (size_t)-1, flags | ST_ELLIPSIS,
		    maxw - w, buf + o, len - o);
		o += strlen(buf + o);
	}
	return w;
}
