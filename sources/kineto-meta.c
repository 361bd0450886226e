/*
 * kineto-meta: the Kineto reader's top-level members (deviceProperties,
 * distributedInfo, baseTimeNanoseconds, schemaVersion, version keys and
 * other metadata), which may come before or after the event array, and the
 * end of the file, when what depends on the whole of it is settled: the
 * base time added to every event, the GPU process that owns the streams,
 * devices and GPU pseudo-threads (and gets the rank), names from M events,
 * track names, versions and warnings. kineto.c's top comment has the
 * mapping.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/kineto-int.h"
#include "util/nametab.h"
#include "util/xmalloc.h"

/* Top-level members. */

static int64_t
kineto_meta_int(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	/* NaN and values past int64 (untrusted JSON) read as 0. */
	if (!cJSON_IsNumber(v) || !(v->valuedouble > -9.2e18 &&
	    v->valuedouble < 9.2e18))
		return 0;
	return (int64_t)v->valuedouble;
}

static void
kineto_meta_devices(struct kineto *k, const cJSON *arr)
{
	const cJSON	*o, *v;
	struct device	 d, *dp;
	uint32_t	 i;
	int64_t		 warp;

	cJSON_ArrayForEach(o, arr) {
		if (!cJSON_IsObject(o))
			continue;
		memset(&d, 0, sizeof d);
		d.source_id = (uint32_t)kineto_meta_int(o, "id");
		d.process = NONE32;
		if (cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(o,
		    "name")))
			d.name = builder_intern(k->b, v->valuestring);
		d.total_mem = kineto_meta_int(o, "totalGlobalMem");
		d.cc_major = (int32_t)kineto_meta_int(o, "computeMajor");
		d.cc_minor = (int32_t)kineto_meta_int(o, "computeMinor");
		d.sm_count = (int32_t)kineto_meta_int(o, "numSms");
		d.max_threads_per_block = (int32_t)kineto_meta_int(o,
		    "maxThreadsPerBlock");
		d.regs_per_sm = (int32_t)kineto_meta_int(o,
		    "regsPerMultiprocessor");
		d.smem_per_sm = kineto_meta_int(o,
		    "sharedMemPerMultiprocessor");
		if (d.smem_per_sm == 0)
			d.smem_per_sm = kineto_meta_int(o,
			    "maxSharedMemoryPerMultiProcessor");
		warp = kineto_meta_int(o, "warpSize");
		d.threads_per_warp = (int32_t)warp;
		if (warp > 0)
			d.max_warps_per_sm = (int32_t)(kineto_meta_int(o,
			    "maxThreadsPerMultiprocessor") / warp);
		if ((i = builder_find_device(k->b, d.source_id)) == NONE32) {
			builder_device(k->b, &d);
			continue;
		}
		/* Declared by an event before the properties came. */
		dp = &k->m->devices[i];
		d.process = dp->process;
		d.vendor = dp->vendor;
		*dp = d;
	}
}

static void
kineto_meta_value(struct kineto *k, const char *key, const cJSON *v)
{
	char	*s, buf[64];

	if (cJSON_IsString(v))
		builder_meta(k->b, key, v->valuestring);
	else if (cJSON_IsBool(v))
		builder_meta(k->b, key, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v)) {
		if (v->valuedouble > -9.2e18 && v->valuedouble < 9.2e18 &&
		    v->valuedouble == (double)(int64_t)v->valuedouble)
			snprintf(buf, sizeof buf, "%lld",
			    (long long)v->valuedouble);
		else
			snprintf(buf, sizeof buf, "%.15g", v->valuedouble);
		builder_meta(k->b, key, buf);
	} else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		if ((s = cJSON_PrintUnformatted(v)) == NULL)
			return;
		if (strlen(s) <= 4096)
			builder_meta(k->b, key, s);
		cJSON_free(s);
	}
}

static void
kineto_meta_distributed(struct kineto *k, const cJSON *o)
{
	static const char *const keys[] = {
		"rank", "world_size", "backend", "nccl_version", "pg_count",
		"pg_config"
	};
	const cJSON	*v;
	size_t		 i;

	if (!cJSON_IsObject(o))
		return;
	k->have_dist = 1;
	v = cJSON_GetObjectItemCaseSensitive(o, "rank");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
	    v->valuedouble < 1e9)
		k->rank = (int)v->valuedouble;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if ((v = cJSON_GetObjectItemCaseSensitive(o, keys[i])) != NULL)
			kineto_meta_value(k, keys[i], v);
}

/* The keys whose values the reader needs whole (jsonscan_want). */
const char *const kineto_meta_keys[] = {
	"deviceProperties", "distributedInfo", NULL
};

/* A member too large to read (jsonscan.h): say which, unless it is one
 * whose value would not have been kept anyway. */
