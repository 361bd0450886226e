/*
 * gen-sync: stream and device synchronisations and stream waits, with the
 * CUPTI_ACTIVITY_KIND_SYNCHRONIZATION rows they leave.
 */

#include "config.h"

#include <string.h>

#include "sources/synth/gen-int.h"

/* The SYNCHRONIZATION row of the API call [t0, r->cpu): CUPTI records it
 * on the CPU timeline, just inside the call. */
static void
sync_row(struct gen *g, struct rank *r, int s, int type, int64_t t0,
    uint32_t corr, uint32_t event)
{
	struct row	rw;
	int64_t		in;

	in = min64(400, (r->cpu - t0) / 4);
	gen_row_init(&rw, g, r, t0 + in, r->cpu - in, corr);
	rw.u.y.type = (uint8_t)type;
	rw.u.y.stream = (uint8_t)s;
	rw.u.y.event = event;
	rw.u.y.sync = (type == SY_STREAM_WAIT) ? ++r->sync_id : 0;
	gen_queue_emit(g, T_SYNC, &rw, 1);
}

/* cudaStreamSynchronize: blocks until stream s is idle. */
void
gen_sync_stream(struct gen *g, struct rank *r, int th, int s)
{
	int64_t		t0 = r->cpu, end;
	uint32_t	corr;

	end = max64(t0 + gen_api_dur(r, A_STREAM_SYNC),
	    r->gpu[s] + 2 * US + gen_rng_exp(&r->rng, 2 * US));
	corr = gen_api_call(g, r, th, A_STREAM_SYNC, end);
	sync_row(g, r, s, SY_STREAM, t0, corr, 0);
	gen_api_gap(r);
}

/* cudaDeviceSynchronize: blocks until every stream is idle. */
void
gen_sync_device(struct gen *g, struct rank *r, int th)
{
	int64_t		t0 = r->cpu, busy = 0, end;
	uint32_t	corr;
	int		s;

	for (s = 0; s < S_COUNT; s++)
		busy = max64(busy, r->gpu[s]);
	end = max64(t0 + gen_api_dur(r, A_DEVICE_SYNC),
	    busy + 2 * US + gen_rng_exp(&r->rng, 2 * US));
	corr = gen_api_call(g, r, th, A_DEVICE_SYNC, end);
	sync_row(g, r, S_COMPUTE, SY_CONTEXT, t0, corr, 0);
	gen_api_gap(r);
}

/* cudaEventRecord on waitee, cudaStreamWaitEvent on waiter. */
void
gen_sync_wait(struct gen *g, struct rank *r, int th, int waiter, int waitee)
{
	int64_t		ready = r->gpu[waitee], t0;
	uint32_t	corr, ev;

	gen_api_quick(g, r, th, A_EVENT_RECORD);
	ev = ++r->event_id;
	r->cpu += 500 + gen_rng_exp(&r->rng, 500);
	t0 = r->cpu;
	corr = gen_api_quick(g, r, th, A_WAIT_EVENT);
	sync_row(g, r, waiter, SY_STREAM_WAIT, t0, corr, ev);
	r->gpu[waiter] = max64(r->gpu[waiter], ready);
	r->cpu += 500 + gen_rng_exp(&r->rng, 500);
}
