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
view_action_run(const struct view_action *acts, size_t n, void *p,
    const struct tui_key *k, int act)
{
	const struct view_action	*b;

	if ((b = view_action_find(acts, n, act)) == NULL)
		return REACT_PASS;
	return b->fn(p, k, b->arg);
}

int
view_clear_msg(char *msg)
{
	if (msg[0] == '\0')
		return 0;
	msg[0] = '\0';
	return REDRAW_STATUS;
}
