/*
 * cache_test: the binary model cache (src/model/cache*.c).
 *
 * A model is built by hand through builder.h (several GPU and CPU tracks,
 * kernel, copy, NVTX and counter side tables, strings with odd bytes,
 * negative times, open ranges), saved next to a dummy trace in a temporary
 * directory, loaded back and compared field by field. Then every way a cache
 * must be refused is tried: changed trace, truncation, flipped bytes,
 * another format version, corrupt content behind valid checksums (a small
 * fuzz loop that must never crash under ASan), symlinks; plus the XDG
 * fallback for a read-only trace directory and two concurrent writers.
 *
 * Some tests know the file layout (header offsets, frame order) on purpose:
 * they forge files that pass the checksums to reach the deeper checks,
 * stored indices included. Every hit is also loaded as a summary (the head
 * only, for `gpulens info`) and compared with the full model.
 * XDG_CACHE_HOME points into the temporary directory, so nothing touches the
 * real home.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>
#include <zstd.h>

#include "model/builder.h"
#include "model/cache.h"
#include "model/cache-int.h"
#include "model/cachedir.h"
#include "model/correlate.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define HDR_SIZE	144		/* struct cache_hdr */
#define HDR_VERSION	8
#define HDR_CRC		20
#define HDR_NFRAMES	96
#define HDR_PAYCRC	100
#define HDR_RAWSIZE	88
#define HDR_PAYSIZE	80
#define HDR_HEADSIZE	112
#define HDR_HEADCRC	120

static char	 xdg[300];		/* $XDG_CACHE_HOME */

/* ------------------------------------------------------------------ */
/* Helpers. */

static uint64_t	 rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
rnd(void)
{
	return ts_xorshift(&rng);
}

static uint32_t
rndn(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* A fresh directory in ts_tmp() with a dummy trace; returns its path. */
static char *
make_trace(const char *name)
{
	static int	 seq;
	char		*dir, *trace;

	dir = xasprintf("%s/d%d", ts_tmp(), seq++);
	assert_int_equal(mkdir(dir, 0755), 0);
	trace = xasprintf("%s/%s", dir, name);
	ts_write(trace, "SQLite format 3\0 dummy trace", 28);
	free(dir);
	return trace;
}

/* Where the cache of trace goes: the cache directory. */
static char *
local_cache(const char *trace)
{
	char	*p = cachedir_entry(trace, 1, NULL);

	assert_non_null(p);
	return p;
}

/* Where prep --beside puts it. */
static char *
beside_cache(const char *trace)
{
	const char	*slash = strrchr(trace, '/');

	return xasprintf("%.*s/.%s.gpulens", (int)(slash - trace), trace,
	    slash + 1);
}

/* 1 if dir holds a temporary file of ours. */
static int
has_tmp(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	int		 found = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".tmp") != NULL)
			found = 1;
	closedir(d);
	return found;
}

static int
exists(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0;
}

/* Number of entries in dir other than . and .. */
static int
count_entries(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	int		 n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* Recomputes the payload checksum, head and header CRCs of a cache
 * image. */
static void
fix_crcs(uint8_t *buf, size_t n)
{
	uint32_t	crc;
	uint64_t	head;

	crc = cache_sum(buf + HDR_SIZE, n - HDR_SIZE, 0);
	memcpy(buf + HDR_PAYCRC, &crc, 4);
	memcpy(&head, buf + HDR_HEADSIZE, 8);
	if (head <= n - HDR_SIZE) {
		crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), buf + HDR_SIZE,
		    (uInt)head);
		memcpy(buf + HDR_HEADCRC, &crc, 4);
	}
	memset(buf + HDR_CRC, 0, 4);
	crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), buf, HDR_SIZE);
	memcpy(buf + HDR_CRC, &crc, 4);
}

/* ------------------------------------------------------------------ */
/* The test model. */

static char *
odd_string(char *buf, size_t *len)
{
	size_t	i;

	*len = 1 + rndn(40);
	for (i = 0; i < *len; i++)
		buf[i] = (char)(1 + rndn(255));	/* any byte but NUL */
	return buf;
}

/*
 * A model with nev random events over GPU, API, NVTX, OSRT, counter and
 * other tracks; big_lane puts that many more kernels on one stream.
 */
static struct model *
build_model(size_t nev, size_t big_lane)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 d;
	struct kernel_info	 k;
	struct copy_info	 c;
	struct nvtx_info	 nv;
	struct lane_event	 ev;
	uint32_t		 proc[2], thr[4], str[3], dom[2], names[64];
	uint32_t		 gpu[3], cpu[12], dev[2];
	char			 buf[64], *cause = NULL, *big;
	struct model		*m;
	size_t			 i, len, ncpu = 0;
	int			 t;

	b->m->source_version = builder_intern(b, "2026.2.1.210");
	b->m->schema_version = builder_intern(b, "3.25.0");
	b->m->utc_epoch_ns = 1700000000123456789LL;
	for (i = 0; i < 64; i++) {
		odd_string(buf, &len);
		names[i] = builder_intern_n(b, buf, len);
	}
	names[0] = builder_intern(b, "void gemm<float>(\xc3\xa9\xff\x1b[31m)");
	big = xmalloc(100000);
	memset(big, 'x', 100000);
	names[1] = builder_intern_n(b, big, 100000);
	free(big);

	for (i = 0; i < 2; i++) {
		memset(&d, 0, sizeof d);
		d.source_id = (uint32_t)i;
		d.name = builder_intern(b, "NVIDIA H100 80GB HBM3");
		d.uuid = names[2 + i];
		d.process = NONE32;
		d.sm_count = 132;
		d.cc_major = 9;
		d.total_mem = 85899345920LL + (int64_t)i;
		d.mem_bw = 3352320000000LL;
		d.clock_hz = 1980000000;
		d.l2_bytes = 52428800;
		d.max_warps_per_sm = 64;
		d.threads_per_warp = 32;
		dev[i] = builder_device(b, &d);
	}
	proc[0] = builder_process(b, 0x0100000000001234ULL, 0x1234, "python");
	proc[1] = builder_process(b, 0x0203000000005678ULL, 0x5678, NULL);
	for (i = 0; i < 4; i++)
		thr[i] = builder_thread(b, 0x0100000000001234ULL + (i << 24) +
		    i, (uint32_t)(100 + i), proc[i / 2], i == 3 ? NULL :
		    "worker \x01\x7f");
	str[0] = builder_stream(b, dev[0], 7, proc[0]);
	str[1] = builder_stream(b, dev[0], 13, proc[0]);
	str[2] = builder_stream(b, dev[1], 7, proc[1]);
	b->m->streams[str[1]].name = names[5];
	b->m->streams[str[1]].priority = -2;
	dom[0] = builder_domain(b, proc[0], 0, NULL);
	dom[1] = builder_domain(b, proc[0], 42, "my domain");
	for (i = 0; i < 3; i++)
		gpu[i] = builder_gpu_track(b, str[i]);
	for (i = 0; i < 4; i++) {
		cpu[ncpu++] = builder_cpu_track(b, TRACK_API, thr[i], 0);
		cpu[ncpu++] = builder_cpu_track(b, TRACK_NVTX, thr[i],
		    dom[i % 2]);
	}
	cpu[ncpu++] = builder_cpu_track(b, TRACK_OSRT, thr[0], 0);
	cpu[ncpu++] = builder_cpu_track(b, TRACK_COUNTER, thr[1], 0);
	cpu[ncpu++] = builder_cpu_track(b, TRACK_OTHER, thr[2], 0);
	builder_meta(b, "EXPORT_PRODUCT_VERSION", "2026.2.1.210");
	builder_meta(b, "odd \xff key", "value\twith\ttabs");

	for (i = 0; i < nev + big_lane; i++) {
		memset(&ev, 0, sizeof ev);
		ev.start = (int64_t)rndn(2000000000) - 1000000000;
		ev.end = ev.start + (int64_t)rndn(1000000);
		ev.name = names[rndn(64)];
		ev.rowid = rndn(10) == 0 ? -1 : (int64_t)rnd() >> 20;
		if (i >= nev)
			ev.rowid = (int64_t)i;
		ev.corr = rndn(4) == 0 ? 0 : (uint32_t)rndn(50000);
		ev.aux = NONE32;
		if (rndn(50) == 0)
			ev.end = ev.start - 5;	/* clamped by finalize */
		if (i >= nev || rndn(2) == 0) {
			t = i >= nev ? 0 : (int)rndn(3);
			if (i >= nev)
				ev.start = (int64_t)(i - nev) * 1000 - 50000;
			if (t == 1)	/* one stream of 32-bit row ids */
				ev.rowid = ev.rowid == -1 ? -1 : (int64_t)i;
			if (i >= nev || rndn(3) != 0) {
				memset(&k, 0, sizeof k);
				k.grid[0] = rndn(1000) + 1;
				k.grid[1] = k.grid[2] = 1;
				k.block[0] = 256;
				k.block[1] = rndn(4) + 1;
				k.block[2] = 1;
				k.short_name = ev.name;
				k.mangled = names[rndn(64)];
				k.static_smem = rndn(49152);
				k.dynamic_smem = rndn(1000);
				k.local_mem = rndn(64);
				k.regs = (uint16_t)rndn(255);
				k.launch_type = (uint8_t)rndn(3);
				k.graph_node = rndn(5) == 0 ?
				    (uint32_t)rnd() : 0;
				if (rndn(8) == 0) {	/* a message */
					k.comm_coll = names[rndn(64)];
					k.comm_dtype = names[rndn(64)];
					k.comm_pg_name = names[rndn(64)];
					k.comm_pg_desc = names[rndn(64)];
					k.comm_pg_ranks = names[rndn(64)];
					k.comm_group_size = rndn(64);
					k.comm_elem_size = (uint8_t)rndn(17);
					k.comm_flags = (uint8_t)rndn(4);
					k.comm_in_nelems = rnd();
					k.comm_out_nelems = rnd();
				}
				ev.kind = EV_KERNEL;
				ev.aux = builder_kernel(b, &k);
				if (rndn(20) == 0)
					ev.flags = EVF_COMM;
			} else {
				memset(&c, 0, sizeof c);
				c.bytes = rnd() >> 20;
				c.kind = (uint8_t)rndn(COPY_KIND_COUNT);
				c.src_kind = (uint8_t)rndn(MEM_KIND_COUNT);
				c.dst_kind = (uint8_t)rndn(MEM_KIND_COUNT);
				c.src_dev = rndn(2) ? NONE32 : 0;
				c.dst_dev = 1;
				c.value = rndn(256);
				ev.kind = rndn(4) ? EV_MEMCPY : EV_MEMSET;
				ev.aux = builder_copy(b, &c);
			}
			builder_event(b, gpu[t], &ev);
			continue;
		}
		t = (int)rndn((uint32_t)ncpu);
		switch (b->m->tracks[cpu[t]].type) {
		case TRACK_API:
			ev.rowid = ev.rowid == -1 ? -1 : (int64_t)i;
			ev.kind = EV_API;
			ev.flags = rndn(2) ? EVF_DRIVER : 0;
			break;
		case TRACK_NVTX:
			memset(&nv, 0, sizeof nv);
			nv.domain = b->m->tracks[cpu[t]].domain;
			nv.category = rndn(3);
			nv.category_name = nv.category ? names[rndn(64)] : 0;
			nv.color = (uint32_t)rnd();
			nv.payload_type = (uint8_t)rndn(4);
			if (nv.payload_type == NVTX_PAYLOAD_DOUBLE)
				nv.payload.d = -1.5 * (double)rndn(1000);
			else
				nv.payload.u = rnd();
			ev.kind = rndn(10) ? EV_NVTX : EV_MARK;
			if (ev.kind == EV_MARK)
				ev.end = ev.start;
			if (rndn(10) == 0) {
				ev.flags = EVF_OPEN;
				ev.end = ev.start;
			}
			ev.aux = builder_nvtx(b, &nv);
			break;
		case TRACK_COUNTER:
			ev.kind = EV_COUNTER;
			ev.end = ev.start;
			ev.aux = builder_counter(b, rndn(7) == 0 ? -0.0 :
			    (double)rnd() / 3.0);
			break;
		case TRACK_OSRT:
			ev.kind = EV_OSRT;
			break;
		default:
			ev.kind = EV_OVERHEAD;
			break;
		}
		builder_event(b, cpu[t], &ev);
	}
	builder_warn(b, "a warning with odd bytes: \xff\x01");
	builder_warn(b, "%zu events", nev);

	m = builder_finish(b, &cause);
	if (m == NULL)
		fail_msg("builder_finish: %s", cause);
	return m;
}

