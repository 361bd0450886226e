/*
 * dwarfline: a decoder of DWARF line programs (.debug_line, versions 2 to
 * 4, the versions CUDA's compilers write), bounds-checked, for the line
 * tables of cubins.
 *
 * The caller supplies the address of each sequence: a DW_LNE_set_address
 * operand is handed to addr(), with its offset in the section, and
 * addr() answers the base (a relocated cubin address is a section offset
 * plus the section the relocation names) and a tag for the sequence (the
 * function); a sequence whose address it cannot place is skipped. Every
 * row is handed to row() with the tag, the address, the file (1-based
 * index into the unit's file table, named through file()) and the line.
 */
#ifndef GPULENS_DWARFLINE_H
#define GPULENS_DWARFLINE_H

#include <stddef.h>
#include <stdint.h>

struct dwarfline_cb {
	/* Places a set_address operand at section offset off holding raw:
	 * 0 with *base and *tag set, or -1 to skip the sequence. */
	int	(*addr)(void *arg, uint64_t off, uint64_t raw, uint64_t *base,
		    uint32_t *tag);
	/* File n (1-based) of unit u: its directory ("" if none), name. */
	void	(*file)(void *arg, uint32_t unit, uint32_t n, const char *dir,
		    const char *name);
	void	(*row)(void *arg, uint32_t tag, uint64_t addr, uint32_t unit,
		    uint32_t file, uint32_t line);
	void	*arg;
};

/*
 * Decodes every unit of sec[0 .. len). Returns the number of rows, or -1
 * with *cause (a static message) when a unit is malformed; rows before it
 * have been handed over.
 */
long		 dwarfline_decode(const uint8_t *sec, size_t len,
		    const struct dwarfline_cb *, const char **cause);

#endif
