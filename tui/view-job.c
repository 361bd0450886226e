/*
 * view-job: the job overview. See view-job.h.
 *
 * Screen: the title (ranks, GPUs, the straggler, the sort key, the filter
 * and how many ranks match it), the job's spreads ((max - min) / median
 * over the ranks, row 1; always the whole job's, said so while a filter
 * hides ranks), the column header, the rows, the footer (the selected
 * rank's trace and top kernel) and the status line. / types a filter
 * (analysis/jobfilter.h: rank numbers, ranges, parts of the process name
 * or trace path), Esc clears it. The table component
 * (table.h) does the layout, the moving and sorting keys and the drawing;
 * this file has the columns, the cells and the order.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/jobfilter.h"
#include "tui/fmt.h"
#include "tui/safetext.h"
#include "tui/table.h"
#include "tui/view-job.h"
#include "util/xmalloc.h"

enum {
	JV_MARK, JV_RANK, JV_HOST, JV_GPUS, JV_ITERS, JV_MEDIAN, JV_BUSY,
	JV_COMM, JV_MPI, JV_WAIT, JV_FILE, JV_NCOLS
};

/* The column of each sort key. */
static const int jv_sortcol[VJ_SORT_COUNT_] = {
	JV_RANK, JV_MEDIAN, JV_BUSY, JV_COMM, JV_MPI, JV_WAIT, JV_ITERS,
	JV_GPUS, JV_FILE, JV_HOST
};

static const char *const jv_sort_names[VJ_SORT_COUNT_] = {
	"rank", "median iteration", "busy", "communication", "MPI wait",
	"collective wait", "iterations", "GPUs", "file", "host"
};

/* Host: off (TABLE_OFF) in a job whose traces name no host. */
static const struct table_col jv_cols[JV_NCOLS] = {
	[JV_MARK] = { "", 1, 10, 0, 0, 0, 0, 0 },
	[JV_RANK] = { "Rank", 6, 9, 1, 0, 0, 0, 0 },
	[JV_HOST] = { "Host", 12, 5, 0, 0, 0, 0, 0 },
	[JV_GPUS] = { "GPUs", 4, 5, 1, 0, 0, 0, 0 },
	[JV_ITERS] = { "Iters", 6, 6, 1, 0, 0, 0, 0 },
	[JV_MEDIAN] = { "Iter med", 9, 8, 1, 0, 0, 0, 0 },
	[JV_BUSY] = { "Busy%", 6, 7, 1, 0, 0, 0, 0 },
	[JV_COMM] = { "Comm", 9, 4, 1, 0, 0, 0, 0 },
	[JV_MPI] = { "MPI wait", 9, 3, 1, 0, 0, 0, 0 },
	[JV_WAIT] = { "Coll wait", 9, 2, 1, 0, 0, 0, 0 },
	[JV_FILE] = { "Trace", 0, 0, 0, 1, 0, 0, 0 },
};
_Static_assert(JV_NCOLS <= TABLE_MAXCOLS, "too many columns");

struct jv {
	struct table		 tb;		/* first: see table.h */
	struct table_spec	 spec;		/* jv_spec, the host's column
					   and sort key off without hosts */
	struct table_col	 cols[JV_NCOLS];
	const struct jobrank	*j;
	uint32_t		*idx;		/* rows: indices into j->r */
	size_t			 n;		/* rows shown (the filter's) */
};
_Static_assert(offsetof(struct jv, tb) == 0, "the table comes first");

const char *
view_job_sort_name(int key)
{
	return key >= 0 && key < VJ_SORT_COUNT_ ? jv_sort_names[key] : "?";
}

/* One row's sort value. */
struct jv_key {
	double		 v;
	const char	*s;
	int		 rank;
	uint32_t	 i;
};

