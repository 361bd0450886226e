/*
 * kineto-gpu: the Kineto reader's GPU work: kernels (and CUPTI profiler
 * ranges), copies, memsets and synchronisations on the track of their
 * (device, stream), with kernel_info and copy_info from their args and
 * names (a communication kernel's collective, message sizes and process
 * group included), and the pseudo-thread tracks of GPU annotations. kineto.c's top
 * comment has the mapping.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sources/kineto-int.h"
#include "sources/srcname.h"
#include "util/xmalloc.h"

/* Kernel base names: "void at::native::foo<4, ...>(int, ...)" -> "foo". */
static uint32_t
kineto_gpu_short_name(struct kineto *k, uint32_t sid)
{
	const char	*s = strpool_get(k->m->strs, sid), *p, *last;
	char		*buf, *w;
	size_t		 n = strpool_len(k->m->strs, sid);
	uint32_t	 v;
	int		 depth = 0;

	if (hmap_get(&k->short_of, sid, &v))
		return v;
	if (strncmp(s, "void ", 5) == 0) {
		s += 5;
		n -= 5;
	}
	buf = xmalloc(n + 1);
	w = buf;
	/* Drop template arguments; stop at the parameter list. */
	for (p = s; p < s + n; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>' && depth > 0)
			depth--;
		else if (*p == '(' && depth == 0)
			break;
		else if (depth == 0)
			*w++ = *p;
	}
	*w = '\0';
	last = buf;
	for (p = buf; *p != '\0'; p++)
		if (p[0] == ':' && p[1] == ':')
			last = p + 2;
	while (*last == ' ')
		last++;
	v = *last != '\0' ? builder_intern(k->b, last) : sid;
	free(buf);
	hmap_put(&k->short_of, sid, v);
	return v;
}

/* Memory kinds in copy names. */
static const struct srcname kineto_gpu_mem_kinds[] = {
	{ "Pageable", MEM_PAGEABLE }, { "Pinned", MEM_PINNED },
	{ "Device", MEM_DEVICE }, { "Array", MEM_ARRAY },
	{ "Managed", MEM_MANAGED },
};

static uint8_t
kineto_gpu_mem_kind(const char *s, size_t n)
{
	return (uint8_t)srcname_code(kineto_gpu_mem_kinds,
	    SRCNAME_COUNT(kineto_gpu_mem_kinds), s, n, MEM_UNKNOWN);
}

/* Copy kinds in copy names and in HIP's "kind" arg. */
static const struct srcname kineto_gpu_copy_kinds[] = {
	{ "HtoD", COPY_HTOD }, { "DtoH", COPY_DTOH },
	{ "DtoD", COPY_DTOD }, { "HtoH", COPY_HTOH },
	{ "PtoP", COPY_PTOP }, { "HtoA", COPY_HTOA },
	{ "AtoH", COPY_ATOH }, { "AtoA", COPY_ATOA },
	{ "AtoD", COPY_ATOD }, { "DtoA", COPY_DTOA },
};

static uint8_t
kineto_gpu_copy_kind(const char *s, size_t n)
{
	return (uint8_t)srcname_code(kineto_gpu_copy_kinds,
	    SRCNAME_COUNT(kineto_gpu_copy_kinds), s, n, COPY_UNKNOWN);
}

/*
 * The copy_info template of a memcpy/memset name: "Memcpy HtoD (Pageable
 * -> Device)", "Memset (Device)". Cached per name.
 */
