/*
 * test_hist.c - histogram percentiles against a brute-force sort.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "unit.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank, as the histogram defines it */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	double r = ceil(p / 100.0 * (double)n);

	if (r < 1)
		r = 1;
	return sorted[(size_t)r - 1];
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_against_sort(uint64_t (*gen)(uint64_t *), size_t n)
{
	static const double ps[] = {1, 10, 50, 90, 99, 99.9, 99.99};
	struct runner_hist *h = malloc(sizeof(*h));
	uint64_t *v = malloc(n * sizeof(*v)), s = 12345, want, got;
	size_t i, k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	runner_hist_init(h);
	for (i = 0; i < n; i++) {
		v[i] = gen(&s);
		runner_hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	CU_ASSERT_EQUAL(h->count, n);
	CU_ASSERT_EQUAL(h->min, v[0]);
	CU_ASSERT_EQUAL(h->max, v[n - 1]);
	for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		want = exact_percentile(v, n, ps[k]);
		got = runner_hist_percentile(h, ps[k]);
		/* bounded relative error: under 1% everywhere */
		CU_ASSERT(fabs((double)got - (double)want) <=
			  0.01 * (double)want + 0.5);
	}
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 100), v[n - 1]);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 0), v[0]);
	free(v);
	free(h);
}

/* latencies spread over 6 decades, like a disk that sometimes stalls */
static uint64_t gen_logspread(uint64_t *s)
{
	double e = (double)(rng(s) % 600000) / 100000.0; /* 0..6 */

	return (uint64_t)(100.0 * pow(10.0, e));
}

static uint64_t gen_uniform(uint64_t *s)
{
	return 50000 + rng(s) % 1000;
}

static uint64_t gen_small(uint64_t *s)
{
	return rng(s) % 300; /* the exact range */
}

static void percentiles_logspread(void)
{
	check_against_sort(gen_logspread, 200001);
}

static void percentiles_narrow(void)
{
	check_against_sort(gen_uniform, 10007);
}

static void percentiles_exact_small_values(void)
{
	struct runner_hist *h = malloc(sizeof(*h));
	unsigned i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	runner_hist_init(h);
	for (i = 1; i <= 100; i++)
		runner_hist_add(h, i);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 50), 50);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 99), 99);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 1), 1);
	free(h);
	check_against_sort(gen_small, 1000);
}

static void percentiles_single_and_empty(void)
{
	struct runner_hist *h = malloc(sizeof(*h));

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	runner_hist_init(h);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 50), 0);
	runner_hist_add(h, 123456789);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 50), 123456789);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 99.9), 123456789);
	/* beyond the top bucket: clamped into it, max still exact */
	runner_hist_add(h, UINT64_MAX / 2);
	CU_ASSERT_EQUAL(h->max, UINT64_MAX / 2);
	CU_ASSERT_EQUAL(runner_hist_percentile(h, 100), UINT64_MAX / 2);
	free(h);
}

static const struct pb_case cases[] = {
	PB_CASE(percentiles_logspread),
	PB_CASE(percentiles_narrow),
	PB_CASE(percentiles_exact_small_values),
	PB_CASE(percentiles_single_and_empty),
	PB_CASES_END,
};

const struct pb_suite suite_hist = {"hist", NULL, NULL, cases};
