/*
 * callsite: the program frame of an API call's call chain (callsite.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/callsite.h"
#include "model/callchain.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *callsite_libs[] = {
	/* the CUDA and HIP stacks, their profilers' injection */
	"libcuda.", "libcudart", "libcupti", "libnvidia-", "libnvToolsExt",
	"libToolsInjection", "libamdhip64", "libhsa-runtime", "librocprofiler",
	"libroctracer",
	/* the C library */
	"libc.", "libc-", "libpthread", "libdl.", "libdl-", "librt.",
	"librt-", "libm.", "libm-", "ld-linux", "ld-2.", "ld-musl",
	NULL
};

int
callsite_system_module(const char *path)
{
	const char	*b;
	size_t		 i;

	if (path[0] == '[')
		return 1;
	b = strrchr(path, '/');
	b = b != NULL ? b + 1 : path;
	for (i = 0; callsite_libs[i] != NULL; i++)
		if (strncmp(b, callsite_libs[i], strlen(callsite_libs[i])) == 0)
			return 1;
	return 0;
}

uint32_t
callsite_frame(const struct model *m, uint32_t c)
{
	const uint32_t		*fr;
	const struct cframe	*f;
	const char		*mod;
	size_t			 n, k;

	n = cpusamp_chain(&m->cs, c, &fr);
	for (k = 0; k < n; k++) {
		f = &m->cs.frame[fr[k]];
		mod = f->module != 0 ? model_str(m, f->module) : "";
		if (*mod == '\0' || callsite_system_module(mod))
			continue;
		return fr[k];
	}
	return NONE32;
}

void
callsites_init(struct callsites *s)
{
	memset(s, 0, sizeof *s);
	s->top_gid = NONE32;
}

void
callsites_add(struct callsites *s, const struct model *m, uint32_t gid,
    int64_t ns)
{
	struct callsite	*x;
	uint32_t	 c, f, k;

	s->calls++;
	if (s->top_gid == NONE32 || ns > s->top_ns) {
		s->top_gid = gid;
		s->top_ns = ns;
	}
	if ((c = cpusamp_event_chain(m, gid)) == NONE32)
		return;
	s->chained++;
	if (s->chain_site == NULL) {
		s->chain_site = xcalloc(m->cs.nchains, sizeof *s->chain_site);
		s->frame_site = xcalloc(m->cs.nframes, sizeof *s->frame_site);
	}
	if (s->chain_site[c] == 0) {
		f = callsite_frame(m, c);
		if (f == NONE32)
			s->chain_site[c] = NONE32;
		else {
			if (s->frame_site[f] == 0) {
				x = XAPPEND(s->v, s->cap, s->n++);
				x->frame = f;
				x->gid = NONE32;
				s->frame_site[f] = (uint32_t)s->n;
			}
			s->chain_site[c] = s->frame_site[f];
		}
	}
	if ((k = s->chain_site[c]) == NONE32)
		return;
	x = &s->v[k - 1];
	x->count++;
	x->ns += ns;
	if (x->gid == NONE32 || ns > x->max_ns) {
		x->gid = gid;
		x->chain = c;
		x->max_ns = ns;
	}
}

static int
callsites_cmp(const void *a, const void *b, void *unused)
{
	const struct callsite	*x = a, *y = b;

	(void)unused;
	return sort_lex3(y->ns, x->ns, (int64_t)y->count, (int64_t)x->count,
	    x->frame, y->frame);
}

void
callsites_finish(struct callsites *s)
{
	if (s->n > 1)
		sort_stable(s->v, s->n, sizeof *s->v, callsites_cmp, NULL);
	/* The maps index the order of insertion: no longer valid. */
	free(s->chain_site);
	free(s->frame_site);
	s->chain_site = s->frame_site = NULL;
}

void
callsites_free(struct callsites *s)
{
	free(s->v);
	free(s->chain_site);
	free(s->frame_site);
	memset(s, 0, sizeof *s);
	s->top_gid = NONE32;
}

static void
callsites_frame(struct fevidence *ev, const struct model *m, uint32_t f)
{
	fev_str(ev, "function", model_str(m, m->cs.frame[f].func));
	fev_str(ev, "module", model_str(m, m->cs.frame[f].module));
}

void
callsites_evidence(struct fevidence *ev, const struct model *m,
    const struct callsites *s, size_t top)
{
	uint32_t	 c, f;
	uint64_t	 sited = 0;
	size_t		 k;

	if (s->chained == 0)
		return;
	c = s->top_gid != NONE32 ? cpusamp_event_chain(m, s->top_gid) :
	    NONE32;
	f = c != NONE32 ? callsite_frame(m, c) : NONE32;
	if (f == NONE32)
		fev_null(ev, "call_site");
	else {
		fev_record(ev, "call_site");
		fev_int(ev, "event", s->top_gid);
		fev_int(ev, "dur_ns", s->top_ns);
		callsites_frame(ev, m, f);
		fev_int(ev, "chain", c);
		fev_end(ev);
	}
	fev_list(ev, "call_sites");
	for (k = 0; k < s->n; k++) {
		sited += s->v[k].count;
		if (k >= top)
			continue;
		fev_record(ev, NULL);
		callsites_frame(ev, m, s->v[k].frame);
		fev_int(ev, "chain", s->v[k].chain);
		fev_int(ev, "count", (int64_t)s->v[k].count);
		fev_int(ev, "total_ns", s->v[k].ns);
		fev_int(ev, "event", s->v[k].gid);
		fev_end(ev);
	}
	fev_end(ev);
	fev_int(ev, "calls_without_site", (int64_t)(s->calls - sited));
}
