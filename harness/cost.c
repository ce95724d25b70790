/*
 * cost.c - a plan's cost, computed once from the profile and the plan,
 * for check's plan and run's first line.
 */
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "run_int.h"

static uint64_t item_bytes(const struct runner_opts *w)
{
	uint64_t b = 0, stripes;
	unsigned k;

	for (k = 0; k < w->npasses; k++) {
		if (!runner_pass_writes(w->passes[k]))
			continue;
		b += w->size;
		stripes = w->pair_stripe ? w->size / w->pair_stripe : 0;
		if (w->passes[k] == RUNNER_PASS_FIRST_WRITE && stripes > 1)
			b += (stripes - 1) * w->pair_stripe;
	}
	return b;
}

void pb_plan_cost(struct pb_plan_cost *c, const struct pb_profile *p,
		      const struct pb_plan *plan)
{
	uint64_t disk = 0;
	unsigned k, at_once;
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < plan->n; i++) {
		const struct pb_plan_item *it = &plan->items[i];
		uint64_t b = item_bytes(&p->points[it->point]);

		c->passes += b;
		c->per_target[it->target] += b;
		if (it->mode == PB_MODE_EAGER) {
			c->zeros += p->point_disk[it->point];
			c->per_target[it->target] += p->point_disk[it->point];
		}
	}
	for (k = 0; k < p->npoints; k++)
		disk = p->point_disk[k] > disk ? p->point_disk[k] : disk;
	at_once = p->concurrency > 1 && p->ntargets > 1
			  ? (p->concurrency < p->ntargets ? p->concurrency
							  : p->ntargets)
			  : 1;
	c->peak = disk * at_once;
}

/* "under a minute", "about 14 minutes", "about 3.2 hours" */
static void say_duration(char *out, size_t len, double s)
{
	if (s < 60)
		snprintf(out, len, "under a minute");
	else if (s < 90 * 60)
		snprintf(out, len, "about %.0f minutes", s / 60);
	else
		snprintf(out, len, "about %.1f hours", s / 3600);
}

/* the cost's first sentence, from a cost computed once */
void pb_plan_cost_line(char *out, size_t len, const struct pb_plan_cost *c)
{
	char a[32], b[32], d[64], z[96] = "";

	say_duration(d, sizeof(d),
		     (double)(c->passes + c->zeros) / (100.0 * 1048576.0));
	if (c->zeros)
		snprintf(z, sizeof(z), ", %s of eager's zeros at provisioning",
			 pb_size_format(b, sizeof(b), c->zeros));
	snprintf(out, len, "data to write: %s by the passes%s; %s at 100 MiB/s",
		 pb_size_format(a, sizeof(a), c->passes), z, d);
}

void run_plan_cost_line(char *out, size_t len, const struct pb_profile *p,
			const struct pb_plan *plan)
{
	struct pb_plan_cost c;

	pb_plan_cost(&c, p, plan);
	pb_plan_cost_line(out, len, &c);
}

