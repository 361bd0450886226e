/*
 * warncode: the stable code of a warning raised while loading a trace
 * (model warnings are plain text; meta.warning_codes gives each a code).
 */
#ifndef GPULENS_WARNCODE_H
#define GPULENS_WARNCODE_H

/* The code of load warning msg ("load_warning" when none fits). */
const char	*warncode_of(const char *msg);

#endif
