/*
 * evrow: one event as the event-level verbs present it (search, inspect,
 * correlate, export --to csv): its row id "ev:<gid>" and its headline
 * columns. The look-ups behind them are model/event.h's.
 *
 * A global event id (model.h) is stable for a given file: the model orders
 * its tracks deterministically, so "ev:<gid>" is the row key of an event.
 */
#ifndef GPULENS_EVROW_H
#define GPULENS_EVROW_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "model/event.h"
#include "model/model.h"

/* The search columns, in display order (NULL-terminated). */
extern const char	*evrow_columns[];

/* Parses "ev:123" or "123" into *gid; -1 if malformed (not a range check). */
int		 evrow_parse_id(const char *arg, uint32_t *gid);
/* Writes "ev:<gid>" into buf (always NUL-terminated). */
void		 evrow_key(char *buf, size_t len, uint32_t gid);
/* Orders gids as their keys compare as strings (out.c's tie-break). */
int		 evrow_keycmp(uint32_t a, uint32_t b);
/* Adds the search columns of event gid to row. */
void		 evrow_fill(cJSON *row, const struct model *, uint32_t gid,
		    int absolute);
/*
 * The identities of an event's place: device (its id as the trace gives
 * it), stream (its id), pid and tid, from the model's index of one.
 */
enum evrow_ident {
	EVROW_DEVICE,
	EVROW_STREAM,
	EVROW_PID,
	EVROW_TID
};
/* The field an identity is answered under ("device", "stream", ...). */
const char	*evrow_ident_field(enum evrow_ident);
/* Sets *id to the identity of index v and returns 1; 0 (and *id 0) when v
 * is NONE32 or out of range. */
int		 evrow_ident_id(const struct model *, enum evrow_ident,
		    uint32_t v, uint64_t *id);
/* Adds field: id, or field: null when v is NONE32 or out of range. */
void		 evrow_ident(cJSON *row, const struct model *, enum evrow_ident,
		    uint32_t v);
/* evrow_ident of each identity. */
#define evrow_device(row, m, dev)	evrow_ident(row, m, EVROW_DEVICE, dev)
#define evrow_stream(row, m, st)	evrow_ident(row, m, EVROW_STREAM, st)
#define evrow_pid(row, m, proc)		evrow_ident(row, m, EVROW_PID, proc)
#define evrow_tid(row, m, thr)		evrow_ident(row, m, EVROW_TID, thr)

#endif
