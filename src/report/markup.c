/*
 * markup: Nsight Compute's inline markup as plain text. See markup.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/markup.h"
#include "util/xmalloc.h"

/* Appends n bytes of s to buf (len used, cap allocated). */
static void
markup_put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/*
 * The element at p ('@'): its length up to and with the closing '@', and
 * the text (and, for a link, the address) to show; 0 if p starts none.
 */
static size_t
markup_elem(const char *p, const char **text, size_t *tlen, const char **url,
    size_t *ulen)
{
	const char	*end, *f1, *f2;

	*url = NULL;
	*ulen = 0;
	if (strncmp(p, "@url:", 5) == 0) {
		f1 = p + 5;
		/* TEXT ends at the first ':' (the address has more). */
		if ((f2 = strchr(f1, ':')) == NULL)
			return 0;
		if ((end = strchr(f2 + 1, '@')) == NULL)
			return 0;
		if (memchr(f1, '@', (size_t)(f2 - f1)) != NULL)
			return 0;
		*text = f1;
		*tlen = (size_t)(f2 - f1);
		*url = f2 + 1;
		*ulen = (size_t)(end - *url);
		return (size_t)(end - p) + 1;
	}
	if (strncmp(p, "@section:", 9) == 0) {
		f1 = p + 9;
		if ((end = strchr(f1, '@')) == NULL)
			return 0;
		f2 = memchr(f1, ':', (size_t)(end - f1));
		*text = f2 != NULL ? f2 + 1 : f1;
		*tlen = (size_t)(end - *text);
		return (size_t)(end - p) + 1;
	}
	return 0;
}

char *
markup_render(const char *s, int flags)
{
	const char	*text, *url, *at;
	char		*buf = NULL;
	size_t		 len = 0, cap = 0, n, tlen, ulen;

	if (s == NULL)
		s = "";
	markup_put(&buf, &len, &cap, "", 0);
	while ((at = strchr(s, '@')) != NULL) {
		markup_put(&buf, &len, &cap, s, (size_t)(at - s));
		if ((n = markup_elem(at, &text, &tlen, &url, &ulen)) == 0) {
			markup_put(&buf, &len, &cap, "@", 1);
			s = at + 1;
			continue;
		}
		if (tlen == 0 && url != NULL)
			markup_put(&buf, &len, &cap, url, ulen);
		else
			markup_put(&buf, &len, &cap, text, tlen);
		if ((flags & MARKUP_URLS) && url != NULL && tlen > 0 &&
		    ulen > 0) {
			markup_put(&buf, &len, &cap, " (", 2);
			markup_put(&buf, &len, &cap, url, ulen);
			markup_put(&buf, &len, &cap, ")", 1);
		}
		s = at + n;
	}
	markup_put(&buf, &len, &cap, s, strlen(s));
	return buf;
}

int
markup_has(const char *s)
{
	const char	*text, *url, *at;
	size_t		 tlen, ulen;

	if (s == NULL)
		return 0;
	for (at = strchr(s, '@'); at != NULL; at = strchr(at + 1, '@'))
		if (markup_elem(at, &text, &tlen, &url, &ulen) != 0)
			return 1;
	return 0;
}
