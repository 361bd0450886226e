/*
 * view: helpers shared by every view. See view.h for the contract.
 */
#include "config.h"

#include "tui/view.h"

const struct view_action *
view_action_find(const struct view_action *acts, size_t n, int act)
{
	size_t	i;

	if (act == 0)
		return NULL;
	for (i = 0; i < n; i++)
		if (acts[i].act == act)
			return &acts[i];
	return NULL;
}

int
view_clear_msg(char *msg)
{
	if (msg[0] == '\0')
		return 0;
	msg[0] = '\0';
	return REDRAW_STATUS;
}
