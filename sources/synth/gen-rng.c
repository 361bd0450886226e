/*
 * gen-rng: the generator's own PRNG (xoshiro256** seeded through
 * splitmix64) and the distributions drawn from it; no wall-clock time, so
 * that equal seeds give equal files.
 */

#include "config.h"

#include <math.h>

#include "sources/synth/gen-int.h"
#include "sources/synth/synth.h"

/* xoshiro256** seeded through splitmix64. */
uint64_t
gen_rng_splitmix64(uint64_t *x)
{
	uint64_t	z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	return (synth_mix64(z));
}

void
gen_rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t	x = seed ^ (stream * 0xd1342543de82ef95ULL);
	int		i;

	for (i = 0; i < 4; i++)
		r->s[i] = gen_rng_splitmix64(&x);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return ((x << k) | (x >> (64 - k)));
}

static uint64_t
rng_next(struct rng *r)
{
	uint64_t	*s = r->s, out, t;

	out = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return (out);
}

/* Uniform in [0, 1). */
double
gen_rng_unit(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) * 0x1.0p-53);
}

/* Exponential with the given mean. */
int64_t
gen_rng_exp(struct rng *r, int64_t mean)
{
	return ((int64_t)(-(double)mean * log(1.0 - gen_rng_unit(r))));
}

/* Roughly normal, mean 0, sd 1 (sum of four uniforms). */
double
gen_rng_gauss(struct rng *r)
{
	double	s;

	s = gen_rng_unit(r) + gen_rng_unit(r) + gen_rng_unit(r) +
	    gen_rng_unit(r);
	return ((s - 2.0) * 1.7320508075688772);
}
