/*
 * words_int.h - the saying floor's own calls between its files (words.c:
 * each finding's sentence and the table of who says it; answer.c: the
 * answer's lines and the run's one line; sayings.c: what each layer
 * counted, places against places, the fleet).
 */
#ifndef PB_RP_WORDS_INT_H
#define PB_RP_WORDS_INT_H

#include "findings.h"
#include "model.h"

/* What every finding's sentence is made from: the finding, the model,
 * and its groups' labels, made once. */
struct said {
	char *out;
	size_t len;
	const struct rp_model *m;
	const struct rp_finding *f;
	const char *l, *o; /* its group's label, and the other group's */
	const char *names; /* the set's names, where a finding has one */
};

/* "2 repetitions" into buf, for "too few to tell" */
const char *rp_reps_few(char *buf, size_t len, size_t n);
/* "; read 1.27x [1.19-1.34], beyond noise": one share of a pass kind */
void rp_share_said(char *out, size_t len, const char *what, double v, double lo,
		   double hi);
/* "thin and lazy": a finding's set of groups, named (answer.c). */
void rp_set_names(char *out, size_t len, const struct rp_finding *f);
/* A headline finding (the answer's lines: answer.c). */
void rp_say_headline(char *out, size_t len, const struct rp_model *m,
		     const struct rp_finding *f);

/* What a first write did in its file (RP_F_EXTENTS): "had the
 * filesystem allocate 1.0 GiB (holes filled)" (sayings.c). */
void rp_extents_phrase(char *out, size_t len, const struct rp_finding *f);
/* A place against another, the question of the run (sayings.c). */
void rp_say_compare_line(char *out, size_t len, const struct rp_finding *f);
/* sayings.c's findings, one each */
void rp_say_vs_baseline(const struct said *s);
void rp_say_vs_host(const struct said *s);
void rp_say_arm(const struct said *s);
void rp_say_device(const struct said *s);
void rp_say_tail(const struct said *s);
void rp_say_tail_unheld(const struct said *s);
void rp_say_headroom(const struct said *s);
void rp_say_extents(const struct said *s);
void rp_say_server(const struct said *s);
void rp_say_server_short(const struct said *s);
void rp_say_after_reclaim(const struct said *s);
void rp_say_reclaimed(const struct said *s);
void rp_say_rewarm(const struct said *s);
void rp_say_unpooled(const struct said *s);
void rp_say_failed_items(const struct said *s);
void rp_say_fleet_place(const struct said *s);
void rp_say_retried(const struct said *s);

#endif
