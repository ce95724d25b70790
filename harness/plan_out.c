/*
 * plan_out.c - the plan as lines: its items, what it writes and for how
 * long, where, and the baseline the report will compare with. What
 * check, a dry run and a run (before it asks for what is missing) say
 * first; below each of them. check --json's data is check.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "report.h"
#include "run_int.h"

/*
 * The baseline the report will compare with, said before the run (issue
 * 38: a lab without a LUN runs without rdm): the profile's, else rdm;
 * one not in this run (--modes) gives way to eager, as the report's
 * choose_baseline does when a mode has no figures.
 */
static void plan_baseline_print(const struct pb_profile *p)
{
	enum pb_mode want = p->has_baseline ? p->baseline : PB_MODE_RDM;
	bool in = false, eager = false;
	unsigned i;

	for (i = 0; i < p->nmodes; i++) {
		in |= p->modes[i] == want;
		eager |= p->modes[i] == PB_MODE_EAGER;
	}
	if (in)
		printf("baseline: %s\n", pb_mode_name(want));
	else if (eager)
		printf("baseline: eager, %s not being in this run (the report "
		       "says so too)\n",
		       pb_mode_name(want));
	else
		printf("baseline: none, neither %s nor eager being in this "
		       "run: no ratios\n",
		       pb_mode_name(want));
}

static void plan_cost_print(const struct pb_profile *p,
			    const struct pb_plan *plan, const char *results)
{
	struct pb_plan_cost c;
	char a[32], line[256], from[1400];
	unsigned k;

	pb_plan_cost(&c, p, plan);
	pb_plan_cost_rate(&c, p, results);
	pb_plan_cost_line(line, sizeof(line), &c);
	pb_plan_rate_said(from, sizeof(from), &c);
	printf("%s (%s)\n", line, from);
	for (k = 0; p->ntargets > 1 && k < p->ntargets; k++)
		printf("%s%s %s%s",
		       k ? ", " : "per target: ", p->targets[k].name,
		       pb_size_format(a, sizeof(a), c.per_target[k]),
		       k + 1 == p->ntargets ? "\n" : "");
	{
		struct pb_buf places = PB_BUF_INIT(1 << 16);

		pb_plan_cost_places(&places, &c, p);
		if (!pb_buf_error(&places) && places.len)
			printf("%s\n", places.data);
		pb_buf_dispose(&places);
	}
	plan_baseline_print(p);
	if (pb_plan_cost_asks(&c, p))
		printf("confirm: %s to shared storage is above confirm_above "
		       "(%s): run asks first, or needs --yes unattended\n",
		       pb_size_format(a, sizeof(a), pb_plan_cost_shared(&c, p)),
		       pb_size_format(line, sizeof(line), p->confirm_above));
	printf("space at once: %s (%s)\n", pb_size_format(a, sizeof(a), c.peak),
	       c.peak > p->disk_size ? "a disk per target of a wave"
				     : "one disk at a time");
}

void run_plan_print(const struct pb_profile *p, const struct pb_plan *plan,
		    const char *results)
{
	char sz[32], tot[32], reps[48];
	uint64_t small;
	size_t i, least;
	unsigned k;

	for (i = 0, least = 0; i < plan->n; i++)
		least += plan->items[i].rep <= p->min_repetitions;
	if (p->adaptive)
		snprintf(reps, sizeof(reps), "%u to %u", p->min_repetitions,
			 p->repetitions);
	else
		snprintf(reps, sizeof(reps), "%u", p->repetitions);
	printf("plan: %u mode(s) x %s repetition(s) x %u workload point(s)%s",
	       p->nmodes, reps, p->npoints, p->ntargets > 1 ? "" : " ");
	if (p->ntargets > 1)
		printf(" x %u targets ", p->ntargets);
	for (k = 0, small = p->disk_size; k < p->npoints; k++)
		small = p->point_disk[k] < small ? p->point_disk[k] : small;
	if (small < p->disk_size)
		snprintf(sz, sizeof(sz), "%s to ",
			 pb_size_format(tot, sizeof(tot), small));
	else
		sz[0] = '\0';
	if (p->adaptive)
		printf("= %zu to %zu disks", least, plan->n);
	else
		printf("= %zu disks", plan->n);
	printf(" of %s%s, %s order (seed %llu)\n", sz,
	       pb_size_format(tot, sizeof(tot), p->disk_size),
	       p->shuffle ? "shuffled" : "fixed",
	       (unsigned long long)plan->seed);
	if (p->concurrency > 1 && p->ntargets > 1)
		printf("at once: up to %u targets, each wave one mode and "
		       "workload point on them\n",
		       p->concurrency);
	if (p->adaptive) {
		struct rp_seq seq = {
			.on = true,
			.min = p->min_repetitions,
			.max = p->repetitions,
			.precision = p->precision_pct / 100,
			.threshold =
				p->threshold_set ? p->threshold_pct / 100 : NAN,
		};
		char said[256];

		rp_seq_say(said, sizeof(said), &seq);
		printf("precision form: %s, looked at after each round from "
		       "repetition %u on\n",
		       said, p->min_repetitions);
	}
	if (p->disk_size_si)
		printf("note: sizes are read as vSphere and govc read a "
		       "disk's: GB means GiB, so disk_size is %s (%llu "
		       "bytes)\n",
		       pb_size_format(sz, sizeof(sz), p->disk_size),
		       (unsigned long long)p->disk_size);
	pb_notes_print(stdout, p->notes);
	plan_cost_print(p, plan, results);
	for (k = 0; p->ntargets > 1 && k < p->ntargets; k++)
		printf("%s%s%s", k ? ", " : "targets: ", p->targets[k].name,
		       k + 1 == p->ntargets ? "\n" : "");
	for (i = 0; i < plan->n && i < 40; i++)
		printf("  %3zu. %s%srepetition %u, %s%s%s\n", i + 1,
		       p->targets[plan->items[i].target].name,
		       *p->targets[plan->items[i].target].name ? ": " : "",
		       plan->items[i].rep, pb_mode_name(plan->items[i].mode),
		       *pb_point_desc(p, plan->items[i].point) ? ", " : "",
		       pb_point_desc(p, plan->items[i].point));
	if (plan->n > 40)
		printf("  ... %zu more\n", plan->n - 40);
	/* before whatever a target's opening says on stderr */
	fflush(stdout);
}