/* ------------------------------------------------------------------ */
/* Comparison: 0 if equal, else the line of the first difference. */

#define D(cond)	do { if (!(cond)) return __LINE__; } while (0)
#define F(a, b, f) D((a).f == (b).f)

static int
cov_diff(const struct iset *a, const struct iset *b)
{
	D(a->n == b->n);
	D(a->view == b->view);
	D(a->shift == b->shift);
	D(iset_npre(a) == iset_npre(b));
	D(memcmp(a->pre, b->pre, iset_npre(a) * sizeof *a->pre) == 0);
	if (!a->view && a->n > 0) {
		D(memcmp(a->start, b->start, a->n * sizeof *a->start) == 0);
		D(memcmp(a->end, b->end, a->n * sizeof *a->end) == 0);
	}
	return 0;
}

static int
lane_diff(const struct lane *a, const struct lane *b)
{
	size_t	n = a->n;
	int	r;

	D(a->n == b->n);
	if (n == 0)
		return 0;
	D(memcmp(a->start, b->start, n * sizeof *a->start) == 0);
	D(memcmp(a->end, b->end, n * sizeof *a->end) == 0);
	D(memcmp(a->name, b->name, n * sizeof *a->name) == 0);
	D(memcmp(a->kind, b->kind, n * sizeof *a->kind) == 0);
	D(memcmp(a->flags, b->flags, n * sizeof *a->flags) == 0);
	D((a->rowid64 == NULL) == (b->rowid64 == NULL));
	if (a->rowid64 != NULL)
		D(memcmp(a->rowid64, b->rowid64, n * sizeof *a->rowid64) == 0);
	else
		D(memcmp(a->rowid32, b->rowid32, n * sizeof *a->rowid32) == 0);
	D(memcmp(a->corr, b->corr, n * sizeof *a->corr) == 0);
	D(memcmp(a->aux, b->aux, n * sizeof *a->aux) == 0);
	/* The index: built on one side, restored on the other. */
	D(a->max_depth == b->max_depth);
	D(a->overlaps == b->overlaps);
	D(a->maxdur == b->maxdur);
	D(a->tree_levels == b->tree_levels);
	D((a->depth == NULL) == (b->depth == NULL));
	if (a->depth != NULL)
		D(memcmp(a->depth, b->depth, n * sizeof *a->depth) == 0);
	D((a->maxend == NULL) == (b->maxend == NULL));
	if (a->maxend != NULL)
		D(memcmp(a->maxend, b->maxend, n * sizeof *a->maxend) == 0);
	D((a->ends_sorted == NULL) == (b->ends_sorted == NULL));
	if (a->ends_sorted != NULL)
		D(memcmp(a->ends_sorted, b->ends_sorted,
		    n * sizeof *a->ends_sorted) == 0);
	if ((r = cov_diff(&a->cov, &b->cov)) != 0)
		return r;
	D(!a->cov.view || (a->cov.start == a->start &&
	    b->cov.start == b->start && b->cov.end == b->end));
	D(a->npyr == b->npyr);
	D(a->pyr_levels == b->pyr_levels);
	if (a->npyr > 0)
		D(memcmp(a->pyr, b->pyr, a->npyr * sizeof *a->pyr) == 0);
	if (a->pyr_levels > 0)
		D(memcmp(a->pyr_off, b->pyr_off, (a->pyr_levels + 1) *
		    sizeof *a->pyr_off) == 0);
	return 0;
}

