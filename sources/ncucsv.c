/*
 * ncucsv: Nsight Compute CSV exports (see ncucsv.h).
 *
 * The text is split into rows by a small RFC 4180 reader (quoted fields
 * may hold commas, quotes and newlines). The header row names the
 * columns; the details form is told apart by its "Metric Name" and
 * "Metric Value" columns. The label-to-name table below was taken from
 * the section definitions stored in real .ncu-rep files (each lists its
 * metrics with the labels ncu shows), so a details export and the report
 * it came from give the same names for the same numbers.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/nametab.h"
#include "sources/ncu.h"
#include "sources/ncucsv.h"
#include "report/report.h"
#include "util/xmalloc.h"

#define NCUCSV_MAX_FILE		((size_t)4 << 30)

/* Section display name, label, ncu metric name. */
static const char *const ncucsv_labels[][3] = {
	{ "GPU Speed Of Light Throughput", "Duration",
	    "gpu__time_duration.sum" },
	{ "GPU Speed Of Light Throughput", "Compute (SM) Throughput",
	    "sm__throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light Throughput", "Memory Throughput",
	    "gpu__compute_memory_throughput."
	    "avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light Throughput", "Elapsed Cycles",
	    "gpc__cycles_elapsed.max" },
	{ "GPU Speed Of Light Throughput", "L1/TEX Cache Throughput",
	    "l1tex__throughput.avg.pct_of_peak_sustained_active" },
	{ "GPU Speed Of Light Throughput", "SM Active Cycles",
	    "sm__cycles_active.avg" },
	{ "GPU Speed Of Light Throughput", "L2 Cache Throughput",
	    "lts__throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light Throughput", "SM Frequency",
	    "gpc__cycles_elapsed.avg.per_second" },
	{ "GPU Speed Of Light Throughput", "DRAM Throughput",
	    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light Throughput", "DRAM Frequency",
	    "dram__cycles_elapsed.avg.per_second" },
	{ "GPU Speed Of Light", "Duration", "gpu__time_duration.sum" },
	{ "GPU Speed Of Light", "SOL SM",
	    "sm__throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light", "SOL Memory",
	    "gpu__compute_memory_throughput."
	    "avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light", "Elapsed Cycles", "gpc__cycles_elapsed.max" },
	{ "GPU Speed Of Light", "SOL L1/TEX Cache",
	    "l1tex__throughput.avg.pct_of_peak_sustained_active" },
	{ "GPU Speed Of Light", "SM Active Cycles", "sm__cycles_active.avg" },
	{ "GPU Speed Of Light", "SOL L2 Cache",
	    "lts__throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light", "SM Frequency",
	    "gpc__cycles_elapsed.avg.per_second" },
	{ "GPU Speed Of Light", "SOL DRAM",
	    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "GPU Speed Of Light", "DRAM Frequency",
	    "dram__cycles_elapsed.avg.per_second" },
	{ "Launch Statistics", "Grid Size", "launch__grid_size" },
	{ "Launch Statistics", "Function Cache Configuration",
	    "launch__func_cache_config" },
	{ "Launch Statistics", "Cluster Size", "launch__cluster_size" },
	{ "Launch Statistics", "Registers Per Thread",
	    "launch__registers_per_thread" },
	{ "Launch Statistics", "Cluster Scheduling Policy",
	    "launch__cluster_scheduling_policy" },
	{ "Launch Statistics", "Static Shared Memory Per Block",
	    "launch__shared_mem_per_block_static" },
	{ "Launch Statistics", "Block Size", "launch__block_size" },
	{ "Launch Statistics", "Dynamic Shared Memory Per Block",
	    "launch__shared_mem_per_block_dynamic" },
	{ "Launch Statistics", "Threads", "launch__thread_count" },
	{ "Launch Statistics", "Driver Shared Memory Per Block",
	    "launch__shared_mem_per_block_driver" },
	{ "Launch Statistics", "Waves Per SM",
	    "launch__waves_per_multiprocessor" },
	{ "Launch Statistics", "Shared Memory Configuration Size",
	    "launch__shared_mem_config_size" },
	{ "Occupancy", "Theoretical Occupancy",
	    "sm__maximum_warps_per_active_cycle_pct" },
	{ "Occupancy", "Block Limit Registers",
	    "launch__occupancy_limit_registers" },
	{ "Occupancy", "Theoretical Active Warps per SM",
	    "sm__maximum_warps_avg_per_active_cycle" },
	{ "Occupancy", "Block Limit Shared Mem",
	    "launch__occupancy_limit_shared_mem" },
	{ "Occupancy", "Achieved Occupancy",
	    "sm__warps_active.avg.pct_of_peak_sustained_active" },
	{ "Occupancy", "Block Limit Warps", "launch__occupancy_limit_warps" },
	{ "Occupancy", "Achieved Active Warps Per SM",
	    "sm__warps_active.avg.per_cycle_active" },
	{ "Occupancy", "Block Limit SM", "launch__occupancy_limit_blocks" },
	{ "Occupancy", "Max Cluster Size",
	    "launch__cluster_max_potential_size" },
	{ "Occupancy", "Max Active Clusters", "launch__cluster_max_active" },
	{ "Occupancy", "Cluster Occupancy", "launch__occupancy_cluster_pct" },
	{ "Occupancy", "Overall GPU Occupancy",
	    "launch__occupancy_cluster_gpu_pct" },
	{ "Compute Workload Analysis", "Executed Ipc Elapsed",
	    "sm__inst_executed.avg.per_cycle_elapsed" },
	{ "Compute Workload Analysis", "SM Busy",
	    "sm__instruction_throughput.avg.pct_of_peak_sustained_active" },
	{ "Compute Workload Analysis", "Executed Ipc Active",
	    "sm__inst_executed.avg.per_cycle_active" },
	{ "Compute Workload Analysis", "Issue Slots Busy",
	    "sm__inst_issued.avg.pct_of_peak_sustained_active" },
	{ "Compute Workload Analysis", "Issued Ipc Active",
	    "sm__inst_issued.avg.per_cycle_active" },
	{ "Instruction Statistics", "Executed Instructions",
	    "smsp__inst_executed.sum" },
	{ "Instruction Statistics", "Avg. Executed Instructions Per Scheduler",
	    "smsp__inst_executed.avg" },
	{ "Instruction Statistics", "Issued Instructions",
	    "smsp__inst_issued.sum" },
	{ "Instruction Statistics", "Avg. Issued Instructions Per Scheduler",
	    "smsp__inst_issued.avg" },
	{ "Memory Workload Analysis", "Memory Throughput",
	    "dram__bytes.sum.per_second" },
	{ "Memory Workload Analysis", "Mem Busy",
	    "gpu__compute_memory_access_throughput."
	    "avg.pct_of_peak_sustained_elapsed" },
	{ "Memory Workload Analysis", "L1/TEX Hit Rate",
	    "l1tex__t_sector_hit_rate.pct" },
	{ "Memory Workload Analysis", "Max Bandwidth",
	    "gpu__compute_memory_request_throughput."
	    "avg.pct_of_peak_sustained_elapsed" },
	{ "Memory Workload Analysis", "L2 Hit Rate",
	    "lts__t_sector_hit_rate.pct" },
	{ "Memory Workload Analysis", "Mem Pipes Busy",
	    "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed" },
	{ "Memory Workload Analysis", "L2 Compression Success Rate",
	    "lts__average_gcomp_input_sector_success_rate.pct" },
	{ "Memory Workload Analysis", "L2 Compression Ratio",
	    "lts__average_gcomp_output_sector_compression_achieved_rate."
	    "ratio" },
	{ "Scheduler Statistics", "Active Warps Per Scheduler",
	    "smsp__warps_active.avg.per_cycle_active" },
	{ "Scheduler Statistics", "No Eligible",
	    "smsp__issue_inst0.avg.pct_of_peak_sustained_active" },
	{ "Scheduler Statistics", "Eligible Warps Per Scheduler",
	    "smsp__warps_eligible.avg.per_cycle_active" },
	{ "Scheduler Statistics", "One or More Eligible",
	    "smsp__issue_active.avg.pct_of_peak_sustained_active" },
	{ "Scheduler Statistics", "Issued Warp Per Scheduler",
	    "smsp__issue_active.avg.per_cycle_active" },
	{ "Scheduler Statistics", "GPU Maximum Warps Per Scheduler",
	    "smsp__warps_active.avg.peak_sustained" },
	{ "Scheduler Statistics", "Theoretical Warps Per Scheduler",
	    "smsp__maximum_warps_avg_per_active_cycle" },
	{ "Source Counters", "Branch Instructions",
	    "smsp__inst_executed_op_branch.sum" },
	{ "Source Counters", "Branch Efficiency",
	    "smsp__sass_average_branch_targets_threads_uniform.pct" },
	{ "Source Counters", "Branch Instructions Ratio",
	    "derived__smsp__inst_executed_op_branch_pct" },
	{ "Source Counters", "Avg. Divergent Branches",
	    "smsp__sass_branch_targets_threads_divergent.avg" },
	{ "Warp State Statistics", "Warp Cycles Per Issued Instruction",
	    "smsp__average_warp_latency_per_inst_issued.ratio" },
	{ "Warp State Statistics", "Avg. Active Threads Per Warp",
	    "smsp__thread_inst_executed_per_inst_executed.ratio" },
	{ "Warp State Statistics", "Warp Cycles Per Executed Instruction",
	    "smsp__average_warps_active_per_inst_executed.ratio" },
	{ "Warp State Statistics", "Avg. Not Predicated Off Threads Per Warp",
	    "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio" },
	{ "NVLink", "Physical Links", "nvlink__count_physical" },
	{ "NVLink", "Logical Links", "nvlink__count_logical" },
};
#define NCUCSV_NLABELS	(sizeof ncucsv_labels / sizeof ncucsv_labels[0])

