/*
 * tracksel: whether a track may hold the events a selection asks for, the
 * one rule of the verbs' selection (headless/select.h) and the grouped
 * statistics (analysis/gstats.h): on a device and a stream (GPU and sync
 * tracks only), of a process, of a thread (CPU tracks only: GPU events are
 * kept or not by their launching thread, elsewhere), and holding an event
 * kind (kind > 0: model_track_holds()) or, for communication (kind < 0),
 * a GPU or NVTX track.
 */
#ifndef GPULENS_TRACKSEL_H
#define GPULENS_TRACKSEL_H

#include <stdint.h>

#include "model/model.h"

struct tracksel {
	int		 has_device;
	uint32_t	 device;	/* device index (has_device) */
	int64_t		 stream;	/* stream source id, -1 for any */
	int64_t		 pid, tid;	/* -1 for any */
	int		 kind;		/* EV_*, -1 communication, 0 any */
};

int	 tracksel_match(const struct model *, const struct tracksel *,
	    uint32_t t);

#endif
