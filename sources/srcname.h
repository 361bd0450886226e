/*
 * srcname: the name tests the readers share: a case-insensitive substring
 * test, the flags of a name cached per pool string, and tables of names
 * with the code each stands for (copy kinds, memory kinds, categories),
 * looked up by the whole name or by a part.
 */
#ifndef GPULENS_SRCNAME_H
#define GPULENS_SRCNAME_H

#include <stddef.h>
#include <stdint.h>

/* Flags cached per pool string (a reader adds its own from 0x08 on). */
#define SF_KNOWN	0x01	/* computed */
#define SF_NCCL		0x02	/* a collective: "nccl" in any case */
#define SF_DRIVER	0x04	/* a driver call: "cu..." but not "cuda..." */

struct srcname {
	const char	*name;
	int		 code;
};

#define SRCNAME_COUNT(t)	(sizeof (t) / sizeof (t)[0])

/* The slot of string sid in the flags cache *v (of *cap slots), grown
 * with zeroed (not computed) slots as needed. */
uint8_t	*srcname_slot(uint8_t **v, size_t *cap, uint32_t sid);
/* SF_KNOWN and the SF_NCCL and SF_DRIVER of the name s[0, n); rccl: ROCm's
 * "rccl" counts as "nccl". */
uint8_t	 srcname_flags(const char *s, size_t n, int rccl);
/* Whether s[0, n) contains needle (lowercase letters), ignoring case. */
int	 srcname_has_ci(const char *s, size_t n, const char *needle);
/* The code of the entry of t (count entries) named s[0, n), ignoring
 * ASCII case; none if there is none. */
int	 srcname_code(const struct srcname *t, size_t count, const char *s,
	    size_t n, int none);
/* The code of the first entry of t whose name stands in the string s;
 * none if there is none. */
int	 srcname_within(const struct srcname *t, size_t count, const char *s,
	    int none);

#endif
