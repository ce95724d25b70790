/*
 * stats.h - the report's statistics (stats.c): medians and their
 * intervals, ratios, Student's and Welch's t, change points, the steady
 * state within a pass and across passes, the fleet's aggregate, the
 * break-even. The lowest floor of reports/: it knows no run.json, no
 * model and no format, and tests check it against hand-computed values.
 */
#ifndef PB_RP_STATS_H
#define PB_RP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

double rp_median(const double *v, size_t n);

/*
 * 95% interval of the median: percentile bootstrap over the values with
 * a fixed seed (2000 resamples), so a report is reproducible; above
 * RP_BOOTSTRAP_MAX_N values the order-statistic interval (same coverage,
 * one sort). With one value the interval is that value.
 */
#define RP_BOOTSTRAP_MAX_N 50
void rp_median_ci(double *lo, double *hi, const double *v, size_t n);

/* 95% interval of median(a) / median(b), a and b independent samples
 * (two modes' disks): each resampled on its own, fixed seed; both above
 * RP_BOOTSTRAP_MAX_N, the delta method on the medians' order-statistic
 * standard errors. */
void rp_ratio_ci(double *lo, double *hi, const double *a, size_t na,
		 const double *b, size_t nb);

/* Do two intervals overlap (a difference within noise)? NaN: no. */
bool rp_overlap(double lo1, double hi1, double lo2, double hi2);

/*
 * Where a first-write pass settles: the bytes written before its
 * throughput, smoothed over a rolling window of w intervals, stays within
 * 10% of target (that repetition's rewrite rate) for the rest of the pass,
 * in the spirit of fio's steady-state criterion. A pass of fewer than
 * RP_STEADY_MIN_INTERVALS intervals is too short to tell.
 */
#define RP_STEADY_MIN_INTERVALS 20
enum rp_steady {
	RP_STEADY_SETTLED,
	RP_STEADY_NEVER,     /* *before is the whole pass */
	RP_STEADY_TOO_SHORT, /* *before is unset */
};
enum rp_steady rp_steady_after(uint64_t *before, const uint64_t *bytes,
			       const double *mib_s, size_t n, double target,
			       size_t w);
/*
 * How finely a first write's settling can be told, from a reference of
 * the same repetition with nothing to warm up (its rewrite): the smallest
 * window, w0 doubled, up to a quarter of the reference, over which the
 * reference itself stays within the band from its first tenth on. 0: it
 * never does (too noisy to tell); w0 for a reference too short to judge.
 */
size_t rp_steady_window(const uint64_t *bytes, const double *mib_s, size_t n,
			double target, size_t w0);

/*
 * The amount of data after which eager's longer provisioning has paid for
 * itself against another mode: provisioning p_e, p_o seconds, first-write
 * rates f_e, f_o MiB/s. Eager's extra provisioning is repaid while new
 * blocks are written, faster: x = (p_e - p_o) / (1/f_o - 1/f_e). Returns
 * -1 when it never pays off (eager no faster), and a value past disk_size
 * means not within the disk (blocks are new only once).
 */
double rp_breakeven_bytes(double p_e, double f_e, double p_o, double f_o);

/*
 * Targets measured at once (a wave): one pass of each, on one clock
 * (seconds; any origin), with its series (interval ends from the pass's
 * start, the bytes of each interval) or none (then its bytes are taken as
 * written evenly).
 */
struct rp_agg_pass {
	double start_s, seconds, bytes;
	const double *t_s, *ibytes;
	size_t n;
};
enum rp_agg {
	RP_AGG_OK,
	RP_AGG_NO_OVERLAP, /* one ended before another began */
	/* the window holds fewer than RP_AGG_MIN_INTERVALS of a pass's
	 * intervals: a sum over it is the interpolation's, not the data's */
	RP_AGG_TOO_SHORT,
};
#define RP_AGG_MIN_INTERVALS 2
/*
 * The fleet's throughput, HCIBench's aggregate: the bytes every pass wrote
 * inside the window all of them were running ([latest start, earliest
 * end]), over the window, in MiB/s; *window_s its length.
 */
enum rp_agg rp_aggregate(double *mib_s, double *window_s,
			 const struct rp_agg_pass *p, size_t n);

/*
 * Warm-up across passes, SNIA PTS's steady-state test on a series of
 * passes (each pass's median over repetitions: the first write, then each
 * rewrite): the first pass k from which a window of `window` consecutive
 * passes has a range within `range` of their mean and a least-squares
 * line whose excursion across the window (|slope| x (window - 1)) is
 * within `slope` of it (a window of two: the range alone, a line through
 * two points being the points). PTS asks 5 rounds, 20% and 10%; a
 * provisioning run has a few passes, so 3 (2 when the series has 3 or
 * fewer).
 */
