/*
 * shquote: a string as one word of a POSIX shell command line, for the
 * commands gpulens prints for the user to run (nsys export, ncu,
 * rocprofv3): left as it is when it holds only characters no shell treats
 * specially, else single-quoted with each ' written as '\''.
 */
#ifndef GPULENS_SHQUOTE_H
#define GPULENS_SHQUOTE_H

/* The quoted form of s; the caller frees it. */
char	*shquote(const char *s);

#endif
