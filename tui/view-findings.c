/*
 * view-findings: the findings panel. See view-findings.h.
 *
 * Screen, top to bottom: a title line (how many findings, the window), the
 * list (rank, confidence, type, share of the window, title; the selected
 * one reversed), a rule, the selected finding's details (what was
 * measured, the next step, the Amdahl bounds, where the evidence is, the
 * ncu command when there is one, the evidence's values: the typed evidence
 * the findings verb prints, tui/fevtext.h), and the status line.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/finding.h"
#include "tui/fevtext.h"
#include "tui/fmt.h"
#include "tui/safetext.h"
#include "tui/table.h"
#include "tui/view-findings.h"
#include "util/xmalloc.h"

#define VF_MIN_LIST	3	/* list rows kept however small the screen */

struct vf {
	struct table		 tb;		/* first: see table.h */
	struct findings		 fs;
	int			 det_y, det_h;		/* rule and details */
};
_Static_assert(offsetof(struct vf, tb) == 0, "the table comes first");

/* Enter: the evidence on the timeline. */
static int
vf_show(void *p, const struct tui_key *k, int arg)
{
	struct vf		*v = p;
	const struct finding	*f;
	struct view_msg		*msg;
	int64_t			 len, pad;

	(void)k;
	(void)arg;
	if (v->fs.n == 0)
		return 0;
	f = &v->fs.v[v->tb.sel];
	msg = table_to_timeline(&v->tb, f->gid != NONE32 ? VMSG_SHOW_EVENT :
	    VMSG_SHOW_RANGE, f->gid);
	if (f->gid == NONE32) {
		len = f->t1 > f->t0 ? f->t1 - f->t0 : 1;
		pad = len / 10;
		msg->t0 = f->t0 - pad;
		msg->t1 = f->t1 + pad > f->t0 - pad ? f->t1 + pad :
		    f->t0 - pad + 1;
	}
	snprintf(msg->note, sizeof msg->note, "finding %d of %zu: %s (4: back "
	    "to the findings)", f->rank, v->fs.n, f->type);
	return REACT_SWITCH;
}

const struct view_action view_findings_actions[] = {
	TABLE_ACTIONS_MOVE,
	{ ACT_SHOW_EVIDENCE, vf_show, 0 },
};
const size_t view_findings_nactions = sizeof view_findings_actions /
    sizeof view_findings_actions[0];