static int
model_diff(const struct model *a, const struct model *b)
{
	uint32_t	i, n;
	size_t		j;
	int		r;

	n = strpool_count(a->strs);
	D(n == strpool_count(b->strs));
	for (i = 0; i < n; i++) {
		D(strpool_len(a->strs, i) == strpool_len(b->strs, i));
		D(memcmp(strpool_get(a->strs, i), strpool_get(b->strs, i),
		    strpool_len(a->strs, i)) == 0);
	}
	D(a->source == b->source);
	D(a->source_version == b->source_version);
	D(a->schema_version == b->schema_version);
	D(a->origin_ns == b->origin_ns);
	D(a->end_ns == b->end_ns);
	D(a->utc_epoch_ns == b->utc_epoch_ns);
	D(a->nevents == b->nevents);

	D(a->ndevices == b->ndevices);
	for (j = 0; j < a->ndevices; j++) {
		const struct device *x = &a->devices[j], *y = &b->devices[j];
		F(*x, *y, source_id); F(*x, *y, name); F(*x, *y, uuid);
		F(*x, *y, bus); F(*x, *y, chip); F(*x, *y, vendor);
		F(*x, *y, process); F(*x, *y, sm_count); F(*x, *y, cc_major);
		F(*x, *y, cc_minor); F(*x, *y, total_mem); F(*x, *y, mem_bw);
		F(*x, *y, clock_hz); F(*x, *y, l2_bytes);
		F(*x, *y, max_threads_per_block); F(*x, *y, regs_per_sm);
		F(*x, *y, smem_per_sm); F(*x, *y, max_warps_per_sm);
		F(*x, *y, threads_per_warp);
	}
	D(a->nprocesses == b->nprocesses);
	for (j = 0; j < a->nprocesses; j++) {
		const struct process *x = &a->processes[j];
		const struct process *y = &b->processes[j];
		F(*x, *y, source_id); F(*x, *y, pid); F(*x, *y, name);
		F(*x, *y, host); F(*x, *y, hw_id); F(*x, *y, vm_id);
		F(*x, *y, rank);
	}
	D(a->nthreads == b->nthreads);
	for (j = 0; j < a->nthreads; j++) {
		const struct thread *x = &a->threads[j], *y = &b->threads[j];
		F(*x, *y, source_id); F(*x, *y, tid); F(*x, *y, process);
		F(*x, *y, name);
	}
	D(a->nstreams == b->nstreams);
	for (j = 0; j < a->nstreams; j++) {
		const struct stream *x = &a->streams[j], *y = &b->streams[j];
		F(*x, *y, source_id); F(*x, *y, device); F(*x, *y, process);
		F(*x, *y, context); F(*x, *y, name); F(*x, *y, priority);
	}
	D(a->ndomains == b->ndomains);
	for (j = 0; j < a->ndomains; j++) {
		const struct domain *x = &a->domains[j], *y = &b->domains[j];
		F(*x, *y, source_id); F(*x, *y, process); F(*x, *y, name);
	}
	D(a->ntracks == b->ntracks);
	for (j = 0; j < a->ntracks; j++) {
		const struct track *x = &a->tracks[j], *y = &b->tracks[j];
		F(*x, *y, type); F(*x, *y, device); F(*x, *y, stream);
		F(*x, *y, process); F(*x, *y, thread); F(*x, *y, domain);
		F(*x, *y, name);
		if ((r = lane_diff(&x->lane, &y->lane)) != 0)
			return r;
		D(a->track_off[j] == b->track_off[j]);
	}
	D(a->nkernels == b->nkernels);
	for (j = 0; j < a->nkernels; j++) {
		const struct kernel_info *x = &a->kernels[j];
		const struct kernel_info *y = &b->kernels[j];
		D(memcmp(x->grid, y->grid, sizeof x->grid) == 0);
		D(memcmp(x->block, y->block, sizeof x->block) == 0);
		F(*x, *y, short_name); F(*x, *y, mangled);
		F(*x, *y, static_smem); F(*x, *y, dynamic_smem);
		F(*x, *y, local_mem); F(*x, *y, regs); F(*x, *y, launch_type);
		F(*x, *y, graph_node);
		F(*x, *y, comm_coll);
		F(*x, *y, comm_dtype);
		F(*x, *y, comm_pg_name);
		F(*x, *y, comm_pg_desc);
		F(*x, *y, comm_pg_ranks);
		F(*x, *y, comm_group_size);
		F(*x, *y, comm_elem_size);
		F(*x, *y, comm_flags);
		F(*x, *y, comm_in_nelems);
		F(*x, *y, comm_out_nelems);
	}
	D(a->ncopies == b->ncopies);
	for (j = 0; j < a->ncopies; j++) {
		const struct copy_info *x = &a->copies[j], *y = &b->copies[j];
		F(*x, *y, bytes); F(*x, *y, kind); F(*x, *y, src_kind);
		F(*x, *y, dst_kind); F(*x, *y, src_dev); F(*x, *y, dst_dev);
		F(*x, *y, value);
	}
	D(a->nnvtx == b->nnvtx);
	for (j = 0; j < a->nnvtx; j++) {
		const struct nvtx_info *x = &a->nvtx[j], *y = &b->nvtx[j];
		F(*x, *y, domain); F(*x, *y, category);
		F(*x, *y, category_name); F(*x, *y, color);
		F(*x, *y, payload_type); F(*x, *y, payload.u);
		F(*x, *y, parent); F(*x, *y, iter); F(*x, *y, nchildren);
	}
	D(a->ncounters == b->ncounters);
	if (a->ncounters > 0)
		D(memcmp(a->counters, b->counters, a->ncounters *
		    sizeof *a->counters) == 0);	/* bit-exact: -0.0 */
	D(a->nmeta == b->nmeta);
	for (j = 0; j < a->nmeta; j++) {
		F(a->meta[j], b->meta[j], key);
		F(a->meta[j], b->meta[j], value);
	}
	D(a->nwarnings == b->nwarnings);
	for (j = 0; j < a->nwarnings; j++)
		D(strcmp(a->warnings[j], b->warnings[j]) == 0);
	D(memcmp(a->kind_count, b->kind_count, sizeof a->kind_count) == 0);
	D(a->track_off[a->ntracks] == b->track_off[b->ntracks]);
	D(!a->summary && !b->summary);
	D((a->launch == NULL) == (b->launch == NULL));
	D(a->nlaunch == b->nlaunch);
	D(a->ngpu_of_api == b->ngpu_of_api);
	if (a->launch != NULL) {
		D(memcmp(a->launch, b->launch, a->nlaunch *
		    sizeof *a->launch) == 0);
		D(memcmp(a->gpu_of_api, b->gpu_of_api, a->ngpu_of_api *
		    sizeof *a->gpu_of_api) == 0);
		D(memcmp(a->gpu_of_api_idx, b->gpu_of_api_idx,
		    (a->ngpu_of_api + CORR_IDX_STEP - 1) / CORR_IDX_STEP *
		    sizeof *a->gpu_of_api_idx) == 0);
	}
	D((a->device_cov == NULL) == (b->device_cov == NULL));
	for (j = 0; a->device_cov != NULL && j < a->ndevices; j++)
		if ((r = cov_diff(&a->device_cov[j], &b->device_cov[j])) != 0)
			return r;
	return 0;
}

/*
 * A summary (cache_load_summary) against the full model: everything
 * `gpulens info` shows is equal, the lanes are empty.
 */
static int
summary_diff(const struct model *a, const struct model *s)
{
	uint32_t	i, n;
	size_t		j;

	D(s->summary == 1);
	n = strpool_count(a->strs);
	D(n == strpool_count(s->strs));
	for (i = 0; i < n; i++)
		D(strcmp(strpool_get(a->strs, i), strpool_get(s->strs, i)) == 0);
	D(a->source == s->source);
	D(a->source_version == s->source_version);
	D(a->schema_version == s->schema_version);
	D(a->origin_ns == s->origin_ns);
	D(a->end_ns == s->end_ns);
	D(a->utc_epoch_ns == s->utc_epoch_ns);
	D(a->nevents == s->nevents);
	D(memcmp(a->kind_count, s->kind_count, sizeof a->kind_count) == 0);
	D(a->ndevices == s->ndevices);
	D(a->ndevices == 0 || memcmp(a->devices, s->devices,
	    a->ndevices * sizeof *a->devices) == 0);
	D(a->nprocesses == s->nprocesses);
	D(a->nprocesses == 0 || memcmp(a->processes, s->processes,
	    a->nprocesses * sizeof *a->processes) == 0);
	D(a->nthreads == s->nthreads);
	D(a->nthreads == 0 || memcmp(a->threads, s->threads,
	    a->nthreads * sizeof *a->threads) == 0);
	D(a->nstreams == s->nstreams);
	D(a->nstreams == 0 || memcmp(a->streams, s->streams,
	    a->nstreams * sizeof *a->streams) == 0);
	D(a->ndomains == s->ndomains);
	D(memcmp(a->domains, s->domains, a->ndomains * sizeof *a->domains) ==
	    0);
	D(a->ntracks == s->ntracks);
	for (j = 0; j < a->ntracks; j++) {
		D(a->tracks[j].type == s->tracks[j].type);
		D(a->tracks[j].name == s->tracks[j].name);
		D(a->tracks[j].thread == s->tracks[j].thread);
		D(s->tracks[j].lane.n == 0);
	}
	D(memcmp(a->track_off, s->track_off, (a->ntracks + 1) *
	    sizeof *a->track_off) == 0);
	D(a->nmeta == s->nmeta);
	for (j = 0; j < a->nmeta; j++) {
		D(a->meta[j].key == s->meta[j].key);
		D(a->meta[j].value == s->meta[j].value);
	}
	D(a->nwarnings == s->nwarnings);
	for (j = 0; j < a->nwarnings; j++)
		D(strcmp(a->warnings[j], s->warnings[j]) == 0);
	D(s->launch == NULL && s->device_cov == NULL);
	return 0;
}

#undef D
#undef F

/* Loads trace expecting a hit equal to m. */
static void
assert_hit(const char *trace, const struct model *m)
{
	struct model	*l = NULL;
	char		*cause = NULL;
	int		 rc;

	rc = cache_load(trace, &l, &cause);
	if (rc != 1)
		fail_msg("expected a hit, got %d: %s", rc, cause ? cause : "");
	assert_non_null(l);
	assert_int_equal(model_diff(m, l), 0);
	model_free(l);
	l = NULL;
	rc = cache_load_summary(trace, &l, &cause);
	if (rc != 1)
		fail_msg("expected a summary, got %d: %s", rc,
		    cause ? cause : "");
	assert_int_equal(summary_diff(m, l), 0);
	/* A summary is never saved. */
	assert_int_equal(cache_save(trace, l, &cause), -1);
	free(cause);
	model_free(l);
}

/*
 * Loads trace with load (the full model or its summary) expecting a miss
 * whose cause contains what (if not NULL).
 */
static void
assert_miss_of(int (*load)(const char *, struct model **, char **),
    const char *trace, const char *what)
{
	struct model	*l = (struct model *)&l;
	char		*cause = NULL;

	assert_int_equal(load(trace, &l, &cause), 0);
	assert_null(l);
	assert_non_null(cause);
	if (what != NULL && strstr(cause, what) == NULL)
		fail_msg("cause \"%s\" lacks \"%s\"", cause, what);
	free(cause);
}

static void
assert_miss(const char *trace, const char *what)
{
	assert_miss_of(cache_load, trace, what);
}

static void
assert_summary_miss(const char *trace, const char *what)
{
	assert_miss_of(cache_load_summary, trace, what);
}

/* A trace whose cache holds m, and the cache file's bytes. */
struct saved {
	char			*trace;
	char			*path;	/* the cache file */
	uint8_t			*img;
	size_t			 n;
	const struct model	*m;
};

static void
saved_open(struct saved *s, const char *name, const struct model *m)
{
	char	*cause = NULL;

	s->trace = make_trace(name);
	s->m = m;
	assert_int_equal(cache_save(s->trace, m, &cause), 0);
	s->path = local_cache(s->trace);
	s->img = ts_read(s->path, &s->n);
}

static void
saved_free(struct saved *s)
{
	free(s->img);
	free(s->path);
	free(s->trace);
}

/* Puts the saved bytes back (m loads again), then removes the cache. */
static void
saved_close(struct saved *s)
{
	ts_write(s->path, s->img, s->n);
	assert_hit(s->trace, s->m);
	cache_remove(s->trace);
	saved_free(s);
}

static struct model	*model_small;	/* shared by most tests */

/* ------------------------------------------------------------------ */
/* Tests. */

static void
test_roundtrip(void **state)
{
	char		*trace = make_trace("trace.sqlite"), *path, *dir;
	char		*cause = NULL;
	struct stat	 st;

	(void)state;
	assert_true(model_small->nevents > 3000);
	assert_miss(trace, "no cache");
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	path = local_cache(trace);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_true(st.st_size > HDR_SIZE);
	assert_hit(trace, model_small);
	/* Saving again replaces it and leaves no temporary file. */
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	assert_hit(trace, model_small);
	dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));
	assert_false(has_tmp(dir));
	free(dir);
	/* Nothing was written beside the trace. */
	dir = xstrndup(trace, (size_t)(strrchr(trace, '/') - trace));
	assert_int_equal(count_entries(dir), 1);
	assert_int_equal(cache_remove(trace), 1);
	assert_false(exists(path));
	assert_miss(trace, "no cache");
	free(dir);
	free(path);
	free(trace);
}

