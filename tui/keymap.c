/*
 * keymap: key tables and the default keymap. See keymap.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/keymap.h"
#include "tui/view.h"
#include "util/nametab.h"
#include "util/utf8.h"
#include "util/xmalloc.h"

/* The tables, in the order keymap_list() prints them. */
static const char *const keymap_tables[KEYMAP_NTABLES] = {
	"global", "timeline", "nvtx", "kernels", "findings", "report", "job",
	"overlay"
};

/*
 * The default keymap: in each table, the keys (names, space separated)
 * that run an action, in the order the help overlay lists them.
 */
static const struct {
	const char	*table;
	const char	*keys;
	const char	*action;
} keymap_defaults[] = {
	{ "global", "1", "view-timeline" },
	{ "global", "2", "view-nvtx" },
	{ "global", "3", "view-kernels" },
	{ "global", "4", "view-findings" },
	{ "global", "5", "view-report" },
	{ "global", "?", "help" },
	{ "global", "W", "warnings" },
	{ "global", "C-l", "repaint" },
	{ "global", "q", "quit" },
	{ "global", "Q", "quit-all" },

	{ "timeline", "Left h", "pan-left" },
	{ "timeline", "Right l", "pan-right" },
	{ "timeline", "PgUp H", "pan-page-left" },
	{ "timeline", "PgDn L", "pan-page-right" },
	{ "timeline", "Home", "go-start" },
	{ "timeline", "End", "go-end" },
	{ "timeline", "+ = WheelUp", "zoom-in" },
	{ "timeline", "- WheelDown", "zoom-out" },
	{ "timeline", "0", "zoom-all" },
	{ "timeline", "z", "zoom-selection" },
	{ "timeline", ", <", "cursor-left" },
	{ "timeline", ". >", "cursor-right" },
	{ "timeline", "g", "goto-time" },
	{ "timeline", "Up k", "row-up" },
	{ "timeline", "Down j", "row-down" },
	{ "timeline", "Tab", "event-next" },
	{ "timeline", "S-Tab", "event-prev" },
	{ "timeline", "Enter Space", "pick" },
	{ "timeline", "Click", "click" },
	{ "timeline", "/", "search" },
	{ "timeline", "n", "search-next" },
	{ "timeline", "N", "search-prev" },
	{ "timeline", "[", "mark-start" },
	{ "timeline", "]", "mark-end" },
	{ "timeline", "f", "filter-duration" },
	{ "timeline", "c", "fold" },
	{ "timeline", "C", "fold-all" },
	{ "timeline", "A", "toggle-api" },
	{ "timeline", "S", "toggle-sync" },
	{ "timeline", "M", "counter-next" },
	{ "timeline", "a", "toggle-time" },
	{ "timeline", "m", "bookmark" },
	{ "timeline", "'", "bookmarks" },
	{ "timeline", "Esc", "clear-selection" },
	{ "timeline", "{", "label-narrower" },
	{ "timeline", "}", "label-wider" },
	{ "timeline", "o %", "follow-launch" },
	{ "timeline", "u C-o", "jump-back" },
	{ "timeline", "U C-r", "jump-forward" },

	{ "nvtx", "Up k WheelUp", "row-up" },
	{ "nvtx", "Down j WheelDown", "row-down" },
	{ "nvtx", "PgUp", "page-up" },
	{ "nvtx", "PgDn", "page-down" },
	{ "nvtx", "Home", "row-first" },
	{ "nvtx", "End", "row-last" },
	{ "nvtx", "Click", "row-click" },
	{ "nvtx", "Right l", "expand" },
	{ "nvtx", "Left h", "collapse" },
	{ "nvtx", "Space", "expand-toggle" },
	{ "nvtx", "Enter", "next-instance" },
	{ "nvtx", "e", "expand-all" },
	{ "nvtx", "E", "collapse-all" },
	{ "nvtx", "s", "sort-next" },
	{ "nvtx", "S", "sort-reverse" },

	{ "kernels", "Up k WheelUp", "row-up" },
	{ "kernels", "Down j WheelDown", "row-down" },
	{ "kernels", "PgUp", "page-up" },
	{ "kernels", "PgDn", "page-down" },
	{ "kernels", "Home", "row-first" },
	{ "kernels", "End", "row-last" },
	{ "kernels", "Click", "row-click" },
	{ "kernels", "Enter", "next-instance" },
	{ "kernels", "s", "sort-next" },
	{ "kernels", "S", "sort-reverse" },
	{ "kernels", "/", "filter" },
	{ "kernels", "Esc", "filter-clear" },
	{ "kernels", "n", "name-form" },

	{ "findings", "Up k WheelUp", "row-up" },
	{ "findings", "Down j WheelDown", "row-down" },
	{ "findings", "PgUp", "page-up" },
	{ "findings", "PgDn", "page-down" },
	{ "findings", "Home", "row-first" },
	{ "findings", "End", "row-last" },
	{ "findings", "Click", "row-click" },
	{ "findings", "Enter Space", "show-evidence" },

	{ "report", "Up k", "row-up" },
	{ "report", "Down j", "row-down" },
	{ "report", "Home g", "row-first" },
	{ "report", "End G", "row-last" },
	{ "report", "Tab S-Tab r", "detail-mode" },
	{ "report", "J WheelDown", "detail-down" },
	{ "report", "K WheelUp", "detail-up" },
	{ "report", "PgDn Space", "detail-page-down" },
	{ "report", "PgUp b", "detail-page-up" },
	{ "report", "B", "set-baseline" },

	{ "job", "Up k WheelUp", "row-up" },
	{ "job", "Down j WheelDown", "row-down" },
	{ "job", "PgUp", "page-up" },
	{ "job", "PgDn", "page-down" },
	{ "job", "Home", "row-first" },
	{ "job", "End", "row-last" },
	{ "job", "Click", "row-click" },
	{ "job", "Enter", "open-rank" },
	{ "job", "s", "sort-next" },
	{ "job", "S", "sort-reverse" },
	{ "job", "/", "filter" },
	{ "job", "Esc", "filter-clear" },

	{ "overlay", "q Q Esc", "overlay-close" },
};

