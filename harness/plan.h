/*
 * plan.h - a profile's plan (plan.c): its items, and what narrows it
 * before it is made (--modes, --targets, --shard).
 */
#ifndef PB_PLAN_H
#define PB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

struct pb_profile;

struct pb_plan_item {
	unsigned rep; /* 1-based */
	enum pb_mode mode;
	unsigned point;	 /* index into profile points */
	unsigned target; /* index into profile targets */
	/* 1-based: the items of a wave run at once (concurrency > 1), the
	 * plan lists them together; one item per wave otherwise */
	unsigned wave;
};

struct pb_plan {
	struct pb_plan_item *items;
	size_t n;
	uint64_t seed; /* the shuffle seed, recorded so it can be replayed */
};

enum pb_error pb_plan_build(struct pb_plan *plan, const struct pb_profile *p,
			    char *errbuf);
void pb_plan_dispose(struct pb_plan *plan);

/* --modes thin,eager: only those of the profile's modes. */
enum pb_error pb_plan_filter_modes(struct pb_profile *p, const char *list,
				   char *errbuf);
/* --targets a,b: only those of the profile's targets, in its order (a
 * guest keeps its host twin). */
enum pb_error pb_plan_filter_targets(struct pb_profile *p, const char *list,
				     char *errbuf);
/* --shard I/N: the I-th of N disjoint shares of the targets. */
void pb_plan_filter_shard(struct pb_profile *p, unsigned shard,
			  unsigned nshards);
/* The shard a run is: --shard I/N, or the scheduler's environment; *n 0:
 * none. */
enum pb_error pb_plan_shard_resolve(unsigned *i, unsigned *n, const char *spec,
				    const char *count, char *errbuf);

#endif
