/*
 * prompt: a one-line text editor on the status line, for the keys that
 * ask for a value (`/` search, `g` go to a time, `f` minimum duration).
 *
 * A view opens a prompt with an id of its own, feeds it keys while it is
 * active and acts on PROMPT_DONE. Printable characters are appended
 * (UTF-8); Backspace deletes a character, ^U the whole line, ^W a word;
 * Enter accepts; Esc cancels. The text is the user's, but it is still
 * sanitised when drawn (a paste can hold anything).
 */
#ifndef GPULENS_PROMPT_H
#define GPULENS_PROMPT_H

#include <stddef.h>

#include "tui/cellgrid.h"
#include "tui/view.h"

#define PROMPT_MAX	256

enum prompt_result {
	PROMPT_EDIT,		/* key used, still editing */
	PROMPT_DONE,		/* Enter: buf holds the answer */
	PROMPT_CANCEL		/* Esc: closed */
};

struct prompt {
	int		 active;
	int		 id;			/* the caller's tag */
	char		 label[64];		/* "search: " */
	char		 buf[PROMPT_MAX];	/* UTF-8, NUL-terminated */
	size_t		 len;
};

/* Opens p with a label and initial text (may be NULL). */
void	prompt_open(struct prompt *, int id, const char *label,
	    const char *init);
/* Handles one key; the prompt is inactive after DONE or CANCEL. */
int	prompt_key(struct prompt *, const struct tui_key *);
/* Draws label, text and a cursor in w columns at (x, y); the text is
 * scrolled so that its end stays visible. */
void	prompt_draw(const struct prompt *, struct cellgrid *, int x, int y,
	    int w, int sanflags);

#endif
