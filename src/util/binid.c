/*
 * binid: the build-ids of the program and its shared objects (binid.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/binid.h"
#include "util/hmap.h"

#define BINID_MAXID	64		/* bytes of a build-id kept */

struct binid_walk {
	unsigned char	 main[BINID_MAXID];	/* the program's build-id */
	size_t		 mainlen;
	uint64_t	 libs;			/* hash of the others */
	int		 nobj;
	int		 bad;
};

/* The build-id in the notes of one loaded object, or 0. */
static size_t
binid_notes(const struct dl_phdr_info *info, unsigned char *id)
{
	const ElfW(Phdr)	*ph;
	const unsigned char	*p, *end;
	const ElfW(Nhdr)	*n;
	size_t			 i, nsz, dsz;

	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while ((size_t)(end - p) >= sizeof *n) {
			n = (const ElfW(Nhdr) *)(const void *)p;
			nsz = (n->n_namesz + 3) & ~(size_t)3;
			dsz = (n->n_descsz + 3) & ~(size_t)3;
			if (nsz > (size_t)(end - p) - sizeof *n ||
			    dsz > (size_t)(end - p) - sizeof *n - nsz)
				break;
			if (n->n_type == NT_GNU_BUILD_ID &&
			    n->n_namesz == 4 && memcmp(p + sizeof *n, "GNU",
			    4) == 0 && n->n_descsz > 0 &&
			    n->n_descsz <= BINID_MAXID) {
				memcpy(id, p + sizeof *n + nsz, n->n_descsz);
				return n->n_descsz;
			}
			p += sizeof *n + nsz + dsz;
		}
	}
	return 0;
}

/* A file named by what stat says of it (an object without a build-id). */
static uint64_t
binid_stat(uint64_t h, const char *path)
{
	struct stat	st;
	int64_t		v[3];

	h = hmap_fnv(h, path, strlen(path) + 1);
	if (stat(path, &st) != 0)
		return h;
	v[0] = (int64_t)st.st_size;
	v[1] = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	v[2] = (int64_t)st.st_ino;
	return hmap_fnv(h, v, sizeof v);
}

static int
binid_each(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct binid_walk	*w = arg;
	unsigned char		 id[BINID_MAXID];
	const char		*name = info->dlpi_name != NULL ?
				    info->dlpi_name : "";
	size_t			 len;

	(void)size;
	len = binid_notes(info, id);
	if (w->nobj++ == 0) {
		/* The program itself comes first. */
		memcpy(w->main, id, len);
		w->mainlen = len;
		return 0;
	}
	w->libs = hmap_fnv(w->libs, name, strlen(name) + 1);
	if (len > 0)
		w->libs = hmap_fnv(w->libs, id, len);
	else if (name[0] == '/')
		w->libs = binid_stat(w->libs, name);
	return 0;
}

/* FNV-1a of the whole program file, or 0 with *bad set. */
static uint64_t
binid_hash_exe(int *bad)
{
	unsigned char	 buf[65536];
	uint64_t	 h = HMAP_FNV0;
	ssize_t		 r;
	int		 fd;

	if ((fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) == -1) {
		*bad = 1;
		return 0;
	}
	while ((r = read(fd, buf, sizeof buf)) > 0)
		h = hmap_fnv(h, buf, (size_t)r);
	if (r < 0)
		*bad = 1;
	close(fd);
	return h;
}

const char *
binid_get(void)
{
	static char		 s[2 * BINID_MAXID + 64];
	static int		 done, ok;
	struct binid_walk	 w;
	size_t			 i, off = 0;

	if (done)
		return ok ? s : NULL;
	done = 1;
	memset(&w, 0, sizeof w);
	w.libs = HMAP_FNV0;
	dl_iterate_phdr(binid_each, &w);
	if (w.nobj == 0)
		return NULL;
	if (w.mainlen > 0) {
		for (i = 0; i < w.mainlen; i++)
			off += (size_t)snprintf(s + off, sizeof s - off,
			    "%02x", w.main[i]);
	} else
		off += (size_t)snprintf(s, sizeof s, "exe%016llx",
		    (unsigned long long)binid_hash_exe(&w.bad));
	if (w.bad)
		return NULL;
	snprintf(s + off, sizeof s - off, "-%016llx",
	    (unsigned long long)w.libs);
	ok = 1;
	return s;
}
