/*
 * stats.c - the numbers a report gives (docs/DESIGN.md): medians with a
 * bootstrap interval, means of logs with Student's, where a first write
 * settles, and eager zeroing's break-even.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define BOOT_RESAMPLES 2000
#define BOOT_SEED      0x5eed5eedull

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* median of a sorted array */
static double sorted_median(const double *s, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

double rp_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = sorted_median(s, n);
	free(s);
	return m;
}

/* The median of s[0..n) (reordered in place): insertion sort, for the
 * few values a bootstrap resample has (no allocation, no qsort call). */
static double small_median(double *s, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		double x = s[i];

		for (j = i; j > 0 && s[j - 1] > x; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
	return sorted_median(s, n);
}

/* The k-th smallest of a[0..n) (reordered): Hoare's selection, the
 * pivot a median of three, expected linear time. */
static double select_k(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double x = a[lo], y = a[mid], z = a[hi], piv, t;

		piv = x < y ? (y < z ? y : (x < z ? z : x))
			    : (x < z ? x : (y < z ? z : y));
		while (i <= j) {
			while (a[i] < piv)
				i++;
			while (a[j] > piv)
				j--;
			if (i <= j) {
				t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return a[k];
	}
	return a[k];
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Many repetitions: the distribution-free interval of the median from
 * order statistics (ranks n/2 -+ 0.98 sqrt(n), the normal approximation
 * of the binomial), one sort instead of thousands of resamples.
 */
static void order_stat_ci(double *lo, double *hi, const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s)), d = 0.98 * sqrt((double)n);
	long a = (long)floor((double)n / 2.0 - d),
	     b = (long)ceil((double)n / 2.0 + d);

	if (!s) {
		*lo = *hi = NAN;
		return;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	*lo = s[a < 0 ? 0 : a];
	*hi = s[b >= (long)n ? (long)n - 1 : b];
	free(s);
}

void rp_median_ci(double *lo, double *hi, const double *v, size_t n)
{
	double *meds, *sample;
	uint64_t seed = BOOT_SEED;
	size_t i, k;

	*lo = *hi = n ? v[0] : NAN;
	if (n < 2)
		return;
	if (n > RP_BOOTSTRAP_MAX_N) {
		order_stat_ci(lo, hi, v, n);
		return;
	}
	meds = malloc(BOOT_RESAMPLES * sizeof(*meds));
	sample = malloc(n * sizeof(*sample));
	if (!meds || !sample) {
		*lo = *hi = NAN;
		goto out;
	}
	for (k = 0; k < BOOT_RESAMPLES; k++) {
		for (i = 0; i < n; i++)
			sample[i] = v[next_rand(&seed) % n];
		meds[k] = small_median(sample, n);
	}
	*lo = select_k(meds, BOOT_RESAMPLES, (size_t)(0.025 * BOOT_RESAMPLES));
	*hi = select_k(meds, BOOT_RESAMPLES,
		       (size_t)(0.975 * BOOT_RESAMPLES) - 1);
out:
	free(meds);
	free(sample);
}

enum rp_steady rp_steady_after(uint64_t *before, const uint64_t *bytes,
			       const double *mib_s, size_t n, double target,
			       size_t w)
{
	uint64_t total = 0;
	size_t i, j, start = n;
	double sum;

	if (n < RP_STEADY_MIN_INTERVALS || !(target > 0))
		return RP_STEADY_TOO_SHORT;
	for (i = 0; i < n; i++)
		total += bytes[i];
	if (w < 1)
		w = 1;
	if (w > n)
		w = n;
	/* the earliest window start from which every window is within 10% */
	for (i = n - w + 1; i-- > 0;) {
		for (sum = 0, j = i; j < i + w; j++)
			sum += mib_s[j];
		if (fabs(sum / (double)w - target) > 0.1 * target)
			break;
		start = i;
	}
	*before = total;
	if (start == n)
		return RP_STEADY_NEVER;
	for (*before = 0, i = 0; i < start; i++)
		*before += bytes[i];
	return RP_STEADY_SETTLED;
}

/* the reference holds still over w points: within the band from its
 * first tenth on (a pass's own start-up aside) */
static bool holds_still(const uint64_t *bytes, const double *mib_s, size_t n,
			double target, size_t w)
{
	uint64_t before, total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += bytes[i];
	return rp_steady_after(&before, bytes, mib_s, n, target, w) ==
		       RP_STEADY_SETTLED &&
	       before * 10 <= total;
}

size_t rp_steady_window(const uint64_t *bytes, const double *mib_s, size_t n,
			double target, size_t w0)
{
	size_t w = w0 ? w0 : 1;

	if (n < RP_STEADY_MIN_INTERVALS || !(target > 0))
		return w;
	while (!holds_still(bytes, mib_s, n, target, w)) {
		if (w * 2 > n / 4)
			return 0;
		w *= 2;
	}
	return w;
}

/*
 * Many repetitions (above RP_BOOTSTRAP_MAX_N, as for the median): the
 * median and its standard error from the order-statistic interval (its
 * half-width over 1.96), one sort instead of 2000 resamples of thousands of
 * values each (which took 43 s for a report of 10,000 repetitions).
 */
static bool median_se(double *med, double *se, const double *v, size_t n)
{
	double lo, hi;

	*med = rp_median(v, n);
	order_stat_ci(&lo, &hi, v, n);
	*se = (hi - lo) / (2 * 1.96);
	return !isnan(*med) && !isnan(*se);
}

/* 95% interval of q from its variance, by the delta method */
static void delta_ci(double *lo, double *hi, double q, double var)
{
	double h = 1.96 * sqrt(var > 0 ? var : 0);

	*lo = q - h;
	*hi = q + h;
}

/* the 2.5th and 97.5th percentiles of k sorted statistics */
static void percentiles(double *lo, double *hi, double *stat, size_t k)
{
	if (!k) {
		*lo = *hi = NAN;
		return;
	}
	*lo = select_k(stat, k, (size_t)(0.025 * (double)k));
	*hi = select_k(stat, k, (size_t)(0.975 * (double)k) - (k > 1));
}

void rp_ratio_ci(double *lo, double *hi, const double *a, size_t na,
		 const double *b, size_t nb)
{
	double *sa = malloc((na ? na : 1) * sizeof(*sa)),
	       *sb = malloc((nb ? nb : 1) * sizeof(*sb)),
	       *stat = malloc(BOOT_RESAMPLES * sizeof(*stat));
	uint64_t seed = BOOT_SEED;
	size_t i, k, ns = 0;

	*lo = *hi = NAN;
	if (!sa || !sb || !stat || !na || !nb)
		goto out;
	if (na > RP_BOOTSTRAP_MAX_N && nb > RP_BOOTSTRAP_MAX_N) {
		/* independent medians: Var(q)/q^2 = sA^2/A^2 + sB^2/B^2 */
		double A, B, sA, sB, q;

		if (!median_se(&A, &sA, a, na) || !median_se(&B, &sB, b, nb) ||
		    !(B > 0))
			goto out;
		q = A / B;
		delta_ci(lo, hi, q,
			 q * q * (sA * sA / (A * A) + sB * sB / (B * B)));
		goto out;
	}
	for (k = 0; k < BOOT_RESAMPLES; k++) {
		double den;

		for (i = 0; i < na; i++)
			sa[i] = a[next_rand(&seed) % na];
		for (i = 0; i < nb; i++)
			sb[i] = b[next_rand(&seed) % nb];
		den = small_median(sb, nb);
		if (den > 0)
			stat[ns++] = small_median(sa, na) / den;
		if (na == 1 && nb == 1)
			break;
	}
	percentiles(lo, hi, stat, ns);
out:
	free(sa);
	free(sb);
	free(stat);
}

bool rp_overlap(double lo1, double hi1, double lo2, double hi2)
{
	if (isnan(lo1) || isnan(hi1) || isnan(lo2) || isnan(hi2))
		return false;
	return lo1 <= hi2 && lo2 <= hi1;
}

double rp_breakeven_bytes(double p_e, double f_e, double p_o, double f_o)
{
	double gain;

	if (!(f_e > 0) || !(f_o > 0))
		return -1;
	if (p_e <= p_o)
		return 0;	      /* nothing to repay */
	gain = 1.0 / f_o - 1.0 / f_e; /* seconds saved per MiB */
	if (!(gain > 0))
		return -1;
	return (p_e - p_o) / gain * 1048576.0;
}

/* The bytes of pass p between a and b (its own clock: from its start),
 * each interval's bytes taken as written evenly within it. */
static double bytes_between(const struct rp_agg_pass *p, double a, double b)
{
	double sum = 0, prev = 0;
	size_t i;

	if (!p->n)
		return p->seconds > 0 ? p->bytes * (b - a) / p->seconds : 0;
	for (i = 0; i < p->n; prev = p->t_s[i], i++) {
		double lo = fmax(a, prev), hi = fmin(b, p->t_s[i]);

		if (hi > lo && p->t_s[i] > prev)
			sum += p->ibytes[i] * (hi - lo) / (p->t_s[i] - prev);
	}
	return sum;
}

/* How many of p's intervals lie within [a, b] of its own clock, whole. */
static size_t intervals_within(const struct rp_agg_pass *p, double a, double b)
{
	double prev = 0;
	size_t i, k = 0;

	for (i = 0; i < p->n; prev = p->t_s[i], i++)
		k += prev >= a && p->t_s[i] <= b;
	return k;
}

enum rp_agg rp_aggregate(double *mib_s, double *window_s,
			 const struct rp_agg_pass *p, size_t n)
{
	double w0 = -INFINITY, w1 = INFINITY, sum = 0;
	size_t i;

	*mib_s = NAN;
	*window_s = 0;
	for (i = 0; i < n; i++) {
		w0 = fmax(w0, p[i].start_s);
		w1 = fmin(w1, p[i].start_s + p[i].seconds);
	}
	if (!n || !(w1 > w0))
		return RP_AGG_NO_OVERLAP;
	*window_s = w1 - w0;
	for (i = 0; i < n; i++) {
		double a = w0 - p[i].start_s, b = w1 - p[i].start_s;

		if (p[i].n &&
		    intervals_within(&p[i], a, b) < RP_AGG_MIN_INTERVALS)
			return RP_AGG_TOO_SHORT;
		sum += bytes_between(&p[i], a, b);
	}
	*mib_s = sum / 1048576.0 / *window_s;
	return RP_AGG_OK;
}

unsigned rp_pts_window(const struct rp_pts *c, size_t n)
{
	return n <= c->window && c->window > 2 ? 2 : c->window;
}

int rp_pts_steady(const double *v, size_t n, const struct rp_pts *c)
{
	unsigned w = rp_pts_window(c, n);
	size_t k, i;

	if (w < 2 || n < w)
		return -2;
	for (k = 0; k + w <= n; k++) {
		double lo = v[k], hi = v[k], sum = 0, sx = 0, sxy = 0, sxx = 0;
		double mean, slope, xm;
		bool ok = true;

		for (i = 0; i < w; i++) {
			ok &= !isnan(v[k + i]);
			lo = fmin(lo, v[k + i]);
			hi = fmax(hi, v[k + i]);
			sum += v[k + i];
		}
		if (!ok)
			continue;
		mean = sum / w;
		xm = (w - 1) / 2.0;
		for (i = 0; i < w; i++) {
			sx += (double)i - xm;
			sxy += ((double)i - xm) * (v[k + i] - mean);
			sxx += ((double)i - xm) * ((double)i - xm);
		}
		(void)sx;
		slope = sxx > 0 ? sxy / sxx : 0;
		/* a line through two passes is the two passes: the slope
		 * says something from three on */
		if (mean > 0 && hi - lo <= c->range * mean &&
		    (w < 3 || fabs(slope) * (w - 1) <= c->slope * mean))
			return (int)k;
	}
	return -1;
}

/* The continued fraction of the incomplete beta function (Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h, del, aa;
	int m;

	d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		int m2 = 2 * m;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double betai(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double rp_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return betai(df / 2, 0.5, df / (df + t * t));
}

double rp_t_critical(double alpha, double df)
{
	double lo = 0, hi = 1e6, mid;
	int i;

	if (!(df > 0) || !(alpha > 0) || !(alpha < 1))
		return NAN;
	/* the p-value falls as t grows: bisection to well under a
	 * thousandth */
	for (i = 0; i < 200 && hi - lo > 1e-9; i++) {
		mid = (lo + hi) / 2;
		if (rp_t_pvalue(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* mean and sample variance of v[0..n) */
static void mean_var(double *mean, double *var, const double *v, size_t n)
{
	double s = 0, q = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = n ? s / (double)n : NAN;
	for (i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*var = n > 1 ? q / (double)(n - 1) : NAN;
}

void rp_mean_diff_ci(double *d, double *lo, double *hi, const double *a,
		     size_t na, const double *b, size_t nb, double alpha)
{
	double ma, va, mb = 0, vb = 0, se2, df, t;

	*lo = *hi = NAN;
	mean_var(&ma, &va, a, na);
	if (b && nb)
		mean_var(&mb, &vb, b, nb);
	*d = ma - mb;
	if (na < 2 || (b && nb && nb < 2))
		return;
	if (b && nb) {
		double qa = va / (double)na, qb = vb / (double)nb;

		se2 = qa + qb;
		df = se2 > 0 ? se2 * se2 /
				       (qa * qa / (double)(na - 1) +
					qb * qb / (double)(nb - 1))
			     : (double)(na + nb - 2);
	} else {
		se2 = va / (double)na;
		df = (double)(na - 1);
	}
	t = rp_t_critical(alpha, df);
	*lo = *d - t * sqrt(se2);
	*hi = *d + t * sqrt(se2);
}

/* Welch's t of v[a..s) against v[s..b), and its degrees of freedom;
 * prefix sums of the values and their squares give each side's mean and
 * variance in constant time. */
static double welch(double *df, const double *sum, const double *sq, size_t a,
		    size_t s, size_t b)
{
	double n1 = (double)(s - a), n2 = (double)(b - s);
	double m1 = (sum[s] - sum[a]) / n1, m2 = (sum[b] - sum[s]) / n2;
	double v1 = (sq[s] - sq[a] - n1 * m1 * m1) / (n1 - 1);
	double v2 = (sq[b] - sq[s] - n2 * m2 * m2) / (n2 - 1);
	double se2 = fmax(v1, 0) / n1 + fmax(v2, 0) / n2, q1, q2;

	if (!(se2 > 0)) {
		*df = n1 + n2 - 2;
		return m1 == m2 ? 0 : INFINITY;
	}
	q1 = fmax(v1, 0) / n1;
	q2 = fmax(v2, 0) / n2;
	*df = se2 * se2 / (q1 * q1 / (n1 - 1) + q2 * q2 / (n2 - 1) + 1e-300);
	return (m2 - m1) / sqrt(se2);
}

static size_t split(size_t *out, size_t max, size_t nout, const double *sum,
		    const double *sq, size_t a, size_t b, double alpha,
		    size_t min_seg)
{
	double best = 0, best_df = 0, t, df;
	size_t s, at = 0;

	if (b - a < 2 * min_seg || nout >= max)
		return nout;
	for (s = a + min_seg; s + min_seg <= b; s++) {
		t = fabs(welch(&df, sum, sq, a, s, b));
		if (t > best) {
			best = t;
			best_df = df;
			at = s;
		}
	}
	if (!at || !(rp_t_pvalue(best, best_df) < alpha))
		return nout;
	nout = split(out, max, nout, sum, sq, a, at, alpha, min_seg);
	if (nout < max)
		out[nout++] = at;
	return split(out, max, nout, sum, sq, at, b, alpha, min_seg);
}

size_t rp_change_points(size_t *out, size_t max, const double *v, size_t n,
			double alpha, size_t min_seg)
{
	double *sum = calloc(n + 1, sizeof(*sum));
	double *sq = calloc(n + 1, sizeof(*sq));
	size_t i, k = 0;

	if (min_seg < 2)
		min_seg = 2;
	if (sum && sq) {
		for (i = 0; i < n; i++) {
			sum[i + 1] = sum[i] + v[i];
			sq[i + 1] = sq[i] + v[i] * v[i];
		}
		k = split(out, max, 0, sum, sq, 0, n, alpha, min_seg);
	}
	free(sum);
	free(sq);
	return k;
}

unsigned rp_reps_needed(double h, size_t n, double target)
{
	double k;

	if (!(h > 0) || !(target > 0) || !n)
		return 0;
	k = ceil((double)n * (h / target) * (h / target));
	if (k <= (double)n)
		k = (double)n + 1;
	return k > 1e6 ? 1000000u : (unsigned)k;
}

/* ---- a sequential run's looks ---- */

/* a standard normal deviate (Box-Muller), from next_rand's stream */
static double gauss(uint64_t *s)
{
	double u = ((double)(next_rand(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(next_rand(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Of the simulated runs, the share some look of which rejects the truth
 * at nominal level a: its |t| (t[i * looks + k]) past the critical
 * value at that look's degrees of freedom. */
static double seq_reject_share(const float *t, size_t sims, size_t looks,
			       size_t nmin, double a)
{
	double crit[RP_SEQ_MAX_LOOKS];
	size_t i, k, rejected = 0;

	for (k = 0; k < looks; k++)
		crit[k] = rp_t_critical(a, (double)(nmin + k - 1));
	for (i = 0; i < sims; i++)
		for (k = 0; k < looks; k++)
			if (t[i * looks + k] > crit[k]) {
				rejected++;
				break;
			}
	return (double)rejected / (double)sims;
}

double rp_seq_look_alpha(size_t nmin, size_t nmax, double alpha)
{
	const size_t sims = RP_SEQ_SIMS;
	size_t looks, i, n;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	double lo, hi, mid;
	float *t;
	int step;

	if (nmin < 2)
		nmin = 2;
	if (!(alpha > 0) || !(alpha < 1) || nmax < nmin ||
	    nmax - nmin + 1 > RP_SEQ_MAX_LOOKS)
		return NAN;
	if (nmax == nmin)
		return alpha; /* one look */
	looks = nmax - nmin + 1;
	t = malloc(sims * looks * sizeof(*t));
	if (!t)
		return NAN;
	/* each simulated run's t at each look, the truth 0 (a t's law
	 * does not depend on the mean or the spread: one simulation
	 * serves every group) */
	for (i = 0; i < sims; i++) {
		double mean = 0, m2 = 0;

		for (n = 1; n <= nmax; n++) {
			double x = gauss(&seed), d = x - mean;

			mean += d / (double)n;
			m2 += d * (x - mean);
			if (n >= nmin)
				t[i * looks + n - nmin] = (float)fabs(
					mean /
					sqrt(m2 / (double)(n - 1) / (double)n));
		}
	}
	/* between Bonferroni's alpha / looks (rejecting at most alpha
	 * whatever the looks' dependence) and alpha itself (at least
	 * alpha: the last look alone): halved geometrically, the lower
	 * end kept, so the level is never above alpha as simulated */
	lo = alpha / (double)looks;
	hi = alpha;
	for (step = 0; step < 20; step++) {
		mid = sqrt(lo * hi);
		if (seq_reject_share(t, sims, looks, nmin, mid) > alpha)
			hi = mid;
		else
			lo = mid;
	}
	free(t);
	return lo;
}

/* ---- where a figure's spread comes from ---- */

double rp_median_var_factor(size_t k)
{
	/* the variance of the median of k normal values, over sigma^2:
	 * exact to 4 places to 5, then Laplace's pi / 2k */
	static const double f[] = {NAN, 1, 0.5, 0.4487, 0.2982, 0.2868};

	if (!k)
		return NAN;
	return k < sizeof(f) / sizeof(f[0]) ? f[k] : M_PI / (2.0 * (double)k);
}

double rp_f_pvalue(double f, double df1, double df2)
{
	if (isnan(f) || !(df1 > 0) || !(df2 > 0))
		return NAN;
	if (f <= 0)
		return 1;
	return betai(df2 / 2, df1 / 2, df2 / (df2 + df1 * f));
}

void rp_levels(double *between, double *within, double *p, const double *v,
	       const double *v_within, const double *df_within, size_t n)
{
	double mean = 0, var = 0, w = 0, df = 0;
	size_t i, nw = 0;

	*between = *within = *p = NAN;
	if (n < 3)
		return;
	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (i = 0; i < n; i++) {
		var += (v[i] - mean) * (v[i] - mean);
		if (!isnan(v_within[i]) && df_within[i] > 0) {
			w += v_within[i];
			df += df_within[i];
			nw++;
		}
	}
	var /= (double)(n - 1);
	/* every repetition's own noise told, or none: a mean of a few
	 * would stand for the rest */
	if (nw != n)
		return;
	*within = w / (double)n;
	*between = fmax(var - *within, 0);
	/* the repetitions' spread against their own noise: as large by
	 * chance alone, with no difference between disks? */
	*p = *within > 0 ? rp_f_pvalue(var / *within, (double)(n - 1), df)
			 : (var > 0 ? 0 : 1);
}
