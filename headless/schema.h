/*
 * schema: the JSON Schema of each verb's rows, compiled in from
 * headless/schema/VERB.json (headless/schema-gen.sh writes schemas.c).
 * `gpulens schema VERB` wraps the row schema in the envelope's schema.
 */
#ifndef GPULENS_SCHEMA_H
#define GPULENS_SCHEMA_H

struct schema_entry {
	const char	*verb;
	const char	*rows;		/* JSON Schema of one data.rows item */
};

extern const struct schema_entry	schema_table[];

/* The row schema of verb, or NULL. */
const char	*schema_rows(const char *verb);

#endif
