/*
 * nsys-metrics: GPU and NIC metrics of an Nsight Systems export, as
 * counter tracks (FORMATS.md 1.6).
 *
 * GPU metrics (`--gpu-metrics-devices`): GPU_METRICS(timestamp, typeId,
 * metricId, value) with TARGET_INFO_GPU_METRICS(typeId, metricId,
 * metricName) naming each (typeId, metricId) pair. The GPU is typeId &
 * 0xFF. Each GPU's samples go on one counter track of that device
 * ("GPU metrics"), one EV_COUNTER event per row named after its metric
 * (a metric TARGET_INFO_GPU_METRICS does not name is "metric N").
 *
 * NIC and InfiniBand switch metrics (`--nic-metrics`, `--ib-switch-metrics`):
 * NET_NIC_METRIC and NET_IB_SWITCH_METRIC (timestamp, globalId,
 * metricsListId, metricsIdx, value), named by TARGET_INFO_NETWORK_METRICS
 * (metricsListId, metricsIdx, name); the NIC's name comes from
 * TARGET_INFO_NIC_INFO (globalId, name) when it has one. Each NIC's (or
 * switch's) samples go on one counter track of no device, "NIC NAME" (or
 * "IB switch NAME"). Tables named NIC_METRICS and IB_SWITCH_METRICS with
 * those columns are read the same way.
 *
 * A row whose timestamp is not an integer is skipped (nsys_scan counts it).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "sources/source.h"
#include "util/hmap.h"
#include "util/xmalloc.h"

/* The metric names, per (type, metric) key; the tracks, per device. */
struct nsys_metrics {
	struct hmap	 names;		/* key -> pool id */
	struct hmap	 tracks;	/* device or NIC key -> track */
	struct hmap	 nics;		/* NIC globalId -> pool id */
	int		 ib;		/* reading the IB switch table */
	int		 tcol;		/* the time column of the scan */
};

enum { GM_ROWID, GM_TS, GM_TYPE, GM_METRIC, GM_VALUE };
static const char *const gm_cols[] = {
	"!timestamp", "!typeId", "!metricId", "!value"
};

enum { NM_ROWID, NM_TS, NM_ID, NM_LIST, NM_IDX, NM_VALUE, NM_PORT,
    NM_START };
static const char *const nm_cols[] = {
	"timestamp", "!globalId", "metricsListId", "!metricsIdx", "!value",
	"portId", "start"
};

/* Scans a sample table (timestamp in column 1), row() for each usable
 * row; rows without an integer timestamp are skipped and counted. */
