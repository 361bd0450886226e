/*
 * dwarfline: DWARF 2-4 line programs (see dwarfline.h).
 */
#include "config.h"

#include <string.h>

#include "sources/dwarfline.h"

#define DW_LNS_copy			1
#define DW_LNS_advance_pc		2
#define DW_LNS_advance_line		3
#define DW_LNS_set_file			4
#define DW_LNS_const_add_pc		8
#define DW_LNS_fixed_advance_pc		9
#define DW_LNE_end_sequence		1
#define DW_LNE_set_address		2
#define DW_LNE_define_file		3

#define DWARFLINE_MAX_DIRS		4096

struct dl_buf {
	const uint8_t	*p;
	size_t		 len, off;
	int		 bad;
};

/* A LEB128 number; sign: sign-extend from the last byte's bit 6. */
static uint64_t
dl_leb(struct dl_buf *b, int sign)
{
	uint64_t	v = 0;
	unsigned	shift = 0;
	uint8_t		c;

	do {
		if (b->off >= b->len) {
			b->bad = 1;
			return 0;
		}
		c = b->p[b->off++];
		if (shift < 64)
			v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	if (sign && shift < 64 && (c & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

static uint64_t
dl_uleb(struct dl_buf *b)
{
	return dl_leb(b, 0);
}

static int64_t
dl_sleb(struct dl_buf *b)
{
	return (int64_t)dl_leb(b, 1);
}

static uint64_t
dl_fixed(struct dl_buf *b, size_t n)
{
	uint64_t	v = 0;
	size_t		i;

	if (n > 8 || b->len - b->off < n) {
		b->bad = 1;
		b->off = b->len;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)b->p[b->off + i] << (8 * i);
	b->off += n;
	return v;
}

static const char *
dl_str(struct dl_buf *b)
{
	const uint8_t	*s = b->p + b->off, *e;

	e = memchr(s, '\0', b->len - b->off);
	if (e == NULL) {
		b->bad = 1;
		b->off = b->len;
		return "";
	}
	b->off += (size_t)(e - s) + 1;
	return (const char *)s;
}

struct dl_state {
	uint64_t	 addr;
	uint32_t	 file, line, tag;
	int		 placed;
};

static long
dl_unit(const uint8_t *sec, struct dl_buf *u, size_t base, uint32_t unit,
    const struct dwarfline_cb *cb, const char **cause)
{
	struct dl_buf	 h;
	struct dl_state	 s;
	const char	*dirs[DWARFLINE_MAX_DIRS], *name;
	uint8_t		 lens[256], min_inst, line_range, opcode_base, op;
	int8_t		 line_base;
	uint64_t	 hlen, n, d, raw, adv;
	uint32_t	 ndirs = 0, nfiles = 0;
	uint16_t	 version;
	long		 rows = 0;
	size_t		 i, end;

	version = (uint16_t)dl_fixed(u, 2);
	if (u->bad || version < 2 || version > 4) {
		*cause = "unsupported line table version";
		return -1;
	}
	hlen = dl_fixed(u, 4);
	if (u->bad || hlen > u->len - u->off) {
		*cause = "line table header too long";
		return -1;
	}
	h.p = u->p;
	h.off = u->off;
	h.len = u->off + (size_t)hlen;
	h.bad = 0;
	u->off = h.len;
	min_inst = (uint8_t)dl_fixed(&h, 1);
	if (version >= 4)
		(void)dl_fixed(&h, 1);	/* maximum operations per insn */
	(void)dl_fixed(&h, 1);		/* default is_stmt */
	line_base = (int8_t)dl_fixed(&h, 1);
	line_range = (uint8_t)dl_fixed(&h, 1);
	opcode_base = (uint8_t)dl_fixed(&h, 1);
	if (h.bad || line_range == 0 || opcode_base == 0) {
		*cause = "bad line table header";
		return -1;
	}
	memset(lens, 0, sizeof lens);
	for (i = 1; i < opcode_base; i++)
		lens[i] = (uint8_t)dl_fixed(&h, 1);
	dirs[0] = "";
	ndirs = 1;
	while (!h.bad && h.off < h.len && h.p[h.off] != '\0') {
		name = dl_str(&h);
		if (ndirs < DWARFLINE_MAX_DIRS)
			dirs[ndirs++] = name;
	}
	h.off++;
	while (!h.bad && h.off < h.len && h.p[h.off] != '\0') {
		name = dl_str(&h);
		d = dl_uleb(&h);
		(void)dl_uleb(&h);	/* modification time */
		(void)dl_uleb(&h);	/* length */
		if (cb->file != NULL)
			cb->file(cb->arg, unit, ++nfiles,
			    d < ndirs ? dirs[d] : "", name);
	}
	if (h.bad) {
		*cause = "bad line table file list";
		return -1;
	}

	memset(&s, 0, sizeof s);
	s.file = s.line = 1;
	while (u->off < u->len && !u->bad) {
		op = u->p[u->off++];
		if (op >= opcode_base) {
			adv = (uint64_t)(op - opcode_base);
			s.addr += (adv / line_range) * min_inst;
			s.line += (uint32_t)(line_base +
			    (int)(adv % line_range));
			goto emit;
		}
		switch (op) {
		case 0:
			n = dl_uleb(u);
			if (u->bad || n == 0 || n > u->len - u->off) {
				*cause = "bad extended line opcode";
				return -1;
			}
			end = u->off + (size_t)n;
			op = u->p[u->off++];
			if (op == DW_LNE_end_sequence) {
				memset(&s, 0, sizeof s);
				s.file = s.line = 1;
			} else if (op == DW_LNE_set_address && n >= 2) {
				size_t at = u->off;
				raw = dl_fixed(u, (size_t)n - 1 > 8 ? 8 :
				    (size_t)n - 1);
				s.placed = cb->addr(cb->arg, base + at, raw,
				    &s.addr, &s.tag) == 0;
			} else if (op == DW_LNE_define_file && cb->file !=
			    NULL) {
				name = dl_str(u);
				d = dl_uleb(u);
				cb->file(cb->arg, unit, ++nfiles,
				    d < ndirs ? dirs[d] : "", name);
			}
			u->off = end;
			continue;
		case DW_LNS_copy:
			goto emit;
		case DW_LNS_advance_pc:
			s.addr += dl_uleb(u) * min_inst;
			continue;
		case DW_LNS_advance_line:
			s.line += (uint32_t)dl_sleb(u);
			continue;
		case DW_LNS_set_file:
			s.file = (uint32_t)dl_uleb(u);
			continue;
		case DW_LNS_const_add_pc:
			s.addr += ((uint64_t)(255 - opcode_base) / line_range) *
			    min_inst;
			continue;
		case DW_LNS_fixed_advance_pc:
			s.addr += dl_fixed(u, 2);
			continue;
		default:
			/* Standard opcodes with uleb operands. */
			for (i = 0; i < lens[op]; i++)
				(void)dl_uleb(u);
			continue;
		}
emit:
		if (s.placed) {
			cb->row(cb->arg, s.tag, s.addr, unit, s.file, s.line);
			rows++;
		}
	}
	if (u->bad) {
		*cause = "truncated line program";
		return -1;
	}
	(void)sec;
	return rows;
}

long
dwarfline_decode(const uint8_t *sec, size_t len,
    const struct dwarfline_cb *cb, const char **cause)
{
	struct dl_buf	 b, u;
	uint64_t	 ulen;
	uint32_t	 unit = 0;
	long		 rows = 0, r;

	b.p = sec;
	b.len = len;
	b.off = 0;
	b.bad = 0;
	while (b.off < b.len) {
		ulen = dl_fixed(&b, 4);
		if (b.bad || ulen == 0xffffffff || ulen > b.len - b.off) {
			*cause = ulen == 0xffffffff ? "64-bit DWARF line "
			    "tables are not supported" : "line table unit "
			    "past the section";
			return -1;
		}
		u.p = sec + b.off;
		u.len = (size_t)ulen;
		u.off = 0;
		u.bad = 0;
		if ((r = dl_unit(sec, &u, b.off, unit, cb, cause)) < 0)
			return -1;
		rows += r;
		b.off += (size_t)ulen;
		unit++;
	}
	return rows;
}
