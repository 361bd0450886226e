/*
 * nsys-nvtx: NVTX_EVENTS. What a row is comes from its eventType (through
 * ENUM_NSYS_EVENT_TYPE when the export has it): push/pop and start/end
 * ranges and marks go on per-thread, per-domain tracks; domain, category
 * and thread-naming rows name things. A range or mark whose name, or whose
 * domain's name, contains "nccl" is communication (EVF_COMM).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "util/hmap.h"
#include "util/xmalloc.h"

static const char *const nvtx_cols[] = {
	"!start", "end", "!eventType", "category", "color", "text",
	"globalTid", "endGlobalTid", "textId", "domainId", "int64Value",
	"uint64Value", "doubleValue", "int32Value", "uint32Value",
	"floatValue"
};
enum {
	N_ROWID, N_START, N_END, N_TYPE, N_CAT, N_COLOR, N_TEXT, N_TID,
	N_ENDTID, N_TEXTID, N_DOMAIN, N_I64, N_U64, N_DBL, N_I32, N_U32, N_FLT
};

static uint64_t
nsys_cat_key(uint32_t process, uint64_t domain_id, uint64_t category)
{
	return hmap_key2(hmap_key2(process, domain_id), category);
}

/* The payload: the first of its columns (N_I64 to N_FLT) not NULL. */
static void
nsys_nvtx_payload(const struct nsys_row *st, struct nvtx_info *info)
{
	static const uint8_t	kind[] = {
		NVTX_PAYLOAD_INT, NVTX_PAYLOAD_UINT, NVTX_PAYLOAD_DOUBLE,
		NVTX_PAYLOAD_INT, NVTX_PAYLOAD_UINT, NVTX_PAYLOAD_DOUBLE
	};
	int			c;

	for (c = N_I64; c <= N_FLT; c++) {
		if (row_null(st, c))
			continue;
		info->payload_type = kind[c - N_I64];
		if (info->payload_type == NVTX_PAYLOAD_DOUBLE)
			info->payload.d = row_double(st, c);
		else if (info->payload_type == NVTX_PAYLOAD_UINT)
			info->payload.u = (uint64_t)row_i64(st, c);
		else
			info->payload.i = row_i64(st, c);
		return;
	}
}

static void
nsys_nvtx_row(struct nsys *n, const struct nsys_row *st)
{
	struct nvtx_info	 info;
	struct lane_event	 ev;
	int64_t			 type = row_i64(st, N_TYPE);
	uint64_t		 gtid = (uint64_t)row_i64(st, N_TID);
	uint64_t		 domid = (uint64_t)row_i64(st, N_DOMAIN);
	uint32_t		 name, t, proc, v;
	int			 role;
	const struct domain	*dom;

	role = type >= 0 && type < NSYS_NEVTYPE ? n->nvtx_role[type] : NR_NONE;
	if (role == NR_NONE || role == NR_IGNORE) {
		n->nvtx_skipped[type >= 0 && type < NSYS_NEVTYPE ? type :
		    NSYS_NEVTYPE]++;
		return;
	}
	if (!row_null(st, N_TEXT))
		name = nsys_row_intern(n, st, N_TEXT);
	else if (!row_null(st, N_TEXTID))
		name = nsys_db_str(&n->d, row_i64(st, N_TEXTID));
	else
		name = 0;

	switch (role) {
	case NR_DOMAIN:
		proc = nsys_entity_process(n, gtid);
		builder_domain(n->b, proc, domid, strpool_get(n->m->strs,
		    name));
		return;
	case NR_CATEGORY:
		proc = nsys_entity_process(n, gtid);
		hmap_put(&n->cat_name, nsys_cat_key(proc, domid,
		    (uint64_t)row_i64(st, N_CAT)), name);
		return;
	case NR_THREAD:
		/* Declaring the thread may move the array: index it after. */
		if (name != 0) {
			t = nsys_entity_thread(n, gtid);
			n->m->threads[t].name = name;
		}
		return;
	}

	t = nsys_track_cpu(n, TRACK_NVTX, gtid, domid);
	nsys_row_event(st, &ev, N_ROWID, N_START, role == NR_MARK ? -1 :
	    N_END);
	ev.name = name;
	if (role == NR_MARK)
		ev.kind = EV_MARK;
	else {
		ev.kind = EV_NVTX;
		if (role == NR_STARTEND) {
			ev.flags |= EVF_STARTEND;
			if (!row_null(st, N_ENDTID) &&
			    (uint64_t)row_i64(st, N_ENDTID) != gtid)
				ev.flags |= EVF_CROSSTHREAD;
		}
	}

	memset(&info, 0, sizeof info);
	info.domain = n->m->tracks[t].domain;
	dom = &n->m->domains[info.domain];
	if (nsys_sflags(n, name) & SF_NCCL ||
	    (dom->name != 0 && nsys_sflags(n, dom->name) & SF_NCCL))
		ev.flags |= EVF_COMM;
	info.category = row_u32(st, N_CAT);
	info.color = row_u32(st, N_COLOR);
	nsys_nvtx_payload(st, &info);
	ev.aux = builder_nvtx(n->b, &info);
	if (info.category != 0) {
		uint64_t key;
		proc = n->m->threads[n->m->tracks[t].thread].process;
		key = nsys_cat_key(proc, domid, info.category);
		if (hmap_get(&n->cat_name, key, &v))
			n->m->nvtx[ev.aux].category_name = v;
		else {
			/* Named later in the table, perhaps. */
			if (n->npend == n->pendcap) {
				XGROW(n->pend_key, n->pendcap, n->npend + 1);
				n->pend_idx = xreallocarray(n->pend_idx,
				    n->pendcap, sizeof *n->pend_idx);
			}
			n->pend_key[n->npend] = key;
			n->pend_idx[n->npend++] = ev.aux;
		}
	}
	builder_event(n->b, t, &ev);
}

static void
nsys_nvtx_finish(struct nsys *n)
{
	size_t		i;
	uint32_t	v;
	uint64_t	skipped = 0;
	char		list[256];
	size_t		len = 0;

	for (i = 0; i < n->npend; i++)
		if (hmap_get(&n->cat_name, n->pend_key[i], &v))
			n->m->nvtx[n->pend_idx[i]].category_name = v;
	list[0] = '\0';
	for (i = 0; i <= NSYS_NEVTYPE; i++) {
		if (n->nvtx_skipped[i] == 0)
			continue;
		skipped += n->nvtx_skipped[i];
		if (len < sizeof list - 32) {
			int w = snprintf(list + len, sizeof list - len,
			    "%s%s%zu: %llu", len > 0 ? ", " : "",
			    i == NSYS_NEVTYPE ? ">=" : "",
			    i == NSYS_NEVTYPE ? (size_t)NSYS_NEVTYPE : i,
			    (unsigned long long)n->nvtx_skipped[i]);
			if (w > 0)
				len += (size_t)w;
		}
	}
	if (skipped != 0)
		builder_warn(n->b, "NVTX_EVENTS: %llu rows of event types not "
		    "loaded (type: rows %s)", (unsigned long long)skipped,
		    list);
}

/* NVTX_EVENTS, then the categories named after their ranges. */
int
nsys_nvtx_read(struct nsys *n)
{
	static const struct nsys_table	table =
	    NSYS_TABLE("NVTX_EVENTS", "NVTX", nvtx_cols, nsys_nvtx_row);

	if (nsys_scan_tables(n, &table, 1) != 0)
		return -1;
	nsys_nvtx_finish(n);
	return 0;
}
