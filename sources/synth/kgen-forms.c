/*
 * kgen-forms: the other shapes kgen writes (kgen.h): a generic Chrome
 * trace (opts->chrome) and a TraceLens-style merge of every rank of a job
 * into one file (opts->merged).
 *
 * The merge is made as TraceFuse makes it: each rank's trace is generated
 * into a temporary file, then its events (one per line, as kgen writes
 * them) are parsed with cJSON, rewritten and printed one by one, so memory
 * is one event. The offset multipliers come from rank 0's trace, as
 * TraceFuse computes them: 10^(ceil(log10(max + 1)) + 1) per field.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "sources/synth/kgen.h"
#include "sources/synth/synth.h"
#include "util/xmalloc.h"

#define KF_LINE		(1u << 20)

struct kf_out {
	FILE		*fp;
	gzFile		 gz;
	int		 err;
};

static void
kf_puts(struct kf_out *o, const char *s)
{
	size_t	n = strlen(s);

	if (o->err || n == 0)
		return;
	if (o->gz != NULL) {
		if (gzwrite(o->gz, s, (unsigned)n) != (int)n)
			o->err = EIO;
	} else if (fwrite(s, 1, n, o->fp) != n)
		o->err = errno != 0 ? errno : EIO;
}

static void
kf_printf(struct kf_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
kf_printf(struct kf_out *o, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	kf_puts(o, s);
	free(s);
}

/* A deterministic duration (ns) in [base, 2 * base). */
static int64_t
kf_dur(uint64_t seed, uint64_t a, uint64_t b, int64_t base)
{
	uint64_t	z = seed * 0x9E3779B97F4A7C15ULL ^ a * 0xC2B2AE3D27D4EB4FULL ^
	    b * 0x165667B19E3779F9ULL;

	z = synth_mix64(z);
	return base + (int64_t)(z % (uint64_t)base);
}

/* The generic Chrome trace (kgen.h). */
static void
kf_chrome(struct kf_out *o, const struct kgen_opts *op, struct kgen_stats *st)
{
	char		 a[32], b[32];
	uint64_t	 n, i, iters, per;
	int64_t		 t = 1000000, ks, kd, gpu = 0, r0, ad;
	int		 dev = op->rank % 8, sep = 0;

	iters = op->events < 40 ? 1 : op->events / 40;
	per = 8;
	kf_puts(o, "[\n");
#define SEP()	do { kf_puts(o, sep ? ",\n" : ""); sep = 1; st->events++; } \
	while (0)
	SEP();
	kf_printf(o, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": "
	    "\"Host %d\", \"tid\": 0, \"args\": {\"name\": \"python\", "
	    "\"generator\": \"" KGEN_GENERATOR "\"}}", dev);
	st->metadata++;
	for (n = 0; n < iters; n++) {
		r0 = t;
		SEP();
		kf_printf(o, "{\"name\": \"step %llu\", \"ph\": \"B\", \"cat\": "
		    "\"nvtx\", \"ts\": %s, \"tid\": \"NVTX 100\", \"pid\": "
		    "\"Host %d\"}", (unsigned long long)n,
		    synth_us(a, sizeof a, t), dev);
		st->annotations++;
		for (i = 0; i < per; i++) {
			ad = kf_dur(op->seed, n, i, 3000);
			SEP();
			kf_printf(o, "{\"name\": \"cudaLaunchKernel\", \"ph\": "
			    "\"X\", \"cat\": \"cuda_api\", \"ts\": %s, \"dur\": "
			    "%s, \"tid\": \"CUDA API 100\", \"pid\": \"Host "
			    "%d\", \"args\": {\"correlationId\": %llu}}",
			    synth_us(a, sizeof a, t), synth_us(b, sizeof b, ad),
			    dev, (unsigned long long)(n * per + i + 1));
			st->runtime++;
			ks = t + ad + 2000;
			if (ks < gpu)
				ks = gpu;
			kd = kf_dur(op->seed, n, i + 100, i % 2 ? 20000 :
			    150000);
			SEP();
			kf_printf(o, "{\"name\": \"%s\", \"ph\": \"X\", \"cat\": "
			    "\"cuda\", \"ts\": %s, \"dur\": %s, \"tid\": \"CUDA "
			    "API 7\", \"pid\": \"Device %d\", \"args\": "
			    "{\"NVTXRegions\": [\"step %llu\"]}}", i % 2 ?
			    "splitKreduce_kernel" : "gemv2T_kernel_val",
			    synth_us(a, sizeof a, ks), synth_us(b, sizeof b, kd),
			    dev, (unsigned long long)n);
			st->kernels++;
			st->kernel_ns += kd;
			gpu = ks + kd;
			t += ad + 1000;
		}
		SEP();
		kf_printf(o, "{\"name\": \"step %llu\", \"ph\": \"X\", \"cat\": "
		    "\"nvtx-kernel\", \"ts\": %s, \"dur\": %s, \"tid\": \"NVTX "
		    "100\", \"pid\": \"Device %d\", \"args\": {}}",
		    (unsigned long long)n, synth_us(a, sizeof a, r0 + 5000),
		    synth_us(b, sizeof b, gpu - r0 - 5000), dev);
		st->gpu_annotations++;
		SEP();
		kf_printf(o, "{\"name\": \"step %llu\", \"ph\": \"E\", \"cat\": "
		    "\"nvtx\", \"ts\": %s, \"tid\": \"NVTX 100\", \"pid\": "
		    "\"Host %d\"}", (unsigned long long)n,
		    synth_us(a, sizeof a, t), dev);
		t += 10000;
		if (gpu > t)
			t = gpu;
	}
	SEP();
	kf_printf(o, "{\"name\": \"done\", \"ph\": \"i\", \"s\": \"t\", \"cat\": "
	    "\"nvtx\", \"ts\": %s, \"tid\": \"NVTX 100\", \"pid\": \"Host "
	    "%d\"}", synth_us(a, sizeof a, t), dev);
	SEP();
	kf_printf(o, "{\"name\": \"memory\", \"ph\": \"C\", \"ts\": %s, \"pid\": "
	    "\"Host %d\", \"args\": {\"MiB\": 512}}", synth_us(a, sizeof a, t),
	    dev);
	kf_puts(o, "\n]\n");
#undef SEP
}

