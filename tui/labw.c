/*
 * labw: the timeline's label column width (labw.h).
 */
#include "config.h"

#include "tui/labw.h"

int
labw_width(int w, int need, int adjust)
{
	int	lw, hi;

	if (w < 60)
		lw = w / 3;
	else {
		lw = w / 6;
		if (lw < LABW_BASE)
			lw = LABW_BASE;
		if (lw > LABW_MAX)
			lw = LABW_MAX;
		if (need > 0 && need < lw)
			lw = need < LABW_MIN ? LABW_MIN : need;
	}
	lw += adjust;
	hi = w - LABW_LANES - 1;
	if (lw > hi)
		lw = hi;
	if (lw < 1)
		lw = 1;
	return lw;
}
