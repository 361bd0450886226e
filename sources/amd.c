/*
 * amd: agents to devices, tracing categories and API names to event
 * classes, copy directions, communication kernels. See amd.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "sources/amd.h"
#include "sources/srcname.h"
#include "model/builder.h"

int64_t
amd_json_int(const cJSON *o, const char *key)
{
	const cJSON	*v;
	double		 d;

	if (o == NULL || (v = cJSON_GetObjectItemCaseSensitive(o, key)) ==
	    NULL)
		return 0;
	if (cJSON_IsObject(v))	/* {"handle": N} */
		v = cJSON_GetObjectItemCaseSensitive(v, "handle");
	if (!cJSON_IsNumber(v))
		return 0;
	d = v->valuedouble;
	if (d != d)
		return 0;
	if (d >= 9.2e18)
		return INT64_MAX;
	if (d <= -9.2e18)
		return INT64_MIN;
	return (int64_t)d;
}

const char *
amd_json_str(const cJSON *o, const char *key)
{
	const cJSON	*v;

	if (o == NULL || (v = cJSON_GetObjectItemCaseSensitive(o, key)) ==
	    NULL || !cJSON_IsString(v) || v->valuestring == NULL)
		return "";
	return v->valuestring;
}

int
amd_agent_is_gpu(const cJSON *agent)
{
	const cJSON	*t;

	if (agent == NULL ||
	    (t = cJSON_GetObjectItemCaseSensitive(agent, "type")) == NULL)
		return 0;
	if (cJSON_IsNumber(t))
		return t->valueint == 2;	/* ROCPROFILER_AGENT_TYPE_GPU */
	return cJSON_IsString(t) && t->valuestring != NULL &&
	    strcmp(t->valuestring, "GPU") == 0;
}

/* Interns s into *field unless the field is set or s is empty. */
static void
amd_set_str(struct builder *b, uint32_t *field, const char *s)
{
	if (*field == 0 && s != NULL && *s != '\0')
		*field = builder_intern(b, s);
}

void
amd_device_from_agent(struct builder *b, const cJSON *a, struct device *d)
{
	const cJSON	*banks, *bank;
	int64_t		 v, loc, mem = 0;
	char		 buf[64];

	if (a == NULL)
		return;
	amd_set_str(b, &d->name, amd_json_str(a, "product_name"));
	amd_set_str(b, &d->name, amd_json_str(a, "name"));
	amd_set_str(b, &d->chip, amd_json_str(a, "name"));
	if (d->vendor == 0)
		d->vendor = builder_intern(b, "AMD");
	if (d->sm_count == 0)
		d->sm_count = (int32_t)amd_json_int(a, "cu_count");
	if (d->threads_per_warp == 0)
		d->threads_per_warp = (int32_t)amd_json_int(a,
		    "wave_front_size");
	if (d->max_warps_per_sm == 0)
		d->max_warps_per_sm = (int32_t)amd_json_int(a,
		    "max_waves_per_cu");
	if (d->max_threads_per_block == 0)
		d->max_threads_per_block = (int32_t)amd_json_int(a,
		    "workgroup_max_size");
	if (d->smem_per_sm == 0)
		d->smem_per_sm = amd_json_int(a, "lds_size_in_kb") * 1024;
	if (d->clock_hz == 0)
		d->clock_hz = amd_json_int(a, "max_engine_clk_fcompute") *
		    1000000;
	if (d->cc_major == 0 && (v = amd_json_int(a,
	    "gfx_target_version")) > 0) {
		d->cc_major = (int32_t)(v / 10000);
		d->cc_minor = (int32_t)(v / 100 % 100);
	}
	if (d->bus == 0 && (loc = amd_json_int(a, "location_id")) > 0) {
		snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x",
		    (unsigned)amd_json_int(a, "domain") & 0xffff,
		    (unsigned)(loc >> 8) & 0xff, (unsigned)(loc >> 3) & 0x1f,
		    (unsigned)loc & 7);
		d->bus = builder_intern(b, buf);
	}
	banks = cJSON_GetObjectItemCaseSensitive(a, "mem_banks");
	cJSON_ArrayForEach(bank, banks)
		mem += amd_json_int(bank, "size_in_bytes");
	if (d->total_mem == 0)
		d->total_mem = mem;
}

