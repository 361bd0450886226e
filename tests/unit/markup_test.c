/*
 * markup_test: Nsight Compute's inline markup rendered as text
 * (report/markup.h) and metric values scaled by their unit
 * (units_metric, util/units.h), as the report view shows them.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/markup.h"
#include "util/units.h"

#include "tsupport.h"

static void
test_markup(void **state)
{
	/* Text, flags, what it renders to. */
	static const struct {
		const char	*in;
		int		 flags;
		const char	*want;
	} cases[] = {
		{ "See the @url:CUDA Best Practices Guide:https://docs.nvidia."
		    "com/cuda/cuda-c-best-practices-guide/index.html@ for more.",
		    0, "See the CUDA Best Practices Guide for more." },
		{ "@url:Guide:https://x.y/z#a@", MARKUP_URLS,
		    "Guide (https://x.y/z#a)" },
		{ "Look at the @section:ComputeWorkloadAnalysis:Compute "
		    "Workload Analysis@ section.", 0,
		    "Look at the Compute Workload Analysis section." },
		{ "@section:A:One@ and @section:B:Two@", 0, "One and Two" },
		/* No markup, an unknown kind, an unclosed element: as
		 * written. */
		{ "plain text", 0, "plain text" },
		{ "mail me@example.com", 0, "mail me@example.com" },
		{ "@foo:bar:baz@", 0, "@foo:bar:baz@" },
		{ "@url:open:https://x", 0, "@url:open:https://x" },
		{ "@section:Open", 0, "@section:Open" },
		{ "", 0, "" },
		{ NULL, 0, "" },
		/* A link without text shows its address. */
		{ "@url::https://x.y@", 0, "https://x.y" },
	};
	static const struct ts_str_int has[] = {
		{ "a @url:T:https://u@ b", 1 },
		{ "a @section:S:T@", 1 },
		{ "me@example.com", 0 },
		{ NULL, 0 },
	};
	char	*got;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = markup_render(cases[i].in, cases[i].flags);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	TS_STR_INTS(markup_has, has);
}

static void
scaled(double v, const char *unit, const char *wval, const char *wunit)
{
	char	val[32], u[16];

	assert_int_equal(units_metric(v, unit, val, sizeof val, u, sizeof u),
	    1);
	assert_string_equal(val, wval);
	assert_string_equal(u, wunit);
}

static void
test_units_metric(void **state)
{
	char	val[32] = "x", u[16] = "y";

	(void)state;
	scaled(6230455724.34, "hz", "6.23", "GHz");
	scaled(431840, "ns", "431.84", "us");
	scaled(431840, "nsecond", "431.84", "us");
	scaled(812.5, "usecond", "812.50", "us");
	scaled(2500, "msecond", "2.50", "s");
	scaled(950, "ns", "950", "ns");
	scaled(1.755, "cycle/nsecond", "1.75", "GHz");
	scaled(1536, "byte", "1.54", "KB");
	scaled(100663296, "byte", "100.66", "MB");
	scaled(512, "byte", "512", "B");
	scaled(2.5, "Mbyte", "2.50", "MB");
	scaled(123886578449.91, "byte/second", "123.89", "GB/s");
	scaled(123886578449.91, "byte/s", "123.89", "GB/s");
	scaled(1.2, "Tbyte/second", "1.20", "TB/s");
	scaled(7e15, "hz", "7000.00", "THz");
	scaled(-431840, "ns", "-431.84", "us");
	/* Units it does not scale, and values that are not finite. */
	assert_int_equal(units_metric(78.4, "%", val, sizeof val, u,
	    sizeof u), 0);
	assert_int_equal(units_metric(1426014, "cycle", val, sizeof val, u,
	    sizeof u), 0);
	assert_int_equal(units_metric(1, "", val, sizeof val, u, sizeof u), 0);
	assert_int_equal(units_metric(1, NULL, val, sizeof val, u, sizeof u),
	    0);
	assert_int_equal(units_metric(NAN, "ns", val, sizeof val, u,
	    sizeof u), 0);
	assert_string_equal(val, "x");
	assert_string_equal(u, "y");
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_markup),
	cmocka_unit_test(test_units_metric))
