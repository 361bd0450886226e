/*
 * The column description of `gpulens findings` (see headless/cols.h): its row
 * fields in table order and its data.auxiliary.
 */
#include "config.h"

#include <stddef.h>

#include "headless/cols.h"

static const struct col findings_rows_evidence_regions[] = {
	COLUSE("start_ns", COL_NULL),
	COLUSE("end_ns", COL_NULL),
	COLUSEX("util_pct", COL_NULL, "", NULL),
	COL_END
};

static const struct col findings_rows_evidence_per_device[] = {
	COLUSE("device", 0),
	COLUSE("gaps", COL_OPT),
	COLUSE("idle_ns", COL_OPT),
	COLUSE("comm_ns", COL_OPT),
	{ "exposed_ns", COL_INT|COL_OPT, "ns", "exposed time", NULL, NULL },
	{ "hidden_pct", COL_NUM|COL_OPT, "pct", "hidden", NULL, NULL },
	{ "work_ns", COL_INT|COL_OPT, "ns", "work time", NULL, NULL },
	COLUSE("compute_ns", COL_OPT),
	COLUSE("exposed_comm_ns", COL_OPT),
	COL_END
};

static const struct col findings_rows_evidence_directions[] = {
	{ "h2d", COL_INT|COL_OPT, NULL, "h2d", NULL, NULL },
	{ "d2h", COL_INT|COL_OPT, NULL, "d2h", NULL, NULL },
	{ "d2d", COL_INT|COL_OPT, NULL, "d2d", NULL, NULL },
	COL_END
};

/* Where the cited API calls came from (analysis/callsite.h). */
static const struct col findings_call_site[] = {
	{ "event", COL_INT, NULL,
	    "event id (ev:) of the costliest call cited", "\"minimum\":0",
	    NULL },
	{ "dur_ns", COL_INT, "ns", "its duration", "\"minimum\":0", NULL },
	{ "function", COL_STR, NULL,
	    "function of the call site: the first frame of the call chain "
	    "outside the CUDA/HIP stack and the C library", NULL, NULL },
	{ "module", COL_STR, NULL, "module (path) of that frame", NULL,
	    NULL },
	{ "chain", COL_INT, NULL,
	    "call chain id of the call (inspect EVENT shows all of it)",
	    "\"minimum\":0", NULL },
	COL_END
};

static const struct col findings_call_sites[] = {
	{ "function", COL_STR, NULL, "function of the call site", NULL,
	    NULL },
	{ "module", COL_STR, NULL, "module (path) of that frame", NULL,
	    NULL },
	{ "chain", COL_INT, NULL,
	    "call chain id of the site's costliest call", "\"minimum\":0",
	    NULL },
	COLUSE("count", 0),
	COLUSE("total_ns", 0),
	{ "event", COL_INT, NULL,
	    "event id (ev:) of the site's costliest call", "\"minimum\":0",
	    NULL },
	COL_END
};

#define FINDINGS_CALL_SITE_COLS						\
	{ "call_site", COL_OBJ|COL_NULL|COL_OPT, NULL,			\
	    "where the costliest call cited came from (present where a "	\
	    "cited call has a call chain; null when that call has none "	\
	    "or no frame outside the CUDA stack and libc)", NULL,		\
	    findings_call_site },						\
	{ "call_sites", COL_ARR|COL_OPT, NULL,				\
	    "the top call sites of the cited calls by time (at most 3)",	\
	    NULL, findings_call_sites },					\
	{ "calls_without_site", COL_INT|COL_OPT, NULL,			\
	    "cited calls with no call chain or no call site in it",		\
	    "\"minimum\":0", NULL }

static const struct col findings_rows_evidence_apis[] = {
	COLUSE("name", 0),
	COLUSEX("count", COL_NUM, "", NULL),
	COLUSE("total_ns", 0),
	FINDINGS_CALL_SITE_COLS,
	COL_END
};

