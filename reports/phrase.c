/*
 * phrase.c - the saying floor's smallest words, under every sentence: a
 * percentage and its interval, a group's label, "too few" repetitions,
 * and the penalty said and defined once (phrase.h): the harness's
 * progress line and every page say it in these words.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "phrase.h"
#include "words_int.h"

/* "one repetition" or "2 repetitions": too few to tell noise with */
const char *rp_reps_few(char *buf, size_t len, size_t n)
{
	if (n <= 1)
		snprintf(buf, len, "one repetition");
	else
		snprintf(buf, len, "%zu repetitions", n);
	return buf;
}

/* out += printf, never past len */
void rp_cat(char *out, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(out, len);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
}

/* a whole percent, never "-0%" */
void rp_pct_text(char *out, size_t len, double v)
{
	if (isnan(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.0f%%", round(v * 100) + 0.0);
}

void rp_pct_interval(char *out, size_t len, double lo, double hi)
{
	double a = round(lo * 100) + 0.0, b = round(hi * 100) + 0.0;

	if (isnan(lo) || isnan(hi))
		snprintf(out, len, "-");
	else if (a < 0)
		snprintf(out, len, "[%.0f to %.0f%%]", a, b);
	else
		snprintf(out, len, "[%.0f-%.0f%%]", a, b);
}

void rp_group_label(char *out, size_t len, const struct rp_group *g, bool where)
{
	bool w = where && *g->where;

	snprintf(out, len, "%s", g->mode);
	if (g->unread && w)
		rp_cat(out, len, " (not read back; %s)", g->where);
	else if (g->unread)
		rp_cat(out, len, " (not read back)");
	else if (g->mismatch && w)
		rp_cat(out, len, " (applied as %s; %s)", g->applied, g->where);
	else if (g->mismatch)
		rp_cat(out, len, " (applied as %s)", g->applied);
	else if (w)
		rp_cat(out, len, " (%s)", g->where);
}

/* "first write takes 47% longer than rewrite", "... 5% less time ...",
 * "... no longer ..." when it rounds to 0 */
void rp_penalty_say(char *out, size_t len, double v, const char *later)
{
	double pct = round(fabs(v) * 100) + 0.0;

	if (isnan(v))
		snprintf(out, len, "first write against %s: too few to tell",
			 later);
	else if (pct == 0)
		snprintf(out, len, "first write takes no longer than %s",
			 later);
	else
		snprintf(out, len, "first write takes %.0f%% %s than %s", pct,
			 v > 0 ? "longer" : "less time", later);
}

/* What the penalty is, in one sentence: every table's caption and every
 * format's help says it in these words. paired: the run's first writes
 * went in stripe pairs. */
void rp_penalty_define(char *out, size_t len, const char *later,
		       const char *baseline, bool paired)
{
	snprintf(out, len,
		 "penalty: the extra time a first write takes over a %s of "
		 "the same bytes (%s), less what %s's own first write shows",
		 later,
		 paired ? "its whole pass, against the stripes rewritten "
			  "right after each"
			: "its pass, against the later passes' median rate",
		 baseline && *baseline ? baseline : "the baseline");
}
