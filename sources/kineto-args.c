/*
 * kineto-args: the "args" object of GPU, API, memory and collective
 * events, read once into struct kargs.
 */

#include "config.h"
#include <string.h>
#include "model/builder.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"

void
kineto_args(const struct kev *e, struct kargs *a)
{
	const struct jsonscan_member	*mb;
	int64_t				 v[3];
	size_t				 i;
	int				 n;

	memset(a, 0, sizeof *a);
	a->devid = -1;
	for (i = 0; i < e->nargs; i++) {
		mb = &e->args[i];
		switch (mb->key.len) {
		case 4:
			if (KEY(mb, "grid") && (n = jsonscan_i64_array(&mb->val,
			    v, 3)) == 3)
				memcpy(a->grid, v, sizeof v);
			else if (KEY(mb, "kind"))
				a->kind = &mb->val;
			break;
		case 5:
			if (KEY(mb, "block") && (n = jsonscan_i64_array(
			    &mb->val, v, 3)) == 3)
				memcpy(a->block, v, sizeof v);
			else if (KEY(mb, "bytes"))
				a->has_bytes = jsonscan_i64(&mb->val,
				    &a->bytes) == 0;
			else if (KEY(mb, "Bytes"))
				a->has_bytes = jsonscan_i64(&mb->val,
				    &a->bytes) == 0;
			else if (KEY(mb, "dtype"))
				a->dtype = &mb->val;
			break;
		case 6:
			if (KEY(mb, "device"))
				a->has_device = jsonscan_i64(&mb->val,
				    &a->device) == 0;
			else if (KEY(mb, "stream"))
				a->has_stream = jsonscan_i64(&mb->val,
				    &a->stream) == 0;
			break;
		case 8:
			if (KEY(mb, "toDevice"))
				a->has_to = jsonscan_i64(&mb->val,
				    &a->to_dev) == 0;
			break;
		case 9:
			if (KEY(mb, "Device Id"))
				jsonscan_i64(&mb->val, &a->devid);
			break;
		case 10:
			if (KEY(mb, "fromDevice"))
				a->has_from = jsonscan_i64(&mb->val,
				    &a->from_dev) == 0;
			else if (KEY(mb, "Group size"))
				a->has_group = jsonscan_i64(&mb->val,
				    &a->group_size) == 0;
			break;
		case 11:
			if (KEY(mb, "correlation"))
				a->has_corr = jsonscan_i64(&mb->val,
				    &a->corr) == 0;
			else if (KEY(mb, "Device Type"))
				jsonscan_i64(&mb->val, &a->devtype);
			break;
		case 13:
			if (KEY(mb, "shared memory"))
				jsonscan_i64(&mb->val, &a->smem);
			else if (KEY(mb, "In msg nelems"))
				a->has_in = jsonscan_i64(&mb->val,
				    &a->in_nelems) == 0;
			break;
		case 14:
			if (KEY(mb, "Out msg nelems"))
				a->has_out = jsonscan_i64(&mb->val,
				    &a->out_nelems) == 0;
			break;
		case 15:
			if (KEY(mb, "correlation_raw"))
				a->has_corr_raw = jsonscan_i64(&mb->val,
				    &a->corr_raw) == 0;
			else if (KEY(mb, "Collective name")) {
				a->coll = 1;
				a->coll_name = &mb->val;
			}
			else if (KEY(mb, "Total Allocated"))
				a->has_total = jsonscan_i64(&mb->val,
				    &a->total) == 0;
			break;
		case 16:
			if (KEY(mb, "Process Group ID"))
				a->pg_id = &mb->val;
			break;
		case 18:
			if (KEY(mb, "Process Group Name"))
				a->pg_name = &mb->val;
			break;
		case 19:
			if (KEY(mb, "Process Group Ranks"))
				a->pg_ranks = &mb->val;
			break;
		case 20:
			if (KEY(mb, "registers per thread"))
				jsonscan_i64(&mb->val, &a->regs);
			break;
		case 25:
			if (KEY(mb, "Process Group Description"))
				a->pg_desc = &mb->val;
			break;
		}
	}
	/* A merged trace's ids are offset per rank (kineto-ranks.c). */
	if (a->has_corr_raw) {
		a->corr = a->corr_raw;
		a->has_corr = 1;
	}
}
