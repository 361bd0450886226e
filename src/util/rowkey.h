/*
 * rowkey: the one grammar of the key of an answer's rows (gpulens(1),
 * ROW KEYS):
 *
 *	key   = kind *( "|" field "=" value )
 *	kind  = field = [a-z] *[a-z0-9_-]
 *	value = any bytes but '|' and '%'; those, and bytes below 0x20 and
 *	        0x7f, are written %XX (two upper-case hex digits)
 *
 * e.g. "ev|id=42", "kernel|name=flash_fwd_kernel", "gap|device=0|start=5",
 * "range|domain=NCCL|path=ncclAllReduce|pid=145".
 */
#ifndef GPULENS_ROWKEY_H
#define GPULENS_ROWKEY_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The key of kind with the fields of fmt, a printf format of
 * "field=%conv" parts joined by '|' (fmt NULL: kind alone). A %s value is
 * escaped; %d, %u, %ld, %lu, %lld, %llu, %zu and %% as printf writes them.
 * rowkey returns a new string; rowkey_buf writes into buf (len bytes,
 * truncated) and returns it.
 */
char	*rowkey(const char *kind, const char *fmt, ...);
char	*rowkey_buf(char *buf, size_t len, const char *kind,
	    const char *fmt, ...);
char	*rowkey_v(const char *kind, const char *fmt, va_list);
/* Appends "|field=value" (value escaped) to the key in buf, *o used. */
void	 rowkey_part(char *buf, size_t len, size_t *o, const char *field,
	    const char *value);
/*
 * Appends "|field=name" for a (kernel) name: its template arguments elided
 * (util/kelide.h) and, when that drops anything, "|field_hash=" and the
 * FNV-1a hash of the whole name (8 hex digits), so that the key stays
 * short and still tells template instances apart.
 */
void	 rowkey_name(char *buf, size_t len, size_t *o, const char *field,
	    const char *name);
/* 1 if key follows the grammar. */
int	 rowkey_valid(const char *key);
/* 1 if key's kind is kind. */
int	 rowkey_is(const char *key, const char *kind);
/* The value of field in key, unescaped (a new string), or NULL. */
char	*rowkey_get(const char *key, const char *field);
/*
 * An id named on the command line: "kind|id=N" (the row key), "kind:N"
 * or "N", N decimal and below UINT32_MAX. Returns 0 with *id, or -1.
 */
int	 rowkey_parse_id(const char *arg, const char *kind, uint32_t *id);

#endif
