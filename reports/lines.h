/*
 * lines.h - the findings after the answer as the pages list them
 * (lines.c): ranked, and a finding that several modes of one place each
 * have said once for them all.
 */
#ifndef PB_RP_LINES_H
#define PB_RP_LINES_H

#include "findings.h"
#include "model.h"

/* the lines a page shows before "more" (issue 53) */
#define RP_LINES_SHOWN 7

struct rp_line {
	char *text;
	enum rp_rank rank;
	bool warning;
	size_t nsaid; /* the findings it says */
};

struct rp_lines {
	struct rp_line *l;
	size_t n, cap;
};

/*
 * The findings after the answer that the pages list (rp_finding_listed),
 * as lines: what decides first, then what explains, then what describes,
 * warnings first within each, else in the findings' order; the same
 * finding of several modes at one place (at the device, in the file,
 * rewrites against the baseline, eager's break-even) one line naming
 * them.
 */
enum pb_error rp_lines_build(struct rp_lines *out, const struct rp_model *m,
			     const struct rp_findings *fs);
void rp_lines_dispose(struct rp_lines *ls);

#endif
