/*
 * code: the code a report carries with its launches: the modules ncu
 * saved (the report's source entries: a cubin, its SM revision, the
 * functions loaded from it and, when the report was captured with
 * --import-source, the text of the source files), and the line table
 * decoded from a cubin's DWARF (.debug_line: SASS offset within a
 * function to file and line, present when the kernel was built with
 * -lineinfo or -G).
 *
 * Several source entries may name the same module (the same reference):
 * the first holds the cubin, later ones add functions loaded since; they
 * are merged into one module. A launch names its module by reference
 * (report_launch.source_ref) and its function by the address ncu records
 * in launch__function_pcs.
 *
 * Building: report_code_module() and the other adders (sources/ncurep-
 * source.c), then report_code_finish() (from report_finish) sorts the line
 * table and resolves each launch's module and function. Read only after.
 */
#ifndef GPULENS_REPORT_CODE_H
#define GPULENS_REPORT_CODE_H

#include <stddef.h>
#include <stdint.h>

struct report;

struct report_module {
	uint64_t	 ref;		/* SourceData reference */
	uint32_t	 sm;		/* SM revision: major << 16 | minor */
	uint32_t	 sass_level;	/* as recorded (meaning inferred) */
	uint8_t		*cubin;		/* owned copy, NULL if not saved */
	size_t		 cubinlen;
	uint32_t	 nentries;	/* source entries merged into it */
	int		 has_lines;	/* the cubin has a line table */
	int		 has_ptx;	/* the cubin embeds PTX text */
};

struct report_func {
	uint32_t	 module;	/* index in modules */
	uint32_t	 name;		/* mangled name (string id) */
	uint64_t	 addr;		/* load address on the device */
	uint32_t	 index;		/* the entry's third field (inferred:
					   the symbol's index in the cubin) */
	uint64_t	 size;		/* bytes of its .text, 0 if unknown */
};

struct report_file {
	uint32_t	 module;
	uint32_t	 path;		/* string id */
	uint32_t	 text;		/* embedded source text, 0 if none */
};

/* One row of a line table: from off on, func's code is at file:line. */
struct report_line {
	uint32_t	 func;		/* index in funcs */
	uint32_t	 file;		/* index in files, REPORT_NONE if none */
	uint64_t	 off;		/* byte offset in the function */
	uint32_t	 line;
};

struct report_code {
	struct report_module	*modules;
	size_t			 nmodules, modulescap;
	struct report_func	*funcs;
	size_t			 nfuncs, funcscap;
	struct report_file	*files;
	size_t			 nfiles, filescap;
	struct report_line	*ltab;
	size_t			 nltab, ltabcap;
};

void		 report_code_free(struct report_code *);

/* Building. The module with reference ref, created if new; its index. */
uint32_t	 report_code_module(struct report *, uint64_t ref);
/* A function of a module; an address already known is not added twice. */
uint32_t	 report_code_func(struct report *, uint32_t module,
		    uint32_t name, uint64_t addr, uint32_t index);
/* The file of a module with this path, created if new; its index. */
uint32_t	 report_code_file(struct report *, uint32_t module,
		    uint32_t path);
void		 report_code_line(struct report *, uint32_t func,
		    uint32_t file, uint64_t off, uint32_t line);
void		 report_code_finish(struct report *);

/* Queries. */
/* The load address of a launch's function, 0 if unknown. */
uint64_t	 report_code_launch_addr(const struct report *,
		    uint32_t launch);
/* The line of an offset within a function, or NULL. */
const struct report_line *report_code_lookup(const struct report *,
		    uint32_t func, uint64_t off);
/* The function whose mangled name is name in module, or REPORT_NONE. */
uint32_t	 report_code_func_by_name(const struct report *,
		    uint32_t module, const char *name);
/* "sm_90" for an SM revision, into buf. */
const char	*report_code_sm(uint32_t sm, char *buf, size_t len);

#endif
