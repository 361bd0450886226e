/*
 * tui: terminal set-up, the main loop and the blit to ncurses.
 *
 * This is the only file that talks to ncurses. The views (app.h) draw
 * into a cellgrid (cellgrid.h); once per loop turn the loop hands the
 * accumulated damage to the app, copies the dirty rows of the grid to
 * stdscr and calls doupdate() once (tmux's server_client_loop, tig's
 * redraw_view_dirty); ncurses then sends only the cells that changed.
 *
 * Terminal policy, decided once at start-up:
 *   - setlocale(LC_ALL, ""); the UTF-8 glyph set only when the locale's
 *     codeset is UTF-8 and --ascii was not given (LANG=C gives ASCII);
 *   - colours unless NO_COLOR is set, --no-color was given or the terminal
 *     has none: 256-colour palette when available, else the 8 basic
 *     colours; all pairs are allocated here, once; without colour every
 *     class maps to plain attributes (bold, reverse, dim, underline);
 *   - signals only set flags: SIGINT and SIGTERM ask to quit (SIGINT
 *     cancels a rank's load instead while one runs), SIGWINCH to
 *     re-read the size; KEY_RESIZE is handled in the loop too;
 *   - endwin() runs on every exit path, including exit() from elsewhere
 *     (atexit), so the terminal is always given back; a crashing signal
 *     writes the reset sequences prepared at start-up (async-signal-safe
 *     write and tcsetattr) before the process dies of it.
 *
 * getch() with a timeout is the frame timer; --max-frames counts loop
 * turns. A key script feeds keys in place of getch(); with no terminal on
 * stdout the screen is an ncurses screen on /dev/null (headless).
 */
#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <curses.h>
#include <errno.h>
#include <term.h>
#include <termios.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tui/action.h"
#include "tui/app.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/palette.h"
#include "tui/script.h"
#include "util/timing.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "util/xmalloc.h"

#define TUI_FRAME_MS	100	/* getch timeout: the idle frame period */

static volatile sig_atomic_t	tui_quit_flag;
static volatile sig_atomic_t	tui_int_flag;	/* the quit is Ctrl-C's */
static volatile sig_atomic_t	tui_winch_flag;
static int			tui_active;	/* endwin() still owed */
static int			tui_atexit_set;

/* What a crashing signal writes and restores (prepared by tui_open). */
static char			tui_reset[256];
static size_t			tui_reset_len;
static int			tui_reset_fd = -1;
static struct termios		tui_saved_tio;
static int			tui_saved_ok;
static const int		tui_fatal_sigs[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT
};
#define TUI_NFATAL	(sizeof tui_fatal_sigs / sizeof tui_fatal_sigs[0])

/* One timed frame (GPULENS_TIMING). */
struct tui_frame {
	char		 what[16];
	double		 secs;
	long		 bytes;
	int		 damage;	/* the REDRAW_* bits drawn */
};

/* Attributes of each colour class without colour (palette.h has the
 * colours). */
static const attr_t tui_mono[CG_CLASS_COUNT] = {
	[CG_NORMAL] = A_NORMAL,
	[CG_LABEL] = A_NORMAL,
	[CG_GROUP] = A_BOLD,
	[CG_RULER] = A_UNDERLINE,
	[CG_STATUS] = A_REVERSE,
	[CG_DETAIL] = A_NORMAL,
	[CG_KEY] = A_DIM,
	[CG_HELP] = A_REVERSE,
	[CG_BORDER] = A_DIM,
	[CG_DIM] = A_DIM,
	[CG_KERNEL] = A_BOLD,
	[CG_COMM] = A_BOLD,
	[CG_MEMCPY] = A_NORMAL,
	[CG_MEMSET] = A_NORMAL,
	[CG_SYNC] = A_NORMAL,
	[CG_API] = A_NORMAL,
	[CG_NVTX] = A_NORMAL,
	[CG_OSRT] = A_NORMAL,
	[CG_OTHER] = A_DIM,
};

