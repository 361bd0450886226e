/*
 * gen-mem: memory copies (host to device, device to host, peer to peer) and
 * memsets, asynchronous or blocking.
 */

#include "config.h"

#include <string.h>

#include "sources/synth/gen-int.h"

/* A copy made by API call a (-1: cudaMemcpyAsync or, with a peer,
 * cudaMemcpyPeerAsync). */
void
gen_mem_copy_as(struct gen *g, struct rank *r, int th, int a, int kind, int src,
    int dst, uint64_t bytes, int s, int peer)
{
	struct row	rw;
	double		bw;		/* bytes per ns */
	int64_t		start, end, dur;
	uint32_t	corr;
	int		pageable = (src == MK_PAGEABLE || dst == MK_PAGEABLE);
	int		blocking;

	if (a < 0)
		a = (peer >= 0) ? A_PEER : A_MEMCPY;
	blocking = pageable || a == A_MEMCPY_SYNC;

	if (kind == CK_PTOP)
		bw = 280.0;			/* NVLink */
	else
		bw = pageable ? 20.0 : 45.0;	/* PCIe 5 */
	dur = 1500 + (int64_t)((double)bytes / bw) + gen_rng_exp(&r->rng, 500);
	if (blocking) {
		/* Synchronous copies, and copies from or to pageable memory,
		 * return when done. */
		start = max64(r->cpu + 4 * US + gen_rng_exp(&r->rng, US),
		    r->gpu[s] + 1 * US);
		end = start + dur;
		corr = gen_api_call(g, r, th, a, end + 2 * US +
		    gen_rng_exp(&r->rng, US));
	} else {
		corr = gen_api_quick(g, r, th, a);
		start = gen_api_gpu_start(r, s);
		end = start + dur;
	}
	gen_row_init(&rw, g, r, start, end, corr);
	rw.u.c.bytes = bytes;
	rw.u.c.kind = (uint8_t)kind;
	rw.u.c.src = (uint8_t)src;
	rw.u.c.dst = (uint8_t)dst;
	rw.u.c.stream = (uint8_t)s;
	rw.u.c.peer = peer;
	gen_queue_emit(g, T_MEMCPY, &rw, 1);
	r->gpu[s] = end;
	gen_api_gap(r);
}

void
gen_mem_copy(struct gen *g, struct rank *r, int th, int kind, int src, int dst,
    uint64_t bytes, int s, int peer)
{
	gen_mem_copy_as(g, r, th, -1, kind, src, dst, bytes, s, peer);
}

/* cudaMemsetAsync, or with sync cudaMemset, which returns when done. */
void
gen_mem_set(struct gen *g, struct rank *r, int th, uint64_t bytes, int sync)
{
	struct row	rw;

	memset(&rw, 0, sizeof rw);
	if (sync) {
		rw.start = max64(r->cpu + 4 * US + gen_rng_exp(&r->rng, US),
		    r->gpu[S_COMPUTE] + 1 * US);
		rw.end = rw.start + 1200 + (int64_t)(bytes / 2000) +
		    gen_rng_exp(&r->rng, 300);
		rw.corr = gen_api_call(g, r, th, A_MEMSET_SYNC, rw.end +
		    2 * US + gen_rng_exp(&r->rng, US));
	} else {
		rw.corr = gen_api_quick(g, r, th, A_MEMSET);
		rw.start = gen_api_gpu_start(r, S_COMPUTE);
		rw.end = rw.start + 1200 + (int64_t)(bytes / 2000) +
		    gen_rng_exp(&r->rng, 300);
	}
	rw.rank = RI(g, r);
	rw.u.s.bytes = bytes;
	rw.u.s.stream = S_COMPUTE;
	gen_queue_emit(g, T_MEMSET, &rw, 1);
	r->gpu[S_COMPUTE] = rw.end;
	gen_api_gap(r);
}

void
gen_mem_set_async(struct gen *g, struct rank *r, int th, uint64_t bytes)
{
	gen_mem_set(g, r, th, bytes, 0);
}