struct rp_pts {
	unsigned window;
	double range, slope; /* fractions of the window's mean */
};
#define RP_PTS_INIT                                                            \
	{                                                                      \
		.window = 3, .range = 0.20, .slope = 0.10                      \
	}
/* The window used for a series of n passes: c's, or 2 when n <= c's. */
unsigned rp_pts_window(const struct rp_pts *c, size_t n);
/* k (0-based), or -1 when no window is steady; -2 when the series is
 * shorter than its window (too short to tell). */
int rp_pts_steady(const double *v, size_t n, const struct rp_pts *c);

/*
 * Change points in a series in time order (a figure night after night):
 * the split that maximises Welch's t between the means before and after
 * it, kept when its two-sided p-value is under alpha and each side has at
 * least min_seg points, then the same on each side (the t-test split of
 * Hunter / Apache Otava, itself E-Divisive's, for nightly performance
 * data). The indices of the first point of each new level, ascending,
 * into out (at most max); how many.
 */
size_t rp_change_points(size_t *out, size_t max, const double *v, size_t n,
			double alpha, size_t min_seg);
/* Two-sided p-value of Student's t with df degrees of freedom. */
double rp_t_pvalue(double t, double df);
/* The t whose two-sided p-value with df degrees of freedom is alpha
 * (2.776 for alpha 0.05, df 4); NaN without degrees of freedom. */
double rp_t_critical(double alpha, double df);
/*
 * The mean of a's values less the mean of b's (b NULL or nb 0: a's mean
 * alone) into *d, and its (1 - alpha) interval by Student's t, with
 * Welch's degrees of freedom for two samples: for values that are each a
 * repetition's own figure (a log of a time ratio), the interval that
 * holds the truth as often as it says. The interval is NaN under two
 * values on a side, *d NaN with none.
 */
void rp_mean_diff_ci(double *d, double *lo, double *hi, const double *a,
		     size_t na, const double *b, size_t nb, double alpha);

/*
 * Repetitions that would narrow an interval of half-width h, had from n,
 * to half-width target (intervals shrink as one over the square root of
 * the repetitions): ceil(n (h / target)^2), at least n + 1.
 */
unsigned rp_reps_needed(double h, size_t n, double target);

/*
 * A sequential run's looks (issue 54): a figure looked at after each
 * repetition from nmin to nmax, the run stopping at the first look that
 * answers its question. An interval taken at every look at the nominal
 * level this returns holds the truth at all of them at once, and so at
 * whichever look the data stopped the run, with probability 1 - alpha:
 * Pocock's constant nominal level for a group-sequential design, for
 * Student's t with the spread unknown, found by simulating RP_SEQ_SIMS
 * runs of normal repetitions (a t's law depends on neither the truth
 * nor the spread) and bisecting for the largest level whose share of
 * runs missed at some look is alpha. Deterministic (a fixed seed); tens
 * of milliseconds. nmin under 2 is 2; nmax == nmin: alpha (one look);
 * NaN for more than RP_SEQ_MAX_LOOKS looks or a bad alpha.
 */
#define RP_SEQ_SIMS	 20000
#define RP_SEQ_MAX_LOOKS 100
double rp_seq_look_alpha(size_t nmin, size_t nmax, double alpha);

/*
 * Where a figure's spread over repetitions comes from (Kalibera and
 * Jones, "Rigorous benchmarking in reasonable time", ISMM 2013): each of
 * the n repetitions' values v has its own noise within its disk, the
 * variance v_within (its stripes', its passes') on df_within degrees of
 * freedom; the spread over them is that plus what differs between
 * disks. *within: their mean; *between: the sample variance of v less
 * it, 0 at least; *p: the F test's p-value of a spread that large from
 * the disks' own noise alone (small: there is a difference between
 * disks). NaN under 3 repetitions or when a repetition's own noise is
 * not told.
 */
void rp_levels(double *between, double *within, double *p, const double *v,
	       const double *v_within, const double *df_within, size_t n);
/* The upper tail of Snedecor's F with df1 and df2 degrees of freedom. */
double rp_f_pvalue(double f, double df1, double df2);
/* The variance of the median of k normal values over a value's: 1, 0.5,
 * 0.449, 0.298, 0.287, then pi / 2k. */
double rp_median_var_factor(size_t k);

#endif
