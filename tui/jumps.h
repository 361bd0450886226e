/*
 * jumps: the jump list (vim's jumplist, tig's view history): where the
 * timeline was before each jump, so that one key goes back and another
 * forward again.
 *
 * A position is the window, the cursor, the selected row (as an index
 * into the layout's rows, all expanded) and the selected event. The list
 * holds at most JUMPS_MAX positions and an index into it: jumps_push()
 * records the position a jump leaves (dropping what lay ahead, as a
 * browser's history does), jumps_back() hands the position before the
 * current one (recording the current one first when it is the newest, so
 * that jumps_forward() can come back to it), jumps_forward() the one after.
 * Pure bookkeeping, no model and no screen: tests/unit/jumps_test.c.
 */
#ifndef GPULENS_JUMPS_H
#define GPULENS_JUMPS_H

#include <stddef.h>
#include <stdint.h>

#define JUMPS_MAX	100

struct jump {
	int64_t		 t0, span, cursor;
	size_t		 row;		/* layout_all index, (size_t)-1 none */
	uint32_t	 gid;		/* selected event or NONE32 */
};

struct jumps {
	struct jump	 j[JUMPS_MAX];
	size_t		 n;		/* positions held */
	size_t		 cur;		/* where back/forward stand; n: the
					   newest, not recorded */
};

void	 jumps_init(struct jumps *);
/* Records the position a jump leaves. */
void	 jumps_push(struct jumps *, const struct jump *here);
/* The position before here into *to; 0, or -1 if there is none. */
int	 jumps_back(struct jumps *, const struct jump *here, struct jump *to);
/* The position after the current one into *to; 0, or -1 if none. */
int	 jumps_forward(struct jumps *, struct jump *to);

#endif
