/*
 * synth: what the trace writers share (gen*.c, the Nsight Systems SQLite
 * trace; kgen*.c, the Kineto and Chrome JSON traces): the splitmix64 mixer
 * behind their deterministic draws, timestamps as JSON microsecond text,
 * and the temporary file a trace is written to before it is renamed over
 * its path.
 */
#ifndef GPULENS_SYNTH_H
#define GPULENS_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* The splitmix64 output function (Steele, Lea and Flood): a bijection that
 * spreads every input bit over the whole word. */
static inline uint64_t
synth_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* ns as microseconds with three decimals ("1234.567") in buf; returns
 * buf. */
const char	*synth_us(char *buf, size_t len, int64_t ns);

/*
 * Creates PATH.tmpXXXXXX, with the mode a new file gets (0666 less the
 * umask), and returns its descriptor with *tmp its name (caller frees), or
 * -1 with errno and *tmp still set.
 */
int		 synth_tmpfile(const char *path, char **tmp);

#endif
