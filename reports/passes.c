/*
 * passes.c - the reading floor: one result item's passes read into its
 * group, each pass's figures as the runner and the layers under it
 * counted them (the device's requests, a file's extents, the server's
 * counters, a reclaim, the first write after it), and the repetition's
 * own first-write ratio (penalty.c's definition). What the groups hold
 * per repetition; their statistics are the analysis floor's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "penalty.h"
#include "read.h"
#include "stats.h"

/* a repetition's later passes' device figures, before their median */
struct dev_later {
	double v[RP_DEV__COUNT][RP_MAX_REWRITES];
	unsigned n;
};

/* One pass's device counts (dv: its "device" or "host_device") into d:
 * the first write's straight in, a later pass's into l */
static void dev_pass(struct rj_reader *rd, struct rp_devtime *d, struct jl *dv,
		     const struct rj_pass *ps, bool first_write, bool host,
		     struct dev_later *l)
{
	double w = jl_num(jl_get(dv, "writes")),
	       ms = jl_num(jl_get(dv, "write_ms")),
	       wb = jl_num(jl_get(dv, "write_bytes")),
	       cpu = jl_num(jl_get(dv, "qemu_cpu_ms")),
	       pb = jl_num(ps->k[RJ_P_BYTES]), ios;
	double v[RP_DEV__COUNT];

	/* a first write in stripe pairs rewrote each stripe within it:
	 * the pass's device counts hold both; the runner's own device is
	 * read around every stripe (device_fresh), the host's is not, and
	 * cannot be told apart */
	if (ps->k[RJ_P_PAIRED]) {
		struct jl *fr =
			host ? NULL
			     : jl_get(ps->k[RJ_P_PAIRED], "device_fresh");

		if (!fr) {
			d->paired = true;
			return;
		}
		w = jl_num(jl_get(fr, "writes"));
		ms = jl_num(jl_get(fr, "write_ms"));
		wb = jl_num(jl_get(fr, "write_bytes"));
	}
	ios = pb / jl_num(ps->k[RJ_P_BS]);
	if (!dv || !(w > 0) || !(pb > 0))
		return;
	if (!d->name[0])
		snprintf(d->name, sizeof(d->name), "%s",
			 rj_str(rd, dv, "name"));
	v[RP_DEV_MS] = ms / w;
	v[RP_DEV_AMP] = wb / pb;
	v[RP_DEV_CPU] = ios > 0 ? cpu / ios : NAN;
	for (unsigned k = 0; k < RP_DEV__COUNT; k++) {
		if (first_write)
			d->first[k][d->nfirst] = v[k];
		else if (l->n < RP_MAX_REWRITES)
			l->v[k][l->n] = v[k];
	}
	if (first_write)
		d->nfirst++;
	else if (l->n < RP_MAX_REWRITES)
		l->n++;
}

/* One pass's extents (its "extents", absent where the filesystem could
 * not say) into e: a first write's allocation and conversion, a later
 * write's change */
static void ext_pass(struct rp_extents *e, struct jl *x, bool first_write,
		     double leak)
{
	struct jl *b = jl_get(x, "before"), *a = jl_get(x, "after");
	double bw = jl_num(jl_get(b, "written_bytes")),
	       bu = jl_num(jl_get(b, "unwritten_bytes")),
	       aw = jl_num(jl_get(a, "written_bytes")),
	       au = jl_num(jl_get(a, "unwritten_bytes")),
	       n = jl_num(jl_get(a, "count")), alloc, conv;

	if (!x || isnan(bw) || isnan(bu) || isnan(aw) || isnan(au))
		return;
	alloc = (aw + au) - (bw + bu);
	conv = bu - au;
	alloc = alloc > 0 ? alloc : 0;
	conv = conv > 0 ? conv : 0;
	if (first_write) {
		e->alloc[e->n] = alloc;
		e->conv[e->n++] = conv;
		if (!(e->count_max >= n))
			e->count_max = n;
	} else {
		/* what samples around the pass may hold of the first
		 * write's end is not the later write's */
		double ch = alloc + conv > (isnan(leak) ? 0 : leak)
				    ? alloc + conv
				    : 0;

		if (!(e->later_max >= ch))
			e->later_max = ch;
		e->nlater++;
	}
}

/* One pass's server counters (its "server_counters") into the model's
 * tally and, for a first write or a repetition's first later write, the
 * group's figures */
