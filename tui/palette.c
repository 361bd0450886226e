/*
 * palette: class colours for the terminal and for figures (palette.h).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "tui/cellgrid.h"
#include "tui/palette.h"

/* The 8-colour numbers are curses' COLOR_* values (black 0 .. white 7). */
#define P_BLACK		0
#define P_RED		1
#define P_GREEN		2
#define P_YELLOW	3
#define P_BLUE		4
#define P_MAGENTA	5
#define P_CYAN		6
#define P_WHITE		7

static const struct palette_entry palette_table[CG_CLASS_COUNT] = {
	[CG_NORMAL] = { -1, -1, -1, -1, 0 },
	[CG_LABEL] = { 252, -1, P_WHITE, -1, 0 },
	[CG_GROUP] = { 231, -1, P_WHITE, -1, 1 },
	[CG_RULER] = { 250, 236, P_CYAN, -1, 0 },
	[CG_STATUS] = { 16, 250, P_BLACK, P_WHITE, 0 },
	[CG_DETAIL] = { 252, -1, P_WHITE, -1, 0 },
	[CG_KEY] = { 110, -1, P_CYAN, -1, 0 },
	[CG_HELP] = { 231, 24, P_WHITE, P_BLUE, 0 },
	[CG_BORDER] = { 242, -1, P_WHITE, -1, 0 },
	[CG_DIM] = { 242, -1, P_WHITE, -1, 0 },
	[CG_KERNEL] = { 39, -1, P_CYAN, -1, 0 },
	[CG_COMM] = { 170, -1, P_MAGENTA, -1, 0 },
	[CG_MEMCPY] = { 78, -1, P_GREEN, -1, 0 },
	[CG_MEMSET] = { 179, -1, P_YELLOW, -1, 0 },
	[CG_SYNC] = { 203, -1, P_RED, -1, 0 },
	[CG_API] = { 180, -1, P_YELLOW, -1, 0 },
	[CG_NVTX] = { 114, -1, P_GREEN, -1, 0 },
	[CG_OSRT] = { 146, -1, P_BLUE, -1, 0 },
	[CG_OTHER] = { 245, -1, P_WHITE, -1, 0 },
};

const struct palette_entry *
palette_get(int cls)
{
	if (cls < 0 || cls >= CG_CLASS_COUNT)
		return NULL;
	return &palette_table[cls];
}

uint32_t
palette_rgb(int c, uint32_t dflt)
{
	static const uint32_t	base[16] = {
		0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
		0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
		0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff
	};
	static const uint32_t	lv[6] = { 0, 95, 135, 175, 215, 255 };
	uint32_t		g;

	if (c < 0 || c > 255)
		return dflt;
	if (c < 16)
		return base[c];
	if (c >= 232) {
		g = 8 + 10 * (uint32_t)(c - 232);
		return g << 16 | g << 8 | g;
	}
	c -= 16;
	return lv[c / 36] << 16 | lv[(c / 6) % 6] << 8 | lv[c % 6];
}
