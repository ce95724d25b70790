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
 * baseline's (base_lr NULL: none), with its 95% interval (NaN under 3). */
void rp_penalty_estimate(double *v, double *lo, double *hi, const double *lr,
			 size_t n, const double *base_lr, size_t nbase);

#endif
