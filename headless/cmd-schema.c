/*
 * cmd-schema: `gpulens schema VERB` prints the JSON Schema (draft 2020-12)
 * of VERB's --json response: the envelope shared by every verb, with
 * data.rows items and data.auxiliary described by the verb's column
 * description (headless/cols.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "headless/cmd.h"
#include "util/sanitize.h"
#include "headless/out.h"
#include "headless/cols.h"

static cmd_main_t	schema_run;

const struct cmd_entry cmd_schema_entry = {
	.name = "schema",
	.usage = "gpulens schema [--json] [VERB]",
	.help =
	"Without VERB, lists the verbs that have a schema. With VERB, prints\n"
	"the JSON Schema of VERB's --json response: the envelope every\n"
	"verb shares (schema, command, source, trace, trace_span, data or\n"
	"error, meta) with VERB's row schema for data.rows items. A response's\n"
	"command is the VERB whose schema its rows follow (report-summary and\n"
	"report-inspect for summary and inspect on an Nsight Compute report).\n"
	"  --json     an error (an unknown VERB) as a JSON envelope",
	.input = CMD_IN_NONE,
	.main = schema_run
};

/* The envelope; "ROWS" is replaced by the verb's row schema. */
static const char schema_envelope[] =
"{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
"\"type\":\"object\","
"\"required\":[\"schema\",\"command\",\"source\",\"trace\",\"trace_span\","
"\"meta\"],"
"\"properties\":{"
"\"schema\":{\"const\":\"gpulens/v1\"},"
"\"command\":{\"type\":\"string\"},"
"\"source\":{\"type\":\"object\",\"required\":[\"kind\",\"version\"],"
"\"properties\":{\"kind\":{\"type\":[\"string\",\"null\"]},"
"\"version\":{\"type\":[\"string\",\"null\"]}}},"
"\"trace\":{\"type\":\"object\",\"required\":[\"path\",\"kind\","
"\"inputs\"],"
"\"properties\":{\"path\":{\"type\":[\"string\",\"null\"],"
"\"description\":\"the first input only (kept for compatibility); "
"trace.inputs lists every file read\"},"
"\"kind\":{\"type\":[\"string\",\"null\"]},"
"\"inputs\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
"\"description\":\"every trace file the answer reads, in the order "
"given\"}}},"
"\"trace_span\":{\"type\":\"object\",\"required\":[\"origin_ns\",\"span_ns\"],"
"\"properties\":{\"origin_ns\":{\"type\":[\"integer\",\"null\"]},"
"\"span_ns\":{\"type\":[\"integer\",\"null\"]}}},"
"\"data\":{\"type\":\"object\",\"required\":[\"count\",\"total_matched\","
"\"truncated\",\"rows\",\"auxiliary\"],"
"\"properties\":{\"count\":{\"type\":\"integer\",\"minimum\":0},"
"\"total_matched\":{\"type\":\"integer\",\"minimum\":0},"
"\"truncated\":{\"type\":\"boolean\"},"
"\"rows\":{\"type\":\"array\",\"items\":{}},"
"\"auxiliary\":{\"type\":\"object\"}}},"
"\"error\":{\"type\":\"object\",\"required\":[\"code\",\"message\"],"
"\"properties\":{\"code\":{\"enum\":[\"usage\",\"bad_input\",\"not_found\","
"\"internal\"]},\"message\":{\"type\":\"string\"}}},"
"\"meta\":{\"type\":\"object\",\"required\":[\"warnings\","
"\"warning_codes\",\"next\"],"
"\"properties\":{\"warnings\":{\"type\":\"array\",\"items\":{\"type\":"
"\"string\"}},\"warning_codes\":{\"type\":\"array\",\"items\":"
"{\"type\":\"string\",\"pattern\":\"^[a-z][a-z0-9_]*$\"}},"
"\"next\":{\"type\":\"array\",\"items\":{\"type\":"
"\"string\"}}}}},"
"\"oneOf\":[{\"required\":[\"data\"]},{\"required\":[\"error\"]}]}";

/* {"const": verb} */
static cJSON *
cmd_schema_const(const char *verb)
{
	cJSON	*c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, "const", verb);
	return c;
}

static int
schema_run(int argc, char **argv, const struct cmd_global *g)
{
	cJSON			*env, *rows, *items;
	struct out		 o;
	const struct coldesc	*d;
	char			*s;
	size_t			 k;
	int			 i, json, rc;

	/* "--json" asks for an error envelope if there is an error. */
	for (i = 1, json = 0; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) *
			    sizeof *argv);
			argc--;
			i--;
		}
	if (argc == 1) {
		/* The targets. */
		for (i = 0; cmd_table[i] != NULL; i++)
			if (cols_find(cmd_table[i]->name) != NULL)
				printf("%s\n", cmd_table[i]->name);
		for (k = 0; cols_table[k] != NULL; k++)
			if (cmd_find(cols_table[k]->verb) == NULL)
				printf("%s\n", cols_table[k]->verb);
		return 0;
	}
	if (argc != 2 || cols_find(argv[1]) == NULL) {
		if (json) {
			memset(&o, 0, sizeof o);
			out_init(&o, "schema");
			o.format = OUT_JSON;
			rc = out_error(&o, NULL, NULL, "usage", argc != 2 ?
			    "expected one verb" : cmd_find(argv[1]) != NULL ?
			    "'%s' has no JSON output" : "unknown verb '%s'",
			    argv[1]);
			out_free(&o);
			return rc;
		}
		if (argc != 2)
			return cmd_usage_error(&cmd_schema_entry,
			    "expected one verb");
	}
	if ((d = cols_find(argv[1])) == NULL) {
		if (cmd_find(argv[1]) != NULL)
			sanitize_msg(stderr, "gpulens schema: '%s' has no JSON "
			    "output", argv[1]);
		else
			sanitize_msg(stderr, "gpulens schema: unknown verb "
			    "'%s'", argv[1]);
		return EXIT_USAGE;
	}
	env = cJSON_Parse(schema_envelope);
	if (env == NULL) {
		sanitize_msg(stderr, "gpulens schema: the envelope schema is "
		    "not valid JSON");
		return EXIT_INTERNAL;
	}
	items = cols_rows_schema(d);
	cJSON_AddStringToObject(env, "title", argv[1]);
	/* The command a response names is the schema its rows follow. */
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(env, "properties"),
	    "command", cmd_schema_const(argv[1]));
	rows = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(env, "properties"), "data"), "properties"),
	    "rows");
	cJSON_ReplaceItemInObject(rows, "items", items);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(env, "properties"), "data"), "properties"),
	    "auxiliary", cols_aux_schema(d));
	s = cJSON_Print(env);
	printf("%s\n", s);
	free(s);
	cJSON_Delete(env);
	return 0;
}
