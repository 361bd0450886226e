/*
 * kineto: the PyTorch profiler (Kineto) Chrome-trace JSON reader.
 *
 * Reads `*.pt.trace.json` files, plain or compressed (gzip, zstd), with the
 * event array streamed (jsonscan.h): memory is the model's, whatever the
 * file's size. kineto.c says how events map to the model.
 */
#ifndef GPULENS_KINETO_H
#define GPULENS_KINETO_H

#include <stddef.h>

#include "model/model.h"
#include "util/progress.h"

/*
 * Loads a Kineto trace. Returns the model (free with model_free), or NULL
 * with *cause (caller frees): malformed JSON, a field of the wrong type or
 * a missing one, a truncated or corrupt compressed stream; every message
 * names the file and the (decompressed) byte offset.
 */
struct model	*kineto_load(const char *path, struct progress *,
		    char **cause);
/*
 * Whether path (plain, gzip or zstd) looks like a Chrome/Kineto trace: a
 * JSON object whose first bytes hold "traceEvents", "schemaVersion" or
 * "deviceProperties", or a JSON array of objects with "ph". Returns 1 or 0,
 * or -1 with *cause when the file cannot be read.
 */
int		 kineto_probe(const char *path, char **cause);
/* Whether s[0, len) is a category Kineto writes (any case). */
int		 kineto_is_category(const char *s, size_t len);
/*
 * The rank a trace file's name states, or -1: the digits after "rank"
 * (any case, optionally followed by '-', '_' or '.'), as in
 * "rank-3.Apr_03.pt.trace.json", "rank_12.json.gz", "sampled_rank-1.json".
 * Only the last path component is looked at.
 */
int		 kineto_rank_from_name(const char *path);

#endif