/* An event line of a kgen trace: the object, or NULL. */
static cJSON *
kf_event(char *line)
{
	size_t	n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ',' ||
	    line[n - 1] == ' '))
		line[--n] = '\0';
	while (*line == ' ')
		line++;
	if (*line != '{' || n == 0 || line[strlen(line) - 1] != '}')
		return NULL;
	return cJSON_Parse(line);
}

static int64_t
kf_int(const cJSON *o, const char *key, int *ok)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	*ok = cJSON_IsNumber(v) && v->valuedouble == (double)(int64_t)
	    v->valuedouble;
	return *ok ? (int64_t)v->valuedouble : 0;
}

static int64_t
kf_mult(int64_t max)
{
	int64_t	m = 10;

	while (m <= max)	/* 10^ceil(log10(max + 1)) */
		m *= 10;
	return m * 10;
}

/* Offsets field (of o, or of args) by rank * mult, keeping the original
 * in args "<field>_raw". */
static void
kf_offset(cJSON *ev, cJSON *args, int in_args, const char *field, int rank,
    int64_t mult)
{
	cJSON	*o = in_args ? args : ev, *v;
	char	 raw[64];

	if ((v = cJSON_GetObjectItemCaseSensitive(o, field)) == NULL)
		return;
	snprintf(raw, sizeof raw, "%s_raw", field);
	cJSON_AddItemToObject(args, raw, cJSON_Duplicate(v, 1));
	if (cJSON_IsNumber(v) && v->valuedouble == (double)(int64_t)
	    v->valuedouble)
		cJSON_SetNumberValue(v, (double)((int64_t)v->valuedouble +
		    rank * mult));
}

static int
kf_merged(struct kf_out *o, const char *path, const struct kgen_opts *op,
    struct kgen_stats *st, char **cause)
{
	struct kgen_opts	 ro = *op;
	struct kgen_stats	 rs;
	FILE			*fp;
	cJSON			*ev, *args;
	char			*tmp, *line, *s;
	int64_t			 mpid = 0, mid = 0, mcorr = 0, x, pids[2][64];
	int			 rk, pass, ok, sep = 0, np[64], k, inside;
	const char		*ph, *name, *cat;

