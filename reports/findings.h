/*
 * findings.h - every conclusion of a model, once, as data, with its
 * significance (findings.c).
 */
#ifndef PB_RP_FINDINGS_H
#define PB_RP_FINDINGS_H

#include "model.h"

/* Can any group tell where its first write settles within a pass? */
bool rp_steady_told(const struct rp_group *g);

/* targets on one place measured at once, one line per place */
void rp_fleet_findings(const struct rp_model *m,
		       void (*fn)(const char *line, void *arg), void *arg);

/* What a figure's interval says. */
enum rp_sig {
	RP_SIG_NA,    /* no figure to judge */
	RP_SIG_YES,   /* beyond noise: the interval leaves out the null */
	RP_SIG_NOISE, /* within noise: the interval holds the null */
	RP_SIG_FEW,   /* one repetition (or none to compare): no interval */
};

/*
 * The kinds of finding. Each has a rule (rp_finding_rule(): its name in
 * docs/reports.md and report --json) and one wording (rp_finding_text());
 * no renderer says a conclusion of its own.
 */
enum rp_fkind {
	/* the headline's clauses, the first lines of every form */
	RP_F_H_PARTIAL,	     /* the run was interrupted, or items failed */
	RP_F_H_SLOWER,	     /* set: modes slower on first write, v..v2 */
	RP_F_H_FASTER,	     /* set: faster on first write, v..v2 */
	RP_F_H_FLAT,	     /* set: no first-write penalty beyond noise */
	RP_F_H_FEW,	     /* set: one repetition, figures only */
	RP_F_H_BREAKEVEN,    /* g eager: x s of provisioning, and its fate */
	RP_F_H_INCONCLUSIVE, /* v: widest interval, n reps, x reps needed */
	/* the shares of a comparison, over its n modes: ra..rb, yes[] */
	RP_F_H_HOST, /* host_baseline: the guest against the host */
	RP_F_H_ARM,  /* target g (an arm, a datastore) against target h */
	RP_F_H_NONE, /* nothing measured at this place */
	/* what the run measured, when it is not ESXi's: a local analog
	 * (the qemu and host backends); detail: the backend, metric the
	 * host filesystem */
	RP_F_H_SCOPE,
	/* a group's own */
	RP_F_NOT_MEASURED, /* g */
	RP_F_NO_PENALTY,   /* g: no first write and rewrite to set apart */
	RP_F_PENALTY,	   /* g: v [lo, hi], sig */
	RP_F_VS_BASELINE,  /* g against h: v [lo, hi] first, v2 rewrite */
	RP_F_APPLIED_AS,   /* g asked, made as g->applied; detail: why */
	/* g: steady from pass x (PTS; -1 never, -2 too short), of n
	 * passes, v the first's MiB/s, v2 the last's; lo 1 when the series
	 * starts at rewrite 1 (stripe pairs); detail the window */
	RP_F_WARMUP,
	RP_F_BASELINE_WARMS, /* g the baseline: v its own penalty */
	RP_F_NOISE,	     /* g the baseline: v its rewrites' spread */
	RP_F_ABOVE_BASELINE, /* g against h: v [lo, hi] rewrite ratio */
	RP_F_QD_KEPT,	     /* g: v kept of v2 asked */
	/* set: where each mode's penalty spread comes from (lv_between,
	 * lv_within), between disks or within one */
	RP_F_LEVELS,
	RP_F_UNRAMPED, /* g: x passes no longer than their ramp */
	/* a place's modes */
	RP_F_SAME_PENALTY, /* set: penalties within noise of each other */
	RP_F_BREAKEVEN,	   /* g eager against h: x bytes, sig */
	RP_F_ACROSS,	   /* set: one mode on several targets */
	/* the run's */
	RP_F_SHARED,	    /* detail: a place another run was using */
	RP_F_RAMP,	    /* v..v2: ramp_ms left out */
	RP_F_PAIRS,	    /* g: penalties from stripe pairs; h drain */
	RP_F_STEADY_WITHIN, /* within a pass: nothing can tell */
	RP_F_BASELINE_NOTE, /* detail: why the baseline is not the one asked */
	RP_F_FAILED_ITEMS,  /* x items failed */
	RP_F_RETRIED,	    /* repetition x (where and mode in detail) ran
			     * again after a stall, said in metric */
	RP_F_FLEET_PLACE,   /* detail: targets on one place at once */
	RP_F_UNPOOLED,	    /* x later-write passes of the other kind */
	RP_F_AFTER_RECLAIM, /* x passes after a reclaim, not pooled */
	/* g: x reclaims, n of them done (detail: why one was not), v the
	 * bytes its file gave back (NaN: not read back), v2 seconds,
	 * metric the method */
	RP_F_RECLAIMED,
	/* g: the first write after a reclaim (issue 40): v its cost over a
	 * rewrite, lo..hi (sig: beyond noise, paid again); v2 its time
	 * against the first write's, lo2..hi2 (sig2); x the bytes given
	 * back (NaN: not read back); n its repetitions; h the baseline
	 * whose first cycle was taken out */
	RP_F_REWARM,
	RP_F_VS_HOST, /* g in the guest against h on the host (g->host), sig
		       * of the first write's share in v, lo, hi */
	RP_F_ARM,     /* g on its target against h on the first (g->arm) */
	RP_F_DEVICE,  /* g: at the device (g->dev; n 1: the host's,
		       * g->hostdev), the first write's mean write time v
		       * (ms) against the later writes' v2; x their ratio,
		       * lo..hi its interval */
	/* g: its file's extents (g->ext; n 1: the disk's file on the
	 * host, g->hostext): the first write's allocation v and conversion
	 * v2 (bytes), x extents after it, lo the most a later write
	 * changed */
	RP_F_EXTENTS,
	/* g: at the server (g->srv): the first write's device write
	 * latency v against the later writes' v2, x their ratio, lo..hi */
	RP_F_SERVER,
	/* the run's: the server's counters cannot tell (every pass too
	 * short: x the longest, v the seconds needed; or unreadable) */
	RP_F_SERVER_SHORT,
	/* against an older run */
	RP_F_CHANGE, /* g now, h then: v then, v2 now, x percent, metric */
	/* an offered rate (issue 55): g's tail from g->tail, h the
	 * baseline taken out (NULL: none); sig the p99.9 difference's */
	RP_F_TAIL,
	RP_F_TAIL_UNHELD, /* g: n passes fell behind x offered, v achieved */
	/* g (its sweep's lowest rate) over n rates from lo to hi IOPS: a
	 * first write kept its p99.9 under x ms up to v IOPS, a rewrite up
	 * to v2 (0: not at the lowest) */
	RP_F_HEADROOM,
	RP_F__COUNT
};

