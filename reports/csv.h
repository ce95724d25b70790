/*
 * csv.h - report.csv, its rows written as the model loads, fleet.csv and
 * summary.csv (csv.c).
 */
#ifndef PB_RP_CSV_H
#define PB_RP_CSV_H

#include "model.h"

struct rp_findings;
struct rp_finding;

/* fleet.csv: the targets-at-once rows */
enum pb_error rp_fleet_csv(const struct rp_model *m, struct pb_buf *b);

/* report.csv's rows, written as the model loads (a sink of the
 * model's) */
struct rp_csv_rows {
	struct pb_buf *out;
	struct pb_buf *prefix; /* each target's leading fields */
	size_t nprefix;
};

/* report.csv's header into out, and sink set to write each item's rows
 * after it. */
enum pb_error rp_csv_rows_start(struct rp_csv_rows *c, struct pb_buf *out,
				struct rp_item_sink *sink);

void rp_csv_rows_dispose(struct rp_csv_rows *c);

/* summary.csv: a row per group, the columns' table */
enum pb_error rp_summary_csv(const struct rp_model *m,
			     const struct rp_findings *fs, struct pb_buf *b);

#endif