static void srv_pass(struct rp_model *m, struct rp_group *g, struct jl *sc,
		     const struct rj_pass *ps, bool first_write,
		     bool *later_taken)
{
	struct rp_server *v = &g->srv;
	struct jl *vd = jl_get(sc, "virtual_disk"), *lun = jl_get(sc, "lun"),
		  *ts = jl_get(sc, "too_short");
	double x[RP_SV__COUNT];
	const char *s;

	if (!sc)
		return;
	if (ts && ts->type == JL_TRUE) {
		double secs = jl_num(jl_get(sc, "seconds"));

		m->srv_short++;
		if (!(m->srv_short_max_s >= secs))
			m->srv_short_max_s = secs;
		m->srv_needs_s = jl_num(jl_get(sc, "needs_s"));
		return;
	}
	if (jl_get(sc, "unavailable")) {
		m->srv_unavail++;
		snprintf(m->srv_why, sizeof(m->srv_why), "%s",
			 rj_str(m->cur, sc, "unavailable"));
		return;
	}
	m->srv_passes++;
	if (!first_write && *later_taken)
		return;
	x[RP_SV_GUEST_MS] = jl_num(ps->lat[RJ_L_MEAN]) / 1e3;
	x[RP_SV_VDISK_MS] = jl_num(jl_get(vd, "write_latency_ms"));
	x[RP_SV_KERNEL_MS] = jl_num(jl_get(lun, "kernel_write_ms"));
	x[RP_SV_DEVICE_MS] = jl_num(jl_get(lun, "device_write_ms"));
	x[RP_SV_QUEUE_MS] = jl_num(jl_get(lun, "queue_write_ms"));
	x[RP_SV_DS_MS] =
		jl_num(jl_get(jl_get(sc, "datastore"), "write_latency_ms"));
	x[RP_SV_CPU] = jl_num(jl_get(jl_get(sc, "cpu"), "ms_per_write"));
	for (unsigned k = 0; k < RP_SV__COUNT; k++) {
		if (isnan(x[k]))
			continue;
		if (first_write)
			v->first[k][v->nfirst[k]++] = x[k];
		else
			v->later[k][v->nlater[k]++] = x[k];
	}
	if (!first_write)
		*later_taken = true;
	if (!v->vdisk[0] && (s = rj_str(m->cur, vd, "instance")))
		snprintf(v->vdisk, sizeof(v->vdisk), "%s", s);
	if (!v->lun[0] && (s = rj_str(m->cur, lun, "instance")))
		snprintf(v->lun, sizeof(v->lun), "%s", s);
}

/* a repetition's later passes, as one figure each (their median) */
static void dev_later_done(struct rp_devtime *d, const struct dev_later *l)
{
	double tmp[RP_MAX_REWRITES];

	if (!l->n)
		return;
	for (unsigned k = 0; k < RP_DEV__COUNT; k++) {
		memcpy(tmp, l->v[k], l->n * sizeof(tmp[0]));
		d->later[k][d->nlater] = rp_median(tmp, l->n);
	}
	d->nlater++;
}

/*
 * A paired first write's sides (penalty.c says what they are set
 * against): the whole pass, fresh stripes only (its seconds and bytes),
 * and its rewritten stripes. Every run.json with pairs has both: a file
 * written before the runner kept the pairs' own seconds (2026-12-04)
 * reads the same.
 */
static void paired_sides(struct rp_first_sides *s, const struct rj_pass *ps,
			 struct jl *pr)
{
	double wb = jl_num(jl_get(pr, "written_bytes"));

	s->paired = true;
	s->first_s = ps->seconds;
	s->first_bytes = jl_num(ps->k[RJ_P_BYTES]);
	s->written_s = jl_num(jl_get(pr, "written_seconds"));
	/* a file with no written_bytes: every pair rewrote a whole stripe */
	s->written_bytes =
		!isnan(wb) ? wb
			   : jl_num(jl_get(pr, RUNNER_K_PAIRS)) *
				     jl_num(jl_get(pr, RUNNER_K_STRIPE));
}

/* One successful repetition of a group: at most one value per item in
 * each per-item array (several reads of an item count as their median). */
/* An item's figures as its passes are read, before they join its
 * group's */