/* Named keys: the name keymap_key_parse() reads and the help's label. */
static const struct {
	int		 key;
	const char	*name;
	const char	*label;
} keymap_names[] = {
	{ TK_LEFT, "Left", "Left" },
	{ TK_RIGHT, "Right", "Right" },
	{ TK_UP, "Up", "Up" },
	{ TK_DOWN, "Down", "Down" },
	{ TK_PGUP, "PgUp", "PgUp" },
	{ TK_PGDN, "PgDn", "PgDn" },
	{ TK_HOME, "Home", "Home" },
	{ TK_END, "End", "End" },
	{ TK_TAB, "Tab", "Tab" },
	{ TK_BTAB, "S-Tab", "S-Tab" },
	{ TK_ENTER, "Enter", "Enter" },
	{ TK_ESC, "Esc", "Esc" },
	{ ' ', "Space", "Space" },
	{ TK_BACKSPACE, "BSpace", "BSpace" },
	{ TK_DEL, "Del", "Del" },
	{ TK_CTRL_L, "C-l", "C-l" },
	{ TK_WHEEL_UP, "WheelUp", "wheel" },
	{ TK_WHEEL_DOWN, "WheelDown", "wheel" },
	{ TK_CLICK, "Click", "click" },
};
#define KEYMAP_NNAMES	(sizeof keymap_names / sizeof keymap_names[0])

/*
 * The key s names if it is exactly one character: printable ASCII, or a
 * code point from U+00A0 on; else -1.
 */
