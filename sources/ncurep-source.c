/*
 * ncurep-source: the report's source entries, the modules ncu saved with
 * the launches (report/code.h).
 *
 * SourceData (field numbers from FORMATS.md section 4 where known):
 *   1 reference (u64): the module; a result's field 15 names it too
 *   4 binary: the cubin (an ELF image), in the first entry of a module
 *   5 SASS level, 6 SM revision (major << 16 | minor), 7 binary flags
 *   8 source files (inferred: {1 path, 2 text}, with --import-source)
 *   9 functions (inferred: {1 mangled name, 2 load address, 3 index})
 * Fields 8 and 9 are not in the published descriptors; their layout is
 * read off reports of Nsight Compute 2022.x to 2025.3.
 */
#include "config.h"

#include <string.h>

#include "sources/ncurep.h"
#include "sources/ncurep-int.h"
#include "sources/protowire.h"
#include "report/report.h"
#include "util/xmalloc.h"

static void
ncurep_source_file(struct ncurep *c, uint32_t module, const uint8_t *p,
    size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;
	uint32_t		path = 0, text = 0, file;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_LEN)
			path = ncurep_sid(c, &f);
		else if (f.num == 2 && f.wire == PW_LEN)
			text = ncurep_sid(c, &f);
	}
	if (rd.err != NULL) {
		ncurep_subfail(c, "source file", &rd);
		return;
	}
	if (path == 0)
		return;
	file = report_code_file(c->r, module, path);
	if (text != 0)
		c->r->code.files[file].text = text;
}

static void
ncurep_source_func(struct ncurep *c, uint32_t module, const uint8_t *p,
    size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;
	uint32_t		name = 0, index = 0;
	uint64_t		addr = 0;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		if (f.num == 1 && f.wire == PW_LEN)
			name = ncurep_sid(c, &f);
		else if (f.num == 2 && f.wire == PW_VARINT)
			addr = f.u;
		else if (f.num == 3 && f.wire == PW_VARINT)
			index = (uint32_t)f.u;
	}
	if (rd.err != NULL)
		ncurep_subfail(c, "source function", &rd);
	if (name != 0)
		report_code_func(c->r, module, name, addr, index);
}

typedef void	ncurep_source_fn(struct ncurep *, uint32_t, const uint8_t *,
		    size_t);

/*
 * Fields 8 (files) and 9 (functions) hold a list, each entry wrapped in a
 * message of its own (field 1): what is called with each entry.
 */
static void
ncurep_source_list(struct ncurep *c, uint32_t module, const uint8_t *p,
    size_t len, ncurep_source_fn *fn, const char *what)
{
	struct pw_reader	rd;
	struct pw_field		f;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0)
		if (f.num == 1 && f.wire == PW_LEN)
			fn(c, module, f.data, f.len);
	if (rd.err != NULL)
		ncurep_subfail(c, what, &rd);
}

void
ncurep_source(struct ncurep *c, const uint8_t *p, size_t len)
{
	struct pw_reader	 rd;
	struct pw_field		 f;
	struct report_module	*m;
	uint64_t		 ref = 0;
	uint32_t		 module;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0)
		if (f.num == 1 && f.wire == PW_VARINT)
			ref = f.u;
	if (rd.err != NULL) {
		ncurep_subfail(c, "source", &rd);
		return;
	}
	module = report_code_module(c->r, ref);
	c->r->code.modules[module].nentries++;
	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0) {
		m = &c->r->code.modules[module];
		switch (f.num) {
		case 4:
			if (f.wire != PW_LEN)
				break;
			if (m->cubin == NULL && f.len > 0) {
				m->cubin = xmalloc(f.len);
				memcpy(m->cubin, f.data, f.len);
				m->cubinlen = f.len;
			}
			continue;
		case 5:
		case 6:
			if (f.wire != PW_VARINT)
				break;
			if (f.num == 5)
				m->sass_level = (uint32_t)f.u;
			else
				m->sm = (uint32_t)f.u;
			continue;
		case 8:
		case 9:
			if (f.wire != PW_LEN)
				break;
			ncurep_source_list(c, module, f.data, f.len,
			    f.num == 8 ? ncurep_source_file :
			    ncurep_source_func, f.num == 8 ? "source files" :
			    "source functions");
			continue;
		case 1:		/* reference */
		case 2:		/* code (source text of OpenCL) */
		case 3:		/* intermediate (PTX) */
		case 7:		/* binary flags */
			continue;
		}
		report_skipped(c->r, "SourceData", f.num);
	}
}

/* A result's field 15: the reference of its module. */
void
ncurep_result_source(struct ncurep *c, uint32_t launch, const uint8_t *p,
    size_t len)
{
	struct pw_reader	rd;
	struct pw_field		f;

	pw_init(&rd, p, len);
	while (pw_next(&rd, &f) > 0)
		if (f.num == 1 && f.wire == PW_VARINT)
			c->r->launches[launch].source_ref = f.u;
}

/* After the last entry: the line tables of the cubins. */
void
ncurep_sources_finish(struct ncurep *c)
{
	size_t	i;

	for (i = 0; i < c->r->code.nmodules; i++)
		if (c->r->code.modules[i].cubin != NULL)
			ncurep_cubin(c, (uint32_t)i);
}