struct item_acc {
	double rw[RP_MAX_REWRITES], rd[RP_MAX_REWRITES], cmd[RP_MAX_REWRITES];
	double fsy[RP_MAX_REWRITES];
	struct dev_later dl[2];
	bool srv_later;
	unsigned nfsy, nrw, nrd, ncmd;
	double first_mib, rw_med, stripes_mib, ref_mib, settle_to;
	struct rp_first_sides sides; /* the first write's, once paired */
	const struct jl *ref, *stripes;
	bool first, spanned;
	bool reclaimed; /* a reclaim came: the passes after it are apart */
	/* after it: the first write again (its rate, its pairs' times) and
	 * the later writes that followed it */
	double first2_mib, rw2[RP_MAX_REWRITES];
	struct rp_first_sides sides2;
	unsigned nrw2, nreclaims;
	bool first2, paired2;
	long long rep; /* the item's repetition */
	/* the variance its log time ratio has within its disk: its pairs'
	 * spread over their count (paired), NaN until told, and its
	 * degrees of freedom */
	double within, within_df;
	/* an offered rate's first and first later write (issue 55): their
	 * quantiles and stalls, each side once and only if it held */
	double tl[2][RP_TL__COUNT];
	bool tl_have[2], tl_seen[2];
};

/*
 * A pass at an offered rate: its quantiles (ms) and stalls into side, or
 * counted as fallen behind (the rate's "held" false: no latency at that
 * rate). A pass without a rate leaves the group's tail alone.
 */
static void tail_pass(struct rp_group *g, struct item_acc *a,
		      const struct rj_pass *ps, struct jl *p, int side)
{
	struct jl *rate = jl_get(p, RUNNER_K_RATE), *st;
	struct rp_tail *t = &g->tail;
	double ach;

	if (!rate || a->tl_seen[side])
		return;
	a->tl_seen[side] = true;
	t->rate_iops = jl_num(jl_get(rate, RUNNER_K_OFFERED_IOPS));
	if (!jl_get(rate, RUNNER_K_RATE_HELD) ||
	    jl_get(rate, RUNNER_K_RATE_HELD)->type != JL_TRUE) {
		ach = jl_num(jl_get(rate, RUNNER_K_ACHIEVED_IOPS));
		if (!t->unheld++ || ach < t->achieved_min)
			t->achieved_min = ach;
		return;
	}
	st = jl_get(p, RUNNER_K_STALLS);
	t->stall_us = st ? jl_num(jl_get(st, RUNNER_K_STALL_US)) : 0;
	a->tl[side][RP_TL_P50] = jl_num(ps->lat[RJ_L_P50]) / 1e3;
	a->tl[side][RP_TL_P99] = jl_num(ps->lat[RJ_L_P99]) / 1e3;
	a->tl[side][RP_TL_P999] = jl_num(ps->lat[RJ_L_P999]) / 1e3;
	a->tl[side][RP_TL_STALLS] =
		st ? jl_num(jl_get(st, RUNNER_K_COUNT)) : NAN;
	a->tl_have[side] = true;
}

/* What an item says of its group before its passes: its filesystem,
 * provisioning, loop device, disk and the mode it was made as; and the
 * run's later writes, decided by the first item that has any */
static void item_head(struct rp_model *m, struct rp_group *g,
		      const struct rj_item *item)
{
	enum pb_mode applied;
	struct rj_pass ps;
	struct jl *fs = item->filesystem, *p;

	if (fs) {
		g->mkfs[g->nmkfs++] = jl_num(jl_get(fs, RUNNER_K_MKFS_SECONDS));
		if (!m->fs_note[0])
			snprintf(m->fs_note, sizeof(m->fs_note),
				 "%s, lazy init %s",
				 rj_str(m->cur, fs, RUNNER_K_FS_TYPE),
				 rj_str(m->cur, fs, RUNNER_K_LAZY_INIT));
	}

	g->prov[g->nprov++] = item->provision_s;
	if (*rj_str(m->cur, item->readback, RJ_K_RB_BACKING) &&
	    !strncmp(rj_str(m->cur, item->readback, RJ_K_RB_DEVICE),
		     "/dev/loop", 9))
		g->nloop++;
	/* its disk, as the runner found it: a matrix may vary it */
	if (!(g->disk_bytes > 0))
		g->disk_bytes = jl_num(
			jl_get(jl_get(item->runner, "target"), "device_bytes"));
	if (*item->applied) {
		/* a mode's name (static), or the server's own word for one
		 * no mode matches: a mismatch either way */
		if (pb_mode_parse(&applied, item->applied)) {
			g->applied = pb_mode_name(applied);
			if (applied != g->pmode)
				g->mismatch = true;
		} else {
			/* "unknown": read back as no mode (tmpfs cannot say
			 * written from allocated); not confirmed is not
			 * claimed */
			g->applied = "?";
			g->mismatch = true;
			g->unread = true;
		}
		if (g->mismatch && !g->applied_why && *item->applied_why)
			g->applied_why = strdup(item->applied_why);
	}
	/* the later writes: rewrites where the run has any, else recreates;
	 * decided once, by the first item that has either */
	if (!m->later_set) {
		jl_foreach(item->passes, p)
		{
			rj_pass_read(m->cur, &ps, p);
			if (ps.kind == RUNNER_PASS_REWRITE ||
			    (ps.kind == RUNNER_PASS_RECREATE &&
			     !m->later_set)) {
				m->later = ps.kind;
				m->later_set = true;
			}
		}
	}
}

