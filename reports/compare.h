/*
 * compare.h - whether two runs may be compared or merged (compare.c).
 */
#ifndef PB_RP_COMPARE_H
#define PB_RP_COMPARE_H

#include "model.h"

/* How two runs differ where a comparison (compare) or a merge needs them
 * alike: "" when they do not. */
void rp_runs_differ(char *out, size_t len, const struct rj_reader *m,
		    const struct rj_reader *old, bool compare);

/* May m be compared with old (loaded from old_dir)? Never with itself;
 * when they differ (note says how) only with force. An error otherwise. */
enum pb_error rp_compare_check(char *note, size_t len, const struct rp_model *m,
			       const struct rp_model *old, const char *old_dir,
			       bool force, char *errbuf);

#endif
