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

/* how the summary is laid out: width 0 leaves lines as they are (a file);
 * wide: every column with its interval; all: every finding; color: ANSI
 * colour (a terminal, NO_COLOR unset) */
struct rp_text_opts {
	unsigned width;
	bool wide, all, color;
};

/* the terminal's summary and summary.txt */
void rp_text_table(const struct rp_model *m, const struct rp_findings *fs,
		   const struct rp_text_opts *o, struct pb_buf *b);

#endif