struct tui {
	SCREEN			*scr;
	FILE			*out, *in;	/* ours to close, or NULL */
	int			 headless;
	int			 colour;	/* 0 none, 8, 256 */
	int			 w, h;
	struct cellgrid		 grid;
	struct app		*app;
	struct script		 script;
	const char		*script_path;
	size_t			 step;
	struct sigaction	 old_int, old_term, old_winch;
	struct sigaction	 old_fatal[TUI_NFATAL];
	int			 timing;
	long			 outpos;	/* bytes written so far */
	struct tui_frame	*frames;
	size_t			 nframes, framecap;
};

static void
tui_restore(void)
{
	if (tui_active) {
		endwin();
		tui_active = 0;
	}
}

static void
tui_signal(int sig)
{
	if (sig == SIGWINCH)
		tui_winch_flag = 1;
	else {
		tui_quit_flag = 1;
		tui_int_flag = sig == SIGINT;
	}
}

/* A crash: give the terminal back, then die of the same signal. */
static void
tui_fatal(int sig)
{
	ssize_t	n;

	if (tui_reset_fd >= 0 && tui_reset_len > 0) {
		n = write(tui_reset_fd, tui_reset, tui_reset_len);
		(void)n;
	}
	if (tui_saved_ok && tui_reset_fd >= 0)
		tcsetattr(tui_reset_fd, TCSANOW, &tui_saved_tio);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Appends terminfo capability cap to the reset string. */
static void
tui_reset_add(const char *cap)
{
	char	*s = tigetstr(cap);
	size_t	 n;

	if (s == NULL || s == (char *)-1)
		return;
	n = strlen(s);
	if (tui_reset_len + n < sizeof tui_reset) {
		memcpy(tui_reset + tui_reset_len, s, n);
		tui_reset_len += n;
	}
}

/* Prepares what tui_fatal() writes: attributes off, mouse reporting off,
 * keypad off, cursor visible, alternate screen off. */
static void
tui_reset_prepare(int fd)
{
	static const char	mouse_off[] =
	    "\033[?1000l\033[?1002l\033[?1003l\033[?1006l";

	tui_reset_len = 0;
	tui_reset_add("sgr0");
	memcpy(tui_reset + tui_reset_len, mouse_off, sizeof mouse_off - 1);
	tui_reset_len += sizeof mouse_off - 1;
	tui_reset_add("rmkx");
	tui_reset_add("cnorm");
	tui_reset_add("rmcup");
	tui_reset_fd = fd;
}

static void
tui_signals(struct tui *t, int install)
{
	struct sigaction	sa;
	size_t			i;

	if (!install) {
		sigaction(SIGINT, &t->old_int, NULL);
		sigaction(SIGTERM, &t->old_term, NULL);
		sigaction(SIGWINCH, &t->old_winch, NULL);
		if (!t->headless)
			for (i = 0; i < TUI_NFATAL; i++)
				sigaction(tui_fatal_sigs[i], &t->old_fatal[i],
				    NULL);
		tui_reset_fd = -1;
		return;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &t->old_int);
	sigaction(SIGTERM, &sa, &t->old_term);
	sigaction(SIGWINCH, &sa, &t->old_winch);
	if (t->headless)
		return;
	sa.sa_handler = tui_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < TUI_NFATAL; i++)
		sigaction(tui_fatal_sigs[i], &sa, &t->old_fatal[i]);
}

static void
tui_colours(struct tui *t, int no_color)
{
	const char	*nc = getenv("NO_COLOR");
	const struct palette_entry *pe;
	short		 fg, bg, dfg = -1, dbg = -1;
	int		 i, n = CG_CLASS_COUNT;

	t->colour = 0;
	if (no_color || (nc != NULL && *nc != '\0') || !has_colors())
		return;
	if (start_color() == ERR)
		return;
	if (use_default_colors() == ERR) {
		dfg = COLOR_WHITE;
		dbg = COLOR_BLACK;
	}
	if (COLOR_PAIRS < 2 * n + 1 || COLORS < 8)
		return;
	t->colour = COLORS >= 256 ? 256 : 8;
	for (i = 0; i < n; i++) {
		pe = palette_get(i);
		fg = t->colour == 256 ? pe->fg256 : pe->fg8;
		bg = t->colour == 256 ? pe->bg256 : pe->bg8;
		init_pair((short)(i + 1), fg < 0 ? dfg : fg, bg < 0 ? dbg : bg);
		/* The filled variant: dark text on the class colour. */
		init_pair((short)(n + i + 1), t->colour == 256 ? 16 :
		    COLOR_BLACK, fg < 0 ? (t->colour == 256 ? 250 :
		    COLOR_WHITE) : fg);
	}
}

