/*
 * view-findings: the findings panel. See view-findings.h.
 *
 * Screen, top to bottom: a title line (how many findings, the window), the
 * list (rank, confidence, type, share of the window, title; the selected
 * one reversed), a rule, the selected finding's details (what was
 * measured, the next step, the Amdahl bounds, where the evidence is, the
 * ncu command when there is one), and the status line.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "fmt.h"
#include "safetext.h"
#include "status.h"
#include "view-findings.h"
#include "xmalloc.h"

#define VF_MIN_LIST	3	/* list rows kept however small the screen */

struct vf {
	const struct model	*m;
	const struct glyph	*gl;
	struct view_shared	*sh;
	int			 san;
	struct findings		 fs;
	int			 w, h;
	int			 list_y, list_h;	/* list rows */
	int			 det_y, det_h;		/* rule and details */
	size_t			 top, sel;
	char			 msg[160];
};

static void
vf_scroll(struct vf *v)
{
	if (v->fs.n == 0) {
		v->sel = v->top = 0;
		return;
	}
	if (v->sel >= v->fs.n)
		v->sel = v->fs.n - 1;
	if (v->list_h <= 0)
		return;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + (size_t)v->list_h)
		v->top = v->sel - (size_t)v->list_h + 1;
}

static int
vf_move(void *p, const struct tui_key *k, int delta)
{
	struct vf	*v = p;
	size_t		 old = v->sel, page;

	(void)k;
	if (v->fs.n == 0)
		return 0;
	page = v->list_h > 1 ? (size_t)v->list_h - 1 : 1;
	switch (delta) {
	case -100000:
		v->sel = 0;
		break;
	case 100000:
		v->sel = v->fs.n - 1;
		break;
	case -1000:
		v->sel = v->sel > page ? v->sel - page : 0;
		break;
	case 1000:
		v->sel += page;
		break;
	default:
		if (delta < 0)
			v->sel = v->sel > 0 ? v->sel - 1 : 0;
		else
			v->sel++;
	}
	vf_scroll(v);
	return v->sel != old ? REDRAW_BODY | REDRAW_DETAIL | REDRAW_STATUS : 0;
}

/* Enter: the evidence on the timeline. */
static int
vf_show(void *p, const struct tui_key *k, int arg)
{
	struct vf		*v = p;
	const struct finding	*f;
	int64_t			 len, pad;

	(void)k;
	(void)arg;
	if (v->fs.n == 0)
		return 0;
	f = &v->fs.v[v->sel];
	v->sh->want = "timeline";
	memset(&v->sh->msg, 0, sizeof v->sh->msg);
	if (f->gid != NONE32) {
		v->sh->msg.type = VMSG_SHOW_EVENT;
		v->sh->msg.gid = f->gid;
	} else {
		len = f->t1 > f->t0 ? f->t1 - f->t0 : 1;
		pad = len / 10;
		v->sh->msg.type = VMSG_SHOW_RANGE;
		v->sh->msg.gid = NONE32;
		v->sh->msg.t0 = f->t0 - pad;
		v->sh->msg.t1 = f->t1 + pad > f->t0 - pad ? f->t1 + pad :
		    f->t0 - pad + 1;
	}
	snprintf(v->sh->msg.note, sizeof v->sh->msg.note, "finding %d of "
	    "%zu: %s (4: back to the findings)", f->rank, v->fs.n, f->type);
	return REACT_SWITCH;
}

const struct view_key view_findings_keys[] = {
	{ { TK_UP, 'k', TK_WHEEL_UP }, "Up k wheel", "previous finding",
	    vf_move, -1 },
	{ { TK_DOWN, 'j', TK_WHEEL_DOWN }, "Down j wheel", "next finding",
	    vf_move, 1 },
	{ { TK_PGUP }, "PgUp", "page up", vf_move, -1000 },
	{ { TK_PGDN }, "PgDn", "page down", vf_move, 1000 },
	{ { TK_HOME }, "Home", "first finding", vf_move, -100000 },
	{ { TK_END }, "End", "last finding", vf_move, 100000 },
	{ { TK_ENTER, ' ' }, "Enter", "show the evidence on the timeline",
	    vf_show, 0 },
};
const size_t view_findings_nkeys = sizeof view_findings_keys /
    sizeof view_findings_keys[0];

static int
vf_key(void *p, const struct tui_key *k)
{
	struct vf		*v = p;
	const struct view_key	*b;
	int			 r = 0;

	if (v->msg[0] != '\0') {
		v->msg[0] = '\0';
		r |= REDRAW_STATUS;
	}
	if ((b = view_key_find(view_findings_keys, view_findings_nkeys,
	    k->key)) == NULL)
		return r | REACT_PASS;
	return r | b->fn(v, k, b->arg);
}