/* Units scaled to a base: name, base, factor. */
static const struct {
	const char	*unit;
	const char	*base;
	double		 factor;
} ncucsv_units[] = {
	{ "nsecond", "ns", 1 }, { "usecond", "ns", 1e3 },
	{ "msecond", "ns", 1e6 }, { "second", "ns", 1e9 },
	{ "us", "ns", 1e3 }, { "ms", "ns", 1e6 }, { "s", "ns", 1e9 },
	{ "hz", "hz", 1 }, { "Khz", "hz", 1e3 }, { "khz", "hz", 1e3 },
	{ "Mhz", "hz", 1e6 }, { "Ghz", "hz", 1e9 },
	{ "cycle/second", "hz", 1 }, { "cycle/usecond", "hz", 1e6 },
	{ "cycle/nsecond", "hz", 1e9 },
	{ "byte/second", "byte/s", 1 }, { "Kbyte/second", "byte/s", 1e3 },
	{ "Mbyte/second", "byte/s", 1e6 }, { "Gbyte/second", "byte/s", 1e9 },
	{ "Tbyte/second", "byte/s", 1e12 },
	{ "Kbyte/s", "byte/s", 1e3 }, { "Mbyte/s", "byte/s", 1e6 },
	{ "Gbyte/s", "byte/s", 1e9 }, { "Tbyte/s", "byte/s", 1e12 },
	{ "Kbyte", "byte", 1e3 }, { "Mbyte", "byte", 1e6 },
	{ "Gbyte", "byte", 1e9 },
};
#define NCUCSV_NUNITS	(sizeof ncucsv_units / sizeof ncucsv_units[0])

