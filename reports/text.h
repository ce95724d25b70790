/*
 * text.h - the terminal table and summary.txt (text.c).
 */
#ifndef PB_RP_TEXT_H
#define PB_RP_TEXT_H

#include "model.h"

struct rp_findings;
struct rp_finding;

/* the targets-at-once table in summary.txt */
void rp_fleet_text(const struct rp_model *m, struct pb_buf *b);

/* the terminal table and summary.txt: the findings, then each group */

void rp_text_table(const struct rp_model *m, const struct rp_findings *fs,
		   struct pb_buf *b);

#endif