static void
test_empty_model(void **state)
{
	struct builder	*b = builder_new(SOURCE_KINETO);
	struct model	*m;
	char		*trace = make_trace("empty.json"), *cause = NULL;

	(void)state;
	m = builder_finish(b, &cause);
	assert_non_null(m);
	assert_int_equal(m->nevents, 0);
	assert_int_equal(cache_save(trace, m, &cause), 0);
	assert_hit(trace, m);
	model_free(m);
	cache_remove(trace);
	free(trace);
}

/* A lane longer than one chunk, and enough data for the threaded path. */
static void
test_big_lane(void **state)
{
	struct model	*m = build_model(2000, 300000);
	char		*trace = make_trace("big.sqlite"), *cause = NULL;

	(void)state;
	assert_true(m->tracks[0].lane.n > 300000);
	assert_int_equal(cache_save(trace, m, &cause), 0);
	assert_hit(trace, m);
	/* Loaded again with its pages given back as they are checked (what
	 * a cache of more than CACHE_DROPMIN bytes does): the same model. */
	cache_set_dropmin(0);
	assert_hit(trace, m);
	cache_set_dropmin(CACHE_DROPMIN);
	model_free(m);
	cache_remove(trace);
	free(trace);
}

static void
test_stale(void **state)
{
	char		*trace = make_trace("stale.sqlite"), *cause = NULL;
	char		*copy;
	struct stat	 st;
	struct timespec	 ts[2];
	int		 fd;

	(void)state;
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	assert_int_equal(stat(trace, &st), 0);

	/* mtime one nanosecond later: stale. Set back, the file's ctime
	 * still says it was touched: stale too (a capture copied over with
	 * cp -p or rsync -a keeps an old mtime). */
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	ts[1].tv_nsec = (ts[1].tv_nsec + 1) % 1000000000;
	assert_int_equal(utimensat(AT_FDCWD, trace, ts, 0), 0);
	assert_miss(trace, "stale");
	ts[1] = st.st_mtim;
	assert_int_equal(utimensat(AT_FDCWD, trace, ts, 0), 0);
	assert_miss(trace, "stale");
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	assert_hit(trace, model_small);

	/* One more byte, same mtime: stale. */
	fd = open(trace, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	assert_int_equal(utimensat(AT_FDCWD, trace, ts, 0), 0);
	assert_miss(trace, "stale");
	assert_int_equal(truncate(trace, st.st_size), 0);
	assert_int_equal(utimensat(AT_FDCWD, trace, ts, 0), 0);
	assert_miss(trace, "stale");
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	assert_hit(trace, model_small);

	/* Same size and mtime, another inode (the trace was replaced). */
	copy = xasprintf("%s.new", trace);
	ts_write(copy, "SQLite format 3\0 dummy trace", 28);
	assert_int_equal(utimensat(AT_FDCWD, copy, ts, 0), 0);
	assert_int_equal(rename(copy, trace), 0);
	assert_miss(trace, "stale");

	cache_remove(trace);
	free(copy);
	free(trace);
}

static void
test_truncated(void **state)
{
	struct saved	 s;
	size_t		 cut[9], i;

	(void)state;
	saved_open(&s, "trunc.sqlite", model_small);
	cut[0] = 0;
	cut[1] = 1;
	cut[2] = 64;
	cut[3] = HDR_SIZE - 1;
	cut[4] = HDR_SIZE;
	cut[5] = HDR_SIZE + 17;
	cut[6] = s.n / 2;
	cut[7] = s.n - 100;
	cut[8] = s.n - 1;
	for (i = 0; i < 9; i++) {
		ts_write(s.path, s.img, cut[i]);
		assert_miss(s.trace, cut[i] < HDR_SIZE ? NULL : "truncated");
	}
	/* Trailing garbage is refused too. */
	ts_write(s.path, s.img, s.n);
	assert_hit(s.trace, model_small);
	{
		uint8_t *more = xmalloc(s.n + 3);
		memcpy(more, s.img, s.n);
		memcpy(more + s.n, "abc", 3);
		ts_write(s.path, more, s.n + 3);
		free(more);
	}
	assert_miss(s.trace, "garbage");
	saved_close(&s);
}

static void
test_flipped(void **state)
{
	struct saved	 s;
	size_t		 pos[8], i;

	(void)state;
	saved_open(&s, "flip.sqlite", model_small);
	pos[0] = 3;			/* magic */
	pos[1] = 30;			/* struct sizes */
	pos[2] = 60;			/* trace mtime */
	pos[3] = HDR_SIZE + 3;		/* frame table */
	pos[4] = HDR_SIZE + 200;
	pos[5] = s.n / 2;
	pos[6] = s.n - 5;
	pos[7] = s.n - 1;
	for (i = 0; i < 8; i++) {
		s.img[pos[i]] ^= 0x10;
		ts_write(s.path, s.img, s.n);
		assert_miss(s.trace, i == 0 ? "not a gpulens cache" :
		    i < 3 ? "header checksum" : "checksum mismatch");
		s.img[pos[i]] ^= 0x10;
	}
	saved_close(&s);
}

static void
test_version(void **state)
{
	struct saved	 s;
	uint32_t	 v;

	(void)state;
	saved_open(&s, "ver.sqlite", model_small);
	memcpy(&v, s.img + HDR_VERSION, 4);
	assert_true(v >= 1);
	/* Both checksums valid: only the version differs. */
	v++;
	memcpy(s.img + HDR_VERSION, &v, 4);
	fix_crcs(s.img, s.n);
	ts_write(s.path, s.img, s.n);
	assert_miss(s.trace, "version");
	v--;
	memcpy(s.img + HDR_VERSION, &v, 4);
	fix_crcs(s.img, s.n);
	saved_close(&s);
}

/* Frame f of a cache image: offset, stored and raw length. */
static void
frame_at(const uint8_t *img, size_t f, size_t *off, uint64_t *clen,
    uint64_t *rlen)
{
	uint32_t	nf;
	uint64_t	o, r, c;
	size_t		i;

	memcpy(&nf, img + HDR_NFRAMES, 4);
	assert_true(f < nf);
	o = HDR_SIZE + (uint64_t)nf * 16;
	for (i = 0; i <= f; i++) {
		memcpy(&r, img + HDR_SIZE + 16 * i, 8);
		memcpy(&c, img + HDR_SIZE + 16 * i + 8, 8);
		if (i < f)
			o += c;
	}
	*off = (size_t)o;
	*clen = c;
	*rlen = r;
}

/* Whether frame f (at off) is in the head (compressed) rather than an
 * array stored as it is. */
static int
frame_in_head(const uint8_t *img, size_t off)
{
	uint64_t	head;

	memcpy(&head, img + HDR_HEADSIZE, 8);
	return off < HDR_SIZE + head;
}

/*
 * The image with head frame f (at off, clen bytes) replaced by the newc
 * bytes of comp, the arrays after the head moved to stay aligned (the
 * first one's padding adjusted), the table, sizes and checksums fixed.
 */
static uint8_t *
forge_head(const uint8_t *img, size_t n, size_t f, size_t off,
    uint64_t clen, const uint8_t *comp, size_t newc, size_t *outn)
{
	uint32_t	 nf;
	uint64_t	 head, c, r, v, pad, npad;
	size_t		 fb, e, a, ne, o;
	uint8_t		*out;

	memcpy(&nf, img + HDR_NFRAMES, 4);
	memcpy(&head, img + HDR_HEADSIZE, 8);
	e = HDR_SIZE + (size_t)head;		/* where the head ends */
	/* The first array after the head, if any. */
	for (fb = 0; fb < nf; fb++) {
		frame_at(img, fb, &o, &c, &r);
		if (!frame_in_head(img, o))
			break;
	}
	pad = fb < nf ? c - r : 0;
	a = e + (size_t)pad;			/* where the arrays start */
	ne = e - clen + newc;
	npad = fb < nf ? (64 - ne % 64) % 64 : 0;
	*outn = ne + (size_t)npad + (n - a);
	out = xcalloc(*outn, 1);
	memcpy(out, img, off);
	memcpy(out + off, comp, newc);
	memcpy(out + off + newc, img + off + clen, e - off - clen);
	memcpy(out + ne + npad, img + a, n - a);
	v = newc;
	memcpy(out + HDR_SIZE + 16 * f + 8, &v, 8);
	if (fb < nf) {
		v = npad + r;
		memcpy(out + HDR_SIZE + 16 * fb + 8, &v, 8);
	}
	v = *outn - HDR_SIZE;
	memcpy(out + HDR_PAYSIZE, &v, 8);
	head = head - clen + newc;
	memcpy(out + HDR_HEADSIZE, &head, 8);
	fix_crcs(out, *outn);
	return out;
}

/*
 * Replaces frame f's content by fn(content) (recompressed for a frame of
 * the head), fixing the table, sizes and checksums, so only the loader's
 * own checks can refuse it.
 */
static uint8_t *
forge_frame(const uint8_t *img, size_t n, size_t f,
    void (*fn)(uint8_t *, size_t), size_t *outn)
{
	uint8_t		*raw, *comp, *out;
	uint64_t	 clen, rlen;
	size_t		 off, newc, bound;

	frame_at(img, f, &off, &clen, &rlen);
	if (!frame_in_head(img, off)) {
		/* An array: in place, after its padding. */
		*outn = n;
		out = xmalloc(n);
		memcpy(out, img, n);
		fn(out + off + (clen - rlen), rlen);
		fix_crcs(out, n);
		return out;
	}
	raw = xmalloc(rlen + 1);
	assert_int_equal(ZSTD_decompress(raw, rlen, img + off, clen), rlen);
	fn(raw, rlen);
	bound = ZSTD_compressBound(rlen);
	comp = xmalloc(bound);
	newc = ZSTD_compress(comp, bound, raw, rlen, 1);
	assert_false(ZSTD_isError(newc));
	out = forge_head(img, n, f, off, clen, comp, newc, outn);
	free(raw);
	free(comp);
	return out;
}

static void
flip_random(uint8_t *p, size_t n)
{
	int	k;

	for (k = 0; k < 3 && n > 0; k++)
		p[rndn((uint32_t)n)] ^= (uint8_t)(1 + rndn(255));
}

static void
fill_7f(uint8_t *p, size_t n)
{
	memset(p, 0x7f, n);
}

static void
test_forged(void **state)
{
	struct saved	 s;
	char		*cause;
	uint8_t		*bad;
	uint32_t	 nf;
	uint64_t	 v;
	size_t		 bn, i, f, ntab, hits = 0;
	struct model	*l;
	int		 rc;

	(void)state;
	saved_open(&s, "forge.sqlite", model_small);
	memcpy(&nf, s.img + HDR_NFRAMES, 4);

	/* A frame's raw length changed in the table (checksums fixed). */
	bad = xmalloc(s.n);
	memcpy(bad, s.img, s.n);
	memcpy(&v, bad + HDR_SIZE + 16 * 3, 8);
	v += 8;
	memcpy(bad + HDR_SIZE + 16 * 3, &v, 8);
	memcpy(&v, bad + HDR_RAWSIZE, 8);
	v += 8;
	memcpy(bad + HDR_RAWSIZE, &v, 8);
	fix_crcs(bad, s.n);
	ts_write(s.path, bad, s.n);
	assert_miss(s.trace, NULL);
	/* A frame count beyond the file. */
	memcpy(bad, s.img, s.n);
	v = 0xffffffff;
	memcpy(bad + HDR_NFRAMES, &v, 4);
	fix_crcs(bad, s.n);
	ts_write(s.path, bad, s.n);
	assert_miss(s.trace, "frame count");
	/* Compressed bytes of the head changed: zstd's content checksum
	 * refuses. */
	{
		size_t		off0;
		uint64_t	c0, r0;

		frame_at(s.img, 0, &off0, &c0, &r0);
		memcpy(bad, s.img, s.n);
		bad[off0 + c0 - 2] ^= 0x55;
		fix_crcs(bad, s.n);
		ts_write(s.path, bad, s.n);
		assert_miss(s.trace, "frame");
	}
	/* An array moved off its alignment (its padding one byte
	 * shorter, the file one byte shorter at the end). */
	{
		size_t		offb = 0;
		uint64_t	cb = 0, rb = 0;

		for (f = 0; f < nf; f++) {
			frame_at(s.img, f, &offb, &cb, &rb);
			if (!frame_in_head(s.img, offb) && cb > rb)
				break;
		}
		assert_true(f < nf);
		{
			memcpy(bad, s.img, s.n);
			memmove(bad + offb, bad + offb + 1, s.n - offb - 1);
			v = cb - 1;
			memcpy(bad + HDR_SIZE + 16 * f + 8, &v, 8);
			v = s.n - 1 - HDR_SIZE;
			memcpy(bad + HDR_PAYSIZE, &v, 8);
			fix_crcs(bad, s.n - 1);
			ts_write(s.path, bad, s.n - 1);
			assert_miss(s.trace, "misplaced");
		}
	}
	free(bad);

	/* Garbage aux of the first lane chunk (a GPU track: kernels and
	 * copies): indices out of range are refused. Frames: small,
	 * strings (2), one per side table, then 8 per chunk. */
	ntab = (model_small->nkernels > 0) + (model_small->ncopies > 0) +
	    (model_small->nnvtx > 0) + (model_small->ncounters > 0);
	assert_int_equal(model_small->tracks[0].type, TRACK_GPU);
	bad = forge_frame(s.img, s.n, 3 + ntab + 7, fill_7f, &bn);
	ts_write(s.path, bad, bn);
	assert_miss(s.trace, "out of range");
	free(bad);

	/* Fuzz: random bytes of random decompressed frames, recompressed
	 * behind valid checksums. Never a crash; a hit must be a model. */
	for (i = 0; i < 120; i++) {
		f = i < 40 ? 0 : rndn(nf);	/* the small frame first */
		bad = forge_frame(s.img, s.n, f, flip_random, &bn);
		ts_write(s.path, bad, bn);
		l = NULL;
		cause = NULL;
		rc = cache_load(s.trace, &l, &cause);
		assert_true(rc == 0 || rc == 1);
		if (rc == 1) {
			hits++;
			assert_non_null(l);
			assert_int_equal(l->nevents, model_small->nevents);
			model_free(l);
		} else {
			assert_null(l);
			assert_non_null(cause);
		}
		free(cause);
		free(bad);
	}
	/* Behind valid checksums many changes are legitimate models (a
	 * string id, a timestamp); others are refused. Both must occur. */
	assert_true(hits > 0 && hits < 120);

	saved_close(&s);
}

/*
 * The checksum summed piece by piece (cache_sumacc_add, what the warm
 * load's single pass does) in any order equals the whole-file sum, with
 * pieces across block boundaries and in the last, partial block.
 */
static void
test_sum_pieces(void **state)
{
	struct cache_sumacc	 acc;
	uint8_t			*buf;
	uint64_t		 cut[64], t;
	size_t			 n = 3 * CACHE_SUMBLOCK + 1000, i, k, ncut;
	size_t			 order[64];
	uint32_t		 want;
	int			 rep;

	(void)state;
	buf = xmalloc(n);
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)rnd();
	want = cache_sum(buf, n, 0);
	for (rep = 0; rep < 20; rep++) {
		/* Cuts at multiples of 32: block boundaries, one group either
		 * side of them, random ones; then the end. */
		ncut = 0;
		cut[ncut++] = 0;
		for (k = 1; k <= 3; k++) {
			cut[ncut++] = k * CACHE_SUMBLOCK;
			if (rep % 2 == 0) {
				cut[ncut++] = k * CACHE_SUMBLOCK - 32;
				cut[ncut++] = k * CACHE_SUMBLOCK + 32;
			}
		}
		for (k = 0; k < 20; k++)
			cut[ncut++] = (rnd() % n) & ~(uint64_t)31;
		for (i = 1; i < ncut; i++)	/* sort */
			for (k = i; k > 0 && cut[k - 1] > cut[k]; k--) {
				t = cut[k];
				cut[k] = cut[k - 1];
				cut[k - 1] = t;
			}
		cut[ncut++] = n;
		cache_sumacc_init(&acc, buf, n);
		/* Pieces in a shuffled order. */
		for (i = 0; i + 1 < ncut; i++)
			order[i] = i;
		for (i = ncut - 2; i > 0; i--) {
			k = rndn((uint32_t)i + 1);
			t = order[i];
			order[i] = order[k];
			order[k] = (size_t)t;
		}
		for (i = 0; i + 1 < ncut; i++) {
			k = order[i];
			if (cut[k + 1] > cut[k])
				cache_sumacc_add(&acc, cut[k], cut[k + 1] - cut[k],
				    rep % 2 ? buf + cut[k] : NULL);
		}
		assert_int_equal(cache_sumacc_end(&acc), want);
	}
	/* One byte changed in the last block: another sum. */
	buf[n - 1] ^= 1;
	cache_sumacc_init(&acc, buf, n);
	cache_sumacc_add(&acc, 0, n, NULL);
	assert_int_not_equal(cache_sumacc_end(&acc), want);
	free(buf);
}

