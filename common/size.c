/*
 * size.c - parse and format byte sizes ("8G", "512MiB", "4KB").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common.h"

struct unit {
	const char *suffix;
	uint64_t mult;
};

/* Longest suffixes first so "KiB" is not taken as "K" + junk. */
static const struct unit units[] = {
	{"kib", 1ull << 10},
	{"mib", 1ull << 20},
	{"gib", 1ull << 30},
	{"tib", 1ull << 40},
	{"pib", 1ull << 50},
	{"kb", 1000ull},
	{"mb", 1000000ull},
	{"gb", 1000000000ull},
	{"tb", 1000000000000ull},
	{"pb", 1000000000000000ull},
	{"k", 1ull << 10},
	{"m", 1ull << 20},
	{"g", 1ull << 30},
	{"t", 1ull << 40},
	{"p", 1ull << 50},
	{"b", 1},
	{"", 1},
};

enum pb_error pb_size_parse(uint64_t *out, const char *s, char *errbuf)
{
	const char *p = s;
	uint64_t v = 0;
	size_t i;

	if (!s || !*s)
		return pb_fail(errbuf, PB_ERR_INPUT, "empty size");
	if (*p == '-')
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "'%s': size cannot be negative", s);
	if (!isdigit((unsigned char)*p))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "'%s': size must start with a digit", s);
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "'%s': size too large", s);
		v = v * 10 + d;
	}
	while (*p == ' ')
		p++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(p, units[i].suffix))
			continue;
		if (units[i].mult > 1 && v > UINT64_MAX / units[i].mult)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "'%s': size too large", s);
		*out = v * units[i].mult;
		return PB_OK;
	}
	return pb_fail(errbuf, PB_ERR_INPUT,
		       "'%s': unknown unit (use K, M, G, T, KiB, MiB, GiB, "
		       "TiB, or KB, MB, GB, TB)",
		       s);
}

char *pb_size_format(char *buf, size_t len, uint64_t bytes)
{
	static const char *const names[] = {"B",   "KiB", "MiB",
					    "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	unsigned i = 0;

	while (v >= 1024.0 && i < 5) {
		v /= 1024.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, names[i]);
	else
		snprintf(buf, len, "%.1f %s", v, names[i]);
	return buf;
}