static int
keymap_one_char(const char *s)
{
	long	c = utf8_single(s);

	if (c < 0 || (c < 0x80 && (c <= 0x20 || c == 0x7f)) ||
	    (c >= 0x80 && c < 0xa0))
		return -1;
	return (int)c;
}

int
keymap_key_parse(const char *name)
{
	size_t	i;
	int	c;

	if (name == NULL || *name == '\0')
		return -1;
	if ((c = keymap_one_char(name)) >= 0)
		return c;
	for (i = 0; i < KEYMAP_NNAMES; i++)
		if (strcasecmp(name, keymap_names[i].name) == 0)
			return keymap_names[i].key;
	/* Control characters: C-a ... C-z (C-l is the repaint key). */
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
	    ((name[2] >= 'a' && name[2] <= 'z') || (name[2] >= 'A' &&
	    name[2] <= 'Z')) && name[3] == '\0')
		return TK_CTRL(name[2]);
	return -1;
}

static const char *
keymap_key_text(int key, char *buf, size_t len, int label)
{
	size_t	i;

	for (i = 0; i < KEYMAP_NNAMES; i++)
		if (keymap_names[i].key == key) {
			snprintf(buf, len, "%s", label ? keymap_names[i].label :
			    keymap_names[i].name);
			return buf;
		}
	if (key > 0 && key < 0x20)
		snprintf(buf, len, "C-%c", key | 0x60);
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, len, "%c", key);
	else if (key >= 0xa0 && key < 0x800)
		snprintf(buf, len, "%c%c", 0xc0 | (key >> 6),
		    0x80 | (key & 0x3f));
	else if (key >= 0x800 && key < 0x10000)
		snprintf(buf, len, "%c%c%c", 0xe0 | (key >> 12),
		    0x80 | ((key >> 6) & 0x3f), 0x80 | (key & 0x3f));
	else if (key >= 0x10000 && key <= 0x10ffff)
		snprintf(buf, len, "%c%c%c%c", 0xf0 | (key >> 18),
		    0x80 | ((key >> 12) & 0x3f), 0x80 | ((key >> 6) & 0x3f),
		    0x80 | (key & 0x3f));
	else
		snprintf(buf, len, "0x%x", (unsigned int)key);
	return buf;
}

const char *
keymap_key_name(int key, char *buf, size_t len)
{
	return keymap_key_text(key, buf, len, 0);
}

const char *
keymap_key_label(int key, char *buf, size_t len)
{
	return keymap_key_text(key, buf, len, 1);
}

struct keymap *
keymap_new(void)
{
	struct keymap	*km;
	size_t		 i;

	km = xcalloc(1, sizeof *km);
	for (i = 0; i < KEYMAP_NTABLES; i++) {
		km->t[i].name = keymap_tables[i];
		km->t[i].view = action_view_bit(keymap_tables[i]);
	}
	return km;
}

void
keymap_free(struct keymap *km)
{
	if (km == NULL)
		return;
	XFREE_EACH(km->t, KEYMAP_NTABLES, b);
	XFREE_EACH(km->t, KEYMAP_NTABLES, help);
	free(km);
}

