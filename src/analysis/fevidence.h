/*
 * fevidence: the evidence of a finding (analysis/finding.h), as typed
 * values: the numbers behind it, named, in the order the rule gives them.
 *
 * Evidence is a flat list of items, each a tagged union: an integer (a
 * count, a time in ns, an id), a real (a percentage), a boolean, a string
 * (a name), nothing (a value that does not exist here), or the opening of
 * a group (a record of named values, or a list of records) that a
 * FEV_END item closes. Items directly in the evidence or in a record have
 * a key; items of a list have none. The front-ends read the same items:
 * `gpulens findings` turns them into the evidence object of its rows.
 *
 * Keys are static strings (the rules' literals); string values are owned.
 * Ownership: struct fevidence owns its items (fev_free).
 */
#ifndef GPULENS_FEVIDENCE_H
#define GPULENS_FEVIDENCE_H

#include <stddef.h>
#include <stdint.h>

enum fev_type {
	FEV_INT,		/* u.i */
	FEV_REAL,		/* u.r */
	FEV_BOOL,		/* u.b */
	FEV_STR,		/* u.s */
	FEV_NULL,
	FEV_RECORD,		/* named items up to the matching FEV_END */
	FEV_LIST,		/* unnamed items up to the matching FEV_END */
	FEV_END
};

struct fev {
	const char	*key;		/* NULL in a list, and for FEV_END */
	int		 type;		/* enum fev_type */
	union {
		int64_t	 i;
		double	 r;
		int	 b;
		char	*s;
	} u;
};

struct fevidence {
	struct fev	*v;
	size_t		 n, cap;
};

void	 fev_free(struct fevidence *);
void	 fev_int(struct fevidence *, const char *key, int64_t);
void	 fev_real(struct fevidence *, const char *key, double);
void	 fev_bool(struct fevidence *, const char *key, int);
void	 fev_str(struct fevidence *, const char *key, const char *);
void	 fev_null(struct fevidence *, const char *key);
void	 fev_record(struct fevidence *, const char *key);
void	 fev_list(struct fevidence *, const char *key);
void	 fev_end(struct fevidence *);
/* The item key names directly in the evidence (not inside a group), or
 * NULL. */
const struct fev *fev_get(const struct fevidence *, const char *key);
/* Index of the item after the one at i (past a whole group). */
size_t	 fev_next(const struct fevidence *, size_t i);

#endif
