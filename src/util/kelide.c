/*
 * kelide: a kernel's demangled name with its template arguments elided
 * (kelide.h), for the kernel table and the verbs' short names.
 */
#include "config.h"

#include <string.h>

#include "util/kelide.h"

#define KNAME_UNNAMED	"<unnamed>"	/* c++filt's anonymous namespace */

/* Whether full's angle brackets pair up (none closes before it opens). */
static int
kname_balanced(const char *full)
{
	const char	*s;
	long		 depth = 0;

	for (s = full; *s != '\0'; s++) {
		if (*s == '<')
			depth++;
		else if (*s == '>' && --depth < 0)
			return 0;
	}
	return depth == 0;
}

char *
kname_elide(const char *full, char *buf, size_t len)
{
	const char	*s;
	size_t		 o = 0, n;
	long		 depth = 0;
	int		 elide;

	if (len == 0)
		return buf;
	elide = kname_balanced(full);
	for (s = full; *s != '\0'; s++) {
		/* The anonymous namespace is a name, not template arguments. */
		if (depth == 0 && strncmp(s, KNAME_UNNAMED,
		    sizeof KNAME_UNNAMED - 1) == 0) {
			n = sizeof KNAME_UNNAMED - 1;
			if (o + n >= len)
				break;
			memcpy(buf + o, s, n);
			o += n;
			s += n - 1;
			continue;
		}
		if (elide && *s == '<') {
			if (depth++ == 0) {
				n = strlen("<...>");
				if (o + n >= len)
					break;
				memcpy(buf + o, "<...>", n);
				o += n;
			}
			continue;
		}
		if (elide && *s == '>') {
			depth--;
			continue;
		}
		if (depth > 0)
			continue;
		if (o + 1 >= len)
			break;
		buf[o++] = *s;
	}
	/* Never end inside a UTF-8 sequence. */
	if (*s != '\0')
		while (o > 0 && ((unsigned char)buf[o - 1] & 0xc0) == 0x80)
			o--;
	if (*s != '\0' && o > 0 && ((unsigned char)buf[o - 1] & 0xc0) == 0xc0)
		o--;
	buf[o] = '\0';
	return buf;
}

