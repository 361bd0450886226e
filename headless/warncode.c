/*
 * warncode: codes for the warnings readers and the cache raise while
 * loading a trace. They are matched on the text the readers write (the
 * model keeps warnings as text, in the cache too); a "rank N: " prefix
 * added when ranks are merged is skipped. Codes are stable identifiers:
 * add new ones, never rename one.
 */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "headless/warncode.h"

static const struct {
	const char	*needle;	/* a prefix ("^...") or a substring */
	const char	*code;
} warncode_table[] = {
	{ "^tables not loaded:", "tables_not_loaded" },
	{ "^a generic Chrome trace", "generic_chrome" },
	{ "^cache not used:", "cache_not_used" },
	{ "^cache not written:", "cache_not_written" },
	{ "^records not loaded:", "records_not_loaded" },
	{ " rows not loaded", "records_not_loaded" },
	{ "rows of event types not", "records_not_loaded" },
	{ "monitor samples", "records_not_loaded" },
	{ "^CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:", "sync_device_remapped" },
	{ "memcpy rows with an unknown copyKind", "memcpy_unknown_kind" },
	{ "references to string ids missing", "missing_strings" },
	{ ": skipped: no column", "table_skipped" },
	{ "events of unsupported phases", "unsupported_phases" },
	{ "E events without a matching B", "unmatched_end" },
	{ "CUPTI profiler ranges", "cupti_profiler_ranges" },
	{ "^top-level member", "member_not_read" },
	{ "timestamps above 2^53", "timestamp_precision" },
	{ "^RPD schema version", "schema_newer" },
	{ "ops of unknown types", "unknown_op_types" },
	{ "kernel dispatches of kernel symbols", "unknown_kernel_symbols" },
	{ "events dropped", "events_dropped" },
	{ " cut to that", "strings_truncated" },
	{ "shown as device", "device_renumbered" },
	{ "^ranks stated by more than one trace", "duplicate_rank" },
	{ "ranks merged by a tool", "merged_ranks" },
};

const char *
warncode_of(const char *msg)
{
	const char	*n;
	size_t		 i;

	if (strncmp(msg, "rank ", 5) == 0) {
		n = msg + 5;
		if (*n == '-')
			n++;
		if (isdigit((unsigned char)*n)) {
			while (isdigit((unsigned char)*n))
				n++;
			if (strncmp(n, ": ", 2) == 0 &&
			    strstr(n, "shown as device") == NULL)
				msg = n + 2;
		}
	}
	for (i = 0; i < sizeof warncode_table / sizeof warncode_table[0];
	    i++) {
		n = warncode_table[i].needle;
		if (*n == '^' ? strncmp(msg, n + 1, strlen(n + 1)) == 0 :
		    strstr(msg, n) != NULL)
			return warncode_table[i].code;
	}
	return "load_warning";
}
