/*
 * report: the in-memory form of an Nsight Compute report, built by the
 * readers of .ncu-rep files (sources/ncurep.c) and of ncu's CSV exports
 * (sources/ncucsv.c), and read by the report verbs and the report view.
 *
 * A report is not a timeline: it is a list of profiled kernel launches,
 * each with its metrics (a name, a value, optionally a list of instanced
 * values), the sections ncu showed them in, and the results of ncu's
 * rules (a message, its type and, in newer reports, an estimated speedup).
 * Session details (devices and their attributes, tool versions, host) are
 * kept as devices with attributes and as key/value properties.
 *
 * Building: report_new(), then the report_add_*() calls in any order (a
 * metric's instances right after the metric), then report_finish(), which
 * sorts each launch's metrics by name, groups everything by launch and
 * fills in the section and display label of each metric that a section
 * lists. After report_finish() the report is read only.
 *
 * Strings (kernel names, rule messages, metric names) are untrusted
 * profile data, interned in the report's pool: sanitise before showing.
 *
 * Ownership: report_new() allocates; report_free() releases everything.
 * Pointers returned by the getters are borrowed from the report.
 */
#ifndef GPULENS_REPORT_H
#define GPULENS_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "report/code.h"

#define REPORT_NONE	UINT32_MAX

enum report_format {
	REPORT_NCU_REP = 1,		/* .ncu-rep */
	REPORT_NCU_REPZ,		/* .ncu-repz: .ncu-rep inside zstd */
	REPORT_NCU_CSV_DETAILS,		/* ncu --csv --page details */
	REPORT_NCU_CSV_RAW,		/* ncu --csv --page raw */
};

enum report_vtype {
	RV_NONE = 0,
	RV_DOUBLE,
	RV_UINT,
	RV_STRING,
};

struct report_value {
	uint8_t		 type;		/* enum report_vtype */
	union {
		double	 d;		/* RV_DOUBLE */
		uint64_t u;		/* RV_UINT */
		uint32_t s;		/* RV_STRING: string id */
	} v;
};

/* One element of an instanced metric (per SM, per PC, ...). */
struct report_instance {
	struct report_value	 corr;	/* correlation id */
	struct report_value	 value;
};

struct report_metric {
	uint32_t		 launch;
	uint32_t		 name;		/* "gpu__time_duration.sum" */
	uint32_t		 label;		/* "Duration", 0 if none */
	uint32_t		 unit;		/* "ns", 0 if unknown */
	uint32_t		 section;	/* index in sections, or NONE */
	struct report_value	 value;		/* RV_NONE: instances only */
	uint32_t		 inst, ninst;	/* range in instances */
	uint32_t		 seq;		/* order read */
};

struct report_section {
	uint32_t	 launch;
	uint32_t	 ident;		/* "SpeedOfLight" */
	uint32_t	 name;		/* "GPU Speed Of Light Throughput" */
	int32_t		 order;
};

/* A metric that a section lists, with the label it shows. */
struct report_secmetric {
	uint32_t	 section;	/* index in sections */
	uint32_t	 name;
	uint32_t	 label;
};

enum report_rule_type {
	RR_NONE = 0,	/* the rule ran and said nothing */
	RR_INFO,	/* INF (the file's "Ok") */
	RR_WARNING,	/* WRN */
	RR_ERROR,	/* ERR */
	RR_OPT,		/* OPT: an optimisation opportunity */
	RR_COUNT
};

enum report_speedup_type {
	RS_NONE = 0,
	RS_LOCAL,
	RS_GLOBAL,
};

/* One message of a rule (a rule with several messages has several). */
struct report_rule {
	uint32_t	 launch;
	uint32_t	 ident;		/* "SOLBottleneck" */
	uint32_t	 name;		/* "Bottleneck" */
	uint32_t	 section;	/* section identifier (string id) */
	uint32_t	 title;		/* the message's own name, 0 if none */
	uint32_t	 message;	/* 0 when the rule said nothing */
	uint32_t	 focus;		/* "metric = value (condition); ...",
					   the metrics the message rests on */
	uint8_t		 type;		/* enum report_rule_type */
	uint8_t		 speedup_type;	/* enum report_speedup_type */
	double		 speedup;	/* estimated speedup in %, or NAN */
};

/* NVTX state at a launch: a domain and one range pushed in it. */
struct report_nvtx {
	uint32_t	 launch;
	uint32_t	 domain;	/* domain name */
	uint32_t	 range;		/* range name, 0 if none */
};

struct report_attr {
	uint32_t		 name;
	struct report_value	 value;
};

struct report_device {
	uint32_t	 id;		/* ncu's device id */
	uint32_t	 name;		/* "NVIDIA A10G" */
	uint32_t	 attr, nattrs;	/* range in attrs (after finish) */
};

struct report_prop {
	uint32_t	 key;		/* "host.os", "version.CUDA Version" */
	uint32_t	 value;
};

struct report_launch {
	uint32_t	 id;		/* ncu's ID: 0, 1, ... in file order */
	uint32_t	 mangled;	/* string ids, 0 if absent */
	uint32_t	 function;	/* base name: "one_blocktiling" */
	uint32_t	 demangled;
	uint64_t	 grid[3];
	uint64_t	 block[3];
	uint64_t	 context;
	uint64_t	 stream;
	uint32_t	 device;	/* index in devices, or NONE */
	uint32_t	 pid;		/* process id, 0 if unknown */
	uint32_t	 tid;		/* launching thread, 0 if unknown */
	uint32_t	 process;	/* process name */
	uint32_t	 host;		/* host name */
	uint64_t	 api_call;	/* the launch's API call id */
	uint32_t	 metric, nmetrics;	/* ranges, after finish */
	uint32_t	 section, nsections;
	uint32_t	 rule, nrules;
	uint32_t	 nvtx, nnvtx;
	uint64_t	 source_ref;	/* its module's reference, 0 if none */
	uint32_t	 module;	/* index in code.modules, or NONE */
	uint32_t	 func;		/* index in code.funcs, or NONE */
};

