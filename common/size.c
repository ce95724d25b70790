/*
 * size.c - parse and format byte sizes ("8G", "512MiB", "4KB", "1.5G").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common.h"

/*
 * One rule for every size provbench reads, the profile's and the runner's
 * options alike: K, KB and KiB are all 1024 (and so on up), as vSphere and
 * govc read a disk's size and as fio reads its sizes (kb_base=1024, its
 * default, where "kb" is "k"). A disk made of "10GB" is 10 GiB in vSphere;
 * the file on it must be measured in the same unit, or "an 8GB file on a
 * 10GB disk" would mean two different things.
 */
struct unit {
	const char *suffix;
	uint64_t mult;
	bool si_looking; /* KB, MB...: read as binary, said in a note */
};

/* Longest suffixes first so "KiB" is not taken as "K" + junk. */
static const struct unit units[] = {
	{"kib", 1ull << 10, false},
	{"mib", 1ull << 20, false},
	{"gib", 1ull << 30, false},
	{"tib", 1ull << 40, false},
	{"pib", 1ull << 50, false},
	{"kb", 1ull << 10, true},
	{"mb", 1ull << 20, true},
	{"gb", 1ull << 30, true},
	{"tb", 1ull << 40, true},
	{"pb", 1ull << 50, true},
	{"k", 1ull << 10, false},
	{"m", 1ull << 20, false},
	{"g", 1ull << 30, false},
	{"t", 1ull << 40, false},
	{"p", 1ull << 50, false},
	{"b", 1, false},
	{"", 1, false},
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

enum pb_error pb_size_parse_noted(uint64_t *out, const char *s,
				  bool *si_read_binary, char *errbuf)
{
	const char *p = s;
	uint64_t v = 0, frac = 0, div = 1, mult;
	unsigned digits = 0;
	size_t i, ulen;

	if (si_read_binary)
		*si_read_binary = false;
	/* spaces around it are no part of it: " 64MB " is "64MB" */
	while (s && *p == ' ')
		p++;
	if (!s || !*p)
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
	ulen = strlen(p);
	while (ulen && p[ulen - 1] == ' ')
		ulen--;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strlen(units[i].suffix) != ulen ||
		    strncasecmp(p, units[i].suffix, ulen))
			continue;
		mult = units[i].mult;
		if (si_read_binary)
			*si_read_binary = units[i].si_looking;
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
	return pb_size_parse_noted(out, s, NULL, errbuf);
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
