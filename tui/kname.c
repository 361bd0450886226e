/*
 * kname: the kernel table's name forms (kname.h).
 */
#include "config.h"

#include <string.h>

#include "tui/kname.h"
#include "tui/safetext.h"


enum kname_form
kname_next(enum kname_form f)
{
	switch (f) {
	case KNAME_ELIDED:
		return KNAME_FULL;
	case KNAME_FULL:
		return KNAME_SHORT;
	default:
		return KNAME_ELIDED;
	}
}

const char *
kname_form_name(enum kname_form f)
{
	switch (f) {
	case KNAME_SHORT:
		return "short";
	case KNAME_FULL:
		return "full";
	default:
		return "elided";
	}
}

const char *
kname_show(const char *full, const char *shrt, enum kname_form f, int w,
    int flags, char *buf, size_t len)
{
	if (full == NULL || *full == '\0')
		return shrt != NULL ? shrt : "";
	switch (f) {
	case KNAME_SHORT:
		return shrt != NULL && *shrt != '\0' ? shrt : full;
	case KNAME_FULL:
		return full;
	default:
		if (safetext_width(full, (size_t)-1, flags) <= w)
			return full;
		kname_elide(full, buf, len);
		if (safetext_width(buf, (size_t)-1, flags) <= w ||
		    shrt == NULL || *shrt == '\0')
			return buf;
		return shrt;
	}
}