static int
jv_cmp_tie(const struct jv_key *a, const struct jv_key *b)
{
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int
jv_cmp_asc(const void *x, const void *y)
{
	const struct jv_key	*a = x, *b = y;
	int			 c;

	if (a->s != NULL && (c = strcmp(a->s, b->s)) != 0)
		return c;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return jv_cmp_tie(a, b);
}

static int
jv_cmp_desc(const void *x, const void *y)
{
	const struct jv_key	*a = x, *b = y;
	int			 c;

	if (a->s != NULL && (c = strcmp(a->s, b->s)) != 0)
		return -c;
	if (a->v != b->v)
		return a->v > b->v ? -1 : 1;
	return jv_cmp_tie(a, b);
}

void
view_job_order(const struct jobrank *j, int key, int desc, uint32_t *idx)
{
	const struct jobrank_rank	*r;
	struct jv_key			*k;
	size_t				 i;

	k = xcalloc(j->nr + 1, sizeof *k);
	for (i = 0; i < j->nr; i++) {
		r = &j->r[i];
		k[i].rank = r->rank;
		k[i].i = (uint32_t)i;
		switch (key) {
		case VJ_SORT_RANK:
			k[i].v = r->rank;
			break;
		case VJ_SORT_MEDIAN:
			/* Ranks without iterations last either way. */
			k[i].v = r->iter.count > 0 ? r->iter.median :
			    desc ? -1.0 : 1e300;
			break;
		case VJ_SORT_BUSY:
			k[i].v = r->util_pct;
			break;
		case VJ_SORT_COMM:
			k[i].v = (double)r->comm_ns;
			break;
		case VJ_SORT_MPI:
			k[i].v = (double)r->mpi_ns;
			break;
		case VJ_SORT_WAIT:
			k[i].v = (double)r->wait;
			break;
		case VJ_SORT_ITERS:
			k[i].v = (double)r->iter.count;
			break;
		case VJ_SORT_GPUS:
			k[i].v = r->gpus;
			break;
		case VJ_SORT_HOST:
			k[i].s = r->host != NULL ? r->host : "";
			break;
		default:
			k[i].s = r->file != NULL ? r->file : "";
			break;
		}
	}
	qsort(k, j->nr, sizeof *k, desc ? jv_cmp_desc : jv_cmp_asc);
	for (i = 0; i < j->nr; i++)
		idx[i] = k[i].i;
	free(k);
}

size_t
view_job_rows(const struct jobrank *j, const char *filter, int key,
    int desc, uint32_t *idx)
{
	size_t	i, n = 0;

	view_job_order(j, key, desc, idx);
	for (i = 0; i < j->nr; i++)
		if (jobfilter_match(filter, &j->r[idx[i]]))
			idx[n++] = idx[i];
	return n;
}

static const struct jobrank_rank *
jv_selected(const struct jv *v)
{
	if (v->tb.sel >= v->n)
		return NULL;
	return &v->j->r[v->idx[v->tb.sel]];
}

static void
jv_refresh(void *p)
{
	struct jv	*v = p;
	uint32_t	 keep;

	keep = v->tb.sel < v->n ? v->idx[v->tb.sel] : NONE32;
	v->n = view_job_rows(v->j, v->tb.filter, v->tb.sort, v->tb.desc,
	    v->idx);
	v->tb.sel = 0;
	table_keep(&v->tb, v->idx, v->n, keep);
}

/* open-rank: the application opens the selected rank's trace. */
static int
jv_open(void *p, const struct tui_key *k, int arg)
{
	struct jv			*v = p;
	const struct jobrank_rank	*r = jv_selected(v);

	(void)k;
	(void)arg;
	if (r == NULL)
		return 0;
	if (r->nfiles == 0) {
		snprintf(v->tb.msg, sizeof v->tb.msg, "rank %d: no trace "
		    "file", r->rank);
		return REDRAW_STATUS;
	}
	/* All its files, as one model. */
	v->tb.sh->open = r->files;
	v->tb.sh->nopen = r->nfiles;
	v->tb.sh->open_rank = r->rank;
	return REACT_OPEN;
}

const struct view_action view_job_actions[] = {
	TABLE_ACTIONS_MOVE,
	{ ACT_OPEN_RANK, jv_open, 0 },
	TABLE_ACTIONS_SORT,
	{ ACT_FILTER, table_key_filter, 0 },
	{ ACT_FILTER_CLEAR, table_key_clear, 0 },
};
const size_t view_job_nactions = sizeof view_job_actions /
    sizeof view_job_actions[0];

static const char *
jv_base(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s != NULL && s[1] != '\0' ? s + 1 : path;
}

static void
jv_row(void *p, struct cellgrid *g, int y, size_t ri)
{
	struct jv			*v = p;
	const struct table_col		*c = v->tb.col;
	const struct jobrank_rank	*r = &v->j->r[v->idx[ri]];
	int				 strag = v->idx[ri] == v->j->straggler;
	char				 buf[64], f[512];

	table_cell(g, y, &c[JV_MARK], strag ? "!" : "", ST_ASCII,
	    CG_COMM | CGA_BOLD);
	snprintf(buf, sizeof buf, "%d", r->rank);
	table_cell(g, y, &c[JV_RANK], buf, ST_ASCII, strag ? CG_COMM |
	    CGA_BOLD : CG_LABEL);
	/* Host and file names are untrusted: sanitised by table_cell. */
	table_cell(g, y, &c[JV_HOST], r->host != NULL ? r->host : "-",
	    v->tb.san, CG_LABEL);
	snprintf(buf, sizeof buf, "%u", r->gpus);
	table_cell(g, y, &c[JV_GPUS], buf, ST_ASCII, CG_LABEL);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->iter.count);
	table_cell(g, y, &c[JV_ITERS], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[JV_MEDIAN], r->iter.count > 0 ? fmt_time(buf,
	    sizeof buf, (int64_t)(r->iter.median + 0.5)) : "-", ST_ASCII,
	    CG_LABEL);
	snprintf(buf, sizeof buf, "%.1f", r->util_pct);
	table_cell(g, y, &c[JV_BUSY], buf, ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[JV_COMM], fmt_time(buf, sizeof buf, r->comm_ns),
	    ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[JV_MPI], v->j->mpi_calls > 0 ? fmt_time(buf,
	    sizeof buf, r->mpi_ns) : "-", ST_ASCII, CG_LABEL);
	table_cell(g, y, &c[JV_WAIT], fmt_time(buf, sizeof buf, r->wait),
	    ST_ASCII, CG_LABEL);
	/* A rank of several files: its first, and how many more. */
	if (r->file != NULL && r->nfiles > 1)
		snprintf(f, sizeof f, "%s +%zu", jv_base(r->file),
		    r->nfiles - 1);
	else
		snprintf(f, sizeof f, "%s", r->file != NULL ?
		    jv_base(r->file) : r->name);
	table_cell(g, y, &c[JV_FILE], f, v->tb.san, CG_NORMAL);
}

