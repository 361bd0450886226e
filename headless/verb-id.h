/*
 * verb-id: the row ids the verbs take back as arguments.
 *
 * A row's key names its kind and index ("ev|id=123", "launch|id=4",
 * "sample|id=7"); the verbs that read rows back (inspect, correlate,
 * ncu-command, the report verbs' --launch) accept the key, the older
 * "KIND:N" spelling and, where the kind is implied, a bare "N".
 */
#ifndef GPULENS_VERB_ID_H
#define GPULENS_VERB_ID_H

#include <stdint.h>

/*
 * Parses s as "KIND|id=N" or "KIND:N" (and as "N" when bare is set), N a
 * decimal index below UINT32_MAX. Returns 0 with *id, or -1.
 */
int	 verb_parse_id(const char *s, const char *kind, int bare,
	    uint32_t *id);

#endif
