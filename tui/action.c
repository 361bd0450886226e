/*
 * action: the table of actions generated from ACTION_LIST. See action.h.
 */
#include "config.h"

#include <string.h>

#include "tui/action.h"

static const struct action_info action_table[ACT_COUNT] = {
	[ACT_NONE] = { "none", 0, "" },
#define ACTION_INFO(id, name, views, help) [ACT_##id] = { name, views, help },
	ACTION_LIST(ACTION_INFO)
#undef ACTION_INFO
};

static const struct {
	const char	*name;
	unsigned	 bit;
} action_views[] = {
	{ "global", AV_GLOBAL },
	{ "timeline", AV_TIMELINE },
	{ "nvtx", AV_NVTX },
	{ "kernels", AV_KERNELS },
	{ "findings", AV_FINDINGS },
	{ "report", AV_REPORT },
	{ "job", AV_JOB },
	{ "overlay", AV_OVERLAY },
};

const struct action_info *
action_get(int act)
{
	if (act <= ACT_NONE || act >= ACT_COUNT)
		return NULL;
	return &action_table[act];
}

int
action_find(const char *name)
{
	int	i;

	if (name == NULL)
		return ACT_NONE;
	for (i = ACT_NONE + 1; i < ACT_COUNT; i++)
		if (strcmp(action_table[i].name, name) == 0)
			return i;
	return ACT_NONE;
}

const char *
action_name(int act)
{
	const struct action_info	*a = action_get(act);

	return a != NULL ? a->name : "none";
}

unsigned
action_view_bit(const char *view)
{
	size_t	i;

	for (i = 0; i < sizeof action_views / sizeof action_views[0]; i++)
		if (strcmp(action_views[i].name, view) == 0)
			return action_views[i].bit;
	return 0;
}