/* bytes a file's extents held, or NaN */
static double held(const struct jl *x)
{
	return jl_num(jl_get(x, "written_bytes")) +
	       jl_num(jl_get(x, "unwritten_bytes"));
}

/* An item's (first) reclaim: what it gave back, read back where the
 * hypervisor's giving back shows (the datastore's word under vSphere, the
 * disk's file on the host under qemu), else from the runner's own file's
 * extents, and how long it took. */
static void reclaim_pass(struct rj_reader *rd, struct rp_group *g, struct jl *p)
{
	static const char *const methods[] = {"blkdiscard", "punch-hole",
					      "fitrim"};
	struct jl *rc = jl_get(p, RUNNER_K_RECLAIM);
	struct jl *srv = jl_get(p, "server_allocation");
	struct jl *ext = jl_get(p, "host_extents");
	const char *method = rj_str(rd, rc, "method");
	double before, after;
	size_t k;

	if (srv) {
		g->reclaim_where = "disk's file on the datastore";
		before = jl_num(jl_get(srv, "before_bytes"));
		after = jl_num(jl_get(srv, "after_bytes"));
	} else {
		if (ext)
			g->reclaim_where = "disk's file on the host";
		else if ((ext = jl_get(p, RUNNER_K_EXTENTS)))
			g->reclaim_where = "file";
		before = held(jl_get(ext, "before"));
		after = held(jl_get(ext, "after"));
	}
	for (k = 0; !g->reclaim_method && k < 3; k++)
		if (!strcmp(method, methods[k]))
			g->reclaim_method = methods[k];
	if (jl_get(rc, "done") && jl_get(rc, "done")->type == JL_TRUE)
		g->nreclaim_done++;
	else if (!g->reclaim_why[0])
		snprintf(g->reclaim_why, sizeof(g->reclaim_why), "%s",
			 rj_str(rd, rc, "why_not"));
	g->reclaim_back[g->nreclaim] = srv || ext ? before - after : NAN;
	g->reclaim_s[g->nreclaim++] = jl_num(jl_get(rc, RUNNER_K_SECONDS));
}

/* A pass of the cycle after an item's first reclaim: its first write
 * again (its rate, and its pairs' times where it was paired, as the
 * first's) and the later writes after it. */
static void rewarm_pass(const struct rp_model *m, struct item_acc *a,
			const struct rj_pass *ps)
{
	struct jl *pr = ps->k[RJ_P_PAIRED];

	if (ps->kind == RUNNER_PASS_FIRST_WRITE && !a->first2) {
		a->first2 = true;
		a->first2_mib = ps->mib_per_s;
		a->paired2 = pr != NULL;
		if (pr)
			paired_sides(&a->sides2, ps, pr);
	} else if (a->first2 && m->later_set && ps->kind == m->later &&
		   a->nrw2 < RP_MAX_REWRITES) {
		a->rw2[a->nrw2++] = ps->mib_per_s;
	}
}