/*
 * The lane checks of the warm load (cache_check_cols: vectors, runs of one
 * kind, the span checked at the ends, a one-word duration sum) agree with
 * the plain per-event checks on random pieces: one kind, long runs,
 * random kinds, small spans and spans near MODEL_SPAN_MAX (where the sum
 * is taken in halves), with and without one damaged element.
 */
#define LC_N	3000

struct lane_case {
	int64_t		 lo, hi, st[LC_N], en[LC_N];
	uint32_t	 name[LC_N], aux[LC_N], row[LC_N], corr[LC_N];
	uint8_t		 kind[LC_N], flags[LC_N];
	uint32_t	 nstrs, auxlim[256];
	size_t		 n;
};

/* The plain checks: 0 or -1; on 0 the kinds' counts and the durations'
 * sum (INT64_MAX above MODEL_DURSUM_MAX). */
static int
lane_case_ref(const struct lane_case *c, uint64_t kinds[256], int64_t *dsum)
{
	unsigned __int128	sum = 0;
	uint64_t		span = (uint64_t)c->hi - (uint64_t)c->lo, a, d;
	size_t			i;
	int			bad = 0;

	memset(kinds, 0, 256 * sizeof *kinds);
	for (i = 0; i < c->n; i++) {
		a = (uint64_t)c->st[i] - (uint64_t)c->lo;
		d = (uint64_t)c->en[i] - (uint64_t)c->st[i];
		if (a > span || d > span - a || c->name[i] >= c->nstrs ||
		    (i > 0 && c->st[i] < c->st[i - 1]) ||
		    (c->aux[i] != NONE32 && c->aux[i] >= c->auxlim[c->kind[i]]))
			bad = 1;
		kinds[c->kind[i]]++;
		sum += d;
	}
	*dsum = sum > (unsigned __int128)MODEL_DURSUM_MAX ? INT64_MAX :
	    (int64_t)sum;
	return bad ? -1 : 0;
}

