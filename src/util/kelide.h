/*
 * kelide: a kernel's demangled name with each outermost template argument
 * list replaced by "<...>": the readable short form the kernel table and
 * the verbs' rows show (gpulens --full-names gives the whole name).
 */
#ifndef GPULENS_KELIDE_H
#define GPULENS_KELIDE_H

#include <stddef.h>

/*
 * Writes into buf (len bytes, NUL-terminated, cut at a character boundary)
 * full with each outermost template argument list replaced by "<...>"
 * ("<unnamed>", the anonymous namespace, stays). An unbalanced '<' or '>'
 * (operator<) leaves the name as it is. Returns buf.
 */
char	*kname_elide(const char *full, char *buf, size_t len);

#endif
