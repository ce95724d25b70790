/*
 * test_perm.c - the random pattern's permutation touches every block
 * exactly once, for any size, and depends on the seed.
 */
#include <stdlib.h>

#include "runner.h"
#include "unit.h"

static void covers_exactly_once(void)
{
	static const uint64_t sizes[] = {1,    2,    3,	    5,	   7,
					 31,   100,  1000,  1023,  1025,
					 4097, 9999, 65537, 99991, 262143};
	struct runner_perm p;
	size_t k;
	uint64_t i, x;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint8_t *seen = calloc(sizes[k], 1);

		CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
		runner_perm_init(&p, sizes[k], 42 + k);
		for (i = 0; i < sizes[k]; i++) {
			x = runner_perm_at(&p, i);
			CU_ASSERT_FATAL(x < sizes[k]);
			seen[x]++;
		}
		for (i = 0; i < sizes[k]; i++)
			CU_ASSERT_EQUAL_FATAL(seen[i], 1);
		free(seen);
	}
}

static void looks_random(void)
{
	struct runner_perm a, b;
	uint64_t i, fixed = 0, same = 0, ascending = 0, n = 10007;

	runner_perm_init(&a, n, 1);
	runner_perm_init(&b, n, 2);
	for (i = 0; i < n; i++) {
		fixed += runner_perm_at(&a, i) == i;
		same += runner_perm_at(&a, i) == runner_perm_at(&b, i);
		if (i)
			ascending += runner_perm_at(&a, i) ==
				     runner_perm_at(&a, i - 1) + 1;
	}
	/* a random permutation has ~1 fixed point; allow generous slack */
	CU_ASSERT(fixed < 20);
	CU_ASSERT(same < 20);
	CU_ASSERT(ascending < 50);
}

static void same_seed_same_order(void)
{
	struct runner_perm a, b;
	uint64_t i;

	runner_perm_init(&a, 777, 99);
	runner_perm_init(&b, 777, 99);
	for (i = 0; i < 777; i++)
		CU_ASSERT_EQUAL(runner_perm_at(&a, i), runner_perm_at(&b, i));
}

static const struct pb_case cases[] = {
	PB_CASE(covers_exactly_once),
	PB_CASE(looks_random),
	PB_CASE(same_seed_same_order),
	PB_CASES_END,
};

const struct pb_suite suite_perm = {"perm", NULL, NULL, cases};
