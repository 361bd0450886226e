/*
 * view-report-src: the source pane of the report view (see
 * view-report-src.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/stalls.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/safetext.h"
#include "tui/view-report-src.h"

void
vrsrc_build(struct vrsrc *s, const struct report *r, uint32_t launch)
{
	size_t	i;

	vrsrc_free(s);
	if (launch >= r->nlaunches ||
	    report_stalls_build(r, launch, &s->st) != 0)
		return;
	s->ok = 1;
	s->by_line = s->st.pcs.has_lines;
	s->n = report_stalls_group(&s->st, s->by_line ? RSB_LINE : RSB_PC,
	    &s->g);
	for (i = 0; i < s->n; i++)
		if (s->g[i].samples > s->max)
			s->max = s->g[i].samples;
}

void
vrsrc_free(struct vrsrc *s)
{
	if (s->ok) {
		report_stalls_groups_free(s->g, s->n);
		report_stalls_free(&s->st);
	}
	memset(s, 0, sizeof *s);
}

void
vrsrc_draw(const struct vrsrc *s, const struct report *r, struct cellgrid *g,
    const struct glyph *gl, int san, int y, int w, size_t i)
{
	const struct report_stall_group	*e;
	const char			*file, *base;
	char				 lab[96], num[96];
	int				 labw = 28, numw = 44, barw, n, top;

	if (i >= s->n)
		return;
	e = &s->g[i];
	if (s->by_line) {
		file = e->file != REPORT_NONE ? report_str(r,
		    r->code.files[e->file].path) : "?";
		base = strrchr(file, '/');
		snprintf(lab, sizeof lab, "%s:%u", base != NULL ? base + 1 :
		    file, e->line);
	} else
		snprintf(lab, sizeof lab, "+0x%04" PRIx64, e->off);
	cellgrid_text(g, 1, y, labw - 2, lab, san | ST_ELLIPSIS, CG_KEY);
	top = report_stalls_top(&s->st, e);
	snprintf(num, sizeof num, "%6.0f  %5.0f n/i  %s", e->samples,
	    e->not_issued, top >= 0 ? s->st.reason[top] : "");
	barw = w - labw - numw - 2;
	if (barw > 0 && s->max > 0) {
		n = (int)(barw * e->samples / s->max + 0.5);
		if (n < 1 && e->samples > 0)
			n = 1;
		cellgrid_fill(g, labw, y, n, 1, gl->ramp[8], CG_SYNC);
	}
	cellgrid_text(g, w - numw, y, numw - 1, num, san | ST_ELLIPSIS,
	    CG_DETAIL);
}