static const struct copy_info *
kineto_gpu_copy_template(struct kineto *k, uint32_t sid, int memset_)
{
	struct copy_info	 c;
	const char		*s = strpool_get(k->m->strs, sid), *p, *q, *ar;
	uint32_t		 v;

	if (hmap_get(&k->copy_of, sid, &v))
		return &k->cinfo[v];
	memset(&c, 0, sizeof c);
	c.src_dev = c.dst_dev = NONE32;
	if (!memset_ && strncasecmp(s, "Memcpy ", 7) == 0) {
		p = s + 7;
		for (q = p; *q != '\0' && *q != ' '; q++)
			;
		c.kind = kineto_gpu_copy_kind(p, (size_t)(q - p));
	}
	if ((p = strchr(s, '(')) != NULL && (q = strchr(p, ')')) != NULL) {
		p++;
		if ((ar = strstr(p, " -> ")) != NULL && ar < q) {
			c.src_kind = kineto_gpu_mem_kind(p, (size_t)(ar - p));
			c.dst_kind = kineto_gpu_mem_kind(ar + 4,
			    (size_t)(q - ar - 4));
		} else
			c.dst_kind = kineto_gpu_mem_kind(p, (size_t)(q - p));
	}
	if (memset_)
		c.src_kind = c.dst_kind;
	XGROW(k->cinfo, k->cinfocap, k->ncinfo + 1);
	k->cinfo[k->ncinfo] = c;
	hmap_put(&k->copy_of, sid, (uint32_t)k->ncinfo);
	return &k->cinfo[k->ncinfo++];
}

/*
 * Bytes per element of the dtypes PyTorch writes in a collective's args
 * (c10::toString of the ScalarType, c10/core/ScalarType.h, with its
 * elementSize()), then the torch spellings ("float32", ...) that other
 * tools write, then the C++ types' names record_shapes writes in an
 * operator's "Input type" (caffe2::TypeMeta: "float", "long int",
 * "c10::BFloat16", "signed char"). Compared ignoring case and a "c10::"
 * prefix, so "float", "bfloat16" and "c10::Half" match too. Sub-byte types
 * (Int1..Int7, UInt1..UInt7) and anything else are unknown (0).
 */
static const struct {
	const char	*name;
	uint8_t		 size;
} kineto_gpu_dtypes[] = {
	{ "Byte", 1 }, { "Char", 1 }, { "Short", 2 }, { "Int", 4 },
	{ "Long", 8 }, { "Half", 2 }, { "Float", 4 }, { "Double", 8 },
	{ "ComplexHalf", 4 }, { "ComplexFloat", 8 }, { "ComplexDouble", 16 },
	{ "Bool", 1 }, { "QInt8", 1 }, { "QUInt8", 1 }, { "QInt32", 4 },
	{ "BFloat16", 2 }, { "QUInt4x2", 1 }, { "QUInt2x4", 1 },
	{ "Bits1x8", 1 }, { "Bits2x4", 1 }, { "Bits4x2", 1 }, { "Bits8", 1 },
	{ "Bits16", 2 }, { "Float8_e5m2", 1 }, { "Float8_e4m3fn", 1 },
	{ "Float8_e5m2fnuz", 1 }, { "Float8_e4m3fnuz", 1 }, { "UInt16", 2 },
	{ "UInt32", 4 }, { "UInt64", 8 }, { "Float8_e8m0fnu", 1 },
	{ "Float4_e2m1fn_x2", 1 },
	{ "float32", 4 }, { "float64", 8 }, { "float16", 2 }, { "int8", 1 },
	{ "uint8", 1 }, { "int16", 2 }, { "int32", 4 }, { "int64", 8 },
	{ "complex64", 8 }, { "complex128", 16 },
	{ "long int", 8 }, { "long long", 8 }, { "long long int", 8 },
	{ "unsigned long", 8 }, { "unsigned long int", 8 },
	{ "short int", 2 }, { "unsigned short", 2 }, { "unsigned int", 4 },
	{ "signed char", 1 }, { "unsigned char", 1 },
	{ "complex<float>", 8 }, { "complex<double>", 16 },
	{ "complex<c10::Half>", 4 },
};

uint8_t
kineto_dtype_size(const char *s, size_t n)
{
	size_t	i;

	if (n > 5 && strncmp(s, "c10::", 5) == 0) {
		s += 5;
		n -= 5;
	}
	for (i = 0; i < sizeof kineto_gpu_dtypes / sizeof kineto_gpu_dtypes[0];
	    i++)
		if (strlen(kineto_gpu_dtypes[i].name) == n &&
		    strncasecmp(s, kineto_gpu_dtypes[i].name, n) == 0)
			return kineto_gpu_dtypes[i].size;
	return 0;
}

