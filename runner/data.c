/*
 * data.c - what the runner writes: incompressible data with a stamp per
 * 4 KiB chunk, and the check that reads it back.
 *
 * Zero-filled writes are skipped or deduplicated by thin storage, VAAI and
 * compressing arrays, which would hide the very zeroing cost measured, so
 * every chunk carries pseudo-random bytes from the pool plus a stamp naming
 * its offset, the run's seed and the write pass: no two chunks are alike,
 * none compresses, and a lost or misdirected write is recognisable.
 */
#include <string.h>

#include "runner_int.h"

static uint64_t xorshift64s(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

void runner_pool_fill(uint8_t *pool, size_t len, uint64_t seed)
{
	uint64_t s = seed ^ 0x9e3779b97f4a7c15ull, v;
	size_t i;

	if (!s)
		s = 1;
	for (i = 0; i + 8 <= len; i += 8) {
		v = xorshift64s(&s);
		memcpy(pool + i, &v, 8);
	}
	for (; i < len; i++)
		pool[i] = (uint8_t)xorshift64s(&s);
}

static uint32_t chunk_size(uint32_t len)
{
	return len < RUNNER_CHUNK ? len : RUNNER_CHUNK;
}

void runner_stamp_buf(uint8_t *buf, uint32_t len, uint64_t offset,
		      uint64_t seed, uint32_t generation)
{
	uint32_t cs = chunk_size(len), pos;
	struct runner_stamp st;

	memcpy(st.magic, RUNNER_STAMP_MAGIC, sizeof(st.magic));
	st.seed = seed;
	st.generation = generation;
	st.reserved = 0;
	for (pos = 0; pos + cs <= len; pos += cs) {
		st.offset = offset + pos;
		memcpy(buf + pos, &st, sizeof(st));
	}
}

const char *runner_chunk_check(const uint8_t *chunk, uint32_t len,
			       const uint8_t *pool_chunk, uint64_t offset,
			       uint64_t seed, uint32_t expected_gen,
			       uint32_t *found_gen)
{
	struct runner_stamp st;

	memcpy(&st, chunk, sizeof(st));
	*found_gen = 0;
	if (memcmp(st.magic, RUNNER_STAMP_MAGIC, sizeof(st.magic)))
		return "no stamp (never written, or overwritten)";
	*found_gen = st.generation;
	if (st.seed != seed)
		return "stamp from another run (seed differs)";
	if (st.offset != offset)
		return "misdirected write (stamp names another offset)";
	if (expected_gen && st.generation != expected_gen)
		return "stale data (stamp from an earlier write pass)";
	if (memcmp(chunk + sizeof(st), pool_chunk + sizeof(st),
		   len - sizeof(st)))
		return "corrupted payload";
	return NULL;
}
