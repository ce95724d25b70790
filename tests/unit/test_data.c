/*
 * test_data.c - stamps and the read-back check: what verify relies on.
 */
#include <stdlib.h>
#include <string.h>

#include "runner_int.h"
#include "unit.h"

#define BS (64u * 1024)

static uint8_t pool[BS], buf[BS];

static const char *check_at(uint32_t chunk, uint64_t base, uint64_t seed,
			    uint32_t gen, uint32_t *found)
{
	return runner_chunk_check(buf + chunk * RUNNER_CHUNK, RUNNER_CHUNK,
				  pool + chunk * RUNNER_CHUNK,
				  base + chunk * RUNNER_CHUNK, seed, gen,
				  found);
}

static void stamp_roundtrip(void)
{
	uint32_t found, c;

	runner_pool_fill(pool, BS, 7);
	memcpy(buf, pool, BS);
	runner_stamp_buf(buf, BS, 1 << 20, 7, 3);
	for (c = 0; c < BS / RUNNER_CHUNK; c++) {
		CU_ASSERT_PTR_NULL(check_at(c, 1 << 20, 7, 3, &found));
		CU_ASSERT_EQUAL(found, 3);
	}
	/* 0 = accept any generation (read-only verify) */
	CU_ASSERT_PTR_NULL(check_at(0, 1 << 20, 7, 0, &found));
}

static void detects_each_fault(void)
{
	uint32_t found;

	runner_pool_fill(pool, BS, 7);
	memcpy(buf, pool, BS);
	runner_stamp_buf(buf, BS, 0, 7, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(check_at(1, 0, 7, 3, &found), "stale"));
	CU_ASSERT_EQUAL(found, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(check_at(1, 0, 8, 2, &found), "seed"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(check_at(1, 4096 * 5, 7, 2, &found), "misdirected"));
	buf[RUNNER_CHUNK + 100] ^= 1;
	CU_ASSERT_PTR_NOT_NULL(
		strstr(check_at(1, 0, 7, 2, &found), "corrupted"));
	memset(buf + 2 * RUNNER_CHUNK, 0, RUNNER_CHUNK);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(check_at(2, 0, 7, 2, &found), "no stamp"));
}

static void data_is_not_compressible(void)
{
	unsigned hist[256] = {0}, i, max = 0;

	/* a deduplicating or compressing array must not shrink it: every
	 * byte value roughly equally likely, no two chunks alike */
	runner_pool_fill(pool, BS, 1);
	for (i = 0; i < BS; i++)
		hist[pool[i]]++;
	for (i = 0; i < 256; i++)
		if (hist[i] > max)
			max = hist[i];
	CU_ASSERT(max < 2 * BS / 256);
	for (i = 1; i < BS / RUNNER_CHUNK; i++)
		CU_ASSERT(memcmp(pool, pool + i * RUNNER_CHUNK, RUNNER_CHUNK));
	/* the same seed gives the same data: verify depends on it */
	memcpy(buf, pool, BS);
	runner_pool_fill(pool, BS, 1);
	CU_ASSERT_EQUAL(memcmp(buf, pool, BS), 0);
}

static void small_blocks_stamp_each(void)
{
	uint8_t b[1024];
	uint32_t found;

	runner_pool_fill(b, sizeof(b), 3);
	runner_stamp_buf(b, 1024, 8192, 3, 1);
	/* a block smaller than a chunk is one chunk */
	CU_ASSERT_EQUAL(memcmp(b, RUNNER_STAMP_MAGIC, 8), 0);
	runner_pool_fill(pool, 1024, 3);
	CU_ASSERT_PTR_NULL(
		runner_chunk_check(b, 1024, pool, 8192, 3, 1, &found));
}

static const struct pb_case cases[] = {
	PB_CASE(stamp_roundtrip),
	PB_CASE(detects_each_fault),
	PB_CASE(data_is_not_compressible),
	PB_CASE(small_blocks_stamp_each),
	PB_CASES_END,
};

const struct pb_suite suite_data = {"data", NULL, NULL, cases};
