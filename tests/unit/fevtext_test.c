/*
 * fevtext_test: a finding's typed evidence as the findings view shows it.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/fevidence.h"
#include "tui/fevtext.h"

#include "tsupport.h"

/* Every kind of item, in the order given, units from the key. */
static void
test_items(void **state)
{
	struct fevidence	 ev;
	char			*s;

	(void)state;
	memset(&ev, 0, sizeof ev);
	fev_int(&ev, "device", 1);
	fev_str(&ev, "name", "gemm");
	fev_int(&ev, "total_ns", 31121662);
	fev_int(&ev, "start_ns", 1500);
	fev_real(&ev, "kernel_share_pct", 69.4222);
	fev_int(&ev, "bytes", 3072);
	fev_bool(&ev, "one_off", 1);
	fev_null(&ev, "theoretical_occupancy_pct");
	fev_list(&ev, "apis");
	fev_record(&ev, NULL);
	fev_str(&ev, "name", "cudaStreamSynchronize");
	fev_int(&ev, "count", 8);
	fev_record(&ev, "call_site");
	fev_str(&ev, "function", "main");
	fev_str(&ev, "module", "/opt/app/bin/saxpy");
	fev_end(&ev);
	fev_end(&ev);
	fev_end(&ev);
	fev_record(&ev, "directions");
	fev_int(&ev, "h2d", 4);
	fev_end(&ev);
	s = fevtext(&ev);
	assert_string_equal(s, "device 1, name gemm, total_ns 31.12ms, "
	    "start_ns +1.500us, kernel_share_pct 69.4%, bytes 3.00 KiB, "
	    "one_off yes, theoretical_occupancy_pct -, apis [{name "
	    "cudaStreamSynchronize, count 8, call_site {function main, module "
	    "saxpy}}], directions {h2d 4}");
	free(s);
	fev_free(&ev);
}

/* No evidence: no text. */
static void
test_empty(void **state)
{
	struct fevidence	 ev;
	char			*s;

	(void)state;
	memset(&ev, 0, sizeof ev);
	s = fevtext(&ev);
	assert_string_equal(s, "");
	free(s);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_items),
	cmocka_unit_test(test_empty))
