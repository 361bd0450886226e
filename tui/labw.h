/*
 * labw: the width of the timeline's label column, from the screen's width,
 * the width the longest label needs and the user's adjustment (the
 * label-narrower and label-wider actions). Pure arithmetic, no terminal.
 */
#ifndef GPULENS_LABW_H
#define GPULENS_LABW_H

#define LABW_BASE	20	/* on any screen of 60 columns or more */
#define LABW_MIN	12	/* short labels: at least */
#define LABW_MAX	40	/* ... and at most */
#define LABW_STEP	4	/* columns per label-narrower/-wider */
#define LABW_LANES	10	/* columns always left to the lanes */

/*
 * The label column's width on a screen w wide: about a sixth of it, between
 * LABW_BASE and LABW_MAX (a third below 60 columns), but no wider than need
 * (the longest label's columns; 0: unknown) and then at least LABW_MIN;
 * plus adjust, then kept between 1 and w - LABW_LANES - 1.
 */
int	labw_width(int w, int need, int adjust);

#endif
