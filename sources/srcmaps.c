/*
 * srcmaps: one call on all the hash maps of a reader's state (see
 * srcmaps.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>

#include "util/hmap.h"
#include "sources/srcmaps.h"

void
srcmaps(void (*fn)(struct hmap *), ...)
{
	struct hmap	*h;
	va_list		 ap;

	va_start(ap, fn);
	while ((h = va_arg(ap, struct hmap *)) != NULL)
		fn(h);
	va_end(ap);
}