/* Identity columns. */
enum ncucsv_col {
	C_ID, C_PID, C_PROCESS, C_HOST, C_KERNEL, C_CONTEXT, C_STREAM,
	C_BLOCK, C_GRID, C_DEVICE, C_CC, C_SECTION, C_METRIC, C_UNIT,
	C_VALUE, C_RULE, C_RULE_TYPE, C_RULE_DESC, C_SPEEDUP_TYPE, C_SPEEDUP,
	C_COUNT
};
static const char *const ncucsv_colnames[C_COUNT] = {
	"ID", "Process ID", "Process Name", "Host Name", "Kernel Name",
	"Context", "Stream", "Block Size", "Grid Size", "Device", "CC",
	"Section Name", "Metric Name", "Metric Unit", "Metric Value",
	"Rule Name", "Rule Type", "Rule Description",
	"Estimated Speedup Type", "Estimated Speedup"
};

/* One row: fields as NUL-terminated strings in buf. */
struct ncucsv_row {
	char		*buf;
	size_t		 cap, used;
	size_t		*off;
	size_t		 n, offcap;
};

struct ncucsv {
	const char	*p, *end;
	const char	*name;
	size_t		 line;		/* 1-based line of the row read last */
	size_t		 nextline;
	struct report	*r;
	int		 col[C_COUNT];	/* column index or -1 */
	struct hmap	 launch_of;	/* ID -> launch index */
	struct hmap	 section_of;	/* launch << 32 | name -> section */
};

