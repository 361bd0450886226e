/*
 * opts: the options every headless verb shares, parsed once.
 *
 * A verb declares which option groups it accepts (OPT_* bits); opts_parse()
 * fills struct opts from argv, collects positional arguments (traces, row
 * ids) and reports the first bad or unsupported option through *cause.
 *
 * Time values: plain integers are nanoseconds; a unit suffix (ns, us, ms,
 * s, min) scales them ("12.5ms", "3s"); times are relative to the trace
 * origin unless prefixed with '@' (absolute, in the source's clock).
 */
#ifndef GPULENS_OPTS_H
#define GPULENS_OPTS_H

#include <stdint.h>

#include "headless/out.h"

#define OPT_OUTPUT	0x0001	/* --json --format --fields --absolute
				   --full-names */
#define OPT_PAGE	0x0002	/* --sort --limit --offset */
#define OPT_WINDOW	0x0004	/* --from --to --nvtx --iter --window */
#define OPT_FILTER	0x0008	/* --device --stream --pid --tid --name
				   --name-regex --min-dur */
#define OPT_TYPE	0x0010	/* --type */
#define OPT_GROUP	0x0020	/* --group-by */
#define OPT_SCOPE	0x0040	/* --scope */
#define OPT_BUCKETS	0x0080	/* --buckets --bucket */
#define OPT_BY		0x0100	/* --by */
#define OPT_RANGE	0x0200	/* --range */
#define OPT_TO		0x0400	/* --to-format (export) */
#define OPT_TREE	0x0800	/* --tree */
#define OPT_NVTXDOM	0x1000	/* --nvtx-domain */

#define OPT_TIME_UNSET	INT64_MIN

struct opts {
	unsigned	 accepted;
	enum out_format	 format;
	const char	*fields;
	int		 absolute;
	int		 full_names;
	const char	*sort;
	long long	 limit;		/* default 50, 0 = all */
	long long	 offset;
	int		 limit_set;

	int64_t		 from, to;	/* OPT_TIME_UNSET if not given */
	int		 from_abs, to_abs;
	const char	*nvtx;		/* RANGE[@DOMAIN] */
	long long	 iter;		/* -1 unset */
	const char	*window;	/* --window steady, or NULL */

	long long	 device;	/* -1 unset (source device id) */
	long long	 stream;	/* -1 unset (source stream id) */
	long long	 pid;		/* -1 unset */
	long long	 tid;		/* -1 unset */
	const char	*name_glob;
	const char	*name_regex;
	int64_t		 min_dur;	/* 0 = none */

	int		 type;		/* enum ev_kind, 0 = verb default */
	const char	*type_name;	/* "comm" etc. as given */
	const char	*group_by;	/* comma list */
	const char	*scope;		/* gaps: stream|device|all */
	long long	 buckets;	/* 0 unset */
	int64_t		 bucket_ns;	/* 0 unset */
	const char	*by;		/* overlap: nvtx-path */
	const char	*range;		/* iters: range name */
	const char	*to_format;	/* export: perfetto|csv */
	int		 tree;		/* nvtx: --tree */
	const char	*nvtx_domain;	/* innermost range's domain, or NULL */

	char		**args;		/* positional arguments (borrowed) */
	int		 nargs;
};

/*
 * Parses argv[1..argc) (argv[0] is the verb). Returns 0, or -1 with *cause
 * (caller frees) for an unknown, unsupported or malformed option.
 */
int	 opts_parse(struct opts *, unsigned accepted, int argc, char **argv,
	    char **cause);
void	 opts_free(struct opts *);
/* The positional arguments from index from on, joined by ", " (caller
 * frees): for an error that names them all. */
char	*opts_args_list(const struct opts *, int from);
/* Copies the output options into an out. */
void	 opts_apply_out(const struct opts *, struct out *);
/* Usage text for the option groups in accepted (static buffer). */
const char *opts_help(unsigned accepted);
/*
 * Calls fn on each option the groups in accepted enable, in the order of
 * the table, once per name (where two groups share a name, as --to does,
 * the first accepted is the one parsed): its name, its argument (NULL for
 * a flag) and its help.
 */
void	 opts_each(unsigned accepted, void (*fn)(const char *name,
	    const char *arg, const char *help, void *), void *);

#endif