static const struct col findings_rows_evidence[] = {
	COLUSE("device", COL_OPT),
	{ "chunks", COL_INT|COL_OPT, NULL, "chunks", NULL, NULL },
	{ "low_chunks", COL_INT|COL_OPT, NULL, "low chunks", NULL, NULL },
	{ "threshold_pct", COL_INT|COL_OPT, "pct", "threshold", NULL, NULL },
	COLUSE("idle_ns", COL_OPT),
	{ "regions", COL_ARR|COL_OPT, NULL,
	    "regions", NULL, findings_rows_evidence_regions },
	{ "threshold_ns", COL_INT|COL_OPT, "ns", "threshold time", NULL, NULL },
	COLUSE("gaps", COL_OPT),
	{ "longest_ns", COL_INT|COL_OPT, "ns", "longest time", NULL, NULL },
	{ "longest_start_ns", COL_INT|COL_OPT, "ns",
	    "longest start time", NULL, NULL },
	{ "per_device", COL_ARR|COL_OPT, NULL,
	    "per device", NULL, findings_rows_evidence_per_device },
	{ "median_work_after_ns", COL_INT|COL_OPT, "ns",
	    "median work after", NULL, NULL },
	{ "work_events", COL_INT|COL_OPT, NULL, "work events", NULL, NULL },
	COLUSEX("count", COL_NUM|COL_OPT, "", NULL),
	COLUSEX("bytes", COL_NULL|COL_OPT, "", NULL),
	COLUSE("gpu_ns", COL_OPT),
	{ "host_blocked_ns", COL_INT|COL_OPT, "ns",
	    "host blocked time", NULL, NULL },
	COLUSE("pid", COL_OPT),
	{ "directions", COL_OBJ|COL_OPT, NULL,
	    "directions", NULL, findings_rows_evidence_directions },
	FINDINGS_CALL_SITE_COLS,
	{ "profile_tool", COL_STR|COL_OPT, NULL, "profile tool", NULL, NULL },
	{ "name", COL_STR|COL_OPT|COL_NAME, NULL, "kernel name", NULL, NULL },
	COLUSE("short_name", COL_OPT),
	COLUSE("total_ns", COL_OPT),
	COLUSE("median_ns", COL_NULL|COL_OPT),
	{ "kernel_share_pct", COL_NUM|COL_OPT, "pct",
	    "share of kernel", NULL, NULL },
	{ "registers", COL_INT|COL_OPT, NULL, "registers", NULL, NULL },
	{ "block_threads", COL_INT|COL_OPT, NULL, "block threads", NULL, NULL },
	{ "grid_blocks", COL_INT|COL_OPT, NULL, "grid blocks", NULL, NULL },
	{ "shared_bytes", COL_INT|COL_OPT, "bytes", "shared size", NULL, NULL },
	{ "theoretical_occupancy_pct", COL_NUM|COL_NULL|COL_OPT, "pct",
	    "theoretical occupancy", NULL, NULL },
	COLUSE("calls", COL_OPT),
	{ "gpu_idle_ns", COL_INT|COL_OPT, "ns", "gpu idle time", NULL, NULL },
	{ "longest_gap_ns", COL_INT|COL_OPT, "ns",
	    "longest gap time", NULL, NULL },
	{ "sync_blocked_ns", COL_INT|COL_OPT, "ns",
	    "cuda_api_sync: host time blocked on the GPU in the window, the "
	    "union over every thread of its synchronisations and synchronous "
	    "copies",
	    "\"minimum\":0", NULL },
	{ "sync_blocked_pct", COL_NUM|COL_OPT, "pct",
	    "cuda_api_sync: sync_blocked_ns as a share of the window",
	    "\"minimum\":0,\"maximum\":100", NULL },
	{ "sync_threads", COL_INT|COL_OPT, NULL,
	    "cuda_api_sync: threads that made a blocking call in the window",
	    "\"minimum\":0", NULL },
	{ "apis", COL_ARR|COL_OPT, NULL,
	    "apis", NULL, findings_rows_evidence_apis },
	{ "min_gap_ns", COL_INT|COL_OPT, "ns", "minimum gap", NULL, NULL },
	COLUSE("max_gap_ns", COL_OPT),
	COLUSE("exposed_comm_ns", COL_OPT),
	COLUSE("comm_ns", COL_OPT),
	{ "shared_exposed_ns", COL_INT|COL_OPT, "ns",
	    "shared exposed time", NULL, NULL },
	{ "instances_matched", COL_BOOL|COL_OPT, NULL,
	    "instances matched", NULL, NULL },
	{ "collectives", COL_INT|COL_OPT, NULL, "collectives", NULL, NULL },
	{ "max_exposed_ns", COL_INT|COL_OPT, "ns",
	    "maximum exposed", NULL, NULL },
	{ "longest_exposed_ns", COL_INT|COL_OPT, "ns",
	    "longest exposed time", NULL, NULL },
	COLUSE("collective", COL_OPT),
	COLUSE("imbalance_pct", COL_OPT),
	{ "max_work_ns", COL_INT|COL_OPT, "ns", "maximum work", NULL, NULL },
	{ "min_work_ns", COL_INT|COL_OPT, "ns", "minimum work", NULL, NULL },
	{ "mean_work_ns", COL_NUM|COL_OPT, "ns", "mean work", NULL, NULL },
	{ "excluded_start_ns", COL_INT|COL_OPT, "ns",
	    "excluded start time", NULL, NULL },
	{ "excluded_end_ns", COL_INT|COL_OPT, "ns",
	    "excluded end time", NULL, NULL },
	COLUSE("compute_ns", COL_OPT),
	{ "median_compute_ns", COL_INT|COL_OPT, "ns",
	    "median compute", NULL, NULL },
	{ "excess_pct", COL_NUM|COL_OPT, "pct", "excess", NULL, NULL },
	{ "waits_least", COL_BOOL|COL_OPT, NULL, "waits least", NULL, NULL },
	{ "comm_span_start_ns", COL_INT|COL_OPT, "ns",
	    "comm span start time", NULL, NULL },
	{ "comm_span_end_ns", COL_INT|COL_OPT, "ns",
	    "comm span end time", NULL, NULL },
	COL_END
};