static int
nsys_metrics_scan(struct nsys *n, struct nsys_metrics *x, const char *table,
    const char *phase, const char *const *cols, size_t ncols,
    nsys_step_fn *row)
{
	sqlite3_stmt	*st;
	int		 have[8], times[3] = { 1, -1, 0 };

	if (!nsys_db_has(&n->d, table))
		return 0;
	st = nsys_db_select(&n->d, table, cols, ncols, have, NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	/* NIC tables: newer exports time a sample by start. */
	x->tcol = ncols > NM_START - 1 && have[NM_START - 1] ? NM_START : 1;
	if (x->tcol == 1 && !have[0]) {
		builder_warn(n->b, "%s: no timestamp or start column; not "
		    "loaded", table);
		sqlite3_finalize(st);
		return 0;
	}
	times[0] = x->tcol;
	return nsys_scan_rows(n, st, table, phase, times, row, x);
}

/* Reads a name table: (key1, key2, name) columns into names. */
static int
nsys_metrics_names(struct nsys *n, struct nsys_metrics *x, const char *table,
    const char *const *cols)
{
	sqlite3_stmt	*st;
	uint32_t	 name;
	int		 r;

	if (!nsys_db_has(&n->d, table))
		return 0;
	st = nsys_db_select(&n->d, table, cols, 3, NULL, NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	while ((r = nsys_db_step(&n->d, st, table)) == 1) {
		if ((name = nsys_text(n, st, 3)) == 0)
			continue;
		hmap_put(&x->names, hmap_key2((uint64_t)col_i64(st, 1),
		    (uint64_t)col_i64(st, 2)), name);
	}
	sqlite3_finalize(st);
	return r < 0 ? -1 : 0;
}

/* The pool id of a metric's name, "metric N" when unnamed. */
static uint32_t
nsys_metrics_name(struct nsys *n, struct nsys_metrics *x, uint64_t k1,
    uint64_t k2)
{
	uint32_t	v;
	char		buf[64];

	if (hmap_get(&x->names, hmap_key2(k1, k2), &v))
		return v;
	snprintf(buf, sizeof buf, "metric %llu", (unsigned long long)k2);
	v = builder_intern(n->b, buf);
	hmap_put(&x->names, hmap_key2(k1, k2), v);
	return v;
}

static void
nsys_metrics_event(struct nsys *n, uint32_t t, sqlite3_stmt *st, int ts,
    uint32_t name, int val)
{
	struct lane_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.rowid = col_i64(st, 0);
	ev.start = ev.end = col_i64(st, ts);
	ev.name = name;
	ev.kind = EV_COUNTER;
	ev.aux = builder_counter(n->b, sqlite3_column_double(st, val));
	builder_event(n->b, t, &ev);
}

static void
nsys_metrics_gpu_row(struct nsys *n, sqlite3_stmt *st, void *arg)
{
	struct nsys_metrics	*x = arg;
	uint64_t		 type = (uint64_t)col_i64(st, GM_TYPE);
	uint32_t		 dev, t;

	if (col_null(st, GM_VALUE))
		return;
	if (!hmap_get(&x->tracks, type & 0xFF, &t)) {
		dev = nsys_entity_device(n, (uint32_t)(type & 0xFF));
		t = builder_counter_track(n->b, dev, 0,
		    builder_intern(n->b, "GPU metrics"));
		hmap_put(&x->tracks, type & 0xFF, t);
	}
	nsys_metrics_event(n, t, st, GM_TS, nsys_metrics_name(n, x, type,
	    (uint64_t)col_i64(st, GM_METRIC)), GM_VALUE);
}

static void
nsys_metrics_nic_row(struct nsys *n, sqlite3_stmt *st, void *arg)
{
	struct nsys_metrics	*x = arg;
	uint64_t		 id = (uint64_t)col_i64(st, NM_ID), key;
	int64_t			 port = col_i64(st, NM_PORT);
	uint32_t		 t, v;
	char			 buf[160], pbuf[32];

	if (col_null(st, NM_VALUE))
		return;
	key = hmap_key2(hmap_key2(id, (uint64_t)port), (uint64_t)x->ib);
	if (!hmap_get(&x->tracks, key, &t)) {
		pbuf[0] = '\0';
		if (port != 0)
			snprintf(pbuf, sizeof pbuf, " port %lld",
			    (long long)port);
		if (hmap_get(&x->nics, id, &v) && !x->ib)
			snprintf(buf, sizeof buf, "NIC %.100s%s",
			    strpool_get(n->m->strs, v), pbuf);
		else
			snprintf(buf, sizeof buf, "%s %llu%s", x->ib ?
			    "IB switch" : "NIC", (unsigned long long)id, pbuf);
		t = builder_counter_track(n->b, NONE32, key,
		    builder_intern(n->b, buf));
		hmap_put(&x->tracks, key, t);
	}
	nsys_metrics_event(n, t, st, x->tcol, nsys_metrics_name(n, x,
	    UINT64_C(1) << 40 | (uint64_t)col_i64(st, NM_LIST),
	    (uint64_t)col_i64(st, NM_IDX)), NM_VALUE);
}

/* NIC names by the metrics' globalId: NIC_ID_MAP(nicId, globalId) to
 * TARGET_INFO_NIC_INFO(nicId, name). */
static int
nsys_metrics_nics(struct nsys *n, struct nsys_metrics *x)
{
	static const char *const icols[] = { "!nicId", "!name" };
	static const char *const mcols[] = { "!nicId", "!globalId" };
	struct hmap	 byid;
	sqlite3_stmt	*st;
	uint32_t	 name;
	int		 r = 0;

	if (!nsys_db_has(&n->d, "TARGET_INFO_NIC_INFO") ||
	    !nsys_db_has(&n->d, "NIC_ID_MAP"))
		return 0;
	hmap_init(&byid);
	st = nsys_db_select(&n->d, "TARGET_INFO_NIC_INFO", icols, 2, NULL,
	    NULL);
	while (st != NULL && (r = nsys_db_step(&n->d, st,
	    "TARGET_INFO_NIC_INFO")) == 1)
		if ((name = nsys_text(n, st, 2)) != 0)
			hmap_put(&byid, (uint64_t)col_i64(st, 1), name);
	sqlite3_finalize(st);
	if (r >= 0 && n->d.err == NULL) {
		st = nsys_db_select(&n->d, "NIC_ID_MAP", mcols, 2, NULL,
		    NULL);
		while (st != NULL && (r = nsys_db_step(&n->d, st,
		    "NIC_ID_MAP")) == 1)
			if (hmap_get(&byid, (uint64_t)col_i64(st, 1), &name))
				hmap_put(&x->nics, (uint64_t)col_i64(st, 2),
				    name);
		sqlite3_finalize(st);
	}
	hmap_free(&byid);
	return r < 0 || n->d.err != NULL ? -1 : 0;
}

int
nsys_metrics_read(struct nsys *n)
{
	static const char *const gname[] = { "!typeId", "!metricId",
	    "!metricName" };
	static const char *const nname[] = { "metricsListId", "!metricsIdx",
	    "!name" };
	static const char *const nic[] = { "NET_NIC_METRIC", "NIC_METRICS" };
	static const char *const ib[] = { "NET_IB_SWITCH_METRIC",
	    "IB_SWITCH_METRICS" };
	struct nsys_metrics	 x;
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc = -1, r;

	memset(&x, 0, sizeof x);
	hmap_init(&x.names);
	hmap_init(&x.tracks);
	hmap_init(&x.nics);
	if (nsys_db_has(&n->d, "GPU_METRICS")) {
		if (nsys_metrics_names(n, &x, "TARGET_INFO_GPU_METRICS",
		    gname) != 0 || nsys_metrics_scan(n, &x, "GPU_METRICS",
		    "GPU metrics", gm_cols, sizeof gm_cols / sizeof *gm_cols,
		    nsys_metrics_gpu_row) != 0)
			goto out;
	}
	if (nsys_db_has(&n->d, nic[0]) || nsys_db_has(&n->d, nic[1]) ||
	    nsys_db_has(&n->d, ib[0]) || nsys_db_has(&n->d, ib[1])) {
		/* Names keyed apart from the GPU's: list id | 1 << 40. */
		if (nsys_db_has(&n->d, "TARGET_INFO_NETWORK_METRICS")) {
			st = nsys_db_select(&n->d,
			    "TARGET_INFO_NETWORK_METRICS", nname, 3, NULL,
			    NULL);
			if (st == NULL && n->d.err != NULL)
				goto out;
			while (st != NULL && (r = nsys_db_step(&n->d, st,
			    "TARGET_INFO_NETWORK_METRICS")) != 0) {
				uint32_t name;
				if (r < 0) {
					sqlite3_finalize(st);
					goto out;
				}
				if ((name = nsys_text(n, st, 3)) != 0)
					hmap_put(&x.names, hmap_key2(
					    UINT64_C(1) << 40 |
					    (uint64_t)col_i64(st, 1),
					    (uint64_t)col_i64(st, 2)), name);
			}
			sqlite3_finalize(st);
		}
		if (nsys_metrics_nics(n, &x) != 0)
			goto out;
		for (i = 0; i < 2; i++) {
			x.ib = 0;
			if (nsys_metrics_scan(n, &x, nic[i], "NIC metrics",
			    nm_cols, sizeof nm_cols / sizeof *nm_cols,
			    nsys_metrics_nic_row) != 0)
				goto out;
			x.ib = 1;
			if (nsys_metrics_scan(n, &x, ib[i],
			    "IB switch metrics", nm_cols,
			    sizeof nm_cols / sizeof *nm_cols,
			    nsys_metrics_nic_row) != 0)
				goto out;
		}
	}
	rc = 0;
out:
	hmap_free(&x.names);
	hmap_free(&x.tracks);
	hmap_free(&x.nics);
	return rc;
}
