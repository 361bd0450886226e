/*
 * binid: the identity of the running program, for data that only this
 * build may reuse (headless/answers.h).
 *
 * The identity is the GNU build-id of the program (ld --build-id: a hash
 * of the linked image, so any rebuild that changes a byte changes it) and
 * of every shared object loaded with it (a library upgrade may change what
 * the program prints), read from their PT_NOTE segments through
 * dl_iterate_phdr(). An object without a build-id is named by its path,
 * size, mtime and inode instead; a program without one is hashed whole
 * (/proc/self/exe).
 */
#ifndef GPULENS_BINID_H
#define GPULENS_BINID_H

/*
 * The identity as a string of lowercase hex, computed once per process
 * (the pointer stays valid until exit), or NULL where it cannot be known:
 * then nothing may be reused.
 */
const char	*binid_get(void);

#endif