/* ncurses attributes and colour pair for a cell attribute. */
static void
tui_style(const struct tui *t, uint16_t a, attr_t *at, short *pair)
{
	int	cls = a & CGA_CLASS;

	if (cls >= CG_CLASS_COUNT)
		cls = CG_NORMAL;
	*pair = 0;
	if (t->colour) {
		*at = palette_get(cls)->bold ? A_BOLD : A_NORMAL;
		*pair = (short)((a & CGA_FILL) ? CG_CLASS_COUNT + cls + 1 :
		    cls + 1);
	} else {
		*at = tui_mono[cls];
		if (a & CGA_FILL)
			*at = A_REVERSE;
	}
	if (a & CGA_BOLD)
		*at |= A_BOLD;
	if (a & CGA_REVERSE)
		*at |= A_REVERSE;
	if (a & CGA_UNDERLINE)
		*at |= A_UNDERLINE;
	if (a & CGA_DIM)
		*at |= A_DIM;
	if (a & CGA_CURSOR)
		*at |= A_REVERSE;
	/* Never inverted: a selected busy bar must not read as a gap. */
	if (a & CGA_SEL)
		*at |= A_BOLD | A_UNDERLINE;
}

/* Copies the dirty rows of the grid to stdscr. */
static void
tui_blit(struct tui *t)
{
	const struct cell	*c;
	cchar_t			 cc;
	wchar_t			 wc[2];
	attr_t			 at;
	short			 pair;
	int			 x, y;

	for (y = 0; y < t->grid.h && y < LINES; y++) {
		if (!t->grid.dirty[y])
			continue;
		for (x = 0; x < t->grid.w && x < COLS; x++) {
			c = cellgrid_cat(&t->grid, x, y);
			if (c->ch == CG_CONT)
				continue;
			wc[0] = c->ch;
			wc[1] = L'\0';
			tui_style(t, c->attr, &at, &pair);
			setcchar(&cc, wc, at, pair, NULL);
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
	cellgrid_clean(&t->grid);
}

static void
tui_resize(struct tui *t, int w, int h)
{
	if (w < 1 || h < 1)
		return;
	if (w != COLS || h != LINES)
		resizeterm(h, w);
	t->w = w;
	t->h = h;
	cellgrid_resize(&t->grid, w, h);
	app_resize(t->app, w, h);
	clearok(stdscr, TRUE);
}

static void
tui_winch(struct tui *t)
{
	struct winsize	ws;

	tui_winch_flag = 0;
	if (t->headless)
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0)
		tui_resize(t, ws.ws_col, ws.ws_row);
	else
		tui_resize(t, COLS, LINES);
}

/* The function keys ncurses reads (KEY_CODE_YES) and their keys. */
static const struct {
	int	code;
	int	key;
} tui_fkeys[] = {
	{ KEY_LEFT, TK_LEFT },
	{ KEY_RIGHT, TK_RIGHT },
	{ KEY_UP, TK_UP },
	{ KEY_DOWN, TK_DOWN },
	{ KEY_PPAGE, TK_PGUP },
	{ KEY_NPAGE, TK_PGDN },
	{ KEY_HOME, TK_HOME },
	{ KEY_END, TK_END },
	{ KEY_BTAB, TK_BTAB },
	{ KEY_ENTER, TK_ENTER },
	{ KEY_BACKSPACE, TK_BACKSPACE },
	{ KEY_DC, TK_DEL },
};

/* Translates one ncurses input into a key; returns 0 for nothing. */
static int
tui_translate(struct tui *t, int rc, wint_t wch, struct tui_key *k)
{
	MEVENT	me;
	size_t	i;

	memset(k, 0, sizeof *k);
	if (rc == OK) {
		switch (wch) {
		case '\t':
			k->key = TK_TAB;
			break;
		case '\n':
		case '\r':
			k->key = TK_ENTER;
			break;
		case 27:
			k->key = TK_ESC;
			break;
		case 127:
		case 8:
			k->key = TK_BACKSPACE;
			break;
		case 12:
			k->key = TK_CTRL_L;
			break;
		default:
			k->key = (int)wch;
			break;
		}
		return 1;
	}
	if (rc != KEY_CODE_YES)
		return 0;
	for (i = 0; i < sizeof tui_fkeys / sizeof tui_fkeys[0]; i++)
		if (wch == (wint_t)tui_fkeys[i].code) {
			k->key = tui_fkeys[i].key;
			return 1;
		}
	switch (wch) {
	case KEY_RESIZE:
		tui_resize(t, COLS, LINES);
		return 0;
	case KEY_MOUSE:
		if (getmouse(&me) != OK)
			return 0;
		k->x = me.x;
		k->y = me.y;
		if (me.bstate & BUTTON4_PRESSED)
			k->key = TK_WHEEL_UP;
#ifdef BUTTON5_PRESSED
		else if (me.bstate & BUTTON5_PRESSED)
			k->key = TK_WHEEL_DOWN;
#endif
		else if (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
			k->key = TK_CLICK;
		else
			return 0;
		return 1;
	default:
		return 0;
	}
}

static int
tui_headless_size(int *w, int *h, char **cause)
{
	const char	*s = getenv("GPULENS_TUI_SIZE");

	*w = 80;
	*h = 24;
	if (s == NULL || *s == '\0')
		return 0;
	if (sscanf(s, "%dx%d", w, h) != 2 || *w < 1 || *h < 1 ||
	    *w > 10000 || *h > 10000) {
		*cause = xasprintf("GPULENS_TUI_SIZE: expected WxH, got %s", s);
		return -1;
	}
	return 0;
}

static int
tui_open(struct tui *t, const struct tui_opts *o, char **cause)
{
	static const char	*terms[] = { "xterm-256color", "xterm",
				    "vt100" };
	const char		*term = getenv("TERM");
	size_t			 i;
	int			 w, h;

	t->headless = !isatty(STDOUT_FILENO) &&
	    (o->script != NULL || o->max_frames > 0);
	if (!t->headless && !isatty(STDOUT_FILENO)) {
		*cause = xstrdup("standard output is not a terminal");
		return -1;
	}
	if (t->headless) {
		if (tui_headless_size(&w, &h, cause) != 0)
			return -1;
		/* Timed runs count the bytes ncurses writes. */
		t->out = t->timing ? tmpfile() : fopen("/dev/null", "w");
		t->in = fopen("/dev/null", "r");
		if (t->out == NULL || t->in == NULL) {
			*cause = xasprintf("/dev/null: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < sizeof terms / sizeof terms[0]; i++)
			if ((t->scr = newterm(terms[i], t->out, t->in)) != NULL)
				break;
		if (t->scr == NULL && term != NULL)
			t->scr = newterm(term, t->out, t->in);
	} else {
		if (term == NULL || *term == '\0') {
			*cause = xstrdup("TERM is not set");
			return -1;
		}
		tui_saved_ok = tcgetattr(STDOUT_FILENO, &tui_saved_tio) == 0;
		if (!isatty(STDIN_FILENO) &&
		    (t->in = fopen("/dev/tty", "r")) == NULL) {
			*cause = xasprintf("/dev/tty: %s", strerror(errno));
			return -1;
		}
		t->scr = newterm(NULL, stdout, t->in != NULL ? t->in : stdin);
	}
	if (t->scr == NULL) {
		*cause = xasprintf("cannot initialise the terminal (TERM=%s)",
		    term != NULL ? term : "");
		return -1;
	}
	set_term(t->scr);
	tui_active = 1;
	if (!tui_atexit_set) {
		atexit(tui_restore);
		tui_atexit_set = 1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	wtimeout(stdscr, TUI_FRAME_MS);
	tui_colours(t, o->no_color);
	if (!t->headless) {
		tui_reset_prepare(STDOUT_FILENO);
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		    | BUTTON5_PRESSED
#endif
		    , NULL);
		mouseinterval(0);
	}
	if (t->headless) {
		resizeterm(h, w);
		t->w = w;
		t->h = h;
	} else {
		t->w = COLS;
		t->h = LINES;
	}
	return 0;
}

static void
tui_close(struct tui *t)
{
	if (t->scr != NULL) {
		tui_restore();
		delscreen(t->scr);
		t->scr = NULL;
	}
	if (t->out != NULL)
		fclose(t->out);
	if (t->in != NULL)
		fclose(t->in);
	t->out = t->in = NULL;
}

static int
tui_dump(struct tui *t, const char *path, char **cause)
{
	FILE	*f;
	int	 r;

	if ((f = fopen(path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	r = cellgrid_dump(&t->grid, f);
	if (fclose(f) != 0 || r != 0) {
		*cause = xasprintf("%s: write error", path);
		return -1;
	}
	return 0;
}

/*
 * Runs one script step: returns the reactions, or -1 with *cause. *done is
 * set when the script asks to stop.
 */
static int
tui_step(struct tui *t, const struct script_step *st, int *done,
    char **cause)
{
	char	*why = NULL;
	int	 r;

	switch (st->op) {
	case SCRIPT_KEY:
		return app_key(t->app, &st->key);
	case SCRIPT_ACTION:
		if ((r = app_action(t->app, st->a, &why)) < 0) {
			*cause = xasprintf("%s:%d: %s", t->script_path,
			    st->line, why);
			free(why);
		}
		return r;
	case SCRIPT_REDRAW:
		return REDRAW_ALL;
	case SCRIPT_DUMP:
		return tui_dump(t, st->path, cause);
	case SCRIPT_SLEEP:
		napms(st->a);
		return 0;
	case SCRIPT_RESIZE:
		tui_resize(t, st->a, st->b);
		return REDRAW_ALL;
	case SCRIPT_QUIT:
		*done = 1;
		return 0;
	}
	return 0;
}

/* Records the frame started at t0 that drew damage (GPULENS_TIMING). */
static void
tui_frame_done(struct tui *t, const char *what, double t0, int damage)
{
	struct tui_frame	*f;
	long			 pos = -1;

	if (!t->timing || what == NULL)
		return;
	if (t->headless && t->out != NULL && fflush(t->out) == 0)
		pos = ftell(t->out);
	XGROW(t->frames, t->framecap, t->nframes + 1);
	f = &t->frames[t->nframes++];
	snprintf(f->what, sizeof f->what, "%s", what);
	f->secs = timing_now() - t0;
	f->bytes = pos >= 0 ? pos - t->outpos : -1;
	f->damage = damage & REDRAW_ALL;
	if (pos >= 0)
		t->outpos = pos;
}

static void
tui_frames_print(struct tui *t)
{
	size_t	i;

	for (i = 0; i < t->nframes; i++)
		fprintf(stderr, "tui-frame %zu %s %.6f %ld %#x\n", i,
		    t->frames[i].what, t->frames[i].secs, t->frames[i].bytes,
		    (unsigned)t->frames[i].damage);
}

static int
tui_loop(struct tui *t, const struct tui_opts *o, char **cause)
{
	const struct script_step	*st;
	struct tui_key			 k;
	wint_t				 wch;
	char				 what[16];
	const char			*timed = "start";
	double				 t0 = timing_now();
	int				 damage = REDRAW_ALL, frames = 0;
	int				 rc, r, done = 0;

	for (;;) {
		/* Ctrl-C while a rank loads cancels the load. */
		if (tui_quit_flag && !(tui_int_flag && app_interrupt(t->app)))
			break;
		if (tui_quit_flag) {
			tui_quit_flag = tui_int_flag = 0;
			damage |= REDRAW_ALL;
		}
		damage |= app_tick(t->app);
		if (tui_winch_flag) {
			tui_winch(t);
			damage |= REDRAW_ALL;
		}
		if (t->grid.w != t->w || t->grid.h != t->h) {
			tui_resize(t, t->w, t->h);
			damage |= REDRAW_ALL;
		}
		if (damage & REACT_REPAINT)
			clearok(stdscr, TRUE);
		if (damage & REDRAW_ALL) {
			app_draw(t->app, &t->grid, damage & REDRAW_ALL);
			tui_blit(t);
			wnoutrefresh(stdscr);
			doupdate();
		}
		tui_frame_done(t, timed, t0, damage);
		timed = NULL;
		damage = 0;
		frames++;
		if (o->max_frames > 0 && frames >= o->max_frames)
			break;

		if (t->step < t->script.n && app_busy(t->app)) {
			/* A script waits for the rank it opened. */
			napms(10);
		} else if (t->step < t->script.n) {
			st = &t->script.steps[t->step];
			t0 = timing_now();
			switch (st->op) {
			case SCRIPT_KEY:
				timed = script_key_name(st->key.key, what,
				    sizeof what);
				break;
			case SCRIPT_ACTION:
				timed = action_name(st->a);
				break;
			case SCRIPT_REDRAW:
				timed = ":redraw";
				break;
			case SCRIPT_RESIZE:
				timed = ":resize";
				break;
			case SCRIPT_SLEEP:
				/* ":sleep 0" is an idle frame: no damage. */
				if (st->a == 0)
					timed = ":idle";
				break;
			}
			r = tui_step(t, st, &done, cause);
			if (r < 0)
				return -1;
			t->step++;
			damage |= r;
		} else if (t->script.n > 0 && t->headless)
			break;
		else if (t->headless) {
			/* --max-frames without a script: idle frames. */
			napms(TUI_FRAME_MS);
		} else {
			rc = wget_wch(stdscr, &wch);
			if (rc == ERR)
				continue;
			t0 = timing_now();
			if (tui_translate(t, rc, wch, &k)) {
				timed = script_key_name(k.key, what,
				    sizeof what);
				damage |= app_key(t->app, &k);
			} else if (rc == KEY_CODE_YES && wch == KEY_RESIZE) {
				timed = ":resize";
				damage |= REDRAW_ALL;
			}
		}
		if (done || (damage & REACT_QUIT))
			break;
	}
	return 0;
}

int
tui_run(const struct input *in, const struct tui_opts *o, char **cause)
{
	struct tui		 t;
	struct app_opts		 ao;
	const char		*cs;
	int			 utf8, r;

	memset(&t, 0, sizeof t);
	t.timing = timing_enabled();
	if (o->script != NULL && script_load(&t.script, o->script, cause) != 0)
		return -1;
	t.script_path = o->script;
	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	utf8 = !o->ascii && cs != NULL && strcmp(cs, "UTF-8") == 0;

	tui_quit_flag = tui_winch_flag = tui_int_flag = 0;
	if (tui_open(&t, o, cause) != 0) {
		tui_close(&t);
		script_free(&t.script);
		return -1;
	}
	tui_signals(&t, 1);
	memset(&ao, 0, sizeof ao);
	ao.gl = glyph_get(utf8);
	ao.title = o->title;
	ao.paths = o->paths;
	ao.npaths = o->npaths;
	/* A report has its one view; a timeline model has the others. */
	ao.view = o->view;
	if (in->kind == INPUT_REPORT) {
		ao.view = "report";
		ao.view_arg = in->r;
		ao.baseline = in->base;
		ao.baseline_title = in->base_path;
	}
	if (o->job != NULL) {
		ao.view = "job";
		ao.job = o->job;
		ao.load = o->load;
	}
	ao.note = o->note;
	if ((t.app = app_new(in->m, &ao, cause)) == NULL) {
		tui_close(&t);
		tui_signals(&t, 0);
		script_free(&t.script);
		return -1;
	}
	cellgrid_init(&t.grid);
	tui_resize(&t, t.w, t.h);

	r = tui_loop(&t, o, cause);

	app_free(t.app);
	cellgrid_free(&t.grid);
	tui_close(&t);
	tui_signals(&t, 0);
	script_free(&t.script);
	tui_frames_print(&t);
	free(t.frames);
	return r;
}
