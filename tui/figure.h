/*
 * figure: a window of the timeline as SVG or self-contained HTML, with the
 * timeline view's rows, labels and colours (figure.c has the details).
 */
#ifndef GPULENS_FIGURE_H
#define GPULENS_FIGURE_H

#include <stdio.h>

#include "model/figreq.h"
#include "model/model.h"

/* Writes the figure of rq to fp; fills rq's counts. Returns 0, or -1 with
 * *cause (caller frees) for a bad request. */
int	 figure_write(const struct model *, struct figreq *, FILE *,
	    char **cause);

#endif
