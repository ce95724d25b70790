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

struct rp_group;

/* The penalty v in words: "first write takes 47% longer than rewrite"
 * (later: the later writes' name) */
void rp_penalty_say(char *out, size_t len, double v, const char *later);
/* The penalty's definition, one sentence, for captions and help
 * (paired: the run's first writes went in stripe pairs). */
void rp_penalty_define(char *out, size_t len, const char *later,
		       const char *baseline, bool paired);

/* A whole percent, never "-0%"; "-" for none. */
void rp_pct_text(char *out, size_t len, double v);
/* "[12-30%]", "[-4 to 9%]"; "-" for none. */
void rp_pct_interval(char *out, size_t len, double lo, double hi);
/* A group as sentences and tables name it: "eager", "thin (bs=64K)",
 * "eager (applied as thin)"; its place only with where. */
void rp_group_label(char *out, size_t len, const struct rp_group *g,
		    bool where);

#endif
