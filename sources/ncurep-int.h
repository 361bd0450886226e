/*
 * ncurep-int: what the files of the .ncu-rep reader share: its state
 * (struct ncurep), the report's string table, and the functions each file
 * offers the others. ncurep.c reads the container (blocks, their headers
 * and payloads) and drives the parse; ncurep-str.c keeps the string
 * table; ncurep-session.c reads the session (system, devices, process);
 * ncurep-result.c one launch's result; ncurep-metric.c metrics and
 * sections; ncurep-rule.c rule results. The public interface is ncurep.h;
 * nothing else includes this header.
 */
#ifndef GPULENS_NCUREP_INT_H
#define GPULENS_NCUREP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "sources/protowire.h"
#include "report/report.h"

#define NCUREP_MAX_FILE		((size_t)8 << 30)
#define NCUREP_MAX_DEPTH	24	/* section body nesting we follow */

/*
 * The string table of the report: every block's table in file order,
 * each extending the ones before (a result may name strings that only a
 * later block brings, so the tables are gathered before any result is
 * read). Strings are borrowed from the buffer.
 */
struct ncurep_strtab {
	const uint8_t	**s;
	size_t		 *len;
	uint32_t	 *sid;		/* interned id, or REPORT_NONE */
	size_t		  n, cap, lencap, sidcap;
};

struct ncurep_proc {
	uint32_t	 pid;
	uint32_t	 host;
	uint32_t	 name;
};

struct ncurep {
	struct report		*r;
	const char		*name;
	struct ncurep_strtab	 tab;
	struct ncurep_proc	 proc;
	size_t			 bad_name_ids;
	size_t			 nsources, nranges;
};

/* The interned string of a length-delimited field. */
static inline uint32_t
ncurep_sid(struct ncurep *c, const struct pw_field *f)
{
	return report_intern(c->r, (const char *)f->data, f->len);
}

/* ncurep-str.c */
uint32_t	 ncurep_name(struct ncurep *, uint64_t idx);
void		 ncurep_subfail(struct ncurep *, const char *what,
		    const struct pw_reader *);
void		 ncurep_strtab(struct ncurep *, const uint8_t *, size_t);

/* ncurep-metric.c */
void		 ncurep_value(struct ncurep *, const uint8_t *, size_t,
		    struct report_value *);
void		 ncurep_metric(struct ncurep *, uint32_t launch,
		    const uint8_t *, size_t);
int		 ncurep_text(const struct pw_field *);
void		 ncurep_section(struct ncurep *, uint32_t launch,
		    const uint8_t *, size_t);

/* ncurep-rule.c */
void		 ncurep_rule(struct ncurep *, uint32_t launch, const uint8_t *,
		    size_t);

/* ncurep-result.c */
int		 ncurep_result(struct ncurep *, const uint8_t *, size_t,
		    size_t at);

/* ncurep-source.c */
void		 ncurep_source(struct ncurep *, const uint8_t *, size_t);
void		 ncurep_result_source(struct ncurep *, uint32_t launch,
		    const uint8_t *, size_t);
void		 ncurep_sources_finish(struct ncurep *);

/* ncurep-cubin.c */
void		 ncurep_cubin(struct ncurep *, uint32_t module);

/* ncurep-session.c */
void		 ncurep_session(struct ncurep *, const uint8_t *, size_t);
void		 ncurep_process(struct ncurep *, const uint8_t *, size_t);

#endif