/* A pass's figures.h figures into g: those read from passes like it. */
static void fig_pass(struct rp_group *g, const struct rj_pass *ps,
		     enum rp_fig_pass kind)
{
#define FIG_READ(id, pass, read, csv, unit, decimals, json)                    \
	if (pass == kind)                                                      \
		g->fig[RP_FIG_##id][g->nfig[RP_FIG_##id]++] = (read);
	RP_FIGURES(FIG_READ)
#undef FIG_READ
}

/*
 * A paired first write's own noise, as the variance of its log time
 * ratio: each pair's log ratio -log(1 - x), x its penalty, spread as the
 * pairs' quartiles say (their interquartile range over 1.349, a normal's
 * sd: robust to the few stripes a cost falls on), over the pairs' count.
 */
static double pairs_within(const struct jl *pr, double npairs)
{
	double p25 = jl_num(jl_get(pr, "penalty_p25")),
	       p75 = jl_num(jl_get(pr, "penalty_p75")), sd;

	if (!(p25 < 1) || !(p75 < 1) || !(npairs >= 2))
		return NAN;
	sd = (log1p(-p25) - log1p(-p75)) / 1.349;
	return sd * sd / npairs;
}

/* One pass of an item into its accumulator and its group. */
static void item_pass(struct rp_model *m, struct rp_group *g,
		      struct item_acc *a, struct jl *p)
{
	struct rj_pass ps;

