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
/* Adds key: value, or key: null when value is NONE32 / negative. */
void		 evrow_device(cJSON *row, const struct model *, uint32_t dev);
void		 evrow_stream(cJSON *row, const struct model *, uint32_t st);
void		 evrow_pid(cJSON *row, const struct model *, uint32_t proc);
void		 evrow_tid(cJSON *row, const struct model *, uint32_t thr);

#endif
