/*
 * headroom.c - the analysis floor: the rate headroom (issue 55's sweep).
 * A profile that offers several rates (matrix.rate_iops) and names the
 * p99.9 a write must keep (p999_target_ms) asks how far the rate can go
 * before a first write misses it, and a rewrite: per mode, over the
 * points that differ by their rate alone, the highest rate up to which
 * every rate swept kept its p99.9 median under the target. A rate whose
 * passes fell behind it kept nothing (no latency is claimed at a rate
 * that was not offered), and nothing is said beyond the highest rate
 * swept.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "model.h"

/* w without its rate_iops=N item: the rest of the point's description,
 * items apart by ", " as the harness writes them */
void rp_workload_rate_free(char *out, size_t len, const char *w)
{
	const char *p = w, *e;
	size_t n = 0;

	out[0] = '\0';
	while (*p) {
		e = strstr(p, ", ");
		if (!e)
			e = p + strlen(p);
		if (strncmp(p, "rate_iops=", 10) &&
		    n + (size_t)(e - p) + 3 < len)
			n += (size_t)snprintf(out + n, len - n, "%s%.*s",
					      n ? ", " : "", (int)(e - p), p);
		p = *e ? e + 2 : e;
	}
}

static bool same_sweep(const struct rp_group *a, const struct rp_group *b)
{
	char wa[512], wb[512];

	if (a->target != b->target || a->pmode != b->pmode ||
	    !(b->tail.rate_iops > 0))
		return false;
	rp_workload_rate_free(wa, sizeof(wa), a->workload);
	rp_workload_rate_free(wb, sizeof(wb), b->workload);
	return !strcmp(wa, wb);
}

static int by_rate(const void *x, const void *y, void *model)
{
	const struct rp_model *m = model;
	double a = m->g[*(const size_t *)x].tail.rate_iops;
	double b = m->g[*(const size_t *)y].tail.rate_iops;

	return (a > b) - (a < b);
}

/* the highest rate of the sweep up to which every rate's side kept the
 * target (0: not the lowest) */
static double kept_to(const struct rp_model *m, const size_t *set, size_t n,
		      bool later)
{
	double to = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		const struct rp_tail *t = &m->g[set[k]].tail;
		double q = (later ? t->later_med : t->first_med)[RP_TL_P999];

		if (!t->n || !(q <= m->p999_target_ms))
			break;
		to = t->rate_iops;
	}
	return to;
}

void rp_model_headroom(struct rp_model *m)
{
	size_t *set = NULL, i, j, n;

	if (!(m->p999_target_ms > 0) || !m->ng ||
	    !(set = malloc(m->ng * sizeof(*set))))
		return;
	for (i = 0; i < m->ng; i++) {
		struct rp_room room = {.target_ms = m->p999_target_ms};

		if (!(m->g[i].tail.rate_iops > 0) || m->g[i].tail.room.nrates)
			continue;
		for (j = i, n = 0; j < m->ng; j++)
			if (same_sweep(&m->g[i], &m->g[j]))
				set[n++] = j;
		qsort_r(set, n, sizeof(*set), by_rate, m);
		room.nrates = n;
		room.rate_lo = m->g[set[0]].tail.rate_iops;
		room.rate_hi = m->g[set[n - 1]].tail.rate_iops;
		room.first = kept_to(m, set, n, false);
		room.later = kept_to(m, set, n, true);
		for (j = 0; j < n; j++) {
			m->g[set[j]].tail.room = room;
			m->g[set[j]].tail.room.lead = j == 0;
		}
	}
	free(set);
}
