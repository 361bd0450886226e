/*
 * shquote: quoting one shell word. See shquote.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/shquote.h"
#include "util/xmalloc.h"

char *
shquote(const char *s)
{
	const char	*p;
	char		*q, *o;
	int		 plain = *s != '\0';

	for (p = s; *p != '\0'; p++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789_./:=+,-@%", *p) ==
		    NULL)
			plain = 0;
	if (plain)
		return xstrdup(s);
	q = o = xmalloc(strlen(s) * 4 + 3);
	*o++ = '\'';
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = *p;
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}