static void
kineto_meta_skipped(struct kineto *k, const struct jsonscan_item *it)
{
	char		 key[64];
	size_t		 i;

	if (NAMETAB_FIND(kineto_meta_keys, it->key) < 0 &&
	    it->size < JSONSCAN_META_BYTES)
		return;
	for (i = 0; it->key[i] != '\0' && i < sizeof key - 1; i++)
		key[i] = (unsigned char)it->key[i] < 0x20 ||
		    (unsigned char)it->key[i] == 0x7f ? '?' : it->key[i];
	key[i] = '\0';
	builder_warn(k->b, "top-level member \"%s%s\" at byte %llu not read: "
	    "%llu bytes, %llu values (a member is read up to %u bytes and %u "
	    "values)", key, it->key[i] != '\0' ? "..." : "",
	    (unsigned long long)it->offset, (unsigned long long)it->size,
	    (unsigned long long)it->nodes, JSONSCAN_META_BYTES,
	    JSONSCAN_META_NODES);
}

int
kineto_meta_member(struct kineto *k, struct jsonscan_item *it)
{
	const char	*key = it->key;
	int64_t		 base;
	char		*s;

	if (it->kind == JSONSCAN_SKIPPED) {
		kineto_meta_skipped(k, it);
		return 0;
	}
	if (strcmp(key, "baseTimeNanoseconds") == 0) {
		if (jsonscan_i64(&it->val, &base) != 0)
			return kineto_fail(k, NULL, "baseTimeNanoseconds at "
			    "byte %llu is not an integer",
			    (unsigned long long)it->offset);
		k->base_ns = base;
		k->have_base = 1;
		/* The UTC the trace gives for its clock (model times are
		 * that clock plus this: UTC themselves). */
		k->m->utc_epoch_ns = base;
		s = xstrndup(it->val.p, it->val.len);
		builder_meta(k->b, key, s);
		free(s);
		return 0;
	}
	if (strcmp(key, "deviceProperties") == 0) {
		if (it->meta != NULL && !cJSON_IsArray(it->meta))
			return kineto_fail(k, NULL, "deviceProperties at byte "
			    "%llu is not an array",
			    (unsigned long long)it->offset);
		kineto_meta_devices(k, it->meta);
		return 0;
	}
	if (strcmp(key, "distributedInfo") == 0) {
		kineto_meta_distributed(k, it->meta);
		return 0;
	}
	if (strcmp(key, "schemaVersion") == 0 && it->meta != NULL) {
		char buf[32];
		if (cJSON_IsNumber(it->meta))
			snprintf(buf, sizeof buf, "%g", it->meta->valuedouble);
		else if (cJSON_IsString(it->meta))
			snprintf(buf, sizeof buf, "%.31s",
			    it->meta->valuestring);
		else
			buf[0] = '\0';
		k->m->schema_version = builder_intern(k->b, buf);
		return 0;
	}
	if (strcmp(key, "roctracer_version") == 0 ||
	    strcmp(key, "hip_runtime_version") == 0 ||
	    strcmp(key, "hip_driver_version") == 0)
		k->amd = 1;
	if ((strcmp(key, "host_name") == 0 || strcmp(key, "hostname") == 0) &&
	    cJSON_IsString(it->meta))
		k->host = builder_intern(k->b, it->meta->valuestring);
	if (strcmp(key, "traceEvents") == 0)
		return 0;	/* not an array: nothing to read */
	kineto_meta_value(k, key, it->meta);
	return 0;
}

/* The end: settle what depends on the whole file. */

static int
kineto_meta_is_amd(const char *s)
{
	return strstr(s, "AMD") != NULL || strstr(s, "Instinct") != NULL ||
	    strstr(s, "Radeon") != NULL;
}

/* The process the GPU work belongs to: most API calls, else most events. */
static uint32_t
kineto_meta_gpu_process(struct kineto *k)
{
	struct model	*m = k->m;
	uint64_t	*api, *all, best;
	uint32_t	 p = NONE32;
	size_t		 t, i;

	if (m->nprocesses == 0)
		return NONE32;
	api = xcalloc(m->nprocesses, sizeof *api);
	all = xcalloc(m->nprocesses, sizeof *all);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->process >= m->nprocesses)
			continue;
		if (tr->type == TRACK_API)
			api[tr->process] += tr->lane.n;
		all[tr->process] += tr->lane.n;
	}
	best = 0;
	for (i = 0; i < m->nprocesses; i++)
		if (api[i] > best) {
			best = api[i];
			p = (uint32_t)i;
		}
	if (p == NONE32) {
		p = 0;
		for (i = 1; i < m->nprocesses; i++)
			if (all[i] > all[p])
				p = (uint32_t)i;
	}
	free(api);
	free(all);
	return p;
}