/* Appends a label to a help line's keys, unless it is there already. */
static void
keymap_help_add(struct keyhelp *h, const char *label)
{
	const char	*p = h->keys;
	size_t		 n = strlen(label), used = strlen(h->keys);

	while (*p != '\0') {
		if (strncmp(p, label, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return;
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	if (used + (used > 0) + n + 1 > sizeof h->keys)
		return;
	if (used > 0)
		h->keys[used++] = ' ';
	memcpy(h->keys + used, label, n + 1);
}

/* Rebuilds the help lines of t from its bindings. */
static void
keymap_help_build(struct keytable *t)
{
	struct keyhelp	*h;
	char		 label[32];
	size_t		 i, j;

	t->nhelp = 0;
	for (i = 0; i < t->n; i++) {
		for (j = 0; j < t->nhelp; j++)
			if (t->help[j].act == t->b[i].act)
				break;
		if (j == t->nhelp) {
			h = XAPPEND(t->help, t->helpcap, t->nhelp++);
			h->act = t->b[i].act;
			h->help = action_get(h->act)->help;
		}
		keymap_help_add(&t->help[j], keymap_key_label(t->b[i].key,
		    label, sizeof label));
	}
}

int
keymap_bind(struct keymap *km, const char *table, const char *key,
    const char *action, char **cause)
{
	struct keytable			*t;
	const struct action_info	*a;
	size_t				 i;
	int				 k, act;

	if ((k = NAMETAB_FIND(keymap_tables, table)) < 0) {
		*cause = xasprintf("unknown key table: %s", table);
		return -1;
	}
	t = &km->t[k];
	if ((k = keymap_key_parse(key)) < 0) {
		*cause = xasprintf("unknown key name: %s", key);
		return -1;
	}
	if ((act = action_find(action)) == ACT_NONE) {
		*cause = xasprintf("unknown action: %s", action);
		return -1;
	}
	a = action_get(act);
	if ((a->views & t->view) == 0) {
		*cause = xasprintf("action %s does not apply to the %s table",
		    action, table);
		return -1;
	}
	for (i = 0; i < t->n; i++)
		if (t->b[i].key == k)
			break;
	if (i == t->n) {
		XGROW(t->b, t->cap, t->n + 1);
		t->n++;
	}
	t->b[i].key = k;
	t->b[i].act = act;
	keymap_help_build(t);
	return 0;
}

struct keymap *
keymap_default(char **cause)
{
	struct keymap	*km = keymap_new();
	char		 buf[64], *p, *key, *why = NULL;
	size_t		 i;

	for (i = 0; i < sizeof keymap_defaults / sizeof keymap_defaults[0];
	    i++) {
		snprintf(buf, sizeof buf, "%s", keymap_defaults[i].keys);
		for (p = buf; (key = strsep(&p, " ")) != NULL; ) {
			if (*key == '\0')
				continue;
			if (keymap_bind(km, keymap_defaults[i].table, key,
			    keymap_defaults[i].action, &why) != 0) {
				*cause = xasprintf("default keymap: %s", why);
				free(why);
				keymap_free(km);
				return NULL;
			}
		}
	}
	return km;
}

const struct keytable *
keymap_table(const struct keymap *km, const char *name)
{
	int	k;

	if (km == NULL || (k = NAMETAB_FIND(keymap_tables, name)) < 0)
		return NULL;
	return &km->t[k];
}

/*
 * In t's first binding of the key v (by_act 0), its action; in its first
 * binding to the action v (by_act 1), its key; none without one.
 */
static int
keytable_lookup(const struct keytable *t, int by_act, int v, int none)
{
	size_t	i;

	if (t == NULL)
		return none;
	for (i = 0; i < t->n; i++)
		if ((by_act ? t->b[i].act : t->b[i].key) == v)
			return by_act ? t->b[i].key : t->b[i].act;
	return none;
}

int
keytable_action(const struct keytable *t, int key)
{
	if (key == TK_NONE)
		return ACT_NONE;
	return keytable_lookup(t, 0, key, ACT_NONE);
}

int
keytable_key(const struct keytable *t, int act)
{
	return keytable_lookup(t, 1, act, TK_NONE);
}

void
keymap_list(const struct keymap *km, FILE *f)
{
	const struct keytable	*t;
	char			 name[32];
	size_t			 i, j;

	for (i = 0; i < KEYMAP_NTABLES; i++) {
		t = &km->t[i];
		for (j = 0; j < t->n; j++)
			fprintf(f, "%s\t%s\t%s\t%s\n", t->name,
			    keymap_key_name(t->b[j].key, name, sizeof name),
			    action_name(t->b[j].act),
			    action_get(t->b[j].act)->help);
	}
}