	rj_pass_read(m->cur, &ps, p);
	if (ps.kind == RUNNER_PASS_RECLAIM && !a->reclaimed)
		reclaim_pass(m->cur, g, p);
	/* a reclaim starts the disk's second cycle (issue 40): its passes
	 * are another workload's, counted and said, never pooled; the
	 * first cycle after it is the re-warm's */
	if (ps.kind == RUNNER_PASS_RECLAIM || a->reclaimed) {
		m->after_reclaim += a->reclaimed;
		if (ps.kind == RUNNER_PASS_RECLAIM)
			a->nreclaims++;
		else if (a->nreclaims == 1 && ps.complete)
			rewarm_pass(m, a, &ps);
		a->reclaimed = true;
		return;
	}
	if (!ps.complete)
		return;
	if (ps.k[RJ_P_RAMP_S] && ps.kind != RUNNER_PASS_COMMAND) {
		double ramp = jl_num(ps.k[RJ_P_RAMP_S]);

		if (ramp > 0 && g->nramped++ == 0)
			g->ramp_s = ramp; /* a point's one ramp_ms */
		else if (!(ramp > 0))
			g->nunramped++;
	}
	/* a paired first write drains its queue after each stripe,
	 * as it should: not a depth the device waited for */
	/* nor is an offered rate's, whose queue fills only as a stall
	 * holds its I/Os */
	if (ps.k[RJ_P_QD_ACHIEVED] && ps.kind != RUNNER_PASS_COMMAND &&
	    !ps.k[RJ_P_PAIRED] && !jl_get(p, RUNNER_K_RATE)) {
		double kept = jl_num(ps.k[RJ_P_QD_ACHIEVED]);

		if (!(g->qd_kept_min <= kept))
			g->qd_kept_min = kept;
		g->qd_asked = jl_num(ps.k[RJ_P_QD]);
	}
	/* what the device did, and the host's under a guest */
	if (ps.kind == RUNNER_PASS_FIRST_WRITE || ps.kind == m->later) {
		dev_pass(m->cur, &g->dev, jl_get(p, RUNNER_K_DEVICE), &ps,
			 ps.kind == RUNNER_PASS_FIRST_WRITE, false, &a->dl[0]);
		dev_pass(m->cur, &g->hostdev, jl_get(p, "host_device"), &ps,
			 ps.kind == RUNNER_PASS_FIRST_WRITE, true, &a->dl[1]);
		ext_pass(&g->ext, jl_get(p, RUNNER_K_EXTENTS),
			 ps.kind == RUNNER_PASS_FIRST_WRITE, 0);
		/* the host's samples are every 20 ms: a window
		 * reaches past the pass by up to that each side,
		 * into the first write's end at its rate */
		ext_pass(&g->hostext, jl_get(p, "host_extents"),
			 ps.kind == RUNNER_PASS_FIRST_WRITE,
			 (jl_num(jl_get(jl_get(p, "host_device"), "window_s")) -
			  jl_num(ps.k[RJ_P_SECONDS])) *
				 a->first_mib * 1048576.0);
		srv_pass(m, g, jl_get(p, "server_counters"), &ps,
			 ps.kind == RUNNER_PASS_FIRST_WRITE, &a->srv_later);
		tail_pass(g, a, &ps, p, ps.kind != RUNNER_PASS_FIRST_WRITE);
	}
	if (ps.kind == RUNNER_PASS_FIRST_WRITE && !a->first) {
		struct jl *pr = ps.k[RJ_P_PAIRED];
		double pen = jl_num(jl_get(pr, RUNNER_K_PENALTY)),
		       npairs = jl_num(jl_get(pr, RUNNER_K_PAIRS));

		if (pr && !isnan(pen) && npairs >= 1) {
			paired_sides(&a->sides, &ps, pr);
			g->npaired++;
			if (!g->pairs_min || (size_t)npairs < g->pairs_min)
				g->pairs_min = (size_t)npairs;
			g->pair_stripe = jl_num(jl_get(pr, RUNNER_K_STRIPE));
			a->stripes_mib =
				jl_num(jl_get(pr, RUNNER_K_WRITTEN_MIB_PER_S));
			a->stripes = jl_get(pr, RUNNER_K_WRITTEN_SERIES);
			a->within = pairs_within(pr, npairs);
			/* a spread from quartiles is worth 37% of as many
			 * values' (the interquartile range's efficiency) */
			a->within_df = 0.37 * (npairs - 1);
		}
		a->first = true;
		a->first_mib = ps.mib_per_s;
		g->first[g->nfirst++] = ps.mib_per_s;
		fig_pass(g, &ps, RP_FIG_FIRST);
		if (ps.k[RJ_P_SERIES] && ps.k[RJ_P_SERIES]->type == JL_RAW) {
			g->span[g->nspan] = ps.k[RJ_P_SERIES]->s;
			g->span_len[g->nspan++] = ps.k[RJ_P_SERIES]->slen;
			a->spanned = true;
		}
	} else if ((ps.kind == RUNNER_PASS_REWRITE ||
		    ps.kind == RUNNER_PASS_RECREATE) &&
		   (!m->later_set || ps.kind != m->later)) {
		m->unpooled++;
	} else if (ps.kind == m->later && a->nrw < RP_MAX_REWRITES) {
		if (!a->nrw) {
			a->ref = ps.k[RJ_P_SERIES];
			a->ref_mib = ps.mib_per_s;
		}
		g->conv[a->nrw][g->nconv[a->nrw]++] = ps.mib_per_s;
		a->rw[a->nrw++] = ps.mib_per_s;
		fig_pass(g, &ps, RP_FIG_LATER);
	} else if (ps.kind == RUNNER_PASS_READ && a->nrd < RP_MAX_REWRITES) {
		a->rd[a->nrd++] = ps.mib_per_s;
	} else if (ps.kind == RUNNER_PASS_FSYNC_WRITE &&
		   a->nfsy < RP_MAX_REWRITES) {
		a->fsy[a->nfsy++] = ps.mib_per_s;
	} else if (ps.kind == RUNNER_PASS_COMMAND &&
		   a->ncmd < RP_MAX_REWRITES) {
		a->cmd[a->ncmd++] = ps.seconds;
		if (!m->command)
			m->command =
				strdup(jl_str(&m->cur->jd, ps.k[RJ_P_COMMAND]));
	}
}

/* A first write's time over its later writes', as a log (penalty.c):
 * the paired sides where it was paired, else the rates. NaN: no figure. */
static double time_log_ratio(struct rp_first_sides *s, double first_mib,
			     double rw_mib)
{
	s->first_mib_s = first_mib;
	s->later_mib_s = rw_mib;
	return log(rp_first_time_ratio(s));
}

/*
 * An unpaired first write's own noise, as the variance of its log time
 * ratio: its rewrites' log rates spread s^2 pass to pass; the first
 * write is one pass of it, the rewrites' median of k of it (the
 * median's factor). NaN under two rewrites.
 */
static double passes_within(const struct item_acc *a)
{
	double mean = 0, var = 0;
	unsigned k;

	if (a->nrw < 2)
		return NAN;
	for (k = 0; k < a->nrw; k++)
		mean += log(a->rw[k]);
	mean /= a->nrw;
	for (k = 0; k < a->nrw; k++)
		var += (log(a->rw[k]) - mean) * (log(a->rw[k]) - mean);
	var /= a->nrw - 1;
	return var * (1 + rp_median_var_factor(a->nrw));
}

/* The item's figures into its group, once its passes are read. */
static void item_done(struct rp_group *g, struct item_acc *a)
{
	double lr;

	if (a->nrw)
		a->rw_med = rp_median(a->rw, a->nrw);
	a->settle_to = a->rw_med;
	if (a->nrw >= 2 && a->rw_med > 0) {
		double lo = a->rw[0], hi = a->rw[0];

		for (unsigned k = 1; k < a->nrw; k++) {
			lo = fmin(lo, a->rw[k]);
			hi = fmax(hi, a->rw[k]);
		}
		g->rw_spread[g->nrw_spread++] = (hi - lo) / a->rw_med;
	}
	/*
	 * A paired first write settles against its own rewritten stripes:
	 * each stripe drains the queue at its end, as its fresh ones do,
	 * where a rewrite pass streams; the passes' median would hold even
	 * the baseline's fresh stripes a few percent under it.
	 */
	if (a->stripes_mib > 0) {
		a->ref = a->stripes;
		a->ref_mib = a->stripes_mib;
		a->settle_to = a->stripes_mib;
	}
	if (a->spanned) {
		bool raw = a->ref && a->ref->type == JL_RAW;

		g->span_target[g->nspan - 1] = a->settle_to;
		/* the reference is judged against its own rate: whether it
		 * holds still, not whether rewrites converge */
		g->ref_target[g->nspan - 1] = a->ref_mib;
		g->ref_span[g->nspan - 1] = raw ? a->ref->s : NULL;
		g->ref_span_len[g->nspan - 1] = raw ? a->ref->slen : 0;
	}
	if (a->stripes_mib > 0 && a->rw_med > 0)
		g->stripe_vs_pass[g->nstripe_vs_pass++] =
			a->stripes_mib / a->rw_med;
	lr = time_log_ratio(&a->sides, a->first_mib, a->rw_med);
	/* at an offered rate a pass takes the schedule's time, not the
	 * disk's: no penalty in time, the tail is the figure */
	if (a->tl_seen[0])
		lr = NAN;
	if (!isnan(lr)) {
		g->lr_rep[g->nlr] = (double)a->rep;
		g->lr_within[g->nlr] =
			a->sides.paired ? a->within : passes_within(a);
		g->lr_within_df[g->nlr] =
			a->sides.paired ? a->within_df : (double)a->nrw - 1;
		g->lr_within_kind =
			a->sides.paired ? RP_WITHIN_STRIPES : RP_WITHIN_PASSES;
		g->lr[g->nlr++] = lr;
	}
	/* the first write after a reclaim, against the rewrites after it
	 * (else the first cycle's), and against the rep's first write */
	if (a->first2) {
		double rw = a->nrw2 ? rp_median(a->rw2, a->nrw2) : a->rw_med;
		double lr2 = time_log_ratio(&a->sides2, a->first2_mib, rw);

		if (!isnan(lr2))
			g->lr2[g->nlr2++] = lr2;
		if (!isnan(lr2) && !isnan(lr))
			g->d21[g->nd21++] = lr2 - lr;
	}
	if (a->nrw) {
		g->rewrite[g->nrewrite++] = a->rw_med;
		if (a->nrw > g->max_rewrites)
			g->max_rewrites = a->nrw;
	}
	if (a->nrd)
		g->read[g->nread++] = rp_median(a->rd, a->nrd);
	if (a->nfsy)
		g->fsync[g->nfsync++] = rp_median(a->fsy, a->nfsy);
	dev_later_done(&g->dev, &a->dl[0]);
	dev_later_done(&g->hostdev, &a->dl[1]);
	if (a->tl_have[0] && a->tl_have[1]) {
		for (unsigned k = 0; k < RP_TL__COUNT; k++) {
			g->tail.first[k][g->tail.n] = a->tl[0][k];
			g->tail.later[k][g->tail.n] = a->tl[1][k];
		}
		g->tail.n++;
	}
	if (a->ncmd)
		g->cmd[g->ncmd++] = rp_median(a->cmd, a->ncmd);
}

void rp_item_read(struct rp_model *m, struct rp_group *g,
		  const struct rj_item *item)
{
	struct item_acc a = {
		.dl = {{.n = 0}, {.n = 0}},
		.first_mib = NAN,
		.rw_med = NAN,
		.stripes_mib = NAN,
		.ref_mib = NAN,
		.first2_mib = NAN,
		.rep = item->rep,
		.within = NAN,
	};
	struct jl *p;

	item_head(m, g, item);
	jl_foreach(item->passes, p)
	{
		item_pass(m, g, &a, p);
	}
	item_done(g, &a);
}