struct strpool;

struct report {
	uint8_t			 format;	/* enum report_format */
	uint32_t		 version;	/* ncu-rep format version */
	struct strpool		*strs;

	struct report_launch	*launches;
	size_t			 nlaunches, launchescap;
	struct report_metric	*metrics;
	size_t			 nmetrics, metricscap;
	struct report_instance	*instances;
	size_t			 ninstances, instancescap;
	struct report_section	*sections;
	size_t			 nsections, sectionscap;
	struct report_secmetric	*secmetrics;
	size_t			 nsecmetrics, secmetricscap;
	struct report_rule	*rules;
	size_t			 nrules, rulescap;
	struct report_nvtx	*nvtx;
	size_t			 nnvtx, nvtxcap;
	struct report_device	*devices;
	size_t			 ndevices, devicescap;
	struct report_attr	*attrs;
	uint32_t		*attr_dev;	/* device index of attrs[i] */
	size_t			 nattrs, attrscap, attrdevcap;
	struct report_prop	*props;
	size_t			 nprops, propscap;
	char			**warnings;
	size_t			 nwarnings, warningscap;
	struct report_code	 code;		/* modules, functions, lines */
	uint64_t		*range_bytes;	/* size of each range result
						   (range replay), not decoded */
	size_t			 nranges, rangescap;
	char			*skipped;	/* unknown fields skipped:
						   "Message.field ...", or
						   NULL */
};

/* Lifetime. */
struct report	*report_new(int format);
void		 report_free(struct report *);

/* Strings. */
uint32_t	 report_intern(struct report *, const char *, size_t);
uint32_t	 report_intern0(struct report *, const char *);
/* Borrowed; "" for 0 and unknown ids. */
const char	*report_str(const struct report *, uint32_t);

/* Building (before report_finish). Returned pointers stay valid until the
 * next call that adds to the same array. */
struct report_launch	*report_add_launch(struct report *);
struct report_metric	*report_add_metric(struct report *, uint32_t launch,
			    uint32_t name);
/* Appends an element to the metric added last. */
void		 report_add_instance(struct report *,
		    const struct report_value *corr,
		    const struct report_value *value);
uint32_t	 report_add_section(struct report *, uint32_t launch,
		    uint32_t ident, uint32_t name, int32_t order);
void		 report_add_secmetric(struct report *, uint32_t section,
		    uint32_t name, uint32_t label);
struct report_rule	*report_add_rule(struct report *, uint32_t launch);
void		 report_add_nvtx(struct report *, uint32_t launch,
		    uint32_t domain, uint32_t range);
/* The device with ncu id id, created (with name) if new; its index. */
uint32_t	 report_device(struct report *, uint32_t id, uint32_t name);
/* Adds or replaces an attribute of a device. */
void		 report_device_attr(struct report *, uint32_t dev,
		    uint32_t name, const struct report_value *);
/* Adds or replaces a session property. */
void		 report_prop(struct report *, const char *key,
		    const char *value);
void		 report_warn(struct report *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Records an unknown field skipped while decoding message what. */
void		 report_skipped(struct report *, const char *what,
		    uint32_t field);
/* Sorts and groups; the report is read only afterwards. */
void		 report_finish(struct report *);

/* Queries (after report_finish). */
/* The metric of a launch with this name, or NULL. */
const struct report_metric *report_metric(const struct report *,
		    uint32_t launch, const char *name);
/* A metric's value as a number: 0, or -1 when absent or not numeric. */
int		 report_metric_num(const struct report *, uint32_t launch,
		    const char *name, double *);
/* A value as a double, NAN when it is a string or absent. */
double		 report_value_num(const struct report_value *);
/* Formats a value ("12.5", "1024", text) into buf. */
const char	*report_value_fmt(const struct report *,
		    const struct report_value *, char *buf, size_t len);
/* The best name of a launch: demangled, else function, else mangled. */
const char	*report_launch_name(const struct report *, uint32_t launch);
/* An attribute of a device by name, or NULL. */
const struct report_value *report_device_attr_get(const struct report *,
		    uint32_t dev, const char *name);
/* A property's value, or NULL. */
const char	*report_prop_get(const struct report *, const char *key);
/* "OPT", "WRN", "INF", "ERR" or "" for enum report_rule_type. */
const char	*report_rule_type_name(int);
/* The enum report_rule_type report_rule_type_name() names s, RR_NONE for
 * any other s. */
int		 report_rule_type_find(const char *s);
/* "local", "global" or NULL. */
const char	*report_speedup_type_name(int);
/* "ncu-rep", "ncu-repz", "ncu-csv", "ncu-csv-raw". */
const char	*report_format_name(int);
/* A unit guessed from a metric's name ("%", "ns", "byte", ...), or "". */
const char	*report_unit_guess(const char *name);

/*
 * The headline numbers of a launch: NAN where the report lacks the metric.
 * The names are ncu's (gpu__time_duration.sum, sm__throughput.avg.pct_of_
 * peak_sustained_elapsed, gpu__compute_memory_throughput.avg.pct_of_peak_
 * sustained_elapsed, sm__warps_active.avg.pct_of_peak_sustained_active,
 * launch__registers_per_thread).
 */
struct report_headline {
	double		 duration_ns;
	double		 sm_pct;
	double		 mem_pct;
	double		 occupancy_pct;
	double		 registers;
};
void		 report_headline(const struct report *, uint32_t launch,
		    struct report_headline *);

#endif