static void
lane_case_make(struct lane_case *c, int rep)
{
	static const uint8_t	 kinds[] = { EV_KERNEL, EV_MEMCPY, EV_MEMSET,
	    EV_NVTX, EV_API, 200 };
	uint64_t		 span, gap;
	size_t			 i, e;
	uint8_t			 k;

	memset(c, 0, sizeof *c);
	c->n = 1 + rndn(rep % 3 == 0 ? 40 : LC_N);
	span = rep % 4 == 0 ? (uint64_t)MODEL_SPAN_MAX : 1000000000u;
	c->lo = rep % 4 == 0 ? -MODEL_SPAN_MAX / 2 : (int64_t)rndn(1u << 30);
	c->hi = c->lo + (int64_t)span;
	c->nstrs = 1 + rndn(100);
	for (i = 0; i < 256; i++)
		c->auxlim[i] = NONE32;
	c->auxlim[EV_KERNEL] = 1000;
	c->auxlim[EV_MEMCPY] = c->auxlim[EV_MEMSET] = 10;
	c->auxlim[EV_NVTX] = rep % 5 == 0 ? 0 : 500;
	gap = span / c->n;
	k = kinds[rndn(6)];
	for (i = 0; i < c->n; i++) {
		c->st[i] = c->lo + (int64_t)(gap * i + rnd() % (gap / 2 + 1));
		c->en[i] = c->st[i] + (int64_t)(rnd() % ((uint64_t)
		    (c->hi - c->st[i]) + 1));
		c->name[i] = rndn(c->nstrs);
		/* rep % 3: one kind; long runs; a kind per event */
		if ((rep % 3 == 1 && rndn(200) == 0) || rep % 3 == 2)
			k = kinds[rndn(6)];
		c->kind[i] = k;
		c->aux[i] = c->auxlim[k] == 0 || rndn(8) == 0 ? NONE32 :
		    rndn(c->auxlim[k] == NONE32 ? 1u << 31 : c->auxlim[k]);
	}
	if (rep % 2 == 0)
		return;
	/* One element damaged. */
	e = rndn((uint32_t)c->n);
	switch (rndn(7)) {
	case 0:
		c->name[e] = c->nstrs;
		break;
	case 1:
		c->en[e] = c->st[e] - 1;
		break;
	case 2:
		c->en[e] = c->hi + 1;
		break;
	case 3:
		c->st[0] = c->lo - 1;
		break;
	case 4:
		c->st[c->n - 1] = c->hi + 1;
		c->en[c->n - 1] = c->hi + 1;
		break;
	case 5:
		if (e > 0)
			c->st[e] = c->st[e - 1] - 1;
		break;
	case 6:
		if (c->auxlim[c->kind[e]] != NONE32)
			c->aux[e] = c->auxlim[c->kind[e]];
		break;
	}
}

static void
test_check_lane(void **state)
{
	struct lane_case	*c = xcalloc(1, sizeof *c);
	struct cache_rctx	 r;
	struct model		 m;
	struct cache_job	 job;
	struct cache_col	 cols[8];
	uint64_t		 kinds[256];
	int64_t			 dsum;
	int			 rep, want, nbad = 0, nover = 0;

	(void)state;
	for (rep = 0; rep < 3000; rep++) {
		lane_case_make(c, rep);
		want = lane_case_ref(c, kinds, &dsum);
		memset(&r, 0, sizeof r);
		memset(&m, 0, sizeof m);
		m.origin_ns = c->lo;
		m.end_ns = c->hi;
		r.m = &m;
		r.c.nstrs = c->nstrs;
		memcpy(r.auxlim, c->auxlim, sizeof r.auxlim);
		memset(&job, 0, sizeof job);
		job.type = JOB_COLS;
		job.group = GRP_LANE;
		job.n = c->n;
		memset(cols, 0, sizeof cols);
		cols[0].p = c->st;
		cols[1].p = c->en;
		cols[2].p = c->name;
		cols[3].p = c->kind;
		cols[4].p = c->flags;
		cols[5].p = c->row;
		cols[6].p = c->corr;
		cols[7].p = c->aux;
		assert_int_equal(cache_check_cols(&r, &job, cols, 0), want);
		if (want != 0) {
			nbad++;
			continue;
		}
		assert_memory_equal(r.kinds[0], kinds, sizeof kinds);
		assert_true(r.dursum[0] == dsum);
		nover += dsum == INT64_MAX;
	}
	/* Both verdicts, and sums past the bound, were reached. */
	assert_true(nbad > 300 && nover > 50);
	free(c);
}

/* Sets element e of frame f (an array of width-byte elements) to v. */
static void
poke_elem(uint8_t *img, size_t f, size_t e, size_t width, uint64_t v)
{
	uint64_t	clen, rlen;
	size_t		off;

	frame_at(img, f, &off, &clen, &rlen);
	assert_true((e + 1) * width <= rlen);
	memcpy(img + off + (clen - rlen) + e * width, &v, width);
}

/* The end of a test of the pass: the loader's settings back, m's cache
 * removed, everything freed. */
static void
pass_done(struct model *m, char *trace, char *path, uint8_t *img,
    uint8_t *bad)
{
	cache_set_copy(0);
	cache_set_dropmin(CACHE_DROPMIN);
	free(bad);
	free(img);
	free(path);
	model_free(m);
	cache_remove(trace);
	free(trace);
}

/*
 * Damage the warm load's single pass must find, in a cache of several
 * checksum blocks whose big lane spans many pieces: a byte changed at
 * block boundaries and in the last, partial block is a checksum mismatch;
 * an index out of range behind a valid checksum, at piece boundaries and
 * in the last, partial piece, is refused; the same where the cache is
 * read into a copy (the pass reads the copy), and for a cache above
 * CACHE_DROPMIN.
 */
static void
test_pass_damage(void **state)
{
	struct model	*m = build_model(2000, 300000);
	char		*trace = make_trace("pass.sqlite"), *path, *cause = NULL;
	uint8_t		*img, *bad;
	uint64_t	 clen, rlen;
	size_t		 n, pos[6], i, e[4], ntab, faux, fstart, off, ne;
	int		 drop;

	(void)state;
	assert_int_equal(cache_save(trace, m, &cause), 0);
	path = local_cache(trace);
	img = ts_read(path, &n);
	assert_true(n > 3 * CACHE_SUMBLOCK);
	pos[0] = HDR_SIZE + CACHE_SUMBLOCK - 1;
	pos[1] = HDR_SIZE + CACHE_SUMBLOCK;
	pos[2] = HDR_SIZE + 2 * CACHE_SUMBLOCK + 31;
	pos[3] = HDR_SIZE + 2 * CACHE_SUMBLOCK + 32;
	pos[4] = n - 1;
	pos[5] = n - 33;
	for (i = 0; i < 6; i++) {
		img[pos[i]] ^= 0x04;
		ts_write(path, img, n);
		assert_miss(trace, "checksum mismatch");
		img[pos[i]] ^= 0x04;
	}

	/* Track 0's lane (the big one): frames small, strings (2), one per
	 * side table, then start, end, name, kind, flags, row, corr, aux. */
	ntab = (m->nkernels > 0) + (m->ncopies > 0) + (m->nnvtx > 0) +
	    (m->ncounters > 0);
	ne = m->tracks[0].lane.n;
	fstart = 3 + ntab;
	faux = 3 + ntab + 7;
	frame_at(img, fstart, &off, &clen, &rlen);
	assert_int_equal(rlen, ne * 8);
	frame_at(img, faux, &off, &clen, &rlen);
	assert_int_equal(rlen, ne * 4);
	e[0] = 8191;
	e[1] = 8192;
	e[2] = ne - (ne % 8192 == 0 ? 1 : ne % 8192);	/* the last piece */
	e[3] = ne - 1;
	bad = xmalloc(n);
	/* Mapped (read with pread()), a copy (read in place), mapped as a
	 * file above CACHE_DROPMIN is. */
	for (drop = 0; drop < 3; drop++) {
		cache_set_copy(drop == 1);
		cache_set_dropmin(drop == 2 ? 0 : CACHE_DROPMIN);
		for (i = 0; i < 4; i++) {
			memcpy(bad, img, n);
			poke_elem(bad, faux, e[i], 4, 0x7f7f7f7f);
			fix_crcs(bad, n);
			ts_write(path, bad, n);
			assert_miss(trace, "out of range");
			memcpy(bad, img, n);
			poke_elem(bad, fstart, e[i], 8, (uint64_t)INT64_MAX);
			fix_crcs(bad, n);
			ts_write(path, bad, n);
			assert_miss(trace, "out of range");
		}
		ts_write(path, img, n);
		assert_hit(trace, m);
	}
	pass_done(m, trace, path, img, bad);
}

/* Element e of frame f (an array of 8-byte elements). */
static int64_t
peek_i64(const uint8_t *img, size_t f, size_t e)
{
	uint64_t	clen, rlen;
	size_t		off;
	int64_t		v;

	frame_at(img, f, &off, &clen, &rlen);
	assert_true((e + 1) * 8 <= rlen);
	memcpy(&v, img + off + (clen - rlen) + e * 8, 8);
	return v;
}

/*
 * A lane's starts that go backwards exactly where one piece of the pass
 * ends and the next begins, behind valid checksums: each piece alone is in
 * order, the lane is not, and the load refuses it (the seams are checked
 * after the pieces), mapped and read into a copy; equal starts at a seam
 * load.
 */
