/*
 * phrase.c - the saying floor's smallest words, under every sentence: a
 * percentage and its interval, a group's label, "too few" repetitions,
 * and the penalty said and defined once (phrase.h): the harness's
 * progress line and every page say it in these words.
 */
#include <math.h>
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
		pb_cat(out, len, " (not read back; %s)", g->where);
	else if (g->unread)
		pb_cat(out, len, " (not read back)");
	else if (g->mismatch && w)
		pb_cat(out, len, " (applied as %s; %s)", g->applied, g->where);
	else if (g->mismatch)
		pb_cat(out, len, " (applied as %s)", g->applied);
	else if (w)
		pb_cat(out, len, " (%s)", g->where);
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

void rp_stop_say(char *out, size_t len, enum rj_stop rule, unsigned after,
		 const struct rp_seq *s)
{
	const char *reps = after == 1 ? "repetition" : "repetitions";
	double t = s->threshold * 100, p = s->precision * 100;

	switch (rule) {
	case RJ_STOP_ABOVE:
		snprintf(out, len, "above %g%% after %u %s", t, after, reps);
		break;
	case RJ_STOP_WITHIN:
		snprintf(out, len, "under %g%% after %u %s", t, after, reps);
		break;
	case RJ_STOP_PRECISE:
		snprintf(out, len, "within \u00b1%g points after %u %s", p,
			 after, reps);
		break;
	case RJ_STOP_MAX:
		snprintf(out, len, "still open at the most, %u %s", after,
			 reps);
		break;
	case RJ_STOP_FUTILE:
		snprintf(out, len,
			 "not to be told by the most, %u, on its spread so "
			 "far: after %u %s",
			 s->max, after, reps);
		break;
	case RJ_STOP_BASELINE:
		snprintf(out, len, "the baseline, on while a mode was: %u %s",
			 after, reps);
		break;
	case RJ_STOP_NONE:
		snprintf(out, len,
			 "nothing to look at: every repetition "
			 "skipped");
		break;
	default:
		snprintf(out, len, "open when the run stopped");
		break;
	}
}

void rp_seq_say(char *out, size_t len, const struct rp_seq *s)
{
	out[0] = '\0';
	if (!s->on)
		return;
	snprintf(out, len,
		 "%u to %u repetitions, each mode until its penalty "
		 "is ",
		 s->min, s->max);
	if (!isnan(s->threshold))
		pb_cat(out, len, "wholly above or under %g%%%s",
		       s->threshold * 100, s->precision > 0 ? " or " : "");
	if (s->precision > 0)
		pb_cat(out, len, "within \u00b1%g points", s->precision * 100);
}

void rp_penalty_iv_say(char *out, size_t len, const struct rp_seq *s)
{
	if (!s->on)
		snprintf(out, len, "95%% interval: Student's t");
	else
		snprintf(out, len,
			 "95%% interval over every look at once: Student's t "
			 "at %.2g%% a look, so it holds wherever the mode "
			 "stopped",
			 s->look_alpha * 100);
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
