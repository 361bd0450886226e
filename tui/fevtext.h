/*
 * fevtext: a finding's typed evidence (analysis/fevidence.h) as one line of
 * text, for the findings view's details: "key value" items in the rule's
 * order, separated by commas, a record's items in braces, a list's in
 * brackets. Durations (keys ending _ns) print as times, times from the
 * trace origin (keys ending start_ns or end_ns) with a "+", shares (_pct)
 * as percentages, sizes (bytes, _bytes) in binary units, a boolean as
 * yes or no and a value that does not exist as "-". The text is built from
 * the items as they are: nothing is measured again.
 *
 * Ownership: the text is the caller's (free).
 */
#ifndef GPULENS_FEVTEXT_H
#define GPULENS_FEVTEXT_H

#include "analysis/fevidence.h"

char	*fevtext(const struct fevidence *);

#endif
