/*
 * html.h - report.html (html.c).
 */
#ifndef PB_RP_HTML_H
#define PB_RP_HTML_H

#include "model.h"

struct rp_findings;
struct rp_finding;

/* the targets-at-once table of report.html */
void rp_fleet_html(const struct rp_model *m, struct pb_buf *b);

/* report.html: self-contained, the findings first (old: the run compared
 * with, or NULL) */
enum pb_error rp_write_html(const struct rp_model *m,
			    const struct rp_model *old,
			    const struct rp_findings *fs, struct pb_buf *out);

#endif
