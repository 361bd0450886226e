/*
 * rocpd-gpu: GPU work. Kernel dispatches (named by their symbols) and
 * memory copies (the direction from the agents' types).
 */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "util/xmalloc.h"
#include "sources/source.h"
#include "sources/rocpd-int.h"

/* *ev zeroed, of kind, with the row's id, start, end and correlation
 * (from those columns). */
static void
rocpd_gpu_event(struct lane_event *ev, sqlite3_stmt *st, uint8_t kind,
    int id, int start, int end, int stack, int corr)
{
	memset(ev, 0, sizeof *ev);
	ev->kind = kind;
	ev->rowid = col_i64(st, id);
	ev->start = col_i64(st, start);
	ev->end = col_i64(st, end);
	ev->corr = rocpd_corr(st, stack, corr);
}

/* Kernel dispatches. */

enum {
	K_ID, K_GUID, K_PID, K_AGENT, K_QUEUE, K_STREAM, K_START, K_END,
	K_KERNEL, K_SCRATCH, K_LDS, K_WX, K_WY, K_WZ, K_GX, K_GY, K_GZ,
	K_STACK, K_CORR
};

static void
rocpd_kernel_row(struct rocpd *r, sqlite3_stmt *st)
{
	struct lane_event	 ev;
	struct kernel_info	 k;
	struct rocpd_sym	*s = NULL;
	uint32_t		 g = rocpd_guid(r, st, K_GUID), t, v;
	int64_t			 grid[3], wg[3];
	char			 buf[48];
	int			 i;

	t = rocpd_gpu_track(r, g, rocpd_device(r, g, st, K_AGENT),
	    col_i64(st, K_PID), st, K_STREAM, K_QUEUE);
	if (hmap_get(&r->symidx, rocpd_key(g, st, K_KERNEL), &v))
		s = &r->syms[v];
	rocpd_gpu_event(&ev, st, EV_KERNEL, K_ID, K_START, K_END, K_STACK,
	    K_CORR);
	if (s != NULL && s->name != 0) {
		ev.name = s->name;
		if (s->comm)
			ev.flags |= EVF_COMM;
	} else {
		snprintf(buf, sizeof buf, "kernel %lld",
		    (long long)col_i64(st, K_KERNEL));
		ev.name = builder_intern(r->b, buf);
		r->unknown_kernel++;
	}
	memset(&k, 0, sizeof k);
	for (i = 0; i < 3; i++) {
		grid[i] = col_i64(st, K_GX + i);
		wg[i] = col_i64(st, K_WX + i);
	}
	amd_kernel_fill(&k, grid, wg, col_i64(st, K_LDS),
	    col_i64(st, K_SCRATCH), s != NULL ? s->static_lds : 0,
	    s != NULL ? s->vgprs : 0);
	if (s != NULL) {
		k.short_name = s->short_name;
		k.mangled = s->mangled;
	}
	ev.aux = builder_kernel(r->b, &k);
	builder_event(r->b, t, &ev);
}

int
rocpd_kernels(struct rocpd *r)
{
	static const char *const cols[] = { "kernel_id",
	    "private_segment_size", "group_segment_size", "workgroup_size_x",
	    "workgroup_size_y", "workgroup_size_z", "grid_size_x",
	    "grid_size_y", "grid_size_z" };
	struct rocpd_q	 q;
	char		*sql = NULL;
	size_t		 i;
	int		 rc;

	if (rocpd_q(r, "rocpd_kernel_dispatch", &q) != 0)
		return 0;
	xstrcatf(&sql, "SELECT X.id, X.guid, %s, %s, %s, %s, %s, %s",
	    q.pid, q.agent, q.queue, q.stream, q.start, q.end);
	for (i = 0; i < sizeof cols / sizeof *cols; i++)
		amd_db_colx(&r->d, &sql, "rocpd_kernel_dispatch", "X",
		    cols[i]);
	xstrcatf(&sql, ", E.stack_id, E.correlation_id FROM "
	    "rocpd_kernel_dispatch X%s LEFT JOIN rocpd_event E ON "
	    "E.id = X.event_id AND E.guid = X.guid", q.joins);
	rc = rocpd_scan_timed(r, sql, "kernel dispatches",
	    "rocpd_kernel_dispatch", rocpd_kernel_row, "rocpd_kernel_dispatch",
	    K_START, K_END);
	free(sql);
	free(q.joins);
	return rc;
}

/* Memory copies. */

enum {
	M_ID, M_GUID, M_PID, M_QUEUE, M_STREAM, M_START, M_END, M_NAME, M_SRC,
	M_DST, M_SIZE, M_STACK, M_CORR, M_NAMEID
};

static void
rocpd_copy_row(struct rocpd *r, sqlite3_stmt *st)
{
	struct lane_event	 ev;
	struct copy_info	 c;
	uint32_t		 g = rocpd_guid(r, st, M_GUID), t, sd, dd;
	int			 kind;

	sd = rocpd_device(r, g, st, M_SRC);
	dd = rocpd_device(r, g, st, M_DST);
	t = rocpd_gpu_track(r, g, dd != NONE32 ? dd : sd, col_i64(st,
	    M_PID), st, M_STREAM, M_QUEUE);
	rocpd_gpu_event(&ev, st, EV_MEMCPY, M_ID, M_START, M_END, M_STACK,
	    M_CORR);
	if ((ev.name = rocpd_str(r, g, st, M_NAMEID, M_NAME, NULL)) == 0)
		ev.name = builder_intern(r->b, "MEMORY_COPY");

	memset(&c, 0, sizeof c);
	c.bytes = (uint64_t)col_i64(st, M_SIZE);
	if (!col_null(st, M_SRC) && !col_null(st, M_DST))
		kind = amd_copy_kind(sd != NONE32, dd != NONE32,
		    col_i64(st, M_SRC) == col_i64(st, M_DST));
	else
		kind = amd_copy_kind_of_name(col_text(st, M_NAME));
	c.kind = (uint8_t)kind;
	amd_copy_ends(&c, r->m, sd, dd);
	ev.aux = builder_copy(r->b, &c);
	builder_event(r->b, t, &ev);
}

int
rocpd_copies(struct rocpd *r)
{
	struct rocpd_q	 q;
	char		*sql = NULL;
	int		 rc;

	if (rocpd_q(r, "rocpd_memory_copy", &q) != 0)
		return 0;
	xstrcatf(&sql, "SELECT X.id, X.guid, %s, %s, %s, %s, %s, N.string",
	    q.pid, q.queue, q.stream, q.start, q.end);
	amd_db_colx(&r->d, &sql, "rocpd_memory_copy", "X", "src_agent_id");
	amd_db_colx(&r->d, &sql, "rocpd_memory_copy", "X", "dst_agent_id");
	amd_db_colx(&r->d, &sql, "rocpd_memory_copy", "X", "size");
	xstrcatf(&sql, ", E.stack_id, E.correlation_id, N.id FROM "
	    "rocpd_memory_copy X%s LEFT JOIN rocpd_event E ON "
	    "E.id = X.event_id AND E.guid = X.guid LEFT JOIN rocpd_string N "
	    "ON N.id = X.name_id AND N.guid = X.guid", q.joins);
	rc = rocpd_scan_timed(r, sql, "memory copies", "rocpd_memory_copy",
	    rocpd_copy_row, "rocpd_memory_copy", M_START, M_END);
	free(sql);
	free(q.joins);
	return rc;
}
