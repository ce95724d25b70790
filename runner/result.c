/*
 * result.c - a pass's figures from its counts: its rates over what came
 * after its ramp, the stripe pairs' penalty quantiles and their written
 * side's rate. What the passes (run.c) and the JSON document (output.c)
 * both read, below either.
 */
#include "runner_int.h"

void runner_pass_rates(double *mib_per_s, double *iops,
		       const struct runner_pass_result *r)
{
	double s = (double)(r->ns - r->ramp_ns) / 1e9;

	*mib_per_s =
		s > 0 ? (double)(r->bytes - r->ramp_bytes) / 1048576.0 / s : 0;
	*iops = s > 0 ? (double)(r->ios - r->ramp_ios) / s : 0;
}

double runner_pairs_quantile(const struct runner_pairs *pr, double p)
{
	const double *v = pr->penalty;
	unsigned i, n = pr->n;
	double at, frac;

	if (!n)
		return 0;
	at = p * (double)(n - 1);
	i = (unsigned)at;
	frac = at - (double)i;
	return i + 1 < n ? v[i] + frac * (v[i + 1] - v[i]) : v[i];
}

double runner_pairs_written_rate(const struct runner_pairs *pr)
{
	double s = (double)pr->written_ns / 1e9;

	return s > 0 ? (double)pr->written_bytes / 1048576.0 / s : 0;
}
