/*
 * evrow: the row id and headline columns of one event, shared by the
 * event-level verbs (see evrow.h).
 *
 * The search columns are: key ("ev|id=<gid>"), id (the gid), source_rowid
 * (the row in the source file, null if none), kind, name, start_ns, end_ns,
 * duration_ns, device and stream (source ids, GPU work only), pid and tid
 * (for GPU work: the stream's process and the launching thread), and for
 * kernels grid and block ([x,y,z]), for copies and memsets bytes, for
 * copies copy_kind ("h2d", ...).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/evrow.h"
#include "headless/out.h"
#include "util/rowkey.h"

const char *evrow_columns[] = {
	"id", "kind", "start_ns", "duration_ns", "end_ns", "device", "stream",
	"pid", "tid", "grid", "block", "bytes", "copy_kind", "source_rowid",
	"name", NULL
};

int
evrow_parse_id(const char *arg, uint32_t *gid)
{
	const char		*p = arg;
	unsigned long long	 v = 0;

	/* "ev|id=N" (the row key), and "ev:N" and "N" as before. */
	if (strncmp(p, "ev|id=", 6) == 0)
		p += 6;
	else if (strncmp(p, "ev:", 3) == 0)
		p += 3;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v >= NONE32)
			return -1;
	}
	if (*p != '\0')
		return -1;
	*gid = (uint32_t)v;
	return 0;
}

void
evrow_key(char *buf, size_t len, uint32_t gid)
{
	rowkey_buf(buf, len, "ev", "id=%u", gid);
}

int
evrow_keycmp(uint32_t a, uint32_t b)
{
	char	x[16], y[16];

	if (a == b)
		return 0;
	snprintf(x, sizeof x, "%u", a);
	snprintf(y, sizeof y, "%u", b);
	return strcmp(x, y);
}

static const char *const evrow_ident_fields[] = {
	"device", "stream", "pid", "tid"
};

const char *
evrow_ident_field(enum evrow_ident which)
{
	return evrow_ident_fields[which];
}

int
evrow_ident_id(const struct model *m, enum evrow_ident which, uint32_t v,
    uint64_t *id)
{
	*id = 0;
	switch (which) {
	case EVROW_DEVICE:
		if (v >= m->ndevices)
			return 0;
		*id = m->devices[v].source_id;
		break;
	case EVROW_STREAM:
		if (v >= m->nstreams)
			return 0;
		*id = m->streams[v].source_id;
		break;
	case EVROW_PID:
		if (v >= m->nprocesses)
			return 0;
		*id = m->processes[v].pid;
		break;
	case EVROW_TID:
		if (v >= m->nthreads)
			return 0;
		*id = m->threads[v].tid;
		break;
	}
	return 1;
}

void
evrow_ident(cJSON *row, const struct model *m, enum evrow_ident which,
    uint32_t v)
{
	uint64_t	id;

	if (v == NONE32 || !evrow_ident_id(m, which, v, &id))
		cJSON_AddNullToObject(row, evrow_ident_fields[which]);
	else
		out_int(row, evrow_ident_fields[which], (int64_t)id);
}

void
evrow_device(cJSON *row, const struct model *m, uint32_t dev)
{
	evrow_ident(row, m, EVROW_DEVICE, dev);
}

void
evrow_stream(cJSON *row, const struct model *m, uint32_t st)
{
	evrow_ident(row, m, EVROW_STREAM, st);
}

void
evrow_pid(cJSON *row, const struct model *m, uint32_t proc)
{
	evrow_ident(row, m, EVROW_PID, proc);
}

void
evrow_tid(cJSON *row, const struct model *m, uint32_t thr)
{
	evrow_ident(row, m, EVROW_TID, thr);
}

static cJSON *
evrow_dim3(const uint32_t *v)
{
	cJSON	*a = cJSON_CreateArray();
	int	 k;

	for (k = 0; k < 3; k++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[k]));
	return a;
}

void
evrow_fill(cJSON *row, const struct model *m, uint32_t gid, int absolute)
{
	struct evref			 r = model_ev(m, gid);
	const struct track		*tr = &m->tracks[r.track];
	const struct lane		*l = &tr->lane;
	const struct kernel_info	*k;
	const struct copy_info		*c;
	char				 key[24];
	uint32_t			 i = r.idx;

	evrow_key(key, sizeof key, gid);
	out_str(row, "key", key);
	out_int(row, "id", gid);
	out_int_or_null(row, "source_rowid", lane_rowid(l, i) >= 0,
	    lane_rowid(l, i));
	out_str(row, "kind", ev_kind_name(l->kind[i]));
	out_str(row, "name", model_str(m, l->name[i]));
	out_int(row, "start_ns", event_time(m, l->start[i], absolute));
	out_int(row, "end_ns", event_time(m, l->end[i], absolute));
	out_int(row, "duration_ns", l->end[i] - l->start[i]);
	evrow_device(row, m, event_gpu_side(tr) ? tr->device : NONE32);
	evrow_stream(row, m, event_gpu_side(tr) ? tr->stream : NONE32);
	evrow_pid(row, m, event_process(m, gid));
	evrow_tid(row, m, event_thread(m, gid));
	if ((k = event_kernel(m, gid)) != NULL) {
		cJSON_AddItemToObject(row, "grid", evrow_dim3(k->grid));
		cJSON_AddItemToObject(row, "block", evrow_dim3(k->block));
	}
	if ((c = event_copy(m, gid)) != NULL) {
		out_int(row, "bytes", (int64_t)c->bytes);
		if (l->kind[i] == EV_MEMCPY)
			out_str(row, "copy_kind", copy_kind_name(c->kind));
	}
}