static const char *
ncucsv_field(const struct ncucsv_row *row, int col)
{
	if (col < 0 || (size_t)col >= row->n)
		return "";
	return row->buf + row->off[col];
}

static void
ncucsv_putc(struct ncucsv_row *row, char ch)
{
	XGROW(row->buf, row->cap, row->used + 1);
	row->buf[row->used++] = ch;
}

/*
 * Reads one row. Returns 1, 0 at the end, -1 on an unterminated quoted
 * field (with *cause).
 */
static int
ncucsv_read(struct ncucsv *c, struct ncucsv_row *row, char **cause)
{
	const char	*p = c->p;
	int		 quoted;

	if (p >= c->end)
		return 0;
	c->line = c->nextline;
	row->used = row->n = 0;
	for (;;) {
		XGROW(row->off, row->offcap, row->n + 1);
		row->off[row->n++] = row->used;
		quoted = 0;
		if (p < c->end && *p == '"') {
			quoted = 1;
			p++;
		}
		for (;;) {
			if (p >= c->end) {
				if (quoted) {
					*cause = xasprintf("%s: line %zu: a "
					    "quoted field does not end",
					    c->name, c->line);
					return -1;
				}
				break;
			}
			if (quoted) {
				if (*p == '"') {
					if (p + 1 < c->end && p[1] == '"') {
						ncucsv_putc(row, '"');
						p += 2;
						continue;
					}
					quoted = 0;
					p++;
					continue;
				}
				if (*p == '\n')
					c->nextline++;
				ncucsv_putc(row, *p++);
				continue;
			}
			if (*p == ',' || *p == '\n' || *p == '\r')
				break;
			ncucsv_putc(row, *p++);
		}
		ncucsv_putc(row, '\0');
		if (p < c->end && *p == ',') {
			p++;
			continue;
		}
		break;
	}
	if (p < c->end && *p == '\r')
		p++;
	if (p < c->end && *p == '\n')
		p++;
	c->nextline++;
	c->p = p;
	return 1;
}

