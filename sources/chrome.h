/*
 * chrome: generic Chrome trace (Trace Event Format) JSON, as Chrome,
 * Perfetto and converters write it (nsightful's conversion of an Nsight
 * Systems export, for one): a JSON array of events, or an object holding
 * one as "traceEvents". PyTorch profiler (Kineto) traces are the same
 * container with known categories and top-level members; kineto.h reads
 * those. chrome.c says how the generic events map to the model and what
 * it assumes.
 */
#ifndef GPULENS_CHROME_H
#define GPULENS_CHROME_H

#include "model/model.h"
#include "util/progress.h"

/*
 * Loads a generic Chrome trace (plain, gzip or zstd). Returns the model,
 * or NULL with *cause (caller frees) naming the file and byte offset.
 */
struct model	*chrome_load(const char *path, struct progress *,
		    char **cause);
/*
 * Whether a file kineto_probe() accepts is a generic Chrome trace rather
 * than a Kineto one: its head (64 KiB) holds none of Kineto's top-level
 * members (schemaVersion, deviceProperties, distributedInfo,
 * baseTimeNanoseconds) and no event of a Kineto category. 1 or 0, or -1
 * with *cause when the file cannot be read.
 */
int		 chrome_probe(const char *path, char **cause);

#endif