static const char *
jv_title(void *p, char *buf, size_t len)
{
	struct jv		*v = p;
	const struct jobrank	*j = v->j;
	uint64_t		 gpus = 0;
	size_t			 i;
	char			 s[80], f[64], m[96];

	for (i = 0; i < j->nr; i++)
		gpus += j->r[i].gpus;
	if (j->straggler != SIZE_MAX)
		snprintf(s, sizeof s, "straggler rank %d",
		    j->r[j->straggler].rank);
	else
		snprintf(s, sizeof s, "no straggler");
	m[0] = '\0';
	if (v->tb.filter[0] != '\0') {
		/* The filter is the user's: sanitised (title_user). */
		safetext_utf8(v->tb.filter, (size_t)-1, v->tb.san |
		    ST_ELLIPSIS, 24, f, sizeof f);
		snprintf(m, sizeof m, " (%zu match \"%s\")", v->n, f);
	}
	snprintf(buf, len, " Job: %zu ranks%s, %llu GPUs, %s; sorted by %s",
	    j->nr, m, (unsigned long long)gpus, s,
	    view_job_sort_name(v->tb.sort));
	return buf;
}

/* The selected rank's trace, host, top kernel and parallel layout. */
static const char *
jv_footer(void *p, char *buf, size_t len)
{
	struct jv			*v = p;
	const struct jobrank_rank	*r = jv_selected(v);
	char				 t[32], more[48];

	if (r == NULL)
		return NULL;
	more[0] = '\0';
	if (r->nfiles > 1)
		snprintf(more, sizeof more, " and %zu more", r->nfiles - 1);
	snprintf(buf, len, "rank %d%s: %s%s%s%s%s%s%s%s%s%s", r->rank,
	    v->idx[v->tb.sel] == v->j->straggler ? " (straggler)" : "",
	    r->file != NULL ? r->file : r->name, more,
	    r->host != NULL ? " on " : "", r->host != NULL ? r->host : "",
	    r->parallel != NULL && r->parallel[0] != '\0' ? "; " : "",
	    r->parallel != NULL ? r->parallel : "",
	    r->top_kernel != NULL ? "; top kernel " : "",
	    r->top_kernel != NULL ? r->top_kernel : "",
	    r->top_kernel != NULL ? " " : "",
	    r->top_kernel != NULL ? fmt_time(t, sizeof t, r->top_kernel_ns) :
	    "");
	return buf;
}

