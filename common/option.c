/*
 * option.c - the one applier of an option row (fio's parse.c: one
 * handler per type for every table). A value, as text, set into the
 * field its row names: the profile's own keys and each backend's section
 * (the profile loader, strings its own), the runner's options from its
 * argv or a profile's workload (strings borrowed), a command's line
 * (cli_parse, into each row's value). One type, one reading, one message
 * for what is wrong with it; each caller says whose value it was.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "option.h"

/* where a row's value goes: its struct's field, or a command's value */
static void *field(void *opts, const struct pb_option *d)
{
	return opts ? (char *)opts + d->off : d->value;
}

/* A whole number in [min, max], decimal, as its magnitude and sign;
 * unsigned types refuse a sign. */
static enum pb_error whole(unsigned long long *u, bool *neg, const char *text,
			   const struct pb_option *d, bool sign, char *why)
{
	const char *digits = text + (*text == '-');
	char *end;

	*neg = *text == '-';
	errno = 0;
	*u = 0;
	if (*digits >= '0' && *digits <= '9' && (sign || !*neg))
		*u = strtoull(digits, &end, 10);
	if (!(*digits >= '0' && *digits <= '9') || (*neg && !sign) || errno ||
	    *end)
		return pb_fail(why, PB_ERR_USAGE,
			       "'%s' is not a whole number%s", text,
			       sign ? "" : ", 0 or more");
	if (*neg ? *u > (unsigned long long)-(d->min < 0 ? d->min : 0)
		 : *u > d->max ||
			    (d->min > 0 && *u < (unsigned long long)d->min))
		return pb_fail(why, PB_ERR_USAGE,
			       "%s is out of range (%lld to %llu)", text,
			       d->min, (unsigned long long)d->max);
	return PB_OK;
}

/* A size ("8G", "4096"); a row with a range (a runner's) in it, and a
 * multiple of mult. */
static enum pb_error size(uint64_t *out, const char *text,
			  const struct pb_option *d, char *why)
{
	char lo[32], hi[32];

	if (pb_size_parse(out, text, why))
		return PB_ERR_USAGE;
	if (!*out && d->min > 0)
		return pb_fail(why, PB_ERR_USAGE, "must be more than 0");
	if (!d->max)
		return PB_OK; /* any size, 0 too: the caller's to judge */
	if (*out < (uint64_t)d->min || *out > d->max ||
	    (d->mult && *out % d->mult))
		return pb_fail(why, PB_ERR_USAGE,
			       "'%s' must be %s%llu from %s to %s", text,
			       d->mult ? "a multiple of " : "",
			       (unsigned long long)(d->mult ? d->mult : 1),
			       pb_size_format(lo, sizeof(lo), (uint64_t)d->min),
			       pb_size_format(hi, sizeof(hi), d->max));
	return PB_OK;
}

/* A percent in [min, max]: a decimal number, a fraction allowed. */
static enum pb_error percent(double *out, const char *text,
			     const struct pb_option *d, char *why)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(*out))
		return pb_fail(why, PB_ERR_USAGE, "'%s' is not a number", text);
	if (*out < (double)d->min || *out > (double)d->max)
		return pb_fail(why, PB_ERR_USAGE,
			       "%s is out of range (%lld to %llu)", text,
			       d->min, (unsigned long long)d->max);
	return PB_OK;
}

/* One of the row's choices: its index, or -1 with why said. */
static int one_of(const struct pb_option *d, const char *text, char *why)
{
	char hint[256];
	int k;

	for (k = 0; d->choices[k]; k++)
		if (!strcmp(d->choices[k], text))
			return k;
	pb_fail(why, PB_ERR_USAGE, "unknown value '%.64s' (%s)", text,
		pb_choices_hint(hint, sizeof(hint), text, strlen(text),
				d->choices));
	return -1;
}

enum pb_error pb_option_set(void *opts, const struct pb_option *d,
			    const char *text, unsigned how, char *why)
{
	void *f = field(opts, d);
	unsigned long long u;
	uint64_t sz;
	bool neg;
	int k;

	if (d->type == PB_OPT_BOOL) {
		/* a command line's flag is there (text NULL); a key says
		 * true or false, of itself, which may mean the opposite */
		bool on = !text || !strcmp(text, "true");

		if (text && !on && strcmp(text, "false"))
			return pb_fail(why, PB_ERR_USAGE,
				       "must be true or false");
		if (text && (how & PB_OPT_SET_KEY) &&
		    (d->flags & PB_OPT_F_INVERT))
			on = !on;
		*(bool *)f = on;
		return PB_OK;
	}
	if (!text)
		return pb_fail(why, PB_ERR_USAGE, "needs a value");
	switch (d->type) {
	case PB_OPT_CHOICE:
	case PB_OPT_STR:
		if (d->type == PB_OPT_CHOICE && one_of(d, text, why) < 0)
			return PB_ERR_USAGE;
		if (d->min > 0 && !*text)
			return pb_fail(why, PB_ERR_USAGE, "must not be empty");
		if (!(how & PB_OPT_SET_OWN)) {
			*(const char **)f = text;
			return PB_OK;
		}
		free(*(char **)f);
		*(char **)f = strdup(text);
		return *(char **)f ? PB_OK : PB_ERR_NOMEM;
	case PB_OPT_ENUM:
		if ((k = one_of(d, text, why)) < 0)
			return PB_ERR_USAGE;
		*(unsigned *)f = (unsigned)k;
		return PB_OK;
	case PB_OPT_UINT:
	case PB_OPT_INT:
	case PB_OPT_U64:
		if (whole(&u, &neg, text, d, d->type == PB_OPT_INT, why))
			return PB_ERR_USAGE;
		if (d->type == PB_OPT_UINT)
			*(unsigned *)f = (unsigned)u;
		else if (d->type == PB_OPT_INT)
			*(int *)f = neg ? -(int)u : (int)u;
		else
			*(uint64_t *)f = u;
		return PB_OK;
	case PB_OPT_SIZE:
	case PB_OPT_SIZE32:
		if (size(&sz, text, d, why))
			return PB_ERR_USAGE;
		if (d->type == PB_OPT_SIZE)
			*(uint64_t *)f = sz;
		else
			*(uint32_t *)f = (uint32_t)sz;
		return PB_OK;
	case PB_OPT_PCT:
		return percent((double *)f, text, d, why);
	case PB_OPT_ARG:
		*(const char **)f = text;
		return PB_OK;
	default:
		/* a list, an object, an argument list: read by their
		 * table's own code */
		return pb_fail(why, PB_ERR_INTERNAL,
			       "%s: a row of type %d: its table's own code "
			       "reads it",
			       d->name, (int)d->type);
	}
}
