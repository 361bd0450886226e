/*
 * gen-samples: plant samples (gen.h): CPU samples with call chains, as
 * nsys --sample=cpu records them (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS),
 * and the backtraces of the CUDA runtime calls (--cudabacktrace:
 * CUDA_CALLCHAINS, CUPTI_ACTIVITY_KIND_RUNTIME.callchainId, NULL without
 * the plant). Written once the trace is, so the rest of the file is that
 * of a trace without it.
 *
 * Known answers (P = GEN_SAMPLE_PERIOD, N = 10 * floor(span / (10 P)),
 * span the trace's first start to its last end):
 *   - every rank's main thread: N samples, at first + k P (k = 0 .. N-1),
 *     sample k with chain k % 10: 0-4 "aten::addmm" (libtorch_cpu.so) <
 *     "forward" < "main" (python3); 5-7 "cudaLaunchKernel"
 *     (libcudart.so.12) < "at::native::launch" (libtorch_cuda.so) <
 *     "forward" < "main"; 8 "PyEval_EvalFrameDefault" < "main"; 9
 *     "forward" < "forward" < "main" (recursion). So per main thread
 *     self: addmm 50%, cudaLaunchKernel 30%, PyEval 10%, forward 10%;
 *     total: forward 90%, main 100%;
 *   - every rank's autograd thread: N / 2 samples (k even), all
 *     "autograd::Engine::evaluate_function" (libtorch_cpu.so) <
 *     "start_thread" (libc.so.6);
 *   - every process's [NSys] thread (pid + 2, in no other table): N / 10
 *     samples (k % 10 == 0), "nanosleep" (libc.so.6), a thread that is
 *     sampled but made no traced call.
 *   - runtime call with rowid r: callchainId r % 3 + 1; CUDA chain c (1 to
 *     3): "cudaLaunchKernel" (libcudart.so.12) < "caller_c"
 *     (libtorch_cuda.so) < "main" (python3).
 */
#include "config.h"


#include <sqlite3.h>

#include "sources/synth/gen-int.h"

#define GEN_SAMPLE_PERIOD	(250 * US)

enum {
	F_ADDMM, F_FORWARD, F_MAIN, F_LAUNCH, F_TLAUNCH, F_PYEVAL, F_EVAL,
	F_START, F_SLEEP, F_CALLER1, F_CALLER2, F_CALLER3,
	M_TORCH, M_PYTHON, M_CUDART, M_TCUDA, M_LIBC, NSTR
};
static const char *const gen_sample_str[NSTR] = {
	"aten::addmm", "forward", "main", "cudaLaunchKernel",
	"at::native::launch", "PyEval_EvalFrameDefault",
	"autograd::Engine::evaluate_function", "start_thread", "nanosleep",
	"caller_1", "caller_2", "caller_3",
	"/usr/lib/python3/site-packages/torch/lib/libtorch_cpu.so",
	"/usr/bin/python3", "/usr/local/cuda/lib64/libcudart.so.12",
	"/usr/lib/python3/site-packages/torch/lib/libtorch_cuda.so",
	"/lib/x86_64-linux-gnu/libc.so.6"
};

/* Sampling chains, leaf first: {function, module} pairs, -1 ends. */
static const int gen_sample_chain[6][5][2] = {
	{ { F_ADDMM, M_TORCH }, { F_FORWARD, M_PYTHON }, { F_MAIN, M_PYTHON },
	  { -1, -1 } },
	{ { F_LAUNCH, M_CUDART }, { F_TLAUNCH, M_TCUDA },
	  { F_FORWARD, M_PYTHON }, { F_MAIN, M_PYTHON }, { -1, -1 } },
	{ { F_PYEVAL, M_PYTHON }, { F_MAIN, M_PYTHON }, { -1, -1 } },
	{ { F_FORWARD, M_PYTHON }, { F_FORWARD, M_PYTHON },
	  { F_MAIN, M_PYTHON }, { -1, -1 } },
	{ { F_EVAL, M_TORCH }, { F_START, M_LIBC }, { -1, -1 } },
	{ { F_SLEEP, M_LIBC }, { -1, -1 } }
};
/* Chain of main-thread sample k % 10. */
static const int gen_sample_main[10] = { 0, 0, 0, 0, 0, 1, 1, 1, 2, 3 };