/*
 * The string id of an args value: a string's text (its escapes decoded,
 * once: each event's args are read once), a number's literal, or 0.
 */
static uint32_t
kineto_gpu_arg_str(struct kineto *k, const struct jsonscan_val *val)
{
	struct jsonscan_val	v;

	if (val == NULL)
		return 0;
	v = *val;
	if (v.type == JSONSCAN_STRING) {
		if (jsonscan_str(&v) != 0)
			return 0;
	} else if (v.type != JSONSCAN_NUMBER)
		return 0;
	return kineto_intern(k, v.p, v.len);
}

/* A collective's args into ki's comm_* fields (kineto.c's top comment). */
static void
kineto_gpu_comm(struct kineto *k, const struct kargs *a,
    struct kernel_info *ki)
{
	uint32_t	dtype;

	ki->comm_coll = kineto_gpu_arg_str(k, a->coll_name);
	ki->comm_pg_name = kineto_gpu_arg_str(k, a->pg_name != NULL ?
	    a->pg_name : a->pg_id);
	ki->comm_pg_desc = kineto_gpu_arg_str(k, a->pg_desc);
	ki->comm_pg_ranks = kineto_gpu_arg_str(k, a->pg_ranks);
	if ((dtype = kineto_gpu_arg_str(k, a->dtype)) != 0) {
		ki->comm_dtype = dtype;
		ki->comm_elem_size = kineto_dtype_size(strpool_get(
		    k->m->strs, dtype), strpool_len(k->m->strs, dtype));
	}
	if (a->has_group && a->group_size > 0)
		ki->comm_group_size = a->group_size > UINT32_MAX ? UINT32_MAX :
		    (uint32_t)a->group_size;
	if (a->has_in && a->in_nelems >= 0) {
		ki->comm_in_nelems = (uint64_t)a->in_nelems;
		ki->comm_flags |= KCOMM_IN;
	}
	if (a->has_out && a->out_nelems >= 0) {
		ki->comm_out_nelems = (uint64_t)a->out_nelems;
		ki->comm_flags |= KCOMM_OUT;
	}
}