	tmp = xasprintf("%s.rankXXXXXX", path);
	if ((k = mkstemp(tmp)) == -1) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	close(k);
	line = xmalloc(KF_LINE);
	memset(np, 0, sizeof np);
	kf_puts(o, "{\"traceEvents\": [");
	for (rk = 0; rk < op->world; rk++) {
		ro.rank = rk;
		ro.merged = 0;
		ro.gzip = 0;
		ro.force = 1;
		if (kgen_write(tmp, &ro, &rs, cause) != 0)
			goto fail;
		for (pass = rk == 0 ? 0 : 1; pass < 2; pass++) {
			if ((fp = fopen(tmp, "r")) == NULL) {
				*cause = xasprintf("%s: %s", tmp,
				    strerror(errno));
				goto fail;
			}
			inside = 0;
			while (fgets(line, KF_LINE, fp) != NULL) {
				/* Only the lines of the event array. */
				if (!inside) {
					inside = strstr(line, "\"traceEvents\": "
					    "[") != NULL;
					continue;
				}
				if (strncmp(line, "  ]", 3) == 0)
					break;
				if ((ev = kf_event(line)) == NULL)
					continue;
				args = cJSON_GetObjectItemCaseSensitive(ev,
				    "args");
				if (pass == 0) {
					/* Rank 0: the maxima. */
					x = kf_int(ev, "pid", &ok);
					if (ok && x > mpid)
						mpid = x;
					x = kf_int(ev, "id", &ok);
					if (ok && x > mid)
						mid = x;
					x = kf_int(args, "correlation", &ok);
					if (ok && x > mcorr)
						mcorr = x;
					cJSON_Delete(ev);
					continue;
				}
				ph = cJSON_GetStringValue(
				    cJSON_GetObjectItemCaseSensitive(ev, "ph"));
				name = cJSON_GetStringValue(
				    cJSON_GetObjectItemCaseSensitive(ev,
				    "name"));
				if (ph != NULL && strcmp(ph, "M") == 0 &&
				    name != NULL && (strcmp(name,
				    "process_name") == 0 || strcmp(name,
				    "process_labels") == 0)) {
					cJSON_Delete(ev);
					continue;
				}
				if (args == NULL)
					args = cJSON_AddObjectToObject(ev,
					    "args");
				cJSON_AddNumberToObject(args, "rank", rk);
				if (!sep)	/* kgen.c's overwrite check */
					cJSON_AddStringToObject(args,
					    "generator", KGEN_GENERATOR);
				kf_offset(ev, args, 0, "id", rk, kf_mult(mid));
				kf_offset(ev, args, 0, "pid", rk,
				    kf_mult(mpid));
				kf_offset(ev, args, 1, "correlation", rk,
				    kf_mult(mcorr));
				/* Pids for the RANK r - CPU/GPU names. */
				x = kf_int(ev, "pid", &ok);
				cat = cJSON_GetStringValue(
				    cJSON_GetObjectItemCaseSensitive(ev,
				    "cat"));
				k = cat != NULL && (strcmp(cat, "kernel") ==
				    0 || strcmp(cat, "gpu_memcpy") == 0 ||
				    strcmp(cat, "gpu_memset") == 0);
				if (ok && rk < 64 && np[rk] < 2 &&
				    (np[rk] == 0 || pids[np[rk] - 1][rk] !=
				    x) && (ph == NULL || strcmp(ph, "M") != 0))
					pids[np[rk]++][rk] = k ? -x - 1 : x;
				s = cJSON_PrintUnformatted(ev);
				kf_puts(o, sep ? ",\n" : "\n");
				kf_puts(o, s);
				sep = 1;
				cJSON_free(s);
				if (ph != NULL && strcmp(ph, "M") == 0)
					st->metadata++;
				cJSON_Delete(ev);
				st->events++;
			}
			fclose(fp);
		}
		st->kernels += rs.kernels;
		st->kernel_ns += rs.kernel_ns;
		st->nccl += rs.nccl;
		st->runtime += rs.runtime;
		st->iterations = rs.iterations;
		st->layers = rs.layers;
	}
	/* TraceFuse's own process names. */
	for (rk = 0; rk < op->world && rk < 64; rk++)
		for (k = 0; k < np[rk]; k++) {
			x = pids[k][rk] < 0 ? -pids[k][rk] - 1 : pids[k][rk];
			kf_printf(o, ",\n{\"name\": \"process_name\", \"ph\": "
			    "\"M\", \"pid\": %lld, \"tid\": 0, \"args\": "
			    "{\"name\": \"RANK %d - %s\"}}", (long long)x, rk,
			    pids[k][rk] < 0 ? "GPU" : "CPU");
			st->events++;
			st->metadata++;
		}
	kf_puts(o, "\n]}\n");
	unlink(tmp);
	free(tmp);
	free(line);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	free(line);
	return -1;
}

int
kgen_forms_write(const char *path, const struct kgen_opts *op,
    struct kgen_stats *st, char **cause)
{
	struct kf_out	 o;
	char		*tmp, mode[16];
	int		 fd, rc = 0;

	memset(&o, 0, sizeof o);
	tmp = xasprintf("%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		*cause = xasprintf("%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	(void)fchmod(fd, 0644);
	if (op->gzip > 0) {
		snprintf(mode, sizeof mode, "wb%d", op->gzip);
		o.gz = gzdopen(fd, mode);
	} else
		o.fp = fdopen(fd, "w");
	if (o.gz == NULL && o.fp == NULL) {
		close(fd);
		unlink(tmp);
		*cause = xasprintf("%s: cannot open for writing", tmp);
		free(tmp);
		return -1;
	}
	if (op->merged)
		rc = kf_merged(&o, path, op, st, cause);
	else
		kf_chrome(&o, op, st);
	if (o.gz != NULL && gzclose(o.gz) != Z_OK && o.err == 0)
		o.err = EIO;
	if (o.fp != NULL && fclose(o.fp) != 0 && o.err == 0)
		o.err = errno;
	if (rc == 0 && o.err != 0) {
		*cause = xasprintf("%s: write error: %s", path,
		    strerror(o.err));
		rc = -1;
	}
	if (rc == 0 && rename(tmp, path) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}
