/*
 * gate.c - the saying floor: the nightly gate's words, every fall the
 * findings judged a regression (past the limit and beyond noise), and
 * every fall past the limit that was within noise, said as not one. The
 * judging is findings.c's (RP_F_CHANGE), once, for every form.
 */
#include <stdio.h>

#include "findings.h"
#include "gate.h"
#include "model.h"
#include "words.h"

bool rp_gate(const struct rp_model *m, const struct rp_findings *fs,
	     struct pb_buf *why, struct pb_buf *noise)
{
	char l[512], tn[96];
	size_t i;

	for (i = fs->nheadline; i < fs->n; i++) {
		const struct rp_finding *f = &fs->f[i];
		struct pb_buf *to = f->regressed	  ? why
				    : f->past_limit_noise ? noise
							  : NULL;

		if (f->kind != RP_F_CHANGE || !to)
			continue;
		rp_group_label(l, sizeof(l), f->g, true);
		rp_change_then_now(tn, sizeof(tn), m, f);
		pb_buf_printf(to, "%s%s %s fell %.1f%% (%s)",
			      to->len ? "; " : "", l, f->metric, -f->x, tn);
		if (to == noise)
			pb_buf_addstr(to, f->sig == RP_SIG_FEW
						  ? ", too few repetitions on "
						    "a side to tell"
						  : ", within noise");
	}

	return fs->nregressed > 0;
}
