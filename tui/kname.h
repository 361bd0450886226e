/*
 * kname: the form of a kernel's name that the kernel table shows in a
 * column of a given width: its short name, its demangled name with the
 * template arguments elided when the whole does not fit (foo<...>(int)),
 * or the whole demangled name. Pure text, no terminal.
 */
#ifndef GPULENS_KNAME_H
#define GPULENS_KNAME_H

#include <stddef.h>

#include "util/kelide.h"

enum kname_form {
	KNAME_ELIDED,		/* whole, elided or short: what fits */
	KNAME_SHORT,		/* the short name */
	KNAME_FULL,		/* the demangled name as it is */
	KNAME_FORMS_
};

/* The form after f (the name-form action cycles elided, full, short). */
enum kname_form	 kname_next(enum kname_form f);
/* Its name for the status line: "short", "elided" or "full". */
const char	*kname_form_name(enum kname_form f);

/* kname_elide: util/kelide.h. */

/*
 * The text to show for a kernel with demangled name full and short name
 * shrt (NULL or "": none) in a column w wide, in form f; buf (len bytes)
 * holds it when it is made. KNAME_ELIDED: full when it fits, else full
 * elided when that fits, else the short name (or full elided, without one).
 * flags are safetext.h's, for measuring widths.
 */
const char	*kname_show(const char *full, const char *shrt, enum kname_form f,
		    int w, int flags, char *buf, size_t len);

#endif
