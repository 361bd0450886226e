/*
 * action_test: the action list (tui/action.c): every action has a name,
 * a help line and views; names are unique, well formed and found by
 * action_find(); each action is run by every view it says it applies to
 * (the views' action tables and the application's) and by no other, and
 * is bound to a key in each of them in the default keymap.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui/action.h"
#include "tui/app.h"
#include "tui/keymap.h"
#include "tui/view-findings.h"
#include "tui/view-kernels.h"
#include "tui/view-nvtx.h"
#include "tui/view-report.h"
#include "tui/view-timeline.h"

#include "tsupport.h"

/* Each view (and the application) with its key table and actions. */
static const struct {
	const char			*table;
	unsigned			 bit;
	const struct view_action	*acts;
	const size_t			*n;
	const struct view_ops		*ops;
} views[] = {
	{ "global", AV_GLOBAL, app_actions, &app_nactions, NULL },
	{ "timeline", AV_TIMELINE, view_timeline_actions,
	    &view_timeline_nactions, &view_timeline_ops },
	{ "nvtx", AV_NVTX, view_nvtx_actions, &view_nvtx_nactions,
	    &view_nvtx_ops },
	{ "kernels", AV_KERNELS, view_kernels_actions, &view_kernels_nactions,
	    &view_kernels_ops },
	{ "findings", AV_FINDINGS, view_findings_actions,
	    &view_findings_nactions, &view_findings_ops },
	{ "report", AV_REPORT, view_report_actions, &view_report_nactions,
	    &view_report_ops },
};
#define NVIEWS	(sizeof views / sizeof views[0])

static void
test_names(void **state)
{
	static const struct ts_str_int names[] = {
		{ "zoom-in", ACT_ZOOM_IN },
		{ "search-next", ACT_SEARCH_NEXT },
		{ "view-nvtx", ACT_VIEW_NVTX },
		{ "quit", ACT_QUIT },
		{ "none", ACT_NONE },
		{ "", ACT_NONE },
		{ "Quit", ACT_NONE },
		{ "zoom", ACT_NONE },
		{ NULL, ACT_NONE },
	};
	const struct action_info	*a, *b;
	const char			*p;
	int				 i, j;

	assert_true(ACT_COUNT > 40);
	for (i = ACT_NONE + 1; i < ACT_COUNT; i++) {
		a = action_get(i);
		assert_non_null(a);
		assert_non_null(a->name);
		assert_non_null(a->help);
		assert_true(strlen(a->name) > 0);
		assert_true(strlen(a->help) > 0);
		/* The help fits the overlay's column on an 80-column screen
		 * and is plain ASCII. */
		assert_true(strlen(a->help) <= 40);
		for (p = a->help; *p != '\0'; p++)
			assert_true(*p >= 0x20 && *p < 0x7f);
		/* Names: lower case words joined by single dashes. */
		for (p = a->name; *p != '\0'; p++)
			assert_true((*p >= 'a' && *p <= 'z') || (*p == '-' &&
			    p != a->name && p[1] != '\0' && p[1] != '-'));
		assert_int_not_equal(a->views, 0);
		assert_int_equal(a->views & ~(unsigned)(AV_GLOBAL |
		    AV_TIMELINE | AV_TABLES | AV_REPORT | AV_OVERLAY), 0);
		/* Unique, and found by name. */
		for (j = i + 1; j < ACT_COUNT; j++) {
			b = action_get(j);
			if (strcmp(a->name, b->name) == 0)
				fail_msg("two actions called %s", a->name);
		}
		assert_int_equal(action_find(a->name), i);
		assert_string_equal(action_name(i), a->name);
	}
	assert_null(action_get(ACT_NONE));
	assert_null(action_get(ACT_COUNT));
	assert_null(action_get(-1));
	assert_string_equal(action_name(ACT_NONE), "none");
	assert_string_equal(action_name(ACT_COUNT), "none");
	TS_STR_INTS(action_find, names);
	assert_string_equal(action_get(ACT_QUIT)->help,
	    "quit (in a job's rank: back to the job)");
	assert_string_equal(action_get(ACT_ZOOM_IN)->help,
	    "zoom in at the cursor");
}

static void
test_views(void **state)
{
	size_t	i;

	for (i = 0; i < NVIEWS; i++) {
		assert_int_equal(action_view_bit(views[i].table), views[i].bit);
		/* A view's key table is called as the view. */
		if (views[i].ops != NULL) {
			assert_string_equal(views[i].ops->name,
			    views[i].table);
			assert_ptr_equal(views[i].ops->actions, views[i].acts);
			assert_int_equal(views[i].ops->nactions, *views[i].n);
		}
	}
	assert_int_equal(action_view_bit("bogus"), 0);
	assert_int_equal(action_view_bit(""), 0);
}

/* Every action is run where it applies, and only there; once per view. */
static void
test_handlers(void **state)
{
	const struct action_info	*a;
	const struct view_action	*h;
	size_t				 v, k, j;
	int				 i;

	for (i = ACT_NONE + 1; i < ACT_COUNT; i++) {
		a = action_get(i);
		for (v = 0; v < NVIEWS; v++) {
			h = view_action_find(views[v].acts, *views[v].n, i);
			if ((a->views & views[v].bit) && h == NULL)
				fail_msg("%s applies to %s, which does not "
				    "run it", a->name, views[v].table);
			if (!(a->views & views[v].bit) && h != NULL)
				fail_msg("%s runs %s, which does not apply "
				    "to it", views[v].table, a->name);
		}
	}
	for (v = 0; v < NVIEWS; v++)
		for (k = 0; k < *views[v].n; k++) {
			assert_non_null(views[v].acts[k].fn);
			assert_non_null(action_get(views[v].acts[k].act));
			for (j = k + 1; j < *views[v].n; j++)
				assert_int_not_equal(views[v].acts[k].act,
				    views[v].acts[j].act);
		}
	assert_null(view_action_find(app_actions, app_nactions, ACT_NONE));
}

/* Every action has a key in the default keymap in each view it applies
 * to (so the help overlay lists it there). */
static void
test_bound(void **state)
{
	const struct action_info	*a;
	struct keymap			*km;
	char				*cause = NULL;
	size_t				 v;
	int				 i;

	km = keymap_default(&cause);
	assert_non_null(km);
	for (i = ACT_NONE + 1; i < ACT_COUNT; i++) {
		a = action_get(i);
		for (v = 0; v < NVIEWS; v++) {
			if (!(a->views & views[v].bit))
				continue;
			if (keytable_key(keymap_table(km, views[v].table),
			    i) == TK_NONE)
				fail_msg("%s has no key in %s", a->name,
				    views[v].table);
		}
	}
	keymap_free(km);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_names),
	cmocka_unit_test(test_views),
	cmocka_unit_test(test_handlers),
	cmocka_unit_test(test_bound))