/* Parses an English-locale number: "-1,234.5e3". */
static int
ncucsv_number(const char *s, struct report_value *v)
{
	char		 buf[128], *end;
	size_t		 o = 0;
	int		 digits = 0, frac = 0, neg = 0;
	const char	*p = s;

	while (*p == ' ')
		p++;
	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		buf[o++] = *p++;
	}
	for (; *p != '\0' && o < sizeof buf - 1; p++) {
		if (*p >= '0' && *p <= '9') {
			buf[o++] = *p;
			digits++;
		} else if (*p == ',' && digits > 0 && !frac)
			continue;
		else if (*p == '.' && !frac) {
			buf[o++] = *p;
			frac = 1;
		} else if ((*p == 'e' || *p == 'E') && digits > 0) {
			buf[o++] = *p;
			frac = 1;
			if (p[1] == '-' || p[1] == '+')
				buf[o++] = *++p;
		} else if (*p == ' ' && p[strspn(p, " ")] == '\0')
			break;
		else
			return -1;
	}
	if (digits == 0 || o >= sizeof buf - 1)
		return -1;
	buf[o] = '\0';
	errno = 0;
	if (!frac && !neg) {
		unsigned long long u = strtoull(buf, &end, 10);
		if (errno == 0 && *end == '\0') {
			v->type = RV_UINT;
			v->v.u = u;
			return 0;
		}
		errno = 0;
	}
	v->v.d = strtod(buf, &end);
	if (*end != '\0' || errno == ERANGE)
		return -1;
	v->type = RV_DOUBLE;
	return 0;
}

/* A value, scaled when its unit has a base; *unit becomes the base. */
static void
ncucsv_value(struct ncucsv *c, const char *s, const char **unit,
    struct report_value *v)
{
	size_t	i;

	memset(v, 0, sizeof *v);
	if (*s == '\0')
		return;
	if (ncucsv_number(s, v) != 0) {
		v->type = RV_STRING;
		v->v.s = report_intern0(c->r, s);
		return;
	}
	for (i = 0; i < NCUCSV_NUNITS; i++) {
		if (strcmp(*unit, ncucsv_units[i].unit) != 0)
			continue;
		*unit = ncucsv_units[i].base;
		if (ncucsv_units[i].factor == 1)
			break;
		if (v->type == RV_UINT)
			v->v.d = (double)v->v.u;
		v->type = RV_DOUBLE;
		v->v.d *= ncucsv_units[i].factor;
		break;
	}
}

/* "(256, 1, 1)" -> {256, 1, 1}. */
static void
ncucsv_dims(const char *s, uint64_t out[3])
{
	char	*end;
	int	 i;

	out[0] = out[1] = out[2] = 0;
	while (*s == ' ' || *s == '(')
		s++;
	for (i = 0; i < 3 && *s != '\0'; i++) {
		out[i] = strtoull(s, &end, 10);
		if (end == s)
			break;
		s = end;
		while (*s == ',' || *s == ' ')
			s++;
	}
}

/* The base name of a demangled kernel: "void k<int>(float *)" -> "k". */
/*
 * The end of s once the last balanced open...close group that ends it is
 * dropped (end itself when s does not end with close, or the group starts
 * s).
 */
static const char *
ncucsv_drop_tail(const char *s, const char *end, char open, char close)
{
	const char	*p;
	int		 depth = 0;

	if (end == s || end[-1] != close)
		return end;
	for (p = end - 1; p >= s; p--) {
		if (*p == close)
			depth++;
		else if (*p == open && --depth == 0)
			break;
	}
	return p > s ? p : end;
}

static uint32_t
ncucsv_base_name(struct report *r, const char *s)
{
	const char	*end = s + strlen(s), *b, *p;
	int		 depth;

	/* Drop the argument list, then template arguments at the end. */
	end = ncucsv_drop_tail(s, end, '(', ')');
	end = ncucsv_drop_tail(s, end, '<', '>');
	/* Drop the return type and qualifiers: after the last space or
	 * "::" outside brackets. */
	b = s;
	depth = 0;
	for (p = s; p < end; p++) {
		if (*p == '<' || *p == '(' || *p == '[')
			depth++;
		else if ((*p == '>' || *p == ')' || *p == ']') && depth > 0)
			depth--;
		else if (depth == 0 && *p == ' ')
			b = p + 1;
		else if (depth == 0 && *p == ':' && p + 1 < end && p[1] == ':')
			b = p + 2;
	}
	return report_intern(r, b, (size_t)(end - b));
}

