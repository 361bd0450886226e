/*
 * answers: a store of computed verb answers, kept beside the model cache.
 *
 * At 1e8 events a verb that reads the whole model takes seconds of CPU
 * however the model is loaded; a question asked again (an agent's first
 * questions, a script run twice) need not be computed again. When a verb
 * marked CMD_ANSWER (cmd.h: read-only analyses of one trace) has answered
 * a request on a trace that has a valid model cache, what it printed (the
 * bytes on stdout, the warnings the table form prints on stderr) and its
 * exit status are kept in the cache directory:
 *
 *   NAME-HHHHHHHHHHHHHHHH.SSSSSSSSSSSSSSSS.RRRRRRRRRRRRRRRR.answer
 *
 * NAME-H is the stem of the trace's files (cachedir.h), S a hash of the
 * model cache's stamp (model/cache-stamp.h: its header bytes and size,
 * the trace's identity) and R a hash of the whole key. The next identical
 * request prints the stored bytes and exits with the stored status without
 * loading the model. The key, stored whole in the file and compared byte
 * for byte (a hash collision is a miss, never a wrong answer), is:
 *   - the answer format version;
 *   - the program's identity (util/binid.h: the build-ids of the program
 *     and its shared objects; without one nothing is kept);
 *   - the model cache's stamp and the trace's identity;
 *   - the verb's words as given, the trace path as typed included (the
 *     answer echoes it), global options (--progress, ...) excepted;
 *   - the output format, and with the table form the COLUMNS variable
 *     (its width; a terminal is never answered from the store, see below);
 *   - TZ, LANG, LC_ALL, LC_CTYPE, LC_NUMERIC, LC_TIME (nothing prints by
 *     them today: kept in case something does), and every GPULENS_*
 *     variable except those that change no output (ANSWERS_ENV_FREE).
 *
 * Not kept, nor read: with --no-cache or GPULENS_ANSWERS=0; when stdout is
 * a terminal (the table follows its width, and the capture would not be
 * a terminal); for several traces, a directory or an Nsight Compute
 * report; for an answer made from a job's rank summaries; for an error
 * (exit status 2, or 1 other than a broken gate); for an answer computed
 * in less than GPULENS_ANSWER_MIN_MS milliseconds (default 300) or larger
 * than ANSWERS_MAX bytes; when the cache directory cannot be written (the
 * verb still answers). A file that fails its checks (magic, version,
 * lengths, header and payload CRCs, key) is ignored and recomputed.
 * While the verb computes, stdout (and the table form's stderr) is a pipe
 * that a thread drains into memory, never a temporary file; past
 * ANSWERS_MAX the thread passes the output on as it comes and nothing is
 * kept. A stored answer is written through a temporary file renamed into
 * place, mode 0600, like the cache; answers count towards
 * GPULENS_CACHE_MAX and go least recently used first. When a trace's cache is rebuilt, the answers of the old one
 * are removed by the next computed answer; `gpulens clean TRACE` removes
 * them all (answers_remove).
 */
#ifndef GPULENS_ANSWERS_H
#define GPULENS_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/cache-stamp.h"

#define ANSWERS_MAGIC		"GPULENSA"
#define ANSWERS_VERSION		1
#define ANSWERS_SUFFIX		".answer"
#define ANSWERS_MAX		(16u << 20)	/* bytes of output kept */
#define ANSWERS_MIN_MS		300		/* GPULENS_ANSWER_MIN_MS */
/* GPULENS_* variables that change no output: not in the key. */
#define ANSWERS_ENV_FREE						\
	"GPULENS_ANSWERS", "GPULENS_ANSWER_MIN_MS", "GPULENS_TIMING",	\
	"GPULENS_CACHE_MAX", "GPULENS_MAX_MEMORY", "GPULENS_TUI_SCRIPT",	\
	"GPULENS_FIXTURES"

struct cmd_entry;
struct answers;

/*
 * The answer of the request argv[0, argc) (argv[0] the verb) of verb e on
 * trace, printed in format (enum out_format), or NULL when none is kept
 * for it (see above). A non-NULL answer must be ended by answers_close().
 */
struct answers	*answers_open(const struct cmd_entry *e, int argc,
		    char **argv, const char *trace, int format);
/*
 * Prints the stored answer and returns its exit status; or, with none,
 * returns -1 and starts capturing stdout for answers_close().
 */
int		 answers_serve(struct answers *);
/* Around the printing of the answer: its stderr is captured too. */
void		 answers_err_begin(struct answers *);
void		 answers_err_end(struct answers *);
/*
 * Ends the capture: prints what was captured and, when keep (the answer,
 * not an error) and the rules above allow, stores it with status rc.
 * Frees a (NULL: nothing). Returns rc.
 */
int		 answers_close(struct answers *a, int rc, int keep);
/* 1 if a valid answer is stored for this request (prep --answers). */
int		 answers_have(const struct cmd_entry *e, int argc,
		    char **argv, const char *trace, int format);
/*
 * Computes and stores the JSON answer of every marked verb that takes the
 * trace alone (`gpulens VERB TRACE --json`, run as a child process):
 * returns how many are stored.
 */
int		 answers_prep(const char *trace);
/* Removes every answer kept for trace; adds their bytes to *bytes.
 * Returns the number of files removed. */
int		 answers_remove(const char *trace, uint64_t *bytes);

/* The pure parts, for the tests. */
/* The key (malloc'd, *len bytes) of a request; envp: the environment. */
char		*answers_key(const char *binid, const struct cache_stamp *,
		    int argc, char *const *argv, int format,
		    char *const *envp, size_t *len);
/* The file's bytes (malloc'd, *len) of an answer. */
uint8_t		*answers_encode(const char *key, size_t keylen,
		    const char *out, size_t outlen, const char *err,
		    size_t errlen, int status, size_t *len);
/*
 * Checks buf[0, len) as the answer of key: 0 with *out, *err (pointing
 * into buf), their lengths and *status; -1 if it is damaged or another
 * request's.
 */
int		 answers_decode(const uint8_t *buf, size_t len,
		    const char *key, size_t keylen, const char **out,
		    size_t *outlen, const char **err, size_t *errlen,
		    int *status);

#endif