/* Word-wraps text from (x, *y), a line at a time, below ymax. */
static void
vf_wrap(struct vf *v, struct cellgrid *g, int x, int *y, int ymax,
    const char *text, uint16_t attr)
{
	const char	*p = text, *brk;
	char		 line[512];
	size_t		 n, w;

	w = v->w - x > 8 ? (size_t)(v->w - x) : 8;
	if (w >= sizeof line)
		w = sizeof line - 1;
	while (*p != '\0' && *y < ymax) {
		n = strlen(p);
		if (n > w) {
			n = w;
			for (brk = p + w; brk > p && *brk != ' '; brk--)
				;
			if (brk > p)
				n = (size_t)(brk - p);
		}
		memcpy(line, p, n);
		line[n] = '\0';
		cellgrid_text(g, x, *y, v->w - x, line, v->san | ST_ELLIPSIS,
		    attr);
		(*y)++;
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void
vf_draw_list(struct vf *v, struct cellgrid *g)
{
	const struct finding	*f;
	char			 buf[96];
	size_t			 i;
	int			 y, x;
	uint16_t		 attr;

	cellgrid_fill(g, 0, v->list_y, v->w, v->list_h, L' ', CG_NORMAL);
	if (v->fs.n == 0 && v->list_h > 0) {
		cellgrid_text(g, 1, v->list_y, v->w - 2, "No findings: nothing "
		    "in this trace costs enough to report.", ST_ASCII, CG_DIM);
		return;
	}
	for (y = 0; y < v->list_h; y++) {
		i = v->top + (size_t)y;
		if (i >= v->fs.n)
			break;
		f = &v->fs.v[i];
		attr = f->confidence == FINDING_HIGH ? CGA_BOLD :
		    f->confidence == FINDING_LOW ? CGA_DIM : 0;
		snprintf(buf, sizeof buf, "%2d %-6s %-17s %5.1f%%  ", f->rank,
		    finding_conf_name(f->confidence), f->type, f->share_pct);
		x = cellgrid_text(g, 0, v->list_y + y, v->w, buf, ST_ASCII,
		    CG_LABEL | attr);
		cellgrid_text(g, x, v->list_y + y, v->w - x,
		    f->title != NULL ? f->title : "", v->san | ST_ELLIPSIS,
		    CG_NORMAL | attr);
		if (i == v->sel)
			cellgrid_attr(g, 0, v->list_y + y, v->w, CGA_REVERSE,
			    1);
	}
}

static void
vf_draw_detail(struct vf *v, struct cellgrid *g)
{
	const struct finding	*f;
	char			 a[32], b[32], c[32], buf[256];
	int			 y = v->det_y, ymax = v->det_y + v->det_h;

	if (v->det_h <= 0)
		return;
	cellgrid_fill(g, 0, v->det_y, v->w, v->det_h, L' ', CG_DETAIL);
	cellgrid_fill(g, 0, y++, v->w, 1, v->gl->hline, CG_BORDER);
	if (v->fs.n == 0)
		return;
	f = &v->fs.v[v->sel];
	vf_wrap(v, g, 1, &y, ymax, f->detail != NULL ? f->detail : "",
	    CG_DETAIL);
	if (y < ymax)
		y++;
	if (y < ymax)
		cellgrid_text(g, 1, y++, v->w - 2, "Next step:", ST_ASCII,
		    CG_KEY);
	vf_wrap(v, g, 3, &y, ymax, f->next != NULL ? f->next : "",
	    CG_DETAIL);
	if (y < ymax) {
		fmt_time(a, sizeof a, f->cost_ns);
		snprintf(buf, sizeof buf, "Costs %s (%.1f%% of the window); "
		    "speed-up at most %.3fx (half removed), %.3fx (all).", a,
		    f->share_pct, f->speedup_half, f->speedup_all);
		cellgrid_text(g, 1, y++, v->w - 2, buf, ST_ASCII, CG_DETAIL);
	}
	if (y < ymax) {
		fmt_time(a, sizeof a, f->t0 - v->m->origin_ns);
		fmt_time(b, sizeof b, f->t1 - v->m->origin_ns);
		fmt_time(c, sizeof c, f->t1 - f->t0);
		snprintf(buf, sizeof buf, "Evidence: +%s to +%s (%s)%s%s; "
		    "Enter shows it on the timeline.", a, b, c,
		    f->one_off ? ", one-off" : "",
		    f->gid != NONE32 ? ", with an event" : "");
		cellgrid_text(g, 1, y++, v->w - 2, buf, ST_ASCII, CG_DETAIL);
	}
	if (f->command != NULL && y < ymax) {
		cellgrid_text(g, 1, y++, v->w - 2, "Nsight Compute:", ST_ASCII,
		    CG_KEY);
		vf_wrap(v, g, 3, &y, ymax, f->command, CG_DETAIL);
	}
}

static void
vf_draw_status(struct vf *v, struct cellgrid *g)
{
	char	buf[96];
	int	x, end, y = v->h - 1;

	x = status_begin(g, y, v->w, v->m, v->sh, v->sh->res, &end);
	if (v->msg[0] != '\0' || v->sh->note[0] != '\0') {
		cellgrid_text(g, x, y, end - x, v->msg[0] != '\0' ? v->msg :
		    v->sh->note, v->san | ST_ELLIPSIS, CG_STATUS | CGA_BOLD);
		return;
	}
	if (v->fs.n > 0)
		snprintf(buf, sizeof buf, "finding %zu of %zu; Enter shows "
		    "its evidence", v->sel + 1, v->fs.n);
	else
		snprintf(buf, sizeof buf, "no findings");
	cellgrid_text(g, x, y, end - x, buf, ST_ASCII, CG_STATUS);
}

static void
vf_draw(void *p, struct cellgrid *g, int dirty)
{
	struct vf	*v = p;
	char		 a[32], buf[160];

	if (dirty & (REDRAW_RULER | REDRAW_TIMELINE)) {
		cellgrid_fill(g, 0, 0, v->w, 1, L' ', CG_RULER);
		fmt_time(a, sizeof a, v->fs.t1 - v->fs.t0);
		snprintf(buf, sizeof buf, " Findings: %zu, ranked by "
		    "confidence then cost (window %s)", v->fs.n, a);
		cellgrid_text(g, 0, 0, v->w, buf, ST_ASCII,
		    CG_RULER | CGA_BOLD);
	}
	if (dirty & (REDRAW_BODY | REDRAW_TIMELINE))
		vf_draw_list(v, g);
	if (dirty & (REDRAW_DETAIL | REDRAW_TIMELINE))
		vf_draw_detail(v, g);
	if (dirty & REDRAW_STATUS)
		vf_draw_status(v, g);
}

static void
vf_resize(void *p, int w, int h)
{
	struct vf	*v = p;
	int		 rest;

	v->w = w < 1 ? 1 : w;
	v->h = h < 1 ? 1 : h;
	v->list_y = 1;
	rest = v->h - 2;		/* title and status lines */
	v->list_h = (int)v->fs.n;
	if (v->list_h > rest / 2)
		v->list_h = rest / 2;
	if (v->list_h < VF_MIN_LIST)
		v->list_h = rest < VF_MIN_LIST ? rest : VF_MIN_LIST;
	if (v->list_h < 0)
		v->list_h = 0;
	v->det_y = v->list_y + v->list_h;
	v->det_h = rest - v->list_h;
	if (v->det_h < 0)
		v->det_h = 0;
	vf_scroll(v);
}

static void *
vf_init(const struct model *m, const struct view_env *env)
{
	struct vf	*v = xcalloc(1, sizeof *v);
	char		*cause = NULL;

	v->m = m;
	v->gl = env->gl;
	v->sh = env->sh;
	v->san = env->gl->utf8 ? 0 : ST_ASCII;
	if (finding_run(m, 0, 0, &v->fs, &cause) != 0) {
		snprintf(v->msg, sizeof v->msg, "%s", cause != NULL ? cause :
		    "findings failed");
		free(cause);
		memset(&v->fs, 0, sizeof v->fs);
	}
	vf_resize(v, 80, 24);
	return v;
}

static void
vf_free(void *p)
{
	struct vf	*v = p;

	if (v == NULL)
		return;
	finding_free(&v->fs);
	free(v);
}

size_t
view_findings_count(void *p)
{
	return ((struct vf *)p)->fs.n;
}

size_t
view_findings_selected(void *p)
{
	return ((struct vf *)p)->sel;
}

const struct view_ops view_findings_ops = {
	.name = "findings",
	.label = "Findings",
	.init = vf_init,
	.free = vf_free,
	.resize = vf_resize,
	.draw = vf_draw,
	.key = vf_key,
	.command = NULL,
	.keys = view_findings_keys,
	.nkeys = sizeof view_findings_keys / sizeof view_findings_keys[0],
};