static int
ncucsv_header(struct ncucsv *c, const struct ncucsv_row *row)
{
	size_t	i;
	int	k;

	for (k = 0; k < C_COUNT; k++)
		c->col[k] = -1;
	for (i = 0; i < row->n; i++)
		if ((k = NAMETAB_FIND(ncucsv_colnames,
		    ncucsv_field(row, (int)i))) >= 0 && c->col[k] < 0)
			c->col[k] = (int)i;
	return c->col[C_ID] >= 0;
}

static int
ncucsv_is_identity(const char *h)
{
	int	k = NAMETAB_FIND(ncucsv_colnames, h);

	return k >= 0 && k <= C_CC;
}

/* The launch of the row's ID, created from the row when new. */
static int
ncucsv_launch(struct ncucsv *c, const struct ncucsv_row *row,
    uint32_t *launch, char **cause)
{
	struct report_launch	*l;
	struct report_value	 v;
	const char		*s = ncucsv_field(row, c->col[C_ID]), *cc;
	char			*end, ccbuf[16], *dot;
	unsigned long		 id;
	uint32_t		 dev;

	errno = 0;
	id = strtoul(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || id > 100000000) {
		*cause = xasprintf("%s: line %zu: bad launch ID '%s'", c->name,
		    c->line, s);
		return -1;
	}
	if (hmap_get(&c->launch_of, id, launch))
		return 0;
	l = report_add_launch(c->r);
	*launch = l->id;
	hmap_put(&c->launch_of, id, *launch);
	l->pid = (uint32_t)strtoul(ncucsv_field(row, c->col[C_PID]), NULL,
	    10);
	l->process = report_intern0(c->r, ncucsv_field(row,
	    c->col[C_PROCESS]));
	l->host = report_intern0(c->r, ncucsv_field(row, c->col[C_HOST]));
	l->demangled = report_intern0(c->r, ncucsv_field(row,
	    c->col[C_KERNEL]));
	l->function = ncucsv_base_name(c->r, ncucsv_field(row,
	    c->col[C_KERNEL]));
	l->context = strtoull(ncucsv_field(row, c->col[C_CONTEXT]), NULL, 10);
	l->stream = strtoull(ncucsv_field(row, c->col[C_STREAM]), NULL, 10);
	ncucsv_dims(ncucsv_field(row, c->col[C_BLOCK]), l->block);
	ncucsv_dims(ncucsv_field(row, c->col[C_GRID]), l->grid);
	if (c->col[C_DEVICE] >= 0 &&
	    *ncucsv_field(row, c->col[C_DEVICE]) != '\0') {
		dev = report_device(c->r, (uint32_t)strtoul(ncucsv_field(row,
		    c->col[C_DEVICE]), NULL, 10), 0);
		c->r->launches[*launch].device = dev;
		cc = ncucsv_field(row, c->col[C_CC]);
		if (*cc != '\0' && strlen(cc) < sizeof ccbuf) {
			snprintf(ccbuf, sizeof ccbuf, "%s", cc);
			memset(&v, 0, sizeof v);
			v.type = RV_UINT;
			if ((dot = strchr(ccbuf, '.')) != NULL) {
				*dot = '\0';
				v.v.u = strtoull(dot + 1, NULL, 10);
				report_device_attr(c->r, dev, report_intern0(
				    c->r, "device__attribute_compute_"
				    "capability_minor"), &v);
			}
			v.v.u = strtoull(ccbuf, NULL, 10);
			report_device_attr(c->r, dev, report_intern0(c->r,
			    "device__attribute_compute_capability_major"), &v);
		}
	}
	return 0;
}

