/*
 * trevent: what the two Trace Event Format readers (chrome.c and the
 * Kineto reader, kineto*.c) do alike: the pass over the scanner's items
 * with progress, B events waiting for their E, the phases not read and
 * their warnings, the per-event error message, and the head of a file
 * that their probes look at.
 *
 * B and E: a B is kept (a record of the reader's own type, copied in)
 * under its thread key until an E of the same key closes the latest one;
 * an E with no open B is counted, and the B never closed stay for the
 * reader to emit as open ranges.
 */
#ifndef GPULENS_TREVENT_H
#define GPULENS_TREVENT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct builder;
struct jsonscan;
struct jsonscan_item;
struct jsonscan_obj;
struct lane_event;
struct progress;

struct trevent {
	uint64_t	*keys;		/* thread key of each open B */
	unsigned char	*open;		/* the open B records (size bytes) */
	size_t		 size;		/* a record's bytes (trevent_begin) */
	size_t		 nopen, keycap, opencap;
	uint64_t	 nunmatched_e;	/* E events without an open B */
	uint64_t	 nphase_other;	/* events of phases not read */
	char		 phase_other[8];	/* those phases, each once */
};

/* A zeroed struct trevent is ready; trevent_free() frees what it holds. */
void	 trevent_free(struct trevent *);

/*
 * Reads js to its end: each event to event(arg, ev), any other item to
 * meta(arg, item), progress (raw offset) every step events (a power of
 * two). Returns 0 at the end, -1 with *cause if the scanner failed, 1 if a
 * callback returned nonzero or progress was stopped (then *err, the
 * reader's own error, is "loading given up").
 */
int	 trevent_read(struct jsonscan *, struct progress *, uint64_t step,
	    int (*event)(void *, struct jsonscan_obj *),
	    int (*meta)(void *, struct jsonscan_item *), void *arg, char **err,
	    char **cause);

/* A new open B under key: a zeroed record of size bytes (the same at
 * every call), filled by the caller. */
void	*trevent_begin(struct trevent *, uint64_t key, size_t size);
/* The latest open B of key, copied into *out and no longer open: 1; 0 if
 * there is none (counted in nunmatched_e). */
int	 trevent_end(struct trevent *, uint64_t key, void *out);
/* Open B record i (of nopen). */
const void *trevent_open_at(const struct trevent *, size_t i);

/* *ev zeroed, then with these fields (of an event or a B's record). */
void	 trevent_event(struct lane_event *ev, uint32_t name, int64_t start,
	    int64_t end, uint8_t kind, uint8_t flags, int64_t rowid);

/* An event of phase ph, which the reader does not load. */
void	 trevent_other(struct trevent *, char ph);
/* The warnings of the phases not read and of the unmatched E events. */
void	 trevent_warn(const struct trevent *, struct builder *);

/* Replaces *err with "PATH: event INDEX at byte OFFSET: MESSAGE" (MESSAGE
 * from fmt and ap). */
void	 trevent_vfail(char **err, const char *path, uint64_t index,
	    uint64_t offset, const char *fmt, va_list ap)
	    __attribute__((format(printf, 5, 0)));

/*
 * The first max bytes of path (decompressed; fewer if the file is short
 * or damaged), NUL bytes turned into spaces, NUL-terminated: a buffer the
 * caller frees, with *len its length; NULL with *cause if it cannot be
 * opened.
 */
char	*trevent_head(const char *path, size_t max, size_t *len,
	    char **cause);

#endif