static void
test_pass_seams(void **state)
{
	struct model		*m = build_model(200, 20000);
	struct cache_col	 cols[CACHE_MAXCOLS];
	struct model		*l;
	char			*trace = make_trace("seams.sqlite"), *path;
	char			*cause = NULL;
	uint8_t			*img, *bad;
	size_t			 n, ne, ncol, ntab, fstart, b[2], i;
	uint64_t		 piece;
	int			 copy;

	(void)state;
	assert_int_equal(cache_save(trace, m, &cause), 0);
	path = local_cache(trace);
	img = ts_read(path, &n);
	ncol = cache_group_cols(NULL, GRP_LANE, 0,
	    cache_lane_lflags(&m->tracks[0].lane), 0, cols);
	piece = cache_piece_elems(cols, ncol);
	ne = m->tracks[0].lane.n;
	assert_true(ne > 3 * piece);
	/* Track 0's start column: after small, strings (2), side tables. */
	ntab = (m->nkernels > 0) + (m->ncopies > 0) + (m->nnvtx > 0) +
	    (m->ncounters > 0);
	fstart = 3 + ntab;
	b[0] = (size_t)piece;				/* the first seam */
	b[1] = (size_t)((ne - 1) / piece * piece);	/* the last one */
	bad = xmalloc(n);
	for (copy = 0; copy < 2; copy++) {
		cache_set_copy(copy);
		for (i = 0; i < 2; i++) {
			assert_true(peek_i64(img, fstart, b[i]) >=
			    peek_i64(img, fstart, b[i] - 1));
			/* One below the last start of the piece before. */
			memcpy(bad, img, n);
			poke_elem(bad, fstart, b[i], 8, (uint64_t)(peek_i64(img,
			    fstart, b[i] - 1) - 1));
			fix_crcs(bad, n);
			ts_write(path, bad, n);
			assert_miss(trace, "out of order");
			/* Equal to it: in order. */
			memcpy(bad, img, n);
			poke_elem(bad, fstart, b[i], 8, (uint64_t)peek_i64(img,
			    fstart, b[i] - 1));
			fix_crcs(bad, n);
			ts_write(path, bad, n);
			l = NULL;
			assert_int_equal(cache_load(trace, &l, &cause), 1);
			model_free(l);
		}
		ts_write(path, img, n);
		assert_hit(trace, m);
	}
	pass_done(m, trace, path, img, bad);
}

/*
 * The summary reads the head only: damage past it (with the payload CRC
 * left wrong) still gives a summary while the full load refuses; damage in
 * the head refuses both.
 */
static void
test_summary(void **state)
{
	struct saved	 s;
	char		*cause = NULL;
	uint64_t	 head;
	struct model	*l = NULL;

	(void)state;
	saved_open(&s, "sum.sqlite", model_small);
	memcpy(&head, s.img + HDR_HEADSIZE, 8);
	assert_true(head > 16 && HDR_SIZE + head < s.n / 2);
	s.img[s.n - 10] ^= 0x20;
	ts_write(s.path, s.img, s.n);
	assert_miss(s.trace, "checksum mismatch");
	assert_int_equal(cache_load_summary(s.trace, &l, &cause), 1);
	assert_int_equal(summary_diff(model_small, l), 0);
	model_free(l);
	s.img[s.n - 10] ^= 0x20;
	s.img[HDR_SIZE + head - 3] ^= 0x20;
	ts_write(s.path, s.img, s.n);
	assert_miss(s.trace, "checksum mismatch");
	assert_summary_miss(s.trace, "head checksum");
	s.img[HDR_SIZE + head - 3] ^= 0x20;
	/* A head size that does not end where the string frames do. */
	head -= 16;
	memcpy(s.img + HDR_HEADSIZE, &head, 8);
	fix_crcs(s.img, s.n);
	ts_write(s.path, s.img, s.n);
	assert_summary_miss(s.trace, "head size");
	assert_miss(s.trace, "head size");
	cache_remove(s.trace);
	assert_summary_miss(s.trace, "no cache");
	saved_free(&s);
}

/*
 * Index of the first frame of each stored index of m, in the writer's
 * order (cache-plan.c): small, strings, side tables, lane chunks, then per track
 * sums, pyramid and segments, then launch, GPU ids, sampled keys.
 */
struct frames_of {
	size_t	 lane[16];	/* first chunk of each track */
	size_t	 pyr[16];	/* 0: none */
	size_t	 launch;
};

static void
layout_of(const struct model *m, struct frames_of *fo)
{
	size_t	f = 1, t, chunk = 1u << 17;

	assert_true(m->ntracks <= 16);
	memset(fo, 0, sizeof *fo);
	if (strpool_count(m->strs) > 1)
		f += 2;
	f += (m->nkernels > 0) + (m->ncopies > 0) + (m->nnvtx > 0) +
	    (m->ncounters > 0);
	for (t = 0; t < m->ntracks; t++) {
		fo->lane[t] = f;
		f += (m->tracks[t].lane.n + chunk - 1) / chunk *
		    (m->tracks[t].lane.overlaps ? 11 : 8);
	}
	for (t = 0; t < m->ntracks; t++) {
		f++;				/* sums */
		if (m->tracks[t].lane.npyr > 0)
			fo->pyr[t] = f++;
		if (m->tracks[t].lane.overlaps && m->tracks[t].lane.cov.n > 0)
			f += 2;
	}
	fo->launch = f;
}

/* Every stored index a query follows is checked: a forged one that passes
 * the checksums is a miss, never a model that reads out of bounds. */
static void
test_forged_index(void **state)
{
	struct saved		 s;
	char			*cause = NULL;
	uint8_t			*bad;
	size_t			 bn, t, k, f[8], nf = 0;
	struct frames_of	 fo;
	struct model		*m = build_model(20000, 0);

	(void)state;
	layout_of(m, &fo);
	assert_non_null(m->launch);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].lane.overlaps && nf < 2) {
			f[nf++] = fo.lane[t] + 8;	/* depth */
			if (fo.pyr[t] != 0)
				f[nf++] = fo.pyr[t];
		}
	}
	assert_true(nf >= 2);
	f[nf++] = fo.launch;			/* launch */
	f[nf++] = fo.launch + 1;		/* GPU ids */
	saved_open(&s, "fidx.sqlite", m);
	assert_hit(s.trace, m);
	for (k = 0; k < nf; k++) {
		bad = forge_frame(s.img, s.n, f[k], fill_7f, &bn);
		ts_write(s.path, bad, bn);
		assert_miss(s.trace, k + 2 < nf ? "inconsistent" :
		    "out of range");
		free(bad);
	}
	/* Sampled keys only steer a search: wrong ones are loaded, and the
	 * search stays inside the arrays. */
	bad = forge_frame(s.img, s.n, fo.launch + 2, fill_7f, &bn);
	ts_write(s.path, bad, bn);
	free(bad);
	{
		struct model	*l = NULL;
		const uint32_t	*g;
		uint32_t	 gid;
		size_t		 k2, ng;

		assert_int_equal(cache_load(s.trace, &l, &cause), 1);
		for (gid = 0; gid < l->nevents; gid++) {
			ng = correlate_gpu(l, gid, &g);
			for (k2 = 0; k2 < ng; k2++)
				assert_true(g[k2] < l->nlaunch);
		}
		model_free(l);
	}
	saved_close(&s);
	model_free(m);
}

static void
test_symlinks(void **state)
{
	char	*trace = make_trace("link.sqlite"), *path, *victim, *cause;
	char	*other = make_trace("other.sqlite");
	uint8_t	*v;
	size_t	 vn;
	struct stat st;

	(void)state;
	cause = NULL;
	/* A symlink at the cache path is replaced, its target untouched. */
	path = local_cache(trace);
	victim = xasprintf("%s.victim", other);
	ts_write(victim, "precious", 8);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	v = ts_read(victim, &vn);
	assert_int_equal(vn, 8);
	assert_memory_equal(v, "precious", 8);
	free(v);
	assert_hit(trace, model_small);

	/* A symlink to a valid cache is not read through. */
	{
		char *real = xasprintf("%s.real", path);
		assert_int_equal(rename(path, real), 0);
		assert_int_equal(symlink(real, path), 0);
		assert_miss(trace, "symlink");
		unlink(path);
		unlink(real);
		free(real);
	}
	cache_remove(trace);
	free(victim);
	free(path);
	free(other);
	free(trace);
}

/* The cache path is a hard link to the trace: never written over. */
static void
test_not_over_trace(void **state)
{
	char	*trace = make_trace("hard.sqlite"), *path, *cause = NULL;
	uint8_t	*t;
	size_t	 tn;

	(void)state;
	path = local_cache(trace);
	assert_int_equal(link(trace, path), 0);
	assert_int_equal(cache_save(trace, model_small, &cause), -1);
	assert_non_null(strstr(cause, "is the trace itself"));
	free(cause);
	t = ts_read(path, &tn);
	assert_int_equal(tn, 28);
	assert_memory_equal(t, "SQLite format 3", 15);
	free(t);
	t = ts_read(trace, &tn);
	assert_int_equal(tn, 28);
	free(t);
	unlink(path);
	free(path);
	free(trace);
}

static void
test_paths(void **state)
{
	char	*trace = make_trace("p.sqlite"), *p, *want, *cause = NULL;
	char	*real;

	(void)state;
	/* Written to the cache directory, under NAME-HASH.gpulens. */
	p = cache_path(trace, 1, &cause);
	assert_non_null(p);
	real = xasprintf("%s/gpulens/p.sqlite-", xdg);
	assert_memory_equal(p, real, strlen(real));
	assert_int_equal(strlen(p), strlen(real) + 16 + strlen(".gpulens"));
	assert_string_equal(p + strlen(p) - 8, ".gpulens");
	free(p);
	/* For reading, absent next to the trace: the same name. */
	p = cache_path(trace, 0, &cause);
	assert_non_null(p);
	assert_memory_equal(p, real, strlen(real));
	free(real);
	free(p);
	/* prep --beside writes next to the trace. */
	want = beside_cache(trace);
	cachedir_set_mode(CACHEDIR_BESIDE);
	p = cache_path(trace, 1, &cause);
	cachedir_set_mode(CACHEDIR_ON);
	assert_string_equal(p, want);
	free(p);
	/* Present next to the trace: that one is read (even if not a cache,
	 * which cache_remove then leaves alone). */
	ts_write(want, "x", 1);
	p = cache_path(trace, 0, &cause);
	assert_string_equal(p, want);
	free(p);
	assert_int_equal(cache_remove(trace), 0);
	assert_int_equal(unlink(want), 0);
	/* A missing trace has no cache and is an error for cache_load. */
	{
		struct model *l;
		char *missing = xasprintf("%s.none", trace);
		cause = NULL;
		assert_int_equal(cache_load(missing, &l, &cause), -1);
		assert_non_null(cause);
		free(cause);
		free(missing);
	}
	free(want);
	free(trace);
}

