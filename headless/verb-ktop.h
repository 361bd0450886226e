/*
 * verb-ktop: the "top_kernels" lists of the answers (summary, phases): a
 * kernel top list (analysis/ktop.h) as a JSON array.
 */
#ifndef GPULENS_VERB_KTOP_H
#define GPULENS_VERB_KTOP_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "analysis/ktop.h"
#include "model/model.h"

/*
 * Adds the first max items of k, in its order (ktop_sort() it first), to
 * obj as the array key: objects {name, count, total_ns}, with share_pct
 * (of the time of every item) when share is set.
 */
void	 verb_ktop_emit(const struct ktop *k, const struct model *,
	    cJSON *obj, const char *key, size_t max, int share);

#endif
