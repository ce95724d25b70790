/*
 * gate.h - the gate against an older run, in words (gate.c).
 */
#ifndef PB_RP_GATE_H
#define PB_RP_GATE_H

#include "model.h"

struct rp_findings;

/* The gate. True when a figure fell past the limit beyond
 * noise; why lists every such fall, noise every fall past the limit
 * within noise. */
bool rp_gate(const struct rp_model *m, const struct rp_findings *fs,
	     struct pb_buf *why, struct pb_buf *noise);

#endif
