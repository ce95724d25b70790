/*
 * analysis.h - the analysis floor: a model loaded and its statistics
 * taken (model.c), each group's (group.c), the groups against each other
 * (cross.c). What the floors above load a model with.
 */
#ifndef PB_RP_ANALYSIS_H
#define PB_RP_ANALYSIS_H

#include "model.h"

/* Read results_dir/run.json into m, one result item at a time, each
 * handed to sink on the way (NULL: none). */
enum pb_error rp_model_load(struct rp_model *m, const char *results_dir,
			    const char *baseline,
			    const struct rp_item_sink *sink, char *errbuf);

/* Several runs as one model (report DIR...): each run's targets its own;
 * refused, naming why, unless their profiles agree or force. */
enum pb_error rp_model_load_many(struct rp_model *m, const char *const *dirs,
				 size_t ndirs, bool force, const char *baseline,
				 const struct rp_item_sink *sink, char *errbuf);

/* Each group's warm-up across passes by rules (NULL: RP_PTS_INIT); the
 * load does it with the defaults. */
void rp_model_warmup(struct rp_model *m, const struct rp_pts *rules);

/* A group's statistics, once its items are read (group.c). */
void rp_group_finish(struct rp_group *g);
/* Its penalty and re-warm, less the baseline b's own (NULL: its own). */
void rp_group_penalty(struct rp_group *g, const struct rp_group *b);
/* Its tail at an offered rate, first write less later, less the
 * baseline b's own (NULL: its own). */
void rp_group_tail(struct rp_group *g, const struct rp_group *b);
/* The baseline chosen and every group set against the others
 * (cross.c). */
void rp_model_cross(struct rp_model *m);
/* Each mode's rate headroom over a sweep of offered rates, where the run
 * asks one (headroom.c); after the tails. */
void rp_model_headroom(struct rp_model *m);
/* A point's description without its rate_iops=N item, into out. */
void rp_workload_rate_free(char *out, size_t len, const char *workload);

#endif
