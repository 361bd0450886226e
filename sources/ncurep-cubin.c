/*
 * ncurep-cubin: what a report's cubin tells about its functions: each
 * function's size (its symbol) and, where the kernel was built with
 * -lineinfo or -G, the line table (.debug_line) that maps an offset in a
 * function to a source file and line.
 *
 * The line program gives addresses relative to a section; the relocation
 * of each DW_LNE_set_address operand names the symbol, hence the section
 * (".text.<mangled name>") and the function. The cubin's .nv_debug_line_
 * sass (SASS to PTX lines) is not read; .nv_debug_ptx_txt (the PTX) is
 * only noted.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sources/cubin.h"
#include "sources/dwarfline.h"
#include "sources/ncurep-int.h"
#include "report/report.h"
#include "util/xmalloc.h"

struct ncurep_dl {
	struct ncurep		*c;
	const struct cubin	*cb;
	uint32_t		 module;
	struct cubin_rel	*rels;
	size_t			 nrels;
	uint32_t		*secfunc;	/* function of each section */
	uint32_t		*files;		/* (unit, n) -> file index */
	uint32_t		*fileunit;
	uint32_t		*filen;
	size_t			 nfiles, filescap, fucap, fncap;
};

static int
ncurep_dl_addr(void *arg, uint64_t off, uint64_t raw, uint64_t *base,
    uint32_t *tag)
{
	struct ncurep_dl	*d = arg;
	struct cubin_sym	 s;
	struct report_func	*fn;
	uint64_t		 v;
	size_t			 i;

	for (i = 0; i < d->nrels; i++) {
		if (d->rels[i].off != off)
			continue;
		if (cubin_sym(d->cb, d->rels[i].sym, &s) != 0 ||
		    s.shndx >= d->cb->nsecs ||
		    d->secfunc[s.shndx] == REPORT_NONE)
			return -1;
		*tag = d->secfunc[s.shndx];
		fn = &d->c->r->code.funcs[*tag];
		/*
		 * An offset in the function's section, or, in cubins ncu
		 * saved after loading them, an absolute address: then the
		 * sequence is taken to start at the function's start.
		 */
		v = d->rels[i].has_addend ? (uint64_t)d->rels[i].addend : raw;
		*base = fn->size == 0 || v < fn->size ? v : 0;
		return 0;
	}
	return -1;
}

/* Drops "." and "dir/.." components, so that a path the compiler wrote
 * ("/cuda/bin/../include/x.h") meets the one ncu saved the text under. */
static void
ncurep_dl_clean(char *path)
{
	char	*p, *q;

	while ((p = strstr(path, "/./")) != NULL)
		memmove(p, p + 2, strlen(p + 2) + 1);
	while ((p = strstr(path, "/../")) != NULL && p != path) {
		for (q = p - 1; q > path && *q != '/'; q--)
			;
		if (*q != '/')
			break;
		memmove(q, p + 3, strlen(p + 3) + 1);
	}
}

static void
ncurep_dl_file(void *arg, uint32_t unit, uint32_t n, const char *dir,
    const char *name)
{
	struct ncurep_dl	*d = arg;
	char			*path;

	if (*dir != '\0' && *name != '/')
		path = xasprintf("%s/%s", dir, name);
	else
		path = xstrdup(name);
	ncurep_dl_clean(path);
	XGROW(d->files, d->filescap, d->nfiles + 1);
	XGROW(d->fileunit, d->fucap, d->nfiles + 1);
	XGROW(d->filen, d->fncap, d->nfiles + 1);
	d->files[d->nfiles] = report_code_file(d->c->r, d->module,
	    report_intern0(d->c->r, path));
	d->fileunit[d->nfiles] = unit;
	d->filen[d->nfiles] = n;
	d->nfiles++;
	free(path);
}

static void
ncurep_dl_row(void *arg, uint32_t tag, uint64_t addr, uint32_t unit,
    uint32_t file, uint32_t line)
{
	struct ncurep_dl	*d = arg;
	uint32_t		 f = REPORT_NONE;
	size_t			 i;

	for (i = d->nfiles; i > 0; i--)
		if (d->fileunit[i - 1] == unit && d->filen[i - 1] == file) {
			f = d->files[i - 1];
			break;
		}
	report_code_line(d->c->r, tag, f, addr, line);
}

void
ncurep_cubin(struct ncurep *c, uint32_t module)
{
	struct report_module	*m = &c->r->code.modules[module];
	struct report_func	*fn;
	struct cubin		 cb;
	struct cubin_sym	 s;
	struct dwarfline_cb	 cbs;
	struct ncurep_dl	 d;
	const uint8_t		*sec;
	const char		*cause, *name;
	uint32_t		 i, k, dl;
	size_t			 len;

	if (cubin_open(&cb, m->cubin, m->cubinlen, &cause) != 0) {
		report_warn(c->r, "%s: the cubin of module %u is unreadable "
		    "(%s)", c->name, module, cause);
		return;
	}
	m->has_ptx = cubin_find(&cb, ".nv_debug_ptx_txt") != 0;
	memset(&d, 0, sizeof d);
	d.c = c;
	d.cb = &cb;
	d.module = module;
	d.secfunc = xcalloc(cb.nsecs, sizeof *d.secfunc);
	for (i = 0; i < cb.nsecs; i++) {
		d.secfunc[i] = REPORT_NONE;
		name = cb.secs[i].name;
		if (strncmp(name, ".text.", 6) != 0)
			continue;
		k = report_code_func_by_name(c->r, module, name + 6);
		if (k == REPORT_NONE)
			k = report_code_func(c->r, module, report_intern0(c->r,
			    name + 6), 0, 0);
		d.secfunc[i] = k;
		fn = &c->r->code.funcs[k];
		if (fn->size == 0)
			fn->size = cb.secs[i].size;
	}
	/* A function symbol's size where its section did not say. */
	for (i = 0; cubin_sym(&cb, i, &s) == 0; i++) {
		if (s.type != 2 || s.shndx >= cb.nsecs ||
		    d.secfunc[s.shndx] == REPORT_NONE)
			continue;
		fn = &c->r->code.funcs[d.secfunc[s.shndx]];
		if (s.size > 0 && strcmp(s.name, report_str(c->r,
		    fn->name)) == 0)
			fn->size = s.size;
	}
	if ((dl = cubin_find(&cb, ".debug_line")) != 0 &&
	    (sec = cubin_data(&cb, dl, &len)) != NULL) {
		d.nrels = cubin_rels(&cb, dl, &d.rels);
		cbs.addr = ncurep_dl_addr;
		cbs.file = ncurep_dl_file;
		cbs.row = ncurep_dl_row;
		cbs.arg = &d;
		if (dwarfline_decode(sec, len, &cbs, &cause) < 0)
			report_warn(c->r, "%s: the line table of module %u is "
			    "corrupt (%s); kept what was read", c->name,
			    module, cause);
		c->r->code.modules[module].has_lines = 1;
	}
	free(d.rels);
	free(d.secfunc);
	free(d.files);
	free(d.fileunit);
	free(d.filen);
	cubin_close(&cb);
}
