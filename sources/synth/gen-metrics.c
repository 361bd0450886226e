/*
 * gen-metrics: the planted GPU and NIC metrics (plants gpu-metrics,
 * nic-metrics; gen.h), written after the training rows, over the trace's
 * span, with values that make the answers known:
 *
 * GPU_METRICS, every GEN_GPU_METRIC_NS (10 kHz, as nsys samples by
 * default) on every GPU d, typeId 0x100 | d (the GPU is typeId & 0xFF),
 * three metrics named in TARGET_INFO_GPU_METRICS:
 *   0 "SMs Active [Throughput %]"           50 + 10 d (constant)
 *   1 "DRAM Read Bandwidth [Throughput %]"  sample index k mod 100
 *   2 "GPC Clock Frequency [MHz]"           1755
 * GPU 0 misses its samples in [first + span / 2, + GEN_GPU_METRIC_GAP):
 * one gap of GEN_GPU_METRIC_GAP + one interval, the only gap.
 *
 * NET_NIC_METRIC (start, end, globalId, portId, metricsListId, metricsIdx,
 * value), every GEN_NIC_METRIC_NS on one NIC "mlx5_0" (nicId 0, globalId
 * GEN_NIC_GLOBAL_ID, port 1; NIC_ID_MAP and TARGET_INFO_NIC_INFO name it),
 * two metrics named in TARGET_INFO_NETWORK_METRICS (list 1):
 *   0 "IB: Bytes sent"      1000 * (k mod 10)
 *   1 "IB: Bytes received"  2000
 */

#include "config.h"

#include "sources/synth/gen.h"
#include "sources/synth/gen-int.h"

static const char gen_metrics_gpu_ddl[] =
"CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL,"
" sourceId INTEGER NOT NULL, typeName TEXT NOT NULL,"
" metricId INTEGER NOT NULL, metricName TEXT NOT NULL);"
"CREATE TABLE GPU_METRICS (rawTimestamp INTEGER NOT NULL,"
" timestamp INTEGER NOT NULL, typeId INTEGER NOT NULL,"
" metricId INTEGER NOT NULL, value INTEGER NOT NULL);";

static const char gen_metrics_nic_ddl[] =
"CREATE TABLE TARGET_INFO_NIC_INFO (globalId INTEGER,"
" stateName TEXT NOT NULL, nicId INTEGER NOT NULL, name TEXT NOT NULL,"
" deviceId INTEGER NOT NULL, vendorId INTEGER NOT NULL,"
" linkLayer INTEGER NOT NULL);"
"CREATE TABLE NIC_ID_MAP (nicId INTEGER NOT NULL,"
" globalId INTEGER NOT NULL);"
"CREATE TABLE TARGET_INFO_NETWORK_METRICS (metricsListId INTEGER NOT NULL,"
" metricsIdx INTEGER NOT NULL, name TEXT NOT NULL,"
" description TEXT NOT NULL, unit TEXT NOT NULL);"
"CREATE TABLE NET_NIC_METRIC (start INTEGER NOT NULL, end INTEGER NOT NULL,"
" globalId INTEGER NOT NULL, portId INTEGER NOT NULL,"
" metricsListId INTEGER NOT NULL, metricsIdx INTEGER NOT NULL,"
" value INTEGER NOT NULL);";

static const char *const gen_gpu_metric_names[] = {
	"SMs Active [Throughput %]", "DRAM Read Bandwidth [Throughput %]",
	"GPC Clock Frequency [MHz]"
};
static const char *const gen_nic_metric_names[] = {
	"IB: Bytes sent", "IB: Bytes received"
};

static void
gen_metrics_gpu(struct gen *g)
{
	sqlite3_stmt	*st;
	int64_t		 t, gap0, k;
	int		 d, i;

	gen_sql_exec(g, gen_metrics_gpu_ddl);
	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_GPU_METRICS VALUES "
	    "(?, 0, 'GPU metrics', ?, ?)");
	for (d = 0; d < g->nranks; d++)
		for (i = 0; i < 3; i++)
			gen_sql_put(g, st, "lds", (int64_t)(0x100 | d), i,
			    gen_gpu_metric_names[i]);
	gen_sql_finish(st);
	gap0 = g->first + (g->last - g->first) / 2;
	st = gen_sql_prep(g, "INSERT INTO GPU_METRICS VALUES (?, ?, ?, ?, ?)");
	for (d = 0; d < g->nranks; d++) {
		for (k = 0, t = g->first; t <= g->last;
		    k++, t += GEN_GPU_METRIC_NS) {
			if (d == 0 && t >= gap0 && t < gap0 +
			    GEN_GPU_METRIC_GAP)
				continue;
			gen_sql_put(g, st, "lllll", t, t, (int64_t)(0x100 | d),
			    (int64_t)0, (int64_t)(50 + 10 * d));
			gen_sql_put(g, st, "lllll", t, t, (int64_t)(0x100 | d),
			    (int64_t)1, (int64_t)(k % 100));
			gen_sql_put(g, st, "lllll", t, t, (int64_t)(0x100 | d),
			    (int64_t)2, (int64_t)1755);
		}
	}
	gen_sql_finish(st);
}

static void
gen_metrics_nic(struct gen *g)
{
	sqlite3_stmt	*st;
	int64_t		 t, k;
	int		 i;

	gen_sql_exec(g, gen_metrics_nic_ddl);
	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_NIC_INFO VALUES "
	    "(NULL, 'Local (CLI)', 0, 'mlx5_0', 4117, 5555, 1)");
	gen_sql_put(g, st, "");
	gen_sql_finish(st);
	st = gen_sql_prep(g, "INSERT INTO NIC_ID_MAP VALUES (0, ?)");
	gen_sql_put(g, st, "l", (int64_t)GEN_NIC_GLOBAL_ID);
	gen_sql_finish(st);
	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_NETWORK_METRICS VALUES "
	    "(1, ?, ?, ?, 'B')");
	for (i = 0; i < 2; i++)
		gen_sql_put(g, st, "dss", i, gen_nic_metric_names[i],
		    gen_nic_metric_names[i]);
	gen_sql_finish(st);
	st = gen_sql_prep(g, "INSERT INTO NET_NIC_METRIC VALUES "
	    "(?, ?, ?, 1, 1, ?, ?)");
	for (k = 0, t = g->first; t <= g->last; k++, t += GEN_NIC_METRIC_NS) {
		gen_sql_put(g, st, "llldl", t, (int64_t)(t + GEN_NIC_METRIC_NS),
		    (int64_t)GEN_NIC_GLOBAL_ID, 0, (int64_t)(1000 * (k % 10)));
		gen_sql_put(g, st, "llldl", t, (int64_t)(t + GEN_NIC_METRIC_NS),
		    (int64_t)GEN_NIC_GLOBAL_ID, 1, (int64_t)2000);
	}
	gen_sql_finish(st);
}

void
gen_metrics_write(struct gen *g)
{
	if (gen_plant_on(g, GEN_PLANT_GPU_METRICS))
		gen_metrics_gpu(g);
	if (gen_plant_on(g, GEN_PLANT_NIC_METRICS))
		gen_metrics_nic(g);
}