static void
gen_samples_chains(struct gen *g, int64_t base)
{
	sqlite3_stmt	*st;
	int		 c, d;

	st = gen_sql_prep(g, "INSERT INTO CUDA_CALLCHAINS (id, symbol, module, "
	    "unresolved, originalIP, stackDepth) VALUES (?, ?, ?, 0, ?, ?)");
	for (c = 1; c <= 3; c++) {
		int fr[3][2] = { { F_LAUNCH, M_CUDART },
		    { F_CALLER1 + c - 1, M_TCUDA }, { F_MAIN, M_PYTHON } };
		for (d = 0; d < 3; d++)
			gen_sql_put(g, st, "lllll", (int64_t)c,
			    base + fr[d][0], base + fr[d][1],
			    (int64_t)(0x400000 + 16 * c + d), (int64_t)d);
	}
	gen_sql_finish(st);
}

/* One sample: its row and its chain's rows. */
static void
gen_samples_one(struct gen *g, sqlite3_stmt *ev, sqlite3_stmt *cc,
    int64_t *id, int64_t t, uint64_t gtid, int chain, int64_t base)
{
	int	d;

	(*id)++;
	gen_sql_put(g, ev, "llll", *id, t, (int64_t)gtid, (int64_t)(*id * 7));
	for (d = 0; gen_sample_chain[chain][d][0] >= 0; d++)
		gen_sql_put(g, cc, "lllll", *id,
		    base + gen_sample_chain[chain][d][0],
		    base + gen_sample_chain[chain][d][1],
		    (int64_t)(0x500000 + 64 * chain + d), (int64_t)d);
}

void
gen_samples_write(struct gen *g)
{
	sqlite3_stmt	*st, *ev, *cc;
	int64_t		 base, n, k, id = 0, t;
	int		 r, p, i;

	if (g->failed || g->last <= g->first)
		return;
	gen_sql_exec(g, "CREATE TABLE COMPOSITE_EVENTS (id INTEGER NOT NULL "
	    "PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER, threadState "
	    "INTEGER, globalTid INTEGER, cpuCycles INTEGER NOT NULL);"
	    "CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER NOT NULL, symbol "
	    "INTEGER NOT NULL, module INTEGER NOT NULL, kernelMode INTEGER, "
	    "thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, "
	    "originalIP INTEGER, unwindMethod INTEGER, stackDepth INTEGER NOT "
	    "NULL, PRIMARY KEY (id, stackDepth));"
	    "CREATE TABLE CUDA_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER "
	    "NOT NULL, module INTEGER NOT NULL, unresolved INTEGER, originalIP "
	    "INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, "
	    "stackDepth));"
	    "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = rowid % 3 "
	    "+ 1;");
	/* The strings, after every other. */
	base = 0;
	st = gen_sql_prep(g, "SELECT coalesce(max(id), 0) + 1 FROM StringIds");
	if (st != NULL && sqlite3_step(st) == SQLITE_ROW)
		base = sqlite3_column_int64(st, 0);
	gen_sql_finish(st);
	st = gen_sql_prep(g, "INSERT INTO StringIds (id, value) VALUES (?, ?)");
	for (i = 0; i < NSTR; i++)
		gen_sql_put(g, st, "ls", base + i, gen_sample_str[i]);
	gen_sql_finish(st);
	gen_samples_chains(g, base);

	ev = gen_sql_prep(g, "INSERT INTO COMPOSITE_EVENTS (id, start, cpu, "
	    "threadState, globalTid, cpuCycles) VALUES (?, ?, 0, 1, ?, ?)");
	cc = gen_sql_prep(g, "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, "
	    "module, kernelMode, thumbCode, unresolved, specialEntry, "
	    "originalIP, unwindMethod, stackDepth) VALUES (?, ?, ?, 0, 0, 0, "
	    "0, ?, 1, ?)");
	n = 10 * ((g->last - g->first) / (10 * GEN_SAMPLE_PERIOD));
	for (k = 0; k < n && !g->failed; k++) {
		t = g->first + k * GEN_SAMPLE_PERIOD;
		for (r = 0; r < g->nranks; r++) {
			gen_samples_one(g, ev, cc, &id, t,
			    g->ranks[r].gtid[TH_MAIN], gen_sample_main[k % 10],
			    base);
			if (k % 2 == 0)
				gen_samples_one(g, ev, cc, &id, t + US,
				    g->ranks[r].gtid[TH_AUTOGRAD], 4, base);
		}
		if (k % 10 == 0)
			for (p = 0; p < g->nprocs; p++)
				gen_samples_one(g, ev, cc, &id, t + 2 * US,
				    g->procs[p].gpid | (g->procs[p].pid + 2),
				    5, base);
	}
	gen_sql_finish(ev);
	gen_sql_finish(cc);
}
