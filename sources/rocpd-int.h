/*
 * rocpd-int: what the files of the rocpd reader share: its state (struct
 * rocpd), the SQL pieces of a table layout (struct rocpd_q), and the
 * functions each file offers the others. rocpd.c drives the load and scans
 * rows; rocpd-schema.c reads the schema; rocpd-info.c the rocpd_info_*
 * tables; rocpd-track.c finds tracks and devices; rocpd-cpu.c reads
 * regions and samples; rocpd-gpu.c kernel dispatches and memory copies.
 * The public interface is in source.h; nothing else includes this header.
 */
#ifndef GPULENS_ROCPD_INT_H
#define GPULENS_ROCPD_INT_H

#include <stdint.h>
#include <sqlite3.h>

#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "util/progress.h"
#include "sources/source.h"

#define ROCPD_SCHEMA	"3"		/* the schema version read here */
#define ROCPD_ROWS_STEP	16384		/* rows between progress reports */
#define ROCPD_ROCTX	1		/* domain source id of "roctx" */

enum rocpd_layout {
	ROCPD_FLAT = 0,		/* times and ids in each event table */
	ROCPD_TRACKED,		/* through rocpd_track and rocpd_timestamp */
};

/* What a kernel symbol contributes to its dispatches. */
struct rocpd_sym {
	uint32_t	 name, short_name, mangled;
	int64_t		 static_lds, vgprs;
	uint8_t		 comm;
};

struct rocpd {
	struct amd_db	  d;
	struct builder	 *b;
	struct model	 *m;
	struct progress	 *prog;
	enum rocpd_layout layout;
	int		  by_stream;
	int		  has_category;	/* rocpd_info_category exists */

	char		**guids;	/* distinct guids, by index */
	size_t		  nguids, guidscap;
	size_t		  lastguid;

	struct hmap	  hosts;	/* key(guid, node) -> pool id */
	struct hmap	  procs;	/* key(guid, process row) -> index */
	struct hmap	  threads;	/* key(guid, thread row) -> index */
	struct hmap	  agents;	/* key(guid, agent row) -> device + 1,
					   0 for a CPU */
	struct hmap	  qnames;	/* key(guid, queue row) -> pool id */
	struct hmap	  snames;	/* key(guid, stream row) -> pool id */
	struct hmap	  symidx;	/* key(guid, symbol row) -> index */
	struct rocpd_sym *syms;
	size_t		  nsyms, symscap;
	struct hmap	  gpu_tracks;	/* key(device, process, id) -> track */
	struct hmap	  cpu_tracks;	/* key(type, thread) -> track */
	struct hmap	  domains;	/* process -> roctx domain */
	struct hmap	  strs;		/* key(guid, string id) -> pool id */
	struct hmap	  classes;	/* pool id -> enum amd_class */

	uint64_t	  rows;
	uint32_t	  unknown_kernel;

	/* The time columns rocpd_scan() checks (timed set), and the tally. */
	int		  timed, tstart, tend;
	struct source_times tt;
};

/* SQL pieces per layout, for event table alias X. */
struct rocpd_q {
	const char	*pid, *tid, *start, *end;
	const char	*agent, *queue, *stream;
	char		*joins;
};

/* rocpd.c: row scans. */
int		 rocpd_scan(struct rocpd *, const char *sql, const char *what,
		    const char *rel, void (*)(struct rocpd *, sqlite3_stmt *));
int		 rocpd_scan_timed(struct rocpd *, const char *sql,
		    const char *what, const char *rel,
		    void (*)(struct rocpd *, sqlite3_stmt *), const char *table,
		    int ts, int te);

/* rocpd-schema.c */
int		 rocpd_views(struct rocpd *);
int		 rocpd_meta(struct rocpd *);
void		 rocpd_layout(struct rocpd *);
/* The columns of event table rel: 0, or -1 (q untouched) if it is absent. */
int		 rocpd_q(struct rocpd *, const char *rel, struct rocpd_q *);
const char	*rocpd_category(struct rocpd *);

/* rocpd-info.c */
uint32_t	 rocpd_guid(struct rocpd *, sqlite3_stmt *, int i);
uint64_t	 rocpd_key(uint32_t guid, sqlite3_stmt *, int i);
uint32_t	 rocpd_process(struct rocpd *, uint32_t g, int64_t row);
uint32_t	 rocpd_thread(struct rocpd *, uint32_t g, int64_t row,
		    int64_t prow);
int		 rocpd_info(struct rocpd *);
void		 rocpd_grouping(struct rocpd *);

/* rocpd-track.c */
uint32_t	 rocpd_cpu_track(struct rocpd *, enum track_type, uint32_t g,
		    int64_t prow, int64_t trow);
uint32_t	 rocpd_device(struct rocpd *, uint32_t g, sqlite3_stmt *,
		    int i);
uint32_t	 rocpd_gpu_track(struct rocpd *, uint32_t g, uint32_t dev,
		    int64_t prow, sqlite3_stmt *, int si, int qi);

/* rocpd-cpu.c */
uint32_t	 rocpd_corr(sqlite3_stmt *, int stack, int corr);
uint32_t	 rocpd_str(struct rocpd *, uint32_t g, sqlite3_stmt *, int id,
		    int text, enum amd_class *);
int		 rocpd_regions(struct rocpd *);
int		 rocpd_samples(struct rocpd *);

/* rocpd-gpu.c */
int		 rocpd_kernels(struct rocpd *);
int		 rocpd_copies(struct rocpd *);

#endif
