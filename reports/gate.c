/*
 * gate.c - the saying floor: the nightly gate's words, its three
 * verdicts (issue 54): every fall the findings judged a regression (past
 * the limit and beyond noise), every figure it cannot tell yet with the
 * repetitions that would, and held when every one leaves out a fall of
 * the limit's size. The judging is changes.c's (RP_F_CHANGE), once, for
 * every form.
 */
#include <math.h>
#include <stdio.h>

#include "findings.h"
#include "gate.h"
#include "model.h"
#include "words.h"

enum rp_gate_verdict rp_gate(const struct rp_model *m,
			     const struct rp_findings *fs, struct pb_buf *fell,
			     struct pb_buf *open)
{
	char l[512], tn[96];
	size_t i;

	for (i = fs->nheadline; i < fs->n; i++) {
		const struct rp_finding *f = &fs->f[i];
		struct pb_buf *to = f->gate == RP_GATE_FELL   ? fell
				    : f->gate == RP_GATE_OPEN ? open
							      : NULL;

		if (f->kind != RP_F_CHANGE || !to)
			continue;
		rp_group_label(l, sizeof(l), f->g, true);
		rp_change_then_now(tn, sizeof(tn), m, f);
		pb_buf_printf(to, "%s%s %s %s %.1f%% (%s", to->len ? "; " : "",
			      l, f->metric, f->x < 0 ? "fell" : "rose",
			      fabs(f->x), tn);
		if (to == open && f->sig == RP_SIG_FEW)
			pb_buf_printf(to, "; too few repetitions on a side "
					  "to tell, 3 at least");
		else if (to == open)
			pb_buf_printf(to,
				      "; 99%% interval %+.1f to %+.1f%%: "
				      "about %u repetitions a run would tell",
				      f->change_lo, f->change_hi, f->gate_reps);
		pb_buf_addstr(to, ")");
	}
	return fs->ngate[RP_GATE_FELL]	 ? RP_GATE_FELL
	       : fs->ngate[RP_GATE_OPEN] ? RP_GATE_OPEN
	       : fs->ngate[RP_GATE_HELD] ? RP_GATE_HELD
					 : RP_GATE_NONE;
}
