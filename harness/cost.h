/*
 * cost.h - what a plan will cost before anything is touched: the bytes
 * its passes and eager's zeros write, per target, the space at once.
 */
#ifndef PB_COST_H
#define PB_COST_H

#include "harness_int.h"

/*
 * What a plan writes: each writing pass the workload's size, a first
 * write in stripe pairs that plus the rewrite of every stripe but the
 * last (issue 38: check said 60 GiB for the demo's 80), eager's zeros at
 * provisioning on top; per target, and the space the disks take at once.
 */
struct pb_plan_cost {
	uint64_t passes, zeros, peak;
	uint64_t per_target[PB_MAX_TARGETS];
	/* of which the raw mappings' (rdm, rdmp): they land on the LUN or
	 * device, not where the disks go */
	uint64_t per_target_raw[PB_MAX_TARGETS];
	/* the precision form (adaptive): the above are the most it writes,
	 * every mode to repetitions; the rounds to min_repetitions write
	 * the least (min_passes, min_zeros); the last finished run of it
	 * ran this share of its most (NaN: none to tell) */
	bool adaptive;
	uint64_t min_passes, min_zeros;
	/* passes at an offered rate (rate_iops) take the schedule's time,
	 * known beforehand: their bytes and seconds, the most and the least
	 * (the precision form's), apart from the rate's guess */
	uint64_t sched_bytes, min_sched_bytes;
	double sched_s, min_sched_s;
	double expect_share;
	/* the rate the duration is said at: the last finished run's
	 * (rate_from names it), else a guess of 100 MiB/s */
	double mib_s;
	char rate_from[1200];
};

void pb_plan_cost(struct pb_plan_cost *c, const struct pb_profile *p,
		  const struct pb_plan *plan);
/* The rate of the newest finished run of p (its name and backend) in the
 * results directory, else a guess. */
void pb_plan_cost_rate(struct pb_plan_cost *c, const struct pb_profile *p,
		       const char *results);
/* "data to write: ... by the passes, ... of eager's zeros; about N
 * minutes at 100 MiB/s": the cost's first sentence */
void pb_plan_cost_line(char *out, size_t len, const struct pb_plan_cost *c);
/* The places the plan writes to and the bytes each takes, in its
 * targets' order, a raw mapping's LUN or device apart from where the
 * disks go (place and bytes hold PB_PLACES_MAX); how many. */
#define PB_PLACES_MAX (2 * PB_MAX_TARGETS)
unsigned pb_plan_cost_place_list(const struct pb_plan_cost *c,
				 const struct pb_profile *p, char (*place)[300],
				 uint64_t *bytes);
/* "per place: datastore ds1 480 GiB, datastore nfs 480 GiB": what the
 * plan writes where its targets' disks go (each backend's place row) */
void pb_plan_cost_places(struct pb_buf *out, const struct pb_plan_cost *c,
			 const struct pb_profile *p);
/* What the plan writes to shared storage (its targets' whose backend
 * has PB_CAP_SHARED_STORAGE): what confirm_above is set against. */
uint64_t pb_plan_cost_shared(const struct pb_plan_cost *c,
			     const struct pb_profile *p);
/* A plan above confirm_above on shared storage: asked on the terminal,
 * or PB_ERR_USAGE without one (yes: go on). */
enum pb_error pb_plan_confirm(const struct pb_profile *p,
			      const struct pb_plan *plan, bool yes,
			      char *errbuf);
/* The plan's expected seconds at c's rate. */
double pb_plan_cost_seconds(const struct pb_plan_cost *c);
/* Does the plan write more to shared storage than confirm_above? */
bool pb_plan_cost_asks(const struct pb_plan_cost *c,
		       const struct pb_profile *p);
/* where the rate comes from, in words */
void pb_plan_rate_said(char *out, size_t len, const struct pb_plan_cost *c);

#endif