/* GPU work: kernels, copies, memsets, syncs, profiler ranges. */
int
kineto_gpu_event(struct kineto *k, struct kev *e)
{
	struct lane_event	 ev;
	struct kernel_info	 ki;
	struct copy_info	 c;
	struct kargs		 a;
	struct kstr		*cs;
	int64_t			 device, stream, i, end;
	uint32_t		 s, t;

	if (kineto_end_time(k, e, &end) != 0)
		return -1;
	kineto_args(e, &a);
	if (a.has_device)
		device = a.device;
	else if (e->pid != NULL && jsonscan_i64(e->pid, &device) == 0)
		;
	else
		return kineto_fail(k, e, "a GPU event without an integer "
		    "'pid' or args 'device'");
	if (a.has_stream)
		stream = a.stream;
	else if (e->tid != NULL && jsonscan_i64(e->tid, &stream) == 0)
		;
	else if (e->tid != NULL && e->tid->type == JSONSCAN_STRING) {
		/* "stream 7" (2021 traces) */
		stream = 0;
		for (i = 0; i < (int64_t)e->tid->len && stream < INT32_MAX;
		    i++)
			if (e->tid->p[i] >= '0' && e->tid->p[i] <= '9')
				stream = stream * 10 + (e->tid->p[i] - '0');
	} else
		stream = 0;
	if ((uint64_t)stream == K_STREAM_ALL)
		stream = -1;
	s = kineto_stream(k, device, stream);
	cs = &k->str[s];

	memset(&ev, 0, sizeof ev);
	ev.start = e->ts;
	ev.end = end;
	if (e->dur < 0)
		ev.flags |= EVF_ENDCLAMP;
	ev.name = kineto_name(k, e);
	ev.rowid = (int64_t)e->index;
	ev.corr = a.has_corr ? (uint32_t)a.corr : 0;
	ev.aux = NONE32;

	switch (e->cat) {
	case KC_KERNEL:
	case KC_PROFRANGE:
		if (cs->gpu == NONE32)
			cs->gpu = builder_gpu_track(k->b, s);
		t = cs->gpu;
		ev.kind = EV_KERNEL;
		memset(&ki, 0, sizeof ki);
		for (i = 0; i < 3; i++) {
			ki.grid[i] = (uint32_t)a.grid[i];
			ki.block[i] = (uint32_t)a.block[i];
		}
		ki.regs = (uint16_t)a.regs;
		ki.static_smem = (uint32_t)a.smem;
		ki.short_name = ev.name != 0 ? kineto_gpu_short_name(k, ev.name) :
		    0;
		kineto_gpu_comm(k, &a, &ki);
		ev.aux = builder_kernel(k->b, &ki);
		if (a.coll || (kineto_sflags(k, ev.name) & SF_NCCL))
			ev.flags |= EVF_COMM;
		if (e->cat == KC_PROFRANGE)
			k->nprofrange++;
		break;
	case KC_MEMCPY:
	case KC_MEMSET:
		if (cs->gpu == NONE32)
			cs->gpu = builder_gpu_track(k->b, s);
		t = cs->gpu;
		ev.kind = e->cat == KC_MEMCPY ? EV_MEMCPY : EV_MEMSET;
		c = *kineto_gpu_copy_template(k, ev.name, e->cat == KC_MEMSET);
		if (e->cat == KC_MEMCPY && c.kind == COPY_UNKNOWN &&
		    a.kind != NULL && a.kind->type == JSONSCAN_STRING)
			c.kind = kineto_gpu_copy_kind(a.kind->p, a.kind->len);
		c.bytes = a.has_bytes && a.bytes > 0 ? (uint64_t)a.bytes : 0;
		if (a.has_from)
			c.src_dev = (uint32_t)a.from_dev;
		if (a.has_to)
			c.dst_dev = (uint32_t)a.to_dev;
		ev.aux = builder_copy(k->b, &c);
		break;
	default:	/* KC_SYNC */
		if (cs->sync == NONE32)
			cs->sync = builder_sync_track(k->b, s);
		t = cs->sync;
		ev.kind = EV_SYNC;
		break;
	}
	builder_event(k->b, t, &ev);
	return 0;
}

/* The pseudo-thread track of a stream's GPU annotations. */
uint32_t
kineto_gpu_ann_track(struct kineto *k, struct kev *e)
{
	struct kargs	 a;
	int64_t		 device = 0, stream = 0;
	uint32_t	 s, thr;
	char		 name[96];

	kineto_args(e, &a);
	if (a.has_device)
		device = a.device;
	else if (e->pid != NULL)
		(void)jsonscan_i64(e->pid, &device);
	if (a.has_stream)
		stream = a.stream;
	else if (e->tid != NULL)
		(void)jsonscan_i64(e->tid, &stream);
	if ((uint64_t)stream == K_STREAM_ALL)
		stream = -1;
	s = kineto_stream(k, device, stream);

	if (k->str[s].ann != NONE32)
		return k->str[s].ann;
	snprintf(name, sizeof name, "GPU %lld stream %lld", (long long)device,
	    (long long)stream);
	thr = builder_thread(k->b, K_PSEUDO_TID | ((uint64_t)(uint32_t)device
	    << 32) | (uint32_t)stream, (uint32_t)stream, NONE32, name);
	kineto_grow_thr(k, thr);
	XGROW(k->pseudo, k->pseudocap, k->npseudo + 1);
	k->pseudo[k->npseudo++] = thr;
	k->str[s].ann = builder_cpu_track(k->b, TRACK_OTHER, thr, 0);
	k->m->tracks[k->str[s].ann].name = builder_intern(k->b,
	    "gpu_user_annotation");
	return k->str[s].ann;
}
