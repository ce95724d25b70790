/*
 * phrase.h - the penalty in words, once (words.c): the sentence every
 * surface says a penalty with, and the one every caption and help
 * defines it with. The saying floor's face to the harness (its progress
 * line) and to the renderers.
 */
#ifndef PB_RP_PHRASE_H
#define PB_RP_PHRASE_H

#include <stdbool.h>
#include <stddef.h>

#include "penalty.h"

struct rp_group;

/* The penalty v in words: "first write takes 47% longer than rewrite"
 * (later: the later writes' name) */
void rp_penalty_say(char *out, size_t len, double v, const char *later);
/* The penalty's definition, one sentence, for captions and help
 * (paired: the run's first writes went in stripe pairs). */
void rp_penalty_define(char *out, size_t len, const char *later,
		       const char *baseline, bool paired);

/* Why a precision-form run's mode stopped, in words: "above 5% after 3
 * repetitions", "within +-5 points after 6 repetitions", "still open at
 * the most, 10 repetitions" (s: the run's design, for the question). */
void rp_stop_say(char *out, size_t len, enum rj_stop rule, unsigned after,
		 const struct rp_seq *s);

/* A precision-form run's design in words: "3 to 8 repetitions, each
 * mode until its penalty is wholly above or under 5%"; "" for a fixed
 * count. */
void rp_seq_say(char *out, size_t len, const struct rp_seq *s);
/* The penalty's interval named: "95% interval: Student's t", or a
 * precision-form run's, which holds over every look at once. */
void rp_penalty_iv_say(char *out, size_t len, const struct rp_seq *s);

/* A whole percent, never "-0%"; "-" for none. */
void rp_pct_text(char *out, size_t len, double v);
/* "[12-30%]", "[-4 to 9%]"; "-" for none. */
void rp_pct_interval(char *out, size_t len, double lo, double hi);
/* A group as sentences and tables name it: "eager", "thin (bs=64K)",
 * "eager (applied as thin)"; its place only with where. */
void rp_group_label(char *out, size_t len, const struct rp_group *g,
		    bool where);

#endif
