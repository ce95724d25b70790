/*
 * read.h - the reading floor's own calls (read.c, passes.c), and what
 * the analysis floor (model.c) asks of it.
 */
#ifndef PB_RP_READ_H
#define PB_RP_READ_H

#include "model.h"

/* One measured item's passes into its group (passes.c). */
void rp_item_read(struct rp_model *m, struct rp_group *g,
		  const struct rj_item *item);

/* The model's head, then every run's items into groups (read.c): m->rd,
 * and m->more's nmore runs, open. */
enum pb_error rp_read_runs(struct rp_model *m, const char *baseline,
			   const struct rp_item_sink *sink, char *errbuf);

#endif
