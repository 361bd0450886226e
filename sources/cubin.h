/*
 * cubin: a bounds-checked reader of the ELF64 images (cubins) that CUDA
 * compiles kernels into and Nsight Compute saves in its reports: the
 * section headers and names, the symbol table, and the relocations that
 * apply to a section (REL or RELA). Nothing is copied: every pointer is
 * into the caller's image. A malformed image gives -1 from cubin_open()
 * with a message; no read ever goes past the image.
 */
#ifndef GPULENS_CUBIN_H
#define GPULENS_CUBIN_H

#include <stddef.h>
#include <stdint.h>

#define CUBIN_SHT_SYMTAB	2
#define CUBIN_SHT_RELA		4
#define CUBIN_SHT_REL		9

struct cubin_sec {
	const char	*name;		/* NUL-terminated, into the image */
	uint32_t	 type;
	uint64_t	 off, size;
	uint32_t	 link, info;
};

struct cubin {
	const uint8_t		*p;
	size_t			 len;
	struct cubin_sec	*secs;	/* owned */
	size_t			 nsecs;
	uint32_t		 symtab;	/* section index, 0 if none */
	uint32_t		 flags;		/* e_flags */
};

struct cubin_sym {
	const char	*name;
	uint8_t		 type;		/* STT_*: 2 FUNC, 3 SECTION */
	uint16_t	 shndx;
	uint64_t	 value, size;
};

struct cubin_rel {
	uint64_t	 off;		/* within the section it applies to */
	uint32_t	 sym;
	int64_t		 addend;
	int		 has_addend;	/* RELA */
};

/* Returns 0, or -1 with *cause (a static message). */
int		 cubin_open(struct cubin *, const uint8_t *, size_t,
		    const char **cause);
void		 cubin_close(struct cubin *);
/* The index of the section with this name, or 0. */
uint32_t	 cubin_find(const struct cubin *, const char *name);
/* The bytes of a section, NULL if it has none or lies outside. */
const uint8_t	*cubin_data(const struct cubin *, uint32_t sec, size_t *len);
/* Symbol i of the symbol table: 0, or -1 when there is none such. */
int		 cubin_sym(const struct cubin *, uint32_t i,
		    struct cubin_sym *);
/* The relocations applying to section sec, in a new array (free). */
size_t		 cubin_rels(const struct cubin *, uint32_t sec,
		    struct cubin_rel **);

#endif
