/*
 * view: helpers shared by every view. See view.h for the contract.
 */
#include "config.h"

#include "tui/view.h"

const struct view_key *
view_key_find(const struct view_key *keys, size_t n, int key)
{
	size_t	i;
	int	j;

	if (key == TK_NONE)
		return NULL;
	for (i = 0; i < n; i++)
		for (j = 0; j < 3 && keys[i].keys[j] != 0; j++)
			if (keys[i].keys[j] == key)
				return &keys[i];
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