/* Word-wraps text from (x, *y), a line at a time, below ymax. */
static void
vf_wrap(struct vf *v, struct cellgrid *g, int x, int *y, int ymax,
    const char *text, uint16_t attr)
{
	const char	*p = text, *brk;
	char		 line[512];
	size_t		 n, w;

	w = v->tb.w - x > 8 ? (size_t)(v->tb.w - x) : 8;
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
		cellgrid_text(g, x, *y, v->tb.w - x, line, v->tb.san |
		    ST_ELLIPSIS, attr);
		(*y)++;
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* Rank, confidence, type, share of the window, title. */
static void
vf_row(void *p, struct cellgrid *g, int y, size_t i)
{
	struct vf		*v = p;
	const struct finding	*f = &v->fs.v[i];
	char			 buf[96];
	int			 x;
	uint16_t		 attr;

	attr = f->confidence == FINDING_HIGH ? CGA_BOLD :
	    f->confidence == FINDING_LOW ? CGA_DIM : 0;
	snprintf(buf, sizeof buf, "%2d %-6s %-17s %5.1f%%  ", f->rank,
	    finding_conf_name(f->confidence), f->type, f->share_pct);
	x = cellgrid_text(g, 0, y, v->tb.w, buf, ST_ASCII, CG_LABEL | attr);
	cellgrid_text(g, x, y, v->tb.w - x, f->title != NULL ? f->title : "",
	    v->tb.san | ST_ELLIPSIS, CG_NORMAL | attr);
}

static void
vf_draw_detail(struct vf *v, struct cellgrid *g)
{
	const struct finding	*f;
	char			 a[32], b[32], c[32], buf[256], *t;
	int			 w = v->tb.w;
	int			 y = v->det_y, ymax = v->det_y + v->det_h;

	if (v->det_h <= 0)
		return;
	cellgrid_fill(g, 0, v->det_y, w, v->det_h, L' ', CG_DETAIL);
	table_footer(&v->tb, g, y++, NULL);
	if (v->fs.n == 0)
		return;
	f = &v->fs.v[v->tb.sel];
	vf_wrap(v, g, 1, &y, ymax, f->detail != NULL ? f->detail : "",
	    CG_DETAIL);
	if (y < ymax)
		y++;
	if (y < ymax)
		cellgrid_text(g, 1, y++, w - 2, "Next step:", ST_ASCII, CG_KEY);
	vf_wrap(v, g, 3, &y, ymax, f->next != NULL ? f->next : "",
	    CG_DETAIL);
	if (y < ymax) {
		fmt_time(a, sizeof a, f->cost_ns);
		snprintf(buf, sizeof buf, "Costs %s (%.1f%% of the window); "
		    "speed-up at most %.3fx (half removed), %.3fx (all).", a,
		    f->share_pct, f->speedup_half, f->speedup_all);
		vf_wrap(v, g, 1, &y, ymax, buf, CG_DETAIL);
	}
	if (y < ymax) {
		fmt_time(a, sizeof a, f->t0 - v->tb.m->origin_ns);
		fmt_time(b, sizeof b, f->t1 - v->tb.m->origin_ns);
		fmt_time(c, sizeof c, f->t1 - f->t0);
		snprintf(buf, sizeof buf, "Evidence: +%s to +%s (%s)%s%s; "
		    "Enter shows it on the timeline.", a, b, c,
		    f->one_off ? ", one-off" : "",
		    f->gid != NONE32 ? ", with an event" : "");
		vf_wrap(v, g, 1, &y, ymax, buf, CG_DETAIL);
	}
	if (f->command != NULL && y < ymax) {
		cellgrid_text(g, 1, y++, w - 2, "Profile one launch:", ST_ASCII,
		    CG_KEY);
		vf_wrap(v, g, 3, &y, ymax, f->command, CG_DETAIL);
	}
	if (f->ev.n > 0 && y < ymax) {
		cellgrid_text(g, 1, y++, w - 2, "Evidence values:", ST_ASCII,
		    CG_KEY);
		t = fevtext(&f->ev);
		vf_wrap(v, g, 3, &y, ymax, t, CG_DETAIL);
		free(t);
	}
}

static const char *
vf_title(void *p, char *buf, size_t len)
{
	struct vf	*v = p;
	char		 a[32];

	fmt_time(a, sizeof a, v->fs.t1 - v->fs.t0);
	snprintf(buf, len, " Findings: %zu, ranked by confidence then cost "
	    "(window %s)", v->fs.n, a);
	return buf;
}

static const char *
vf_status(void *p, char *buf, size_t len)
{
	struct vf	*v = p;

	if (v->fs.n == 0)
		return "no findings";
	snprintf(buf, len, "finding %zu of %zu; Enter shows its evidence",
	    v->tb.sel + 1, v->fs.n);
	return buf;
}

static void
vf_draw(void *p, struct cellgrid *g, int dirty)
{
	table_draw(p, g, dirty);
	if (dirty & (REDRAW_DETAIL | REDRAW_TIMELINE))
		vf_draw_detail(p, g);
}

/* The list gets up to half the rows between the title and the status
 * line (at least VF_MIN_LIST), the details the rest. */
static void
vf_resize(void *p, int w, int h)
{
	struct vf	*v = p;
	int		 rest, list_h;

	h = h < 1 ? 1 : h;
	rest = h - 2;
	list_h = (int)v->fs.n;
	if (list_h > rest / 2)
		list_h = rest / 2;
	if (list_h < VF_MIN_LIST)
		list_h = rest < VF_MIN_LIST ? rest : VF_MIN_LIST;
	if (list_h < 0)
		list_h = 0;
	table_place(&v->tb, w, h, 1, list_h);
	v->det_y = 1 + list_h;
	v->det_h = rest - list_h;
	if (v->det_h < 0)
		v->det_h = 0;
}

static const struct table_spec vf_spec = {
	.empty = "No findings: nothing in this trace costs enough to report.",
	.move_damage = REDRAW_BODY | REDRAW_DETAIL | REDRAW_STATUS,
	.actions = view_findings_actions,
	.nactions = sizeof view_findings_actions /
	    sizeof view_findings_actions[0],
	.row = vf_row,
	.title = vf_title,
	.status = vf_status,
};

static void *
vf_init(const struct model *m, const struct view_env *env)
{
	struct vf	*v = xcalloc(1, sizeof *v);
	char		*cause = NULL;

	table_init(&v->tb, &vf_spec, m, env);
	if (finding_run(m, 0, 0, &v->fs, &cause) != 0) {
		snprintf(v->tb.msg, sizeof v->tb.msg, "%s", cause != NULL ?
		    cause : "findings failed");
		free(cause);
		memset(&v->fs, 0, sizeof v->fs);
	}
	table_rows(&v->tb, v->fs.n);
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
	return ((struct vf *)p)->tb.sel;
}

const struct view_ops view_findings_ops = {
	.name = "findings",
	.label = "Findings",
	.init = vf_init,
	.free = vf_free,
	.resize = vf_resize,
	.draw = vf_draw,
	.key = table_key,
	.command = NULL,
	.actions = view_findings_actions,
	.nactions = sizeof view_findings_actions /
	    sizeof view_findings_actions[0],
};
