/*
 * size.c - parse and format byte sizes ("8G", "512MiB", "4KB", "1.5G").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common.h"

struct unit {
	const char *suffix;
	uint64_t mult;
	uint64_t disk_mult; /* what vSphere and govc take it for */
};

/* Longest suffixes first so "KiB" is not taken as "K" + junk. */
static const struct unit units[] = {
	{"kib", 1ull << 10, 1ull << 10},
	{"mib", 1ull << 20, 1ull << 20},
	{"gib", 1ull << 30, 1ull << 30},
	{"tib", 1ull << 40, 1ull << 40},
	{"pib", 1ull << 50, 1ull << 50},
	{"kb", 1000ull, 1ull << 10},
	{"mb", 1000000ull, 1ull << 20},
	{"gb", 1000000000ull, 1ull << 30},
	{"tb", 1000000000000ull, 1ull << 40},
	{"pb", 1000000000000000ull, 1ull << 50},
	{"k", 1ull << 10, 1ull << 10},
	{"m", 1ull << 20, 1ull << 20},
	{"g", 1ull << 30, 1ull << 30},
	{"t", 1ull << 40, 1ull << 40},
	{"p", 1ull << 50, 1ull << 50},
	{"b", 1, 1},
	{"", 1, 1},
};

/* (whole + frac / div) * mult, exactly: false unless whole bytes that fit */
static bool scaled(uint64_t *out, uint64_t whole, uint64_t frac, uint64_t div,
		   uint64_t mult)
{
	unsigned __int128 t = ((unsigned __int128)whole * div + frac) *
			      (unsigned __int128)mult;

	if (t % div)
		return false;
	t /= div;
	if (t > UINT64_MAX)
		return false;
	*out = (uint64_t)t;
	return true;
}

enum pb_error pb_size_parse_as(uint64_t *out, const char *s,
			       enum pb_size_dialect dialect,
			       bool *si_read_binary, char *errbuf)
{
	const char *p = s;
	uint64_t v = 0, frac = 0, div = 1, mult;
	unsigned digits = 0;
	size_t i;

	if (si_read_binary)
		*si_read_binary = false;
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
	/* "1.5G": up to 9 decimals, and whole bytes in the end */
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, digits++) {
			if (digits == 9)
				return pb_fail(errbuf, PB_ERR_INPUT,
					       "'%s': too many decimals", s);
			frac = frac * 10 + (uint64_t)(*p - '0');
			div *= 10;
		}
		if (!digits)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "'%s': a digit must follow the point",
				       s);
	}
	while (*p == ' ')
		p++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(p, units[i].suffix))
			continue;
		mult = units[i].mult;
		/* vSphere and govc read 8GB as 8 GiB: for disks, so do we */
		if (dialect == PB_SIZE_DISK && units[i].disk_mult != mult) {
			mult = units[i].disk_mult;
			if (si_read_binary)
				*si_read_binary = true;
		}
		if (digits && mult == 1)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "'%s': bytes come whole", s);
		if (!scaled(out, v, frac, div, mult))
			return pb_fail(errbuf, PB_ERR_INPUT,
				       digits && mult > 1
					       ? "'%s': not whole bytes, or "
						 "too large"
					       : "'%s': size too large",
				       s);
		return PB_OK;
	}
	return pb_fail(errbuf, PB_ERR_INPUT,
		       "'%s': unknown unit (use K, M, G, T, KiB, MiB, GiB, "
		       "TiB, or KB, MB, GB, TB)",
		       s);
}

enum pb_error pb_size_parse(uint64_t *out, const char *s, char *errbuf)
{
	return pb_size_parse_as(out, s, PB_SIZE_PLAIN, NULL, errbuf);
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
