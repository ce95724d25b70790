/*
 * fleet.h - targets measured at once, the model's part: the waves' rows
 * (fleet.c).
 */
#ifndef PB_RP_FLEET_H
#define PB_RP_FLEET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common.h"
#include "runjson.h"

struct rj_item;

/* the most targets one mode and point are measured on: a wave's, and
 * what rp_across gathers */
#define PB_MAX_ACROSS 64

/* One workload point, mode and pass measured on several targets at once:
 * each wave's aggregate, over reps (and merged runs). */
struct rp_fleet_row {
	const char *workload;
	enum pb_mode mode;
	long long index; /* the pass's, in the workload */
	char name[24];
	unsigned ntargets; /* the most at once */
	size_t nwaves;
	double *agg, *window, *spread; /* per wave that could be summed */
	size_t nagg, nwindow, nspread;
	size_t nshort, nnone, nuntimed; /* waves that could not */
	double agg_med, agg_lo, agg_hi, window_med, spread_med;
	double tmin, tmax; /* the slowest and fastest target's pass */
};

struct rp_wave_pass;

struct rp_fleet {
	struct rp_wave_pass *p; /* every pass of a wave, as loaded */
	size_t np, pcap;
	struct rp_fleet_row *row;
	size_t nrow;
	unsigned most; /* targets in the largest wave; 0: none at once */
	/* with[a * nwith + b]: targets a and b ran in one wave */
	unsigned char *with;
	size_t nwith;
	char clock_source[160]; /* the backend's, "" for the guests' own */
};

/* A result item's passes, if it ran in a wave (called per item). */
enum pb_error rp_fleet_add(struct rp_fleet *f, struct rj_reader *rd, size_t run,
			   const struct rj_item *item, const char *workload);

/* The rows, once every run is loaded. */
enum pb_error rp_fleet_build(struct rp_fleet *f, size_t ntargets);

void rp_fleet_dispose(struct rp_fleet *f);

#endif
