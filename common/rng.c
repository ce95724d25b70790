/*
 * rng.c - the one seeded generator: splitmix64 (Steele, Lea and Flood,
 * 2014; the seeding generator of Vigna's xoshiro), for everything that
 * must come out the same from the same seed: the plan's shuffle, the
 * runner's permutation and Poisson arrivals, the null backend's noise.
 */
#include <math.h>

#include "common.h"

uint64_t pb_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double pb_uniform01(uint64_t *s)
{
	/* 53 bits, centred in their step: never 0, never 1 */
	return ((double)(pb_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

double pb_normal(uint64_t *s)
{
	double u = pb_uniform01(s), v = pb_uniform01(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v); /* Box-Muller */
}