static uint32_t
ncucsv_section(struct ncucsv *c, uint32_t launch, const char *name)
{
	uint32_t	sid = report_intern0(c->r, name), sec;
	uint64_t	key = (uint64_t)launch << 32 | sid;

	if (hmap_get(&c->section_of, key, &sec))
		return sec;
	sec = report_add_section(c->r, launch, sid, sid,
	    (int32_t)c->r->nsections);
	hmap_put(&c->section_of, key, sec);
	return sec;
}

static const char *
ncucsv_canonical(const char *section, const char *label)
{
	size_t	i;

	for (i = 0; i < NCUCSV_NLABELS; i++)
		if (strcmp(ncucsv_labels[i][0], section) == 0 &&
		    strcmp(ncucsv_labels[i][1], label) == 0)
			return ncucsv_labels[i][2];
	return NULL;
}

static void
ncucsv_rule(struct ncucsv *c, uint32_t launch, const struct ncucsv_row *row)
{
	struct report_rule	*u;
	struct report_value	 v;
	const char		*t = ncucsv_field(row, c->col[C_RULE_TYPE]);
	const char		*st = ncucsv_field(row, c->col[C_SPEEDUP_TYPE]);
	uint32_t		 ident;

	ident = report_intern0(c->r, ncucsv_field(row, c->col[C_RULE]));
	u = report_add_rule(c->r, launch);
	u->ident = u->name = ident;
	u->section = report_intern0(c->r, ncucsv_field(row,
	    c->col[C_SECTION]));
	u->message = report_intern0(c->r, ncucsv_field(row,
	    c->col[C_RULE_DESC]));
	u->type = report_rule_type_find(t);
	if (ncucsv_number(ncucsv_field(row, c->col[C_SPEEDUP]), &v) == 0) {
		u->speedup = report_value_num(&v);
		u->speedup_type = strcmp(st, "global") == 0 ? RS_GLOBAL :
		    RS_LOCAL;
	}
}

static int
ncucsv_details(struct ncucsv *c, struct ncucsv_row *row, char **cause)
{
	struct report_metric	*m;
	struct report_value	 v;
	const char		*section, *label, *unit, *name;
	uint32_t		 launch, sec;
	int			 rc;

	while ((rc = ncucsv_read(c, row, cause)) > 0) {
		if (row->n == 1 && *ncucsv_field(row, 0) == '\0')
			continue;	/* blank line */
		if (ncucsv_launch(c, row, &launch, cause) != 0)
			return -1;
		section = ncucsv_field(row, c->col[C_SECTION]);
		label = ncucsv_field(row, c->col[C_METRIC]);
		if (*ncucsv_field(row, c->col[C_RULE]) != '\0')
			ncucsv_rule(c, launch, row);
		if (*label == '\0')
			continue;
		sec = ncucsv_section(c, launch, section);
		unit = ncucsv_field(row, c->col[C_UNIT]);
		ncucsv_value(c, ncucsv_field(row, c->col[C_VALUE]), &unit, &v);
		name = ncucsv_canonical(section, label);
		m = report_add_metric(c->r, launch, report_intern0(c->r,
		    name != NULL ? name : label));
		m->label = report_intern0(c->r, label);
		m->unit = report_intern0(c->r, unit);
		m->section = sec;
		m->value = v;
	}
	return rc;
}

static int
ncucsv_raw(struct ncucsv *c, struct ncucsv_row *header,
    struct ncucsv_row *row, char **cause)
{
	struct ncucsv_row	 units;
	struct report_metric	*m;
	struct report_value	 v;
	const char		*unit;
	uint32_t		 launch;
	size_t			 i;
	int			 rc, first = 1;

