/*
 * nsys-enum: the ENUM_* tables of an export (copy and memory kinds,
 * synchronisation types, the OS runtime event class, NVTX event types),
 * with the hard-coded numbering of older exports that lack them (FORMATS.md
 * 1.3), and the event names made from them ("[CUDA memcpy HtoD]").
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "util/xmalloc.h"

/* Hard-coded numbering of exports without ENUM tables (FORMATS.md 1.3). */
static const uint8_t nsys_old_copy_kind[] = {
	COPY_UNKNOWN, COPY_HTOD, COPY_DTOH, COPY_HTOA, COPY_ATOH, COPY_ATOA,
	COPY_ATOD, COPY_DTOA, COPY_DTOD, COPY_HTOH, COPY_PTOP, COPY_UM_HTOD,
	COPY_UM_DTOH, COPY_UM_DTOD
};
/* Their labels, as older nsysstats printed them ("[CUDA memcpy HtoD]"). */
static const char *const nsys_old_copy_label[] = {
	"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA",
	"DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH", "Unified DtoD"
};
static const uint8_t nsys_old_mem_kind[] = {
	MEM_PAGEABLE, MEM_PINNED, MEM_DEVICE, MEM_ARRAY, MEM_MANAGED,
	MEM_DEVICE_STATIC, MEM_MANAGED_STATIC, MEM_UNKNOWN
};
static const char *const nsys_old_sync_label[] = {
	"Unknown", "Event sync", "Stream wait sync", "Stream sync",
	"Context sync"
};

/* ENUM_CUDA_MEMCPY_OPER symbol suffixes, in enum copy_kind order. */
static const char *const nsys_copy_sym[COPY_KIND_COUNT] = {
	"UNKNOWN", "HTOD", "DTOH", "DTOD", "HTOH", "PTOP", "HTOA", "ATOH",
	"ATOA", "ATOD", "DTOA", "UVM_HTOD", "UVM_DTOH", "UVM_DTOD"
};
/* ENUM_CUDA_MEM_KIND symbol suffixes, in enum mem_kind order. */
static const char *const nsys_mem_sym[MEM_KIND_COUNT] = {
	"UNKNOWN", "PAGEABLE", "PINNED", "DEVICE", "ARRAY", "MANAGED",
	"DEVICE_STATIC", "MANAGED_STATIC"
};

/* NVTX event types: ENUM_NSYS_EVENT_TYPE names and the old numbers. */
static const struct {
	const char	*name;
	int		 id;
	uint8_t		 role;
} nsys_nvtx_types[] = {
	{ "NvtxCategory",	33, NR_CATEGORY },
	{ "NvtxMark",		34, NR_MARK },
	{ "NvtxThread",		39, NR_THREAD },
	{ "NvtxPushPopRange",	59, NR_PUSHPOP },
	{ "NvtxStartEndRange",	60, NR_STARTEND },
	{ "NvtxtPushPopRange",	70, NR_PUSHPOP },
	{ "NvtxtStartEndRange",	71, NR_STARTEND },
	{ "NvtxDomainCreate",	75, NR_DOMAIN },
	{ "NvtxDomainDestroy",	76, NR_IGNORE },
};

/* The index in syms[0, n) of the symbol after prefix in name
 * ("CUDA_MEMCPY_KIND_HTOD"), or -1. */
static int
nsys_enum_sym(const char *name, const char *prefix, const char *const *syms,
    int n)
{
	const char	*p;
	int		 j;

	if ((p = strstr(name, prefix)) == NULL)
		return -1;
	p += strlen(prefix);
	for (j = 0; j < n; j++)
		if (strcmp(p, syms[j]) == 0)
			return j;
	return -1;
}

/*
 * The enum copy_kind of an ENUM_CUDA_MEMCPY_OPER row: by its symbol
 * ("CUDA_MEMCPY_KIND_HTOD"), else by its label ("Host-to-Device", or the
 * short "HtoD" of older exports).
 */
static int
nsys_copy_kind_of(const char *name, const char *label)
{
	static const char *const shortl[COPY_KIND_COUNT] = {
		"Unknown", "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "HtoA",
		"AtoH", "AtoA", "AtoD", "DtoA", "Unified HtoD", "Unified DtoH",
		"Unified DtoD"
	};
	int	j;

	if ((j = nsys_enum_sym(name, "MEMCPY_KIND_", nsys_copy_sym,
	    COPY_KIND_COUNT)) >= 0)
		return j;
	for (j = 0; j < COPY_KIND_COUNT; j++)
		if (strcasecmp(label, copy_kind_label(j)) == 0 ||
		    strcasecmp(label, shortl[j]) == 0)
			return j;
	return COPY_UNKNOWN;
}

/* The enum mem_kind of an ENUM_CUDA_MEM_KIND row. */
static int
nsys_mem_kind_of(const char *name, const char *label)
{
	int	j;

	if ((j = nsys_enum_sym(name, "MEMORY_KIND_", nsys_mem_sym,
	    MEM_KIND_COUNT)) >= 0)
		return j;
	for (j = 0; j < MEM_KIND_COUNT; j++)
		if (strcasecmp(label, mem_kind_label(j)) == 0)
			return j;
	return MEM_UNKNOWN;
}

/*
 * Kinds from an enum table: kind[] defaults to the old numbering old[0,
 * nold) (else unknown), then each row of table sets its id's kind through
 * kind_of and, where labels is not NULL, its label if it has one.
 */
