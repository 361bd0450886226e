/*
 * fuzz: what the libFuzzer harnesses in tests/fuzz/ share.
 *
 * A harness is one file NAME_fuzz.c that defines LLVMFuzzerInitialize()
 * and LLVMFuzzerTestOneInput(). It is linked twice from the same source:
 * with libFuzzer as tests/fuzz/NAME_fuzz (./configure --enable-fuzzing,
 * clang), and with replay.c as tests/fuzz/NAME_replay, which every build
 * has and `make check` runs over the seed corpus tests/fuzz/NAME/.
 *
 * On any input a harness must neither crash, leak, hang nor use unbounded
 * memory; where a result can be checked against a second computation it
 * is, and FUZZ_CHECK aborts on a mismatch so that libFuzzer (or the
 * replay) reports the input like a crash.
 *
 * Harnesses may write to stdout freely: replay.c writes its TAP stream to
 * a duplicate of the original descriptor, taken before initialisation.
 */
#ifndef GPULENS_FUZZ_H
#define GPULENS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

struct cmd_entry;

int	 LLVMFuzzerInitialize(int *argc, char ***argv);
int	 LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A private directory for this process, removed at exit. */
const char	*fuzz_tmpdir(void);
/* "<tmpdir>/name" (caller frees). */
char		*fuzz_path(const char *name);
/* Entries in fuzz_tmpdir() other than name: what a reader left behind. */
int		 fuzz_others(const char *name);
/* Replaces path with exactly size bytes of data (aborts on I/O error). */
void		 fuzz_write(const char *path, const uint8_t *data,
		    size_t size);
/* Sends stdout (descriptor 1) to /dev/null. */
void		 fuzz_quiet_stdout(void);
/*
 * Runs a verb on path as `gpulens VERB --json PATH` would (through
 * cmd_run, the one driver; the cache unless no_cache), with stdout wherever
 * it is.
 * The verb is picked from a table of verb invocations that read one trace
 * by pick (modulo their number); under FUZZ_STRICT (the replays) every
 * one of them runs, so that a seed is checked against all the verbs and a
 * reproducer does not depend on which one its size picks.
 */
void		 fuzz_run_verb(unsigned pick, const char *path, int no_cache);
/*
 * Runs `gpulens ARGV...` through the verb's exec (argv NULL-ended; the
 * element "\001" stands for path). Returns its exit status.
 */
int		 fuzz_run_argv(const char *const *argv, const char *path,
		    int no_cache);
struct model;
struct progress;
/*
 * What a reader harness does with its input: writes it to the file name in
 * the harness directory, loads it with load (a reader's X_load(), as
 * source_read() calls it after detection), checks the model
 * (fuzz_check_model) or that a failure has a reason, then runs one verb
 * on the file (picked by the input's length; all of them in the replays,
 * see fuzz_run_verb) without the cache. With strict_dir, nothing else may
 * appear in the directory meanwhile (the reader opened the trace
 * read-only and immutable).
 */
void		 fuzz_reader(const uint8_t *data, size_t size,
		    const char *name, struct model *(*load)(const char *,
		    struct progress *, char **), int strict_dir);
/*
 * Checks what model.h and lane.h promise of a finished model: entity and
 * side-table references in range, lanes sorted by start, end >= start,
 * known kinds and track types, every string id resolving.
 */
void		 fuzz_check_model(const struct model *);
/* Prints where a check failed and aborts. */
void		 fuzz_fail(const char *file, int line, const char *what)
		    __attribute__((noreturn));

/*
 * Known bugs, reported but in code the harnesses do not own, are steered
 * around so that fuzzing goes past them: FUZZ_KNOWN(c) is c, the condition
 * under which an input would hit one, unless FUZZ_STRICT is defined
 * (-DFUZZ_STRICT in CPPFLAGS), where it is 0. Their reproducers are in
 * tests/fuzz/NAME/known/ (see replay.c).
 */
#ifdef FUZZ_STRICT
#define FUZZ_KNOWN(c)	(0 && (c))
#else
#define FUZZ_KNOWN(c)	(c)
#endif

/* An LLVMFuzzerInitialize() that does nothing, for a harness that needs
 * no set-up. */
#define FUZZ_NO_INIT							\
int									\
LLVMFuzzerInitialize(int *argc, char ***argv)				\
{									\
	(void)argc;							\
	(void)argv;							\
	return 0;							\
}

/*
 * The whole of a reader harness (NAME_fuzz.c): stdout quiet, every input
 * through fuzz_reader() as file "file" loaded by load.
 */
#define FUZZ_READER_HARNESS(file, load, strict_dir)			\
int									\
LLVMFuzzerInitialize(int *argc, char ***argv)				\
{									\
	(void)argc;							\
	(void)argv;							\
	fuzz_quiet_stdout();						\
	return 0;							\
}									\
									\
int									\
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
{									\
	fuzz_reader(data, size, (file), (load), (strict_dir));		\
	return 0;							\
}

/* Whether an event or track names a string id past the string pool. */
int		 fuzz_bad_names(const struct model *);

#define FUZZ_CHECK(c) do {						\
	if (!(c))							\
		fuzz_fail(__FILE__, __LINE__, #c);			\
} while (0)

#endif
