/*
 * hist.c - log-linear latency histogram, after fio's stat.h plat buckets.
 *
 * Values below 2 * RUNNER_HIST_VAL land in exact buckets. Above that, each
 * power of two [2^m, 2^(m+1)) is split into RUNNER_HIST_VAL equal buckets, so
 * the bucket width is 2^(m - RUNNER_HIST_BITS) and the midpoint is within
 * 1/2^(RUNNER_HIST_BITS + 1) (0.39% for 7 bits) of every value in it.
 */
#include <string.h>

#include "runner.h"

void runner_hist_init(struct runner_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

static unsigned bucket_index(uint64_t v)
{
	unsigned msb, shift, idx;

	if (v < 2 * RUNNER_HIST_VAL)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - RUNNER_HIST_BITS;
	idx = (shift + 1) * RUNNER_HIST_VAL +
	      (unsigned)((v >> shift) & (RUNNER_HIST_VAL - 1));
	return idx < RUNNER_HIST_NR ? idx : RUNNER_HIST_NR - 1;
}

/* The midpoint of bucket idx: the value reported for everything in it. */
static uint64_t bucket_value(unsigned idx)
{
	unsigned shift;
	uint64_t base;

	if (idx < 2 * RUNNER_HIST_VAL)
		return idx;
	shift = idx / RUNNER_HIST_VAL - 1;
	base = (uint64_t)(RUNNER_HIST_VAL + idx % RUNNER_HIST_VAL) << shift;
	return base + ((1ull << shift) >> 1);
}

void runner_hist_add(struct runner_hist *h, uint64_t v)
{
	h->buckets[bucket_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void runner_hist_merge(struct runner_hist *into, const struct runner_hist *from)
{
	unsigned i;

	for (i = 0; i < RUNNER_HIST_NR; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

uint64_t runner_hist_percentile(const struct runner_hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (!h->count)
		return 0;
	if (p <= 0.0)
		return h->min;
	if (p >= 100.0)
		return h->max;
	/* nearest rank: the smallest value with at least p% at or below it */
	rank = (uint64_t)((p / 100.0) * (double)h->count);
	if ((double)rank < (p / 100.0) * (double)h->count)
		rank++;
	if (rank == 0)
		rank = 1;
	for (i = 0; i < RUNNER_HIST_NR; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	v = bucket_value(i < RUNNER_HIST_NR ? i : RUNNER_HIST_NR - 1);
	/* a midpoint can lie outside what was seen; never report that */
	if (v > h->max)
		v = h->max;
	if (v < h->min)
		v = h->min;
	return v;
}
