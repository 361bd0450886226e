/*
 * palette: the colour of each cell class (tui/cellgrid.h), for the
 * terminal (256- and 8-colour modes) and for figures (RGB).
 *
 * One table serves both, so a figure shows the colours the timeline view
 * shows. Colours are xterm colour numbers; -1 is the terminal's default
 * (a figure uses its own foreground or background there).
 */
#ifndef GPULENS_PALETTE_H
#define GPULENS_PALETTE_H

#include <stdint.h>

struct palette_entry {
	short		 fg256, bg256;	/* 256-colour mode */
	short		 fg8, bg8;	/* 8-colour mode (COLOR_* numbers) */
	int		 bold;		/* bold in colour modes too */
};

/* The entry of class cls (enum cg_class); NULL when out of range. */
const struct palette_entry *palette_get(int cls);
/* 0xRRGGBB of xterm colour c (0..255), or dflt when c < 0. */
uint32_t	 palette_rgb(int c, uint32_t dflt);

#endif