static int
nsys_enum_kinds(struct nsys *n, const char *table, uint8_t *kind,
    const uint8_t *old, size_t nold, uint8_t unknown,
    int (*kind_of)(const char *, const char *), char **labels)
{
	struct nsys_db_enum_row	*e;
	ssize_t			 ne, i;
	size_t			 k;

	for (k = 0; k < NSYS_NENUM; k++)
		kind[k] = k < nold ? old[k] : unknown;
	if ((ne = nsys_db_enum(&n->d, table, &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++) {
		if (e[i].id < 0 || e[i].id >= NSYS_NENUM)
			continue;
		kind[e[i].id] = (uint8_t)kind_of(e[i].name, e[i].label);
		if (labels != NULL && *e[i].label != '\0') {
			free(labels[e[i].id]);
			labels[e[i].id] = xstrdup(e[i].label);
		}
	}
	nsys_db_enum_free(e, ne);
	return 0;
}

int
nsys_enum_read(struct nsys *n)
{
	struct nsys_db_enum_row	*e;
	ssize_t			 ne, i;
	size_t			 k;

	/* Copy kinds: default to the old numbering, then apply the table. */
	if (nsys_enum_kinds(n, "ENUM_CUDA_MEMCPY_OPER", n->copy_kind,
	    nsys_old_copy_kind, sizeof nsys_old_copy_kind, COPY_UNKNOWN,
	    nsys_copy_kind_of, n->copy_label) != 0)
		return -1;
	/* Memory kinds. */
	if (nsys_enum_kinds(n, "ENUM_CUDA_MEM_KIND", n->mem_kind,
	    nsys_old_mem_kind, sizeof nsys_old_mem_kind, MEM_UNKNOWN,
	    nsys_mem_kind_of, NULL) != 0)
		return -1;

	/* Synchronization types: labels only. */
	if ((ne = nsys_db_enum(&n->d, "ENUM_CUPTI_SYNC_TYPE", &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++) {
		if (e[i].id < 0 || e[i].id >= NSYS_NENUM || *e[i].label == '\0')
			continue;
		free(n->sync_label[e[i].id]);
		n->sync_label[e[i].id] = xstrdup(e[i].label);
	}
	nsys_db_enum_free(e, ne);

	/* The OS runtime event class (what osrt_sum keeps). */
	n->osrt_class = 27;
	if ((ne = nsys_db_enum(&n->d, "ENUM_NSYS_EVENT_CLASS", &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++)
		if (strcmp(e[i].name, "TRACE_PROCESS_EVENT_OS_RUNTIME") == 0)
			n->osrt_class = e[i].id;
	nsys_db_enum_free(e, ne);

	/* NVTX event types: the ENUM's ids when present, else the numbers. */
	memset(n->nvtx_role, 0, sizeof n->nvtx_role);
	if ((ne = nsys_db_enum(&n->d, "ENUM_NSYS_EVENT_TYPE", &e)) < 0)
		return -1;
	for (k = 0; k < sizeof nsys_nvtx_types / sizeof *nsys_nvtx_types;
	    k++) {
		int64_t id = ne > 0 ? -1 : nsys_nvtx_types[k].id;
		for (i = 0; i < ne; i++) {
			if (strcmp(e[i].name, nsys_nvtx_types[k].name) == 0) {
				id = e[i].id;
				break;
			}
		}
		if (id >= 0 && id < NSYS_NEVTYPE)
			n->nvtx_role[id] = nsys_nvtx_types[k].role;
	}
	nsys_db_enum_free(e, ne);

	return 0;
}

/*
 * "[CUDA memcpy <label>]" for copyKind k (0 <= k < NSYS_NENUM), with the
 * ENUM table's label, else the one older nsysstats hard-coded for exports
 * without the table ("HtoD"), so that names match what `nsys stats` prints
 * for the same file.
 */
uint32_t
nsys_enum_copy_name(struct nsys *n, int64_t k)
{
	char	*s;

	if (n->copy_name[k] == 0) {
		if (n->copy_label[k] != NULL)
			s = xasprintf("[CUDA memcpy %s]", n->copy_label[k]);
		else if ((size_t)k < sizeof nsys_old_copy_label /
		    sizeof *nsys_old_copy_label)
			s = xasprintf("[CUDA memcpy %s]",
			    nsys_old_copy_label[k]);
		else
			s = xasprintf("[CUDA memcpy %s]",
			    copy_kind_label(n->copy_kind[k]));
		n->copy_name[k] = builder_intern(n->b, s);
		free(s);
	}
	return n->copy_name[k];
}

/* The label of syncType t, as the ENUM table or old exports name it. */
uint32_t
nsys_enum_sync_name(struct nsys *n, int64_t t)
{
	char	buf[64];

	if (t >= 0 && t < NSYS_NENUM && n->sync_name[t] != 0)
		return n->sync_name[t];
	if (t >= 0 && t < NSYS_NENUM && n->sync_label[t] != NULL)
		snprintf(buf, sizeof buf, "%s", n->sync_label[t]);
	else if (t >= 0 && (size_t)t < sizeof nsys_old_sync_label /
	    sizeof *nsys_old_sync_label)
		snprintf(buf, sizeof buf, "%s", nsys_old_sync_label[t]);
	else
		snprintf(buf, sizeof buf, "Sync type %lld", (long long)t);
	if (t >= 0 && t < NSYS_NENUM)
		return n->sync_name[t] = builder_intern(n->b, buf);
	return builder_intern(n->b, buf);
}

uint8_t
nsys_enum_memkind(const struct nsys *n, const struct nsys_row *st, int i)
{
	int64_t	v;

	if (row_null(st, i))
		return MEM_UNKNOWN;
	v = row_i64(st, i);
	return v >= 0 && v < NSYS_NENUM ? n->mem_kind[v] : MEM_UNKNOWN;
}
