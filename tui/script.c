/*
 * script: parsing of key scripts. See script.h for the format.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/action.h"
#include "tui/script.h"
#include "util/utf8.h"
#include "util/xmalloc.h"

static const struct {
	const char	*name;
	int		 key;
} script_names[] = {
	{ "LEFT", TK_LEFT }, { "RIGHT", TK_RIGHT }, { "UP", TK_UP },
	{ "DOWN", TK_DOWN }, { "PGUP", TK_PGUP }, { "PPAGE", TK_PGUP },
	{ "PAGEUP", TK_PGUP }, { "PGDN", TK_PGDN }, { "NPAGE", TK_PGDN },
	{ "PAGEDOWN", TK_PGDN }, { "HOME", TK_HOME }, { "END", TK_END },
	{ "TAB", TK_TAB }, { "BTAB", TK_BTAB }, { "SHIFT_TAB", TK_BTAB },
	{ "S-TAB", TK_BTAB }, { "ENTER", TK_ENTER }, { "RETURN", TK_ENTER },
	{ "ESC", TK_ESC }, { "ESCAPE", TK_ESC }, { "SPACE", ' ' },
	{ "BACKSPACE", TK_BACKSPACE }, { "WHEEL_UP", TK_WHEEL_UP },
	{ "WHEEL_DOWN", TK_WHEEL_DOWN }, { "CLICK", TK_CLICK },
	{ "DEL", TK_DEL }, { "DELETE", TK_DEL }, { "C-L", TK_CTRL_L },
};

/* The code point of s if it is exactly one UTF-8 character, else -1. */
static int
script_one_char(const char *s)
{
	return (int)utf8_single(s);
}

int
script_parse_line(const char *line, struct script_step *st, char **cause)
{
	char	 buf[1024], *s, *e, *arg = NULL, *end;
	size_t	 i, len;
	long	 v;
	int	 c, x = 0, y = 0;

	memset(st, 0, sizeof *st);
	snprintf(buf, sizeof buf, "%s", line);
	len = strlen(buf);
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
	    buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = '\0';
	s = buf;
	if (len > 1) {
		while (*s == ' ' || *s == '\t')
			s++;
	}
	if (*s == '\0' || (s[0] == '#' && s[1] != '\0'))
		return 0;
	if ((c = script_one_char(s)) >= 0) {
		st->op = SCRIPT_KEY;
		st->key.key = c;
		return 1;
	}
	if (s[0] == ':') {
		arg = s + 1;
		while (*arg != '\0' && *arg != ' ' && *arg != '\t')
			arg++;
		if (*arg != '\0')
			*arg++ = '\0';
		while (*arg == ' ' || *arg == '\t')
			arg++;
		if (strcmp(s, ":dump") == 0) {
			if (*arg == '\0')
				goto missing;
			st->op = SCRIPT_DUMP;
			st->path = xstrdup(arg);
			return 1;
		}
		if (strcmp(s, ":sleep") == 0) {
			errno = 0;
			v = strtol(arg, &end, 10);
			if (*arg == '\0' || *end != '\0' || v < 0 || v > 600000)
				goto bad;
			st->op = SCRIPT_SLEEP;
			st->a = (int)v;
			return 1;
		}
		if (strcmp(s, ":resize") == 0) {
			if (sscanf(arg, "%dx%d", &x, &y) != 2 || x < 1 ||
			    y < 1 || x > 10000 || y > 10000)
				goto bad;
			st->op = SCRIPT_RESIZE;
			st->a = x;
			st->b = y;
			return 1;
		}
		if (strcmp(s, ":action") == 0) {
			if (*arg == '\0')
				goto missing;
			if ((st->a = action_find(arg)) == ACT_NONE) {
				*cause = xasprintf("unknown action: %s", arg);
				return -1;
			}
			st->op = SCRIPT_ACTION;
			return 1;
		}
		if (strcmp(s, ":redraw") == 0) {
			st->op = SCRIPT_REDRAW;
			return 1;
		}
		if (strcmp(s, ":quit") == 0) {
			st->op = SCRIPT_QUIT;
			return 1;
		}
		*cause = xasprintf("unknown script command: %s", s);
		return -1;
	}
	/* A key name, maybe with pointer coordinates. */
	e = s;
	while (*e != '\0' && *e != ' ' && *e != '\t')
		e++;
	if (*e != '\0') {
		*e++ = '\0';
		arg = e;
		if (sscanf(e, "%d %d", &x, &y) != 2)
			goto bad;
	}
	if (strncasecmp(s, "KEY_", 4) == 0)
		s += 4;
	for (i = 0; i < sizeof script_names / sizeof script_names[0]; i++) {
		if (strcasecmp(s, script_names[i].name) == 0) {
			st->op = SCRIPT_KEY;
			st->key.key = script_names[i].key;
			st->key.x = x;
			st->key.y = y;
			return 1;
		}
	}
	*cause = xasprintf("unknown key name: %s", s);
	return -1;

missing:
	*cause = xasprintf("%s needs an argument", s);
	return -1;
bad:
	*cause = xasprintf("bad argument to %s: %s", s, arg != NULL ? arg : "");
	return -1;
}

int
script_load(struct script *sc, const char *path, char **cause)
{
	FILE			*f;
	char			 line[1024], *why = NULL;
	struct script_step	 st;
	int			 lineno = 0, r;

	memset(sc, 0, sizeof *sc);
	if ((f = fopen(path, "r")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		r = script_parse_line(line, &st, &why);
		if (r < 0) {
			*cause = xasprintf("%s:%d: %s", path, lineno, why);
			free(why);
			fclose(f);
			script_free(sc);
			return -1;
		}
		if (r == 0)
			continue;
		st.line = lineno;
		XGROW(sc->steps, sc->cap, sc->n + 1);
		sc->steps[sc->n++] = st;
	}
	fclose(f);
	return 0;
}

void
script_free(struct script *sc)
{
	XFREE_EACH(sc->steps, sc->n, path);
	free(sc->steps);
	memset(sc, 0, sizeof *sc);
}

const char *
script_key_name(int k, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; i < sizeof script_names / sizeof script_names[0]; i++)
		if (script_names[i].key == k && k != ' ') {
			snprintf(buf, len, "%s", script_names[i].name);
			return buf;
		}
	if (k == ' ')
		snprintf(buf, len, "SPACE");
	else if (k > 0x20 && k < 0x7f)
		snprintf(buf, len, "%c", k);
	else
		snprintf(buf, len, "U+%04X", (unsigned int)k);
	return buf;
}
