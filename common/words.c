/*
 * words.c - the words a user may choose from: "a, b or c", and the one a
 * mistyped word most likely meant (edit distance, a swap of neighbours
 * counting one, as git's "did you mean" does), for messages that name
 * the bad value and the choices.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

/* Optimal string alignment distance of a[0..la) and b[0..lb), capped. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[3][64], i, j;

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *row = d[i % 3], *up = d[(i - 1) % 3],
		       *up2 = d[(i + 1) % 3];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = up[j] + 1;

			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			if (up[j - 1] + cost < v)
				v = up[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && up2[j - 2] + 1 < v)
				v = up2[j - 2] + 1;
			row[j] = v;
		}
	}
	return d[la % 3][lb];
}

const char *pb_closest(const char *word, size_t len, const char *const *choices)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, i, d;
	/* a likely typo: one letter in four wrong at most (one in a short
	 * word), so "thick" suggests nothing rather than "thin" */
	size_t limit = len < 8 ? 1 : len / 4;

	for (i = 0; choices[i]; i++) {
		d = distance(word, len, choices[i], strlen(choices[i]));
		if (d < best_d) {
			best_d = d;
			best = choices[i];
		}
	}
	return best_d && best_d <= limit ? best : NULL;
}

char *pb_choices_join(char *buf, size_t len, const char *const *choices)
{
	size_t n = 0, k;

	buf[0] = '\0';
	for (k = 0; choices[k]; k++)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      k ? (choices[k + 1] ? ", " : " or ") : "",
				      choices[k]);
	return buf;
}

char *pb_choices_hint(char *buf, size_t len, const char *word, size_t wlen,
		      const char *const *choices)
{
	const char *near = pb_closest(word, wlen, choices);
	char all[256];
	size_t n = 0, k;

	all[0] = '\0';
	for (k = 0; choices[k]; k++)
		n += (size_t)snprintf(all + n,
				      n < sizeof(all) ? sizeof(all) - n : 0,
				      "%s%s", k ? ", " : "", choices[k]);
	if (near)
		snprintf(buf, len, "did you mean %s? one of %s", near, all);
	else
		snprintf(buf, len, "one of %s", all);
	return buf;
}

void pb_cat(char *out, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(out, len);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
}
