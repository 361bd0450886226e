/*
 * prompt: the status-line editor. See prompt.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tui/prompt.h"
#include "tui/safetext.h"
#include "util/utf8.h"

void
prompt_open(struct prompt *p, int id, const char *label, const char *init)
{
	memset(p, 0, sizeof *p);
	p->active = 1;
	p->id = id;
	snprintf(p->label, sizeof p->label, "%s", label);
	if (init != NULL) {
		snprintf(p->buf, sizeof p->buf, "%s", init);
		p->len = strlen(p->buf);
	}
}

/* Appends code point c as UTF-8 if it fits. */
static void
prompt_add(struct prompt *p, int c)
{
	unsigned char	u[4];
	size_t		n;

	n = utf8_encode((uint32_t)c, u);
	if (p->len + n >= sizeof p->buf)
		return;
	memcpy(p->buf + p->len, u, n);
	p->len += n;
	p->buf[p->len] = '\0';
}

/* Removes the last UTF-8 character. */
static void
prompt_backspace(struct prompt *p)
{
	while (p->len > 0) {
		p->len--;
		if (((unsigned char)p->buf[p->len] & 0xc0) != 0x80)
			break;
	}
	p->buf[p->len] = '\0';
}

int
prompt_key(struct prompt *p, const struct tui_key *k)
{
	int	c = k->key;

	switch (c) {
	case TK_ENTER:
		p->active = 0;
		return PROMPT_DONE;
	case TK_ESC:
		p->active = 0;
		return PROMPT_CANCEL;
	case TK_BACKSPACE:
	case TK_DEL:
		prompt_backspace(p);
		return PROMPT_EDIT;
	case TK_CTRL('U'):
		p->len = 0;
		p->buf[0] = '\0';
		return PROMPT_EDIT;
	case TK_CTRL('W'):
		while (p->len > 0 && p->buf[p->len - 1] == ' ')
			prompt_backspace(p);
		while (p->len > 0 && p->buf[p->len - 1] != ' ')
			prompt_backspace(p);
		return PROMPT_EDIT;
	}
	if (c >= 0x20 && c != 0x7f && c < TK_BASE && !(c >= 0x80 && c < 0xa0) &&
	    !(c >= 0xd800 && c <= 0xdfff))
		prompt_add(p, c);
	return PROMPT_EDIT;
}

void
prompt_draw(const struct prompt *p, struct cellgrid *g, int x, int y, int w,
    int sanflags)
{
	const char	*s = p->buf;
	int		 used, avail;

	if (w <= 0)
		return;
	used = cellgrid_text(g, x, y, w, p->label, ST_ASCII,
	    CG_STATUS | CGA_BOLD);
	avail = w - used - 1;
	if (avail < 1)
		return;
	/* Keep the end in view: drop leading characters until it fits. */
	while (*s != '\0' && safetext_width(s, (size_t)-1, sanflags) > avail) {
		s++;
		while (((unsigned char)*s & 0xc0) == 0x80)
			s++;
	}
	used += cellgrid_text(g, x + used, y, avail, s, sanflags, CG_STATUS);
	/* The cursor: a hole in the reversed bar, visible in every mode. */
	cellgrid_put(g, x + used, y, L' ', CG_NORMAL);
}