/*
 * The nightly gate's verdict on a change (issue 54, Pinpoint's three):
 * it fell past the limit beyond noise; it held (its interval leaves out
 * a fall of the limit's size); or it cannot tell yet, and about
 * gate_reps repetitions a run would. NONE: no limit asked.
 */
enum rp_gate_verdict {
	RP_GATE_NONE,
	RP_GATE_HELD,
	RP_GATE_OPEN,
	RP_GATE_FELL,
};

/* The rules' parameters, recorded with what they decided (the warm-up
 * rule's are the model's: rp_model_warmup). */
struct rp_rules {
	double gate_pct; /* --max-regression; < 0: no gate */
};

#define RP_MAX_SET 16

struct rp_finding {
	enum rp_fkind kind;
	enum rp_sig sig;
	/* the second figure's (v2 [lo2, hi2]) where it is judged apart:
	 * RP_F_VS_BASELINE's rewrite */
	enum rp_sig sig2;
	bool warning; /* said as a warning: the figures are not clean */
	/* a gate's verdict on a change, and the repetitions a run would
	 * take to tell when it cannot yet; regressed: it fell */
	enum rp_gate_verdict gate;
	unsigned gate_reps;
	bool regressed;
	double limit; /* the gate's, percent */
	const struct rp_group *g, *h;
	const struct rp_group *set[RP_MAX_SET];
	size_t nset;
	double v, lo, hi, v2, lo2, hi2, x;
	/* RP_F_H_HOST, RP_F_H_ARM: each pass kind's shares' range over the
	 * modes, and how many were beyond noise */
	double ra[RP_SH__COUNT], rb[RP_SH__COUNT];
	unsigned yes[RP_SH__COUNT];
	/* RP_F_CHANGE: "first-write", "rewrite" or RP_METRIC_VS_LATER, and
	 * the change's 99%
	 * interval in percent (NaN under RP_MIN_TELL on a side);
	 * RP_F_WARMUP: the series' length */
	const char *metric;
	double change_lo, change_hi;
	size_t n;
	char detail[512];
};

