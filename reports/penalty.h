/*
 * penalty.h - the first-write penalty, defined once (penalty.c): a
 * repetition's first write against its later writes of the same bytes,
 * and the estimate over repetitions less the baseline's own. The analysis
 * floor of reports/; its words are phrase.h's.
 */
#ifndef PB_RP_PENALTY_H
#define PB_RP_PENALTY_H

#include <stdbool.h>
#include <stddef.h>

#include "runjson.h"

/*
 * One repetition's first write and what it is set against. paired: the
 * first write went in stripe pairs, and its whole pass (first_s,
 * first_bytes) is set against its rewritten stripes (written_s,
 * written_bytes); else its rate against its later passes' median.
 */
struct rp_first_sides {
	bool paired;
	double first_s, first_bytes;
	double written_s, written_bytes;
	double first_mib_s, later_mib_s;
};

/* The repetition's time ratio, first write over later writes of the same
 * bytes (1.47: 47% longer); NaN when a side is missing. */
double rp_first_time_ratio(const struct rp_first_sides *s);
/* The penalty over repetitions from their log time ratios, less the
 * baseline's (base_lr NULL: none), with its (1 - alpha) interval (NaN
 * under 3): 0.05, or a sequential run's look level. */
void rp_penalty_estimate(double *v, double *lo, double *hi, const double *lr,
			 size_t n, const double *base_lr, size_t nbase,
			 double alpha);

/*
 * The precision form (issue 54): a run whose modes each stop getting
 * disks once their question is answered, looked at after each round of
 * repetitions from min to max. Its intervals are taken at look_alpha,
 * the level at which every look's interval holds the truth at once with
 * 95% (rp_seq_look_alpha), so the one the run stopped on does, however
 * the stop depended on the data.
 */
struct rp_seq {
	bool on; /* false: a fixed count, intervals at 95% */
	unsigned min, max;
	double precision;  /* the half-width asked, a fraction; 0: none */
	double threshold;  /* the cost asked about, a fraction; NaN: none */
	double look_alpha; /* each look's level */
};

/* Under this chance of the most repetitions telling a threshold question
 * on the spread so far, a mode stops as RJ_STOP_FUTILE (rp_seq_decide) */
#define RP_SEQ_FUTILE_POWER 0.10

/*
 * Whether a penalty's interval [lo, hi] at look n answers the question:
 * wholly above or under the threshold (the threshold's answer first:
 * it is what was asked), else narrow enough, else RJ_STOP_MAX at the
 * most repetitions; from half the most on, RJ_STOP_FUTILE where the
 * most could not tell the threshold's question on the spread so far;
 * RJ_STOP_OPEN before min, or while none holds.
 */
enum rj_stop rp_seq_decide(const struct rp_seq *s, size_t n, double lo,
			   double hi);

struct rp_model;
struct rp_group;
/*
 * A precision-form run read back after round n (m), at group g: the rule
 * that stops it now, or RJ_STOP_OPEN. The baseline goes on while a mode
 * of its place set against it does (then RJ_STOP_BASELINE); a group
 * whose every repetition was skipped has nothing to look at
 * (RJ_STOP_NONE). A fixed count's groups are always open.
 */
enum rj_stop rp_group_look(const struct rp_model *m, const struct rp_group *g,
			   size_t n);

#endif