static const struct col findings_rows[] = {
	COLUSEX("rank", COL_INT, "\"minimum\":1", NULL),
	{ "confidence", COL_STR, NULL,
	    "low, medium or high",
	    "\"enum\":[\"low\",\"medium\",\"high\"]", NULL },
	COLUSEX("type", 0,
	    "\"enum\":[\"cuda_memcpy_async\",\"cuda_memcpy_sync\",\"cuda_memset_sync\",\"cuda_api_sync\",\"gpu_gaps\",\"gpu_time_util\",\"launch_bound\",\"idle_bubbles\",\"exposed_comm\",\"straggler\",\"imbalance\",\"dominant_kernel\",\"low_occupancy\"]", NULL),
	COLUSE("share_pct", 0),
	{ "cost_ns", COL_INT, "ns",
	    "GPU time the finding costs", "\"minimum\":0", NULL },
	{ "speedup_all", COL_NUM|COL_NULL, NULL,
	    "end-to-end speed-up if the cost vanished", "\"minimum\":1", NULL },
	COLUSE("device", 0),
	COLUSE("title", 0),
	COLUSE("key", 0),
	{ "speedup_half", COL_NUM, NULL,
	    "end-to-end speed-up if the cost halved", "\"minimum\":1", NULL },
	{ "one_off", COL_BOOL, NULL, "one off", NULL, NULL },
	COLUSE("pid", 0),
	COLUSE("start_ns", 0),
	COLUSE("end_ns", 0),
	COLUSE("event", 0),
	{ "summary", COL_STR, NULL, "what was measured", NULL, NULL },
	{ "next_step", COL_STR, NULL, "what to do next", NULL, NULL },
	{ "ncu_command", COL_STR|COL_NULL, NULL,
	    "Nsight Compute command profiling one launch", NULL, NULL },
	{ "evidence", COL_OBJ, NULL,
	    "the numbers behind the finding",
	    "\"additionalProperties\":{\"type\":[\"number\",\"string\",\"boolean\",\"null\",\"array\"],\"description\":\"a number of a rule not described here\"}", findings_rows_evidence },
	COL_END
};

static const struct col findings_aux_window[] = {
	COLUSE("start_ns", COL_NULL),
	COLUSE("end_ns", COL_NULL),
	COLUSE("span_ns", 0),
	COL_END
};

static const struct col findings_aux_rules[] = {
	COLUSEX("type", 0, "", NULL),
	COLUSEX("status", 0, "", NULL),
	COLUSE("reason", 0),
	COL_END
};

static const struct col findings_aux[] = {
	COLUSEX("window", COL_OPT, NULL, findings_aux_window),
	COLUSEX("iterations", COL_OBJ|COL_OPT, NULL, cols_span_or_null),
	{ "gap_threshold_ns", COL_INT|COL_OPT, "ns",
	    "gap threshold time", NULL, NULL },
	{ "min_confidence", COL_STR|COL_OPT, NULL,
	    "minimum confidence", NULL, NULL },
	COLUSEX("rules", COL_OPT, NULL, findings_aux_rules),
	COL_END
};

const struct coldesc cols_findings = {
	"findings", findings_rows, NULL, NULL, findings_aux, NULL
};