static const char *
jv_status(void *p, char *buf, size_t len)
{
	struct jv			*v = p;
	const struct jobrank_rank	*r = jv_selected(v);

	if (r == NULL)
		return v->j->nr > 0 ? "no rank matches the filter (Esc: all)" :
		    "no ranks in this job";
	snprintf(buf, len, "rank %zu of %zu; Enter opens rank %d, / filters",
	    v->tb.sel + 1, v->n, r->rank);
	return buf;
}

static const struct table_spec jv_spec = {
	.cols = jv_cols,
	.ncols = JV_NCOLS,
	.nsort = VJ_SORT_COUNT_,
	.sortcol = jv_sortcol,
	.sort_asc = 1U << VJ_SORT_RANK | 1U << VJ_SORT_FILE,
	.sort_name = view_job_sort_name,
	.filter_label = "filter ranks (N, N-M, name, host or path): ",
	.filter_none = "no rank matches that (Esc: all)",
	.empty = "no ranks",
	.move_damage = REDRAW_BODY | REDRAW_STATUS,
	.title_user = 1,
	.actions = view_job_actions,
	.nactions = sizeof view_job_actions / sizeof view_job_actions[0],
	.refresh = jv_refresh,
	.row = jv_row,
	.title = jv_title,
	.status = jv_status,
	.footer = jv_footer,
};

/* Title, spreads, header, rows, footer, status. */
static void
jv_resize(void *p, int w, int h)
{
	struct jv	*v = p;

	table_place(&v->tb, w, h, 3, h - 5);
}

static void
jv_draw(void *p, struct cellgrid *g, int dirty)
{
	struct jv		*v = p;
	const struct jobrank	*j = v->j;
	char			 buf[256], a[32];
	int			 n;

	table_draw(p, g, dirty);
	if (!(dirty & (REDRAW_RULER | REDRAW_TIMELINE)) || v->tb.h < 6)
		return;
	/* The job's spreads, whatever the filter shows. */
	n = snprintf(buf, sizeof buf, " Spread%s: iteration %.1f%% (median "
	    "%s), busy %.1f%%, comm %.1f%%", v->n < j->nr ? " (whole job)" :
	    "", j->iter_spread_pct,
	    j->iter.count > 0 ? fmt_time(a, sizeof a, (int64_t)(j->iter.median
	    + 0.5)) : "-", j->busy_spread_pct, j->comm_spread_pct);
	if (j->mpi_calls > 0 && n > 0 && (size_t)n < sizeof buf)
		snprintf(buf + n, sizeof buf - (size_t)n, ", MPI wait %.1f%%",
		    j->mpi_wait_spread_pct);
	cellgrid_fill(g, 0, 1, v->tb.w, 1, L' ', CG_NORMAL);
	cellgrid_text(g, 0, 1, v->tb.w, buf, ST_ASCII, CG_LABEL);
}

/* Whether some rank of j names its host. */
static int
jv_hosts(const struct jobrank *j)
{
	size_t	i;

	for (i = 0; i < j->nr; i++)
		if (j->r[i].host != NULL)
			return 1;
	return 0;
}

static void *
jv_init(const struct model *m, const struct view_env *env)
{
	struct jv	*v;

	v = xcalloc(1, sizeof *v);
	v->j = env->arg;
	v->spec = jv_spec;
	memcpy(v->cols, jv_cols, sizeof v->cols);
	if (!jv_hosts(v->j)) {
		/* Host is the last sort key: off with its column. */
		v->cols[JV_HOST].prio = TABLE_OFF;
		v->spec.nsort = VJ_SORT_HOST;
	}
	v->spec.cols = v->cols;
	v->idx = xcalloc(v->j->nr + 1, sizeof *v->idx);
	v->n = view_job_rows(v->j, "", VJ_SORT_RANK, 0, v->idx);
	table_open(&v->tb, &v->spec, m, env, VJ_SORT_RANK, 0, v->n);
	jv_resize(v, 80, 24);
	return v;
}

static void
jv_free(void *p)
{
	struct jv	*v = p;

	if (v == NULL)
		return;
	free(v->idx);
	free(v);
}

const struct view_ops view_job_ops = {
	.name = "job",
	.label = "Job overview",
	.init = jv_init,
	.free = jv_free,
	.resize = jv_resize,
	.draw = jv_draw,
	.key = table_key,
	.command = NULL,
	.actions = view_job_actions,
	.nactions = sizeof view_job_actions / sizeof view_job_actions[0],
};