enum amd_class
amd_category_class(const char *c)
{
	if (strstr(c, "MARKER") != NULL)
		return AMD_MARKER;
	if (strncmp(c, "HSA_", 4) == 0)
		return AMD_API_DRIVER;
	if (strncmp(c, "RCCL_", 5) == 0)
		return AMD_API_COMM;
	return AMD_API;
}

enum amd_class
amd_api_class(const char *name)
{
	size_t	len = strlen(name);

	if (strcmp(name, "UserMarker") == 0 || strncmp(name, "roctx", 5) == 0)
		return AMD_MARKER;
	if (strncmp(name, "hsa_", 4) == 0)
		return AMD_API_DRIVER;
	if (strncmp(name, "nccl", 4) == 0 || strncmp(name, "rccl", 4) == 0)
		return AMD_API_COMM;
	/* rpd_tracer's own bookkeeping: "OpTable::writeRows", "rpdflush",
	 * "hcc_activity_callback". */
	if ((len > 11 && strcmp(name + len - 11, "::writeRows") == 0) ||
	    strcmp(name, "rpdflush") == 0 ||
	    strcmp(name, "hcc_activity_callback") == 0)
		return AMD_OVERHEAD;
	return AMD_API;
}

int
amd_copy_kind(int src_gpu, int dst_gpu, int same)
{
	if (src_gpu && dst_gpu)
		return same ? COPY_DTOD : COPY_PTOP;
	if (dst_gpu)
		return COPY_HTOD;
	if (src_gpu)
		return COPY_DTOH;
	return COPY_HTOH;
}

int
amd_copy_kind_of_name(const char *n)
{
	static const struct srcname names[] = {
		{ "HOST_TO_DEVICE", COPY_HTOD },
		{ "DEVICE_TO_HOST", COPY_DTOH },
		{ "DEVICE_TO_DEVICE", COPY_DTOD },
		{ "HOST_TO_HOST", COPY_HTOH },
		{ "PEER_TO_PEER", COPY_PTOP },
		{ "HostToDevice", COPY_HTOD },
		{ "DeviceToHost", COPY_DTOH },
		{ "DeviceToDevice", COPY_DTOD },
		{ "HostToHost", COPY_HTOH },
		{ "PeerToPeer", COPY_PTOP },
		{ "DeviceToPeer", COPY_PTOP },
	};

	return srcname_within(names, SRCNAME_COUNT(names), n, COPY_UNKNOWN);
}

static uint32_t
amd_u32(int64_t v)
{
	return v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void
amd_kernel_fill(struct kernel_info *k, const int64_t grid[3],
    const int64_t wg[3], int64_t lds, int64_t scratch, int64_t static_lds,
    int64_t vgprs)
{
	int	i;

	for (i = 0; i < 3; i++) {
		k->block[i] = amd_u32(wg[i]);
		if (wg[i] > 0 && grid[i] > 0)	/* ceil, without overflow */
			k->grid[i] = amd_u32(grid[i] / wg[i] +
			    (grid[i] % wg[i] != 0));
		else
			k->grid[i] = amd_u32(grid[i]);
	}
	if (static_lds < 0)
		static_lds = 0;
	if (lds < static_lds)
		lds = static_lds;
	k->static_smem = amd_u32(static_lds);
	k->dynamic_smem = amd_u32(lds - static_lds);
	k->local_mem = amd_u32(scratch);
	k->regs = (uint16_t)(vgprs < 0 ? 0 : vgprs > UINT16_MAX ? UINT16_MAX :
	    vgprs);
}

int
amd_is_comm(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if ((p[0] == 'n' || p[0] == 'N' || p[0] == 'r' ||
		    p[0] == 'R') && strncasecmp(p + 1, "ccl", 3) == 0)
			return 1;
	}
	return 0;
}

void
amd_copy_ends(struct copy_info *c, const struct model *m, uint32_t sd,
    uint32_t dd)
{
	c->src_kind = sd != NONE32 ? MEM_DEVICE : MEM_UNKNOWN;
	c->dst_kind = dd != NONE32 ? MEM_DEVICE : MEM_UNKNOWN;
	c->src_dev = sd != NONE32 ? m->devices[sd].source_id : NONE32;
	c->dst_dev = dd != NONE32 ? m->devices[dd].source_id : NONE32;
}