	memset(&units, 0, sizeof units);
	while ((rc = ncucsv_read(c, row, cause)) > 0) {
		if (row->n == 1 && *ncucsv_field(row, 0) == '\0')
			continue;
		if (first && *ncucsv_field(row, c->col[C_ID]) == '\0') {
			/* The units row: its identity columns are empty. */
			units.used = 0;
			for (i = 0; i < row->n; i++) {
				const char *f = ncucsv_field(row, (int)i);
				XGROW(units.off, units.offcap, i + 1);
				units.off[i] = units.used;
				while (*f != '\0')
					ncucsv_putc(&units, *f++);
				ncucsv_putc(&units, '\0');
			}
			units.n = row->n;
			first = 0;
			continue;
		}
		first = 0;
		if (ncucsv_launch(c, row, &launch, cause) != 0) {
			rc = -1;
			break;
		}
		for (i = 0; i < header->n && i < row->n; i++) {
			const char *h = ncucsv_field(header, (int)i);
			if (*h == '\0' || ncucsv_is_identity(h))
				continue;
			unit = ncucsv_field(&units, (int)i);
			ncucsv_value(c, ncucsv_field(row, (int)i), &unit, &v);
			if (v.type == RV_NONE)
				continue;
			m = report_add_metric(c->r, launch,
			    report_intern0(c->r, h));
			m->unit = report_intern0(c->r, unit);
			m->value = v;
		}
	}
	free(units.buf);
	free(units.off);
	return rc;
}

int
ncucsv_probe(const char *text, size_t len)
{
	const char	*p = text, *end = text + len, *nl;

	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	/* Skip ==PROF== and other tool lines. */
	while (p < end && end - p >= 2 && p[0] == '=' && p[1] == '=') {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return 0;
		p = nl + 1;
	}
	return end - p >= 17 && memcmp(p, "\"ID\",\"Process ID\"", 17) == 0;
}

struct report *
ncucsv_parse(const void *buf, size_t len, const char *name, char **cause)
{
	const char		*text = buf;
	struct ncucsv		 c;
	struct ncucsv_row	 header, row;
	const char		*nl;
	int			 rc, details;

	memset(&c, 0, sizeof c);
	memset(&header, 0, sizeof header);
	memset(&row, 0, sizeof row);
	c.p = text;
	c.end = text + len;
	c.name = name;
	c.nextline = 1;
	hmap_init(&c.launch_of);
	hmap_init(&c.section_of);
	if (len >= 3 && memcmp(c.p, "\xef\xbb\xbf", 3) == 0)
		c.p += 3;
	while (c.end - c.p >= 2 && c.p[0] == '=' && c.p[1] == '=') {
		if ((nl = memchr(c.p, '\n', (size_t)(c.end - c.p))) == NULL)
			break;
		c.p = nl + 1;
		c.nextline++;
	}
	if ((rc = ncucsv_read(&c, &header, cause)) <= 0 ||
	    !ncucsv_header(&c, &header)) {
		if (rc >= 0) {
			free(*cause);
			*cause = xasprintf("%s: not an Nsight Compute CSV "
			    "export (no \"ID\" column in the header)", name);
		}
		goto fail;
	}
	details = c.col[C_METRIC] >= 0 && c.col[C_VALUE] >= 0;
	c.r = report_new(details ? REPORT_NCU_CSV_DETAILS :
	    REPORT_NCU_CSV_RAW);
	if (details)
		rc = ncucsv_details(&c, &row, cause);
	else
		rc = ncucsv_raw(&c, &header, &row, cause);
	if (rc < 0)
		goto fail;
	if (c.r->nlaunches == 0)
		report_warn(c.r, "%s: the export holds no profiled launch",
		    name);
	free(header.buf);
	free(header.off);
	free(row.buf);
	free(row.off);
	hmap_free(&c.launch_of);
	hmap_free(&c.section_of);
	report_finish(c.r);
	return c.r;

fail:
	free(header.buf);
	free(header.off);
	free(row.buf);
	free(row.off);
	hmap_free(&c.launch_of);
	hmap_free(&c.section_of);
	report_free(c.r);
	return NULL;
}

struct report *
ncucsv_load(const char *path, char **cause)
{
	return ncu_read(path, NCUCSV_MAX_FILE, ncucsv_parse, cause);
}