/* RP_F_CHANGE's metric of the first write's rate as a share of the later
 * writes' in its own run (a ratio, not a rate) */
#define RP_METRIC_VS_LATER "first-write against rewrite"

struct rp_findings {
	struct rp_finding *f; /* the headline's first, then the rest */
	size_t n, cap;
	size_t nheadline;
	struct rp_rules rules;
	size_t nchanges, nregressed;	/* against an older run */
	size_t ngate[RP_GATE_FELL + 1]; /* each verdict's changes */
};

#define RP_RULES_INIT                                                          \
	{                                                                      \
		.gate_pct = -1                                                 \
	}

/*
 * Every conclusion of m, computed once: the headline's clauses, then each
 * group's, each place's and the run's; with old, each group's change
 * against it and the gate's verdict. The renderers only lay them out.
 */
enum pb_error rp_findings_build(struct rp_findings *out,
				const struct rp_model *m,
				const struct rp_model *old,
				const struct rp_rules *rules);

void rp_findings_dispose(struct rp_findings *f);

/* Is f listed below a page's table (the table has each group's penalty
 * and ratios already)? Every page's list asks this, from the findings. */
bool rp_finding_listed(const struct rp_finding *f);

/*
 * What a finding is to a reader (issue 53), the order the pages list them
 * in: what changes a decision (a cost beyond noise, a break-even, a fall
 * against the last run, a mode made as another, a run partial or too
 * short to tell), what explains a figure (the device, the host, the
 * queue depth kept), what describes the setup.
 */
enum rp_rank {
	RP_RANK_DECIDES,
	RP_RANK_EXPLAINS,
	RP_RANK_DESCRIBES,
	RP_RANK__UNRANKED, /* a kind the table forgot: a bug */
};
enum rp_rank rp_finding_rank(const struct rp_finding *f);
const char *rp_rank_name(enum rp_rank r);

/* ---- the judging floor's own calls between its files ---- */

/* A new finding of this kind at the end of fs, or NULL out of room. */
struct rp_finding *rp_finding_add(struct rp_findings *fs, enum rp_fkind kind);
/* g into f's set of groups (a line naming several modes). */
void rp_finding_set_add(struct rp_finding *f, const struct rp_group *g);
/* A cost's verdict (a penalty's, a re-warm's): one repetition or two
 * tell nothing, an interval holding 0 is within noise. */
enum rp_sig rp_cost_sig(double v, double lo, double hi);
/* A penalty's verdict: too few repetitions, within noise or beyond it. */
enum rp_sig rp_penalty_sig(const struct rp_group *g);
/* A share's verdict, as a penalty's. */
enum rp_sig rp_share_sig(const struct rp_share *s);
/* A run against an older one, group by group (changes.c). */
void rp_findings_changes(struct rp_findings *fs, const struct rp_model *m,
			 const struct rp_model *old);
/* g's tail at an offered rate, its passes that fell behind it and its
 * sweep's headroom, b the baseline taken out (tails.c). */
void rp_findings_tail(struct rp_findings *fs, const struct rp_group *g,
		      const struct rp_group *b);
/* One mode and point on several targets (places.c). */
void rp_findings_across(struct rp_findings *fs, const struct rp_model *m,
			const struct rp_group *g);
/* The question of a run that compares places (places.c). */
void rp_findings_places(struct rp_findings *fs, const struct rp_model *m);

#endif