/* prep --beside: the cache next to the trace is written and read first;
 * clean removes it. */
static void
test_beside(void **state)
{
	char	*trace = make_trace("b.sqlite"), *cause = NULL, *bp, *xp;

	(void)state;
	bp = beside_cache(trace);
	xp = local_cache(trace);
	cachedir_set_mode(CACHEDIR_BESIDE);
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	cachedir_set_mode(CACHEDIR_ON);
	assert_true(exists(bp));
	assert_false(exists(xp));
	assert_hit(trace, model_small);
	/* --no-cache reads and writes nothing. */
	{
		struct model *l = NULL;
		cachedir_set_mode(CACHEDIR_OFF);
		assert_int_equal(cache_load(trace, &l, &cause), 0);
		free(cause);
		cause = NULL;
		assert_int_equal(cache_save(trace, model_small, &cause), -1);
		free(cause);
		cause = NULL;
		cachedir_set_mode(CACHEDIR_ON);
		assert_false(exists(xp));
	}
	assert_int_equal(cache_remove(trace), 1);
	assert_false(exists(bp));
	free(bp);
	free(xp);
	free(trace);
}

/*
 * The XDG fallback, run in-process or in a child that dropped root (for
 * root, access() ignores permission bits). Returns 0 or a failing line.
 */
static int
xdg_scenario(const char *trace, const struct model *m, const char *home)
{
	struct model	*l = NULL;
	char		*cause = NULL, *p, *local = beside_cache(trace);
	int		 r;

	p = cache_path(trace, 1, &cause);
	if (p == NULL || strncmp(p, home, strlen(home)) != 0)
		return __LINE__;
	if (cache_save(trace, m, &cause) != 0)
		return __LINE__;
	if (exists(local) || !exists(p))
		return __LINE__;
	if (cache_load(trace, &l, &cause) != 1)
		return __LINE__;
	if ((r = model_diff(m, l)) != 0)
		return r;
	model_free(l);
	if (cache_remove(trace) != 1 || exists(p))
		return __LINE__;
	free(p);
	free(local);
	return 0;
}

static void
test_xdg_fallback(void **state)
{
	char	*trace = make_trace("ro.sqlite"), *dir, *home;
	pid_t	 pid;
	int	 status;

	(void)state;
	dir = xstrndup(trace, (size_t)(strrchr(trace, '/') - trace));
	assert_int_equal(chmod(dir, 0555), 0);
	if (geteuid() != 0) {
		assert_int_equal(xdg_scenario(trace, model_small, xdg), 0);
		assert_int_equal(chmod(dir, 0755), 0);
		free(dir);
		free(trace);
		return;
	}
	/*
	 * Root ignores permission bits, so run the scenario as nobody, with
	 * an XDG directory that only nobody may write (and HOME as fallback
	 * unused: XDG_CACHE_HOME is set).
	 */
	home = xasprintf("%s/xdg-nobody", ts_tmp());
	assert_int_equal(mkdir(home, 0700), 0);
	assert_int_equal(chmod(ts_tmp(), 0755), 0);
	if (chown(home, 65534, 65534) != 0) {
		fprintf(stderr, "# cannot chown to test a read-only "
		    "directory as root: skipped\n");
		assert_int_equal(chmod(dir, 0755), 0);
		free(home);
		free(dir);
		free(trace);
		skip();
	}
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setenv("XDG_CACHE_HOME", home, 1) != 0 ||
		    setgid(65534) != 0 || setuid(65534) != 0)
			_exit(200);
		status = xdg_scenario(trace, model_small, home);
		if (status != 0)
			fprintf(stderr, "xdg_scenario failed at line %d\n",
			    status);
		_exit(status != 0 ? 100 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(chmod(dir, 0755), 0);
	if (WEXITSTATUS(status) == 200) {
		fprintf(stderr, "# cannot drop root to test a read-only "
		    "directory: skipped\n");
		free(home);
		free(dir);
		free(trace);
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
	free(home);
	free(dir);
	free(trace);
}

/* A cache owned by someone else is not trusted (needs root to arrange). */
static void
test_other_owner(void **state)
{
	char	*trace = make_trace("own.sqlite"), *path, *cause = NULL;

	(void)state;
	assert_int_equal(cache_save(trace, model_small, &cause), 0);
	path = local_cache(trace);
	if (chown(path, 12345, 12345) != 0) {
		fprintf(stderr, "# not root: cannot give a cache away, "
		    "skipped\n");
		cache_remove(trace);
		free(path);
		free(trace);
		skip();
	}
	assert_miss(trace, "another user");
	cache_remove(trace);
	free(path);
	free(trace);
}

static void
test_concurrent(void **state)
{
	char	*trace = make_trace("conc.sqlite"), *dir;
	int	 go[2], status, k;
	pid_t	 pid[2];
	char	 c;

	(void)state;
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		assert_true(pid[k] >= 0);
		if (pid[k] == 0) {
			char *cause = NULL;
			int i, rc = 0;
			close(go[1]);
			if (read(go[0], &c, 1) != 0)	/* wait for EOF */
				_exit(3);
			for (i = 0; i < 5 && rc == 0; i++)
				rc = cache_save(trace, model_small, &cause);
			_exit(rc == 0 ? 0 : 1);
		}
	}
	close(go[0]);
	close(go[1]);	/* both start now */
	for (k = 0; k < 2; k++) {
		assert_int_equal(waitpid(pid[k], &status, 0), pid[k]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_hit(trace, model_small);
	dir = xstrndup(trace, (size_t)(strrchr(trace, '/') - trace));
	assert_int_equal(count_entries(dir), 1);	/* nothing beside */
	free(dir);
	dir = xasprintf("%s/gpulens", xdg);
	assert_false(has_tmp(dir));			/* no temp files */
	cache_remove(trace);
	free(dir);
	free(trace);
}

/*
 * Every nsys SQLite fixture, read by the real reader, survives the round
 * trip. The trace is a symlink in the temporary directory, so the cache goes
 * there, never next to the fixtures.
 */
static void
test_fixtures(void **state)
{
	const char	*fx = ts_need_fixtures();
	char		*top, *sub, *file, *link, *path, *cause;
	DIR		*d, *e;
	struct dirent	*de, *fe;
	struct model	*m;
	size_t		 len;
	int		 n = 0;

	(void)state;
	top = xasprintf("%s/nsys", fx);
	if ((d = opendir(top)) == NULL) {
		free(top);
		ts_skip("%s/nsys missing: skipped", fx);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", top, de->d_name);
		if ((e = opendir(sub)) == NULL) {
			free(sub);
			continue;
		}
		while ((fe = readdir(e)) != NULL) {
			len = strlen(fe->d_name);
			if (len < 7 || strcmp(fe->d_name + len - 7,
			    ".sqlite") != 0)
				continue;
			file = xasprintf("%s/%s", sub, fe->d_name);
			link = xasprintf("%s/fx-%d.sqlite", ts_tmp(), n);
			assert_int_equal(symlink(file, link), 0);
			cause = NULL;
			m = ts_load(nsys_load, link);
			assert_int_equal(cache_save(link, m, &cause), 0);
			path = local_cache(link);
			assert_true(exists(path));
			free(path);
			assert_hit(link, m);
			assert_int_equal(cache_remove(link), 1);
			model_free(m);
			unlink(link);
			free(link);
			free(file);
			n++;
		}
		closedir(e);
		free(sub);
	}
	closedir(d);
	free(top);
	assert_true(n > 0);
}

/* ------------------------------------------------------------------ */

static int
setup(void **state)
{
	(void)state;
	if (ts_tmp_init() != 0)
		return -1;
	snprintf(xdg, sizeof xdg, "%s/xdg", ts_tmp());
	if (mkdir(xdg, 0700) != 0)
		return -1;
	setenv("XDG_CACHE_HOME", xdg, 1);
	model_small = build_model(4000, 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	model_free(model_small);
	return ts_tmp_free();
}

TS_MAIN(setup, teardown,
	cmocka_unit_test(test_roundtrip),
	cmocka_unit_test(test_empty_model),
	cmocka_unit_test(test_big_lane),
	cmocka_unit_test(test_sum_pieces),
	cmocka_unit_test(test_check_lane),
	cmocka_unit_test(test_pass_damage),
	cmocka_unit_test(test_pass_seams),
	cmocka_unit_test(test_stale),
	cmocka_unit_test(test_truncated),
	cmocka_unit_test(test_flipped),
	cmocka_unit_test(test_version),
	cmocka_unit_test(test_forged),
	cmocka_unit_test(test_summary),
	cmocka_unit_test(test_forged_index),
	cmocka_unit_test(test_symlinks),
	cmocka_unit_test(test_not_over_trace),
	cmocka_unit_test(test_paths),
	cmocka_unit_test(test_beside),
	cmocka_unit_test(test_xdg_fallback),
	cmocka_unit_test(test_other_owner),
	cmocka_unit_test(test_concurrent),
	cmocka_unit_test(test_fixtures))
