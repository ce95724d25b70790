/*
 * gate.h - the gate against an older run, in words (gate.c).
 */
#ifndef PB_RP_GATE_H
#define PB_RP_GATE_H

#include "findings.h"
#include "model.h"

/* The gate: fell when a figure fell past the limit beyond noise (each
 * said in fell), else cannot tell yet when a figure cannot (each in
 * open, with the repetitions that would tell), else held; none without
 * a limit or a comparison. */
enum rp_gate_verdict rp_gate(const struct rp_model *m,
			     const struct rp_findings *fs, struct pb_buf *fell,
			     struct pb_buf *open);

#endif
