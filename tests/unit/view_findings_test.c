/*
 * view_findings_test: the TUI's findings panel (tui/view-findings.c),
 * drawn into a cellgrid and driven by keys, on the hand-built model of
 * findings_test (one GPU; a synchronous memcpy, a gap a synchronisation
 * ends in, launch gaps; five findings, gpu_time_util first).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/builder.h"
#include "tui/cellgrid.h"
#include "model/model.h"
#include "tsupport.h"
#include "tui/view-findings.h"

/* Resizes the screen and the panel to w x h and draws everything. */
/* Key k with its action in the findings table of the default keymap. */
static int
fkey(void *v, const struct tui_key *k)
{
	return view_findings_ops.key(v, k, ts_key_action("findings", k->key));
}

static void
screen(void *v, struct cellgrid *g, int w, int h)
{
	cellgrid_resize(g, w, h);
	view_findings_ops.resize(v, w, h);
	view_findings_ops.draw(v, g, REDRAW_ALL);
}

/* Whether row y holds s. */
static int
row_has(const struct cellgrid *g, int y, const char *s)
{
	char	line[256];

	cellgrid_row_text(g, y, line, sizeof line);
	return strstr(line, s) != NULL;
}

static void
test_panel(void **state)
{
	struct model		*m = ts_model_sync_copy();
	struct view_shared	 sh;
	struct view_env		 env;
	struct cellgrid		 g;
	struct tui_key		 k;
	void			*v;
	char			 line[256];
	int			 y, seen = 0;

	(void)state;
	memset(&sh, 0, sizeof sh);
	ts_view_env(&env, &sh, "t", NULL);
	v = view_findings_ops.init(m, &env);
	assert_string_equal(view_findings_ops.name, "findings");
	assert_int_equal(view_findings_count(v), 5);
	cellgrid_init(&g);
	screen(v, &g, 100, 24);
	cellgrid_row_text(&g, 0, line, sizeof line);
	assert_non_null(strstr(line, "Findings: 5"));
	cellgrid_row_text(&g, 1, line, sizeof line);
	assert_non_null(strstr(line, " 1 high"));
	assert_non_null(strstr(line, "gpu_time_util"));
	cellgrid_row_text(&g, 3, line, sizeof line);
	assert_non_null(strstr(line, "cuda_memcpy_sync"));
	assert_non_null(strstr(line, "10.5%"));
	for (y = 4; y < 23; y++) {
		cellgrid_row_text(&g, y, line, sizeof line);
		if (strstr(line, "Next step:") != NULL)
			seen = 1;
	}
	assert_true(seen);
	cellgrid_row_text(&g, 23, line, sizeof line);
	assert_non_null(strstr(line, "finding 1 of 5"));

	/* Down twice: the memcpy, which has an event: SHOW_EVENT. */
	memset(&k, 0, sizeof k);
	k.key = TK_DOWN;
	assert_true(fkey(v, &k) & REDRAW_DETAIL);
	k.key = 'j';
	fkey(v, &k);
	assert_int_equal(view_findings_selected(v), 2);
	k.key = TK_ENTER;
	assert_int_equal(fkey(v, &k), REACT_SWITCH);
	assert_string_equal(sh.want, "timeline");
	assert_int_equal(sh.msg.type, VMSG_SHOW_EVENT);
	assert_int_equal(model_ev_kind(m, sh.msg.gid), EV_MEMCPY);
	assert_non_null(strstr(sh.msg.note, "cuda_memcpy_sync"));

	/* Up: the synchronisation gap [500, 1000) us, no event:
	 * SHOW_RANGE with a tenth as margin. */
	k.key = TK_UP;
	fkey(v, &k);
	k.key = TK_ENTER;
	assert_int_equal(fkey(v, &k), REACT_SWITCH);
	assert_int_equal(sh.msg.type, VMSG_SHOW_RANGE);
	assert_int_equal(sh.msg.t0, 450000);
	assert_int_equal(sh.msg.t1, 1050000);

	/* Keys it does not use go to the application. */
	k.key = 'x';
	assert_int_equal(fkey(v, &k), REACT_PASS);
	/* End, then past the end stays on the last. */
	k.key = TK_END;
	fkey(v, &k);
	k.key = 'j';
	assert_int_equal(fkey(v, &k), 0);
	assert_int_equal(view_findings_selected(v), 4);
	/* On a short screen the list scrolls to show the last finding;
	 * with room again it shows all five from the first. */
	screen(v, &g, 100, 10);
	assert_true(row_has(&g, 1, " 2 "));
	assert_true(row_has(&g, 4, " 5 "));
	assert_true(row_has(&g, 5, "----"));
	screen(v, &g, 100, 24);
	assert_true(row_has(&g, 1, " 1 high"));
	assert_true(row_has(&g, 5, " 5 "));
	assert_true(row_has(&g, 23, "finding 5 of 5"));
	/* A move redraws the list, the details and the status line. */
	k.key = 'k';
	assert_int_equal(fkey(v, &k),
	    REDRAW_BODY | REDRAW_DETAIL | REDRAW_STATUS);
	assert_int_equal(view_findings_selected(v), 3);
	/* A tiny screen still draws. */
	screen(v, &g, 10, 3);
	cellgrid_free(&g);
	view_findings_ops.free(v);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_panel))
