/*
 * perm.c - a seeded permutation of [0, n) computed one position at a time.
 *
 * A bijection f on the smallest power-of-two domain holding n (odd-multiply
 * and xor-shift steps, each invertible modulo 2^bits) is applied by "cycle
 * walking": x = f(i), and while x >= n, x = f(x). Because f is a bijection,
 * the walk from any i < n returns below n, and distinct i give distinct
 * results, so the positions 0..n-1 visit every block exactly once. No table
 * is needed, so a 2 TiB disk at 4 KiB blocks costs no memory.
 */
#include "runner.h"

void runner_perm_init(struct runner_perm *p, uint64_t n, uint64_t seed)
{
	uint64_t s = seed;

	p->n = n;
	p->bits = 0;
	while (p->bits < 64 && (1ull << p->bits) < n)
		p->bits++;
	p->mask = p->bits >= 64 ? UINT64_MAX : (1ull << p->bits) - 1;
	p->shift = p->bits / 2 ? p->bits / 2 : 1;
	p->k1 = pb_splitmix64(&s) | 1;
	p->k2 = pb_splitmix64(&s) | 1;
	p->x1 = pb_splitmix64(&s);
}

static uint64_t mix(const struct runner_perm *p, uint64_t x)
{
	x = (x ^ p->x1) & p->mask;
	x = (x * p->k1) & p->mask;
	x ^= x >> p->shift;
	x = (x * p->k2) & p->mask;
	x ^= x >> p->shift;
	return x;
}

uint64_t runner_perm_at(const struct runner_perm *p, uint64_t i)
{
	uint64_t x;

	if (p->n <= 1)
		return 0;
	x = mix(p, i);
	while (x >= p->n)
		x = mix(p, x);
	return x;
}
