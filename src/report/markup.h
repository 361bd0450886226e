/*
 * markup: Nsight Compute's inline markup in rule messages and metric
 * descriptions, rendered as plain text for people.
 *
 *   @url:TEXT:URL@            TEXT, or "TEXT (URL)" with MARKUP_URLS
 *   @section:ID:TEXT@         TEXT (the section's display name)
 *
 * Anything else, an unknown kind or an "@" without its closing "@", stays
 * as written. The result is text still to be sanitised by whoever shows
 * it (profile strings are untrusted).
 *
 * Ownership: markup_render() returns a malloc'd string the caller frees.
 */
#ifndef GPULENS_MARKUP_H
#define GPULENS_MARKUP_H

#include <stddef.h>

#define MARKUP_URLS	0x1	/* keep a link's address after its text */

/* s rendered (never NULL; s NULL renders as ""). */
char	*markup_render(const char *s, int flags);
/* 1 if s holds markup that markup_render() would change. */
int	 markup_has(const char *s);

#endif
