/*
 * keymap: key tables that bind keys to actions (tmux's key tables, tig's
 * keymaps).
 *
 * A keymap holds one table per view, named as the view ("timeline",
 * "nvtx", "kernels", "findings", "report"), and the table "global" of the
 * keys every view has. A key pressed in a view is looked up in the view's
 * table first, then in the global one (app.c); the action found is what
 * the view (or the application) runs. While a box is up over a view (the
 * help, the load warnings, range statistics, bookmarks) the table
 * "overlay" comes first: its overlay-close keys (q Q Esc) close the box and
 * never reach the global table, so q in a box does not quit. keymap_default() builds the
 * compiled-in default keymap from a table of (table, key name, action
 * name) strings in keymap.c; keymap_bind() checks each binding: the key
 * name must parse, the action must exist and apply to the table's view.
 *
 * Each table also keeps, for the `?` overlay, one line per action bound in
 * it, in the order of the first binding: the labels of its keys ("Up k
 * wheel") and the action's help, so the overlay is always the keymap.
 * `gpulens --list-keys` prints the bindings (keymap_list).
 *
 * Key names: a printable character is itself ("h", "?", "é"); the others
 * are Left Right Up Down PgUp PgDn Home End Tab S-Tab Enter Esc Space
 * BSpace Del C-l WheelUp WheelDown Click, and C-a ... C-z for control
 * characters. Help labels are the same but "wheel" and "click" for the
 * pointer keys.
 *
 * Ownership: keymap_new() and keymap_default() allocate; keymap_free()
 * frees. Lookups are O(bindings of the table).
 */
#ifndef GPULENS_KEYMAP_H
#define GPULENS_KEYMAP_H

#include <stddef.h>
#include <stdio.h>

#include "tui/action.h"

#define KEYMAP_NTABLES	8

struct keybind {
	int		 key;		/* code point or TK_* */
	int		 act;		/* enum action */
};

/* One line of the help overlay. */
struct keyhelp {
	int		 act;
	char		 keys[40];	/* labels of its keys, space separated */
	const char	*help;
};

struct keytable {
	const char	*name;		/* "global" or a view's name */
	unsigned	 view;		/* its AV_* bit */
	struct keybind	*b;
	size_t		 n, cap;
	struct keyhelp	*help;		/* one per action bound */
	size_t		 nhelp, helpcap;
};

struct keymap {
	struct keytable	 t[KEYMAP_NTABLES];
};

/* An empty keymap with every table. */
struct keymap	*keymap_new(void);
/* The default keymap; NULL with *cause if a default binding is bad. */
struct keymap	*keymap_default(char **cause);
void		 keymap_free(struct keymap *);
/*
 * Binds key (a key name) in table to action (an action name), replacing
 * what the key did there. Returns 0, or -1 with *cause (caller frees).
 */
int		 keymap_bind(struct keymap *, const char *table,
		    const char *key, const char *action, char **cause);
/* The table called name, or NULL. */
const struct keytable *keymap_table(const struct keymap *, const char *name);
/* The action bound to key in t, or ACT_NONE (also for a NULL t). */
int		 keytable_action(const struct keytable *, int key);
/* The first key bound to act in t, or TK_NONE. */
int		 keytable_key(const struct keytable *, int act);

/* Parses a key name; returns the key, or -1. */
int		 keymap_key_parse(const char *name);
/* The key's name, as keymap_key_parse() reads it, into buf. */
const char	*keymap_key_name(int key, char *buf, size_t len);
/* The key's label for the help overlay, into buf. */
const char	*keymap_key_label(int key, char *buf, size_t len);

/*
 * Prints every binding, table by table (global first, then the views),
 * in binding order, one line each: TABLE TAB KEY TAB ACTION TAB HELP.
 */
void		 keymap_list(const struct keymap *, FILE *);

#endif
