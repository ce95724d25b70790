/*
 * compare.h - the gate against an older run (compare.c).
 */
#ifndef PB_RP_COMPARE_H
#define PB_RP_COMPARE_H

#include "model.h"

struct rp_findings;
struct rp_finding;

/* The gate. True when a figure fell past the limit beyond
 * noise; why lists every such fall, noise every fall past the limit
 * within noise. */
bool rp_gate(const struct rp_model *m, const struct rp_findings *fs,
	     struct pb_buf *why, struct pb_buf *noise);

#endif
