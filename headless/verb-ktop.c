/*
 * verb-ktop: a kernel top list as a JSON array (see verb-ktop.h).
 */
#include "config.h"

#include "headless/out.h"
#include "headless/verb-ktop.h"

void
verb_ktop_emit(const struct ktop *k, const struct model *m, cJSON *obj,
    const char *key, size_t max, int share)
{
	cJSON	*arr, *o;
	size_t	 i;

	arr = cJSON_AddArrayToObject(obj, key);
	for (i = 0; i < k->n && i < max; i++) {
		o = cJSON_CreateObject();
		out_str(o, "name", model_str(m, k->v[i].name));
		out_int(o, "count", (int64_t)k->v[i].count);
		out_int(o, "total_ns", k->v[i].total);
		if (share)
			out_num(o, "share_pct", k->total > 0 ? 100.0 *
			    (double)k->v[i].total / (double)k->total : 0.0);
		cJSON_AddItemToArray(arr, o);
	}
}