static void
kineto_meta_track_names(struct kineto *k)
{
	struct model	*m = k->m;
	char		 buf[128];
	size_t		 i;

	for (i = 0; i < m->ntracks; i++) {
		struct track *t = &m->tracks[i];
		const struct stream *s = t->stream < m->nstreams ?
		    &m->streams[t->stream] : NULL;
		switch (t->type) {
		case TRACK_GPU:
		case TRACK_SYNC:
			if (s == NULL)
				break;
			if (s->source_id == K_STREAM_ALL)
				snprintf(buf, sizeof buf, "Device-wide%s",
				    t->type == TRACK_SYNC ? " sync" : "");
			else
				snprintf(buf, sizeof buf, "Stream %llu%s",
				    (unsigned long long)s->source_id,
				    t->type == TRACK_SYNC ? " sync" : "");
			t->name = builder_intern(k->b, buf);
			break;
		case TRACK_API:
			t->name = builder_intern(k->b, k->amd ? "HIP API" :
			    "CUDA API");
			break;
		case TRACK_NVTX:
			if (t->domain < m->ndomains)
				t->name = m->domains[t->domain].name;
			break;
		case TRACK_COUNTER:
			t->name = builder_intern(k->b, "counters");
			break;
		case TRACK_OTHER:
			if (t->name == 0)
				t->name = builder_intern(k->b,
				    "profiler overhead");
			break;
		default:
			break;
		}
	}
}

int
kineto_meta_finish(struct kineto *k)
{
	struct model	*m = k->m;
	uint32_t	 gp, v, vendor;
	size_t		 i, t;
	const char	*ver;
	char		 buf[128];

	/* Time: absolute nanoseconds. */
	if (k->have_base && k->base_ns != 0) {
		for (t = 0; t < m->ntracks; t++) {
			struct lane *l = &m->tracks[t].lane;
			for (i = 0; i < l->n; i++) {
				/* Within model.h's time bounds, as the
				 * builder keeps every other time. */
				if (__builtin_add_overflow(l->start[i],
				    k->base_ns, &l->start[i]) ||
				    __builtin_add_overflow(l->end[i],
				    k->base_ns, &l->end[i]) ||
				    l->start[i] < -MODEL_TIME_MAX ||
				    l->end[i] > MODEL_TIME_MAX)
					return kineto_fail(k, NULL, "event %lld:"
					    " baseTimeNanoseconds + ts is out of"
					    " range (more than "
					    MODEL_TIME_MAX_TEXT " from the "
					    "clock's zero)",
					    (long long)lane_rowid(l, i));
			}
		}
	}

	/* The GPU process owns streams, devices and GPU pseudo-threads. */
	gp = kineto_meta_gpu_process(k);
	for (i = 0; i < m->nstreams; i++)
		m->streams[i].process = gp;
	for (i = 0; i < k->npseudo; i++)
		m->threads[k->pseudo[i]].process = gp;
	for (t = 0; t < m->ntracks; t++) {
		struct track *tr = &m->tracks[t];
		if (tr->type == TRACK_GPU || tr->type == TRACK_SYNC)
			tr->process = gp;
		else
			for (i = 0; i < k->npseudo; i++)
				if (tr->thread == k->pseudo[i])
					tr->process = gp;
	}
	vendor = builder_intern(k->b, "NVIDIA");
	for (i = 0; i < m->ndevices; i++)
		if (m->devices[i].name != 0 && kineto_meta_is_amd(
		    strpool_get(m->strs, m->devices[i].name)))
			k->amd = 1;
	if (k->amd)
		vendor = builder_intern(k->b, "AMD");
	for (i = 0; i < m->ndevices; i++) {
		m->devices[i].process = gp;
		if (m->devices[i].vendor == 0)
			m->devices[i].vendor = vendor;
	}
	if (gp != NONE32 && k->rank >= 0)
		m->processes[gp].rank = k->rank;
	for (i = 0; i < m->nprocesses && k->host != 0; i++)
		m->processes[i].host = k->host;

	/* Names from M events. */
	for (i = 0; i < m->nprocesses; i++)
		if (m->processes[i].name == 0 && hmap_get(&k->pname,
		    m->processes[i].source_id, &v))
			m->processes[i].name = v;
	for (i = 0; i < m->nthreads; i++)
		if (m->threads[i].name == 0 && hmap_get(&k->tname,
		    m->threads[i].source_id, &v))
			m->threads[i].name = v;
	kineto_meta_track_names(k);

	/* Versions. */
	if ((ver = model_meta(m, "roctracer_version")) != NULL)
		snprintf(buf, sizeof buf, "roctracer %s", ver);
	else if ((ver = model_meta(m, "cupti_version")) != NULL)
		snprintf(buf, sizeof buf, "CUPTI %s", ver);
	else
		snprintf(buf, sizeof buf, "unknown");
	m->source_version = builder_intern(k->b, buf);

	trevent_warn(&k->te, k->b);
	if (k->nprofrange != 0)
		builder_warn(k->b, "%llu CUPTI profiler ranges loaded as "
		    "kernels (their durations include counter replay)",
		    (unsigned long long)k->nprofrange);
	return 0;
}
