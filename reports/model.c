/*
 * model.c - run.json, read one item at a time through runjson/, grouped
 * by target, workload point and mode, with each group's statistics: the
 * report's model, which every format renders (report.c writes them).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* the document a model reads from, for decoding its strings */
static struct jl_doc *cur_doc;

static const char *str(struct jl *o, const char *k)
{
	return jl_str(cur_doc, jl_get(o, k));
}

static double num(struct jl *o, const char *k)
{
	return jl_num(jl_get(o, k));
}

/* Within a run, a group is a target, a point (its index and its
 * description: the description alone could be shared, and was once cut)
 * and a mode. Two groups at the same place differ only in mode. */
bool rp_same_place(const struct rp_group *g, long long target, long long point,
		   const char *w)
{
	return g->target == target && g->point == point &&
	       !strcmp(g->workload, w);
}

static bool same_group(const struct rp_group *g, long long target,
		       long long point, const char *w, enum pb_mode mode)
{
	return rp_same_place(g, target, point, w) && g->pmode == mode;
}

/* "nfs, bs=64K", "nfs", "bs=64K" or "" */
static char *where_text(const char *target, const char *w)
{
	size_t n = strlen(target) + strlen(w) + 3;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", target, *target && *w ? ", " : "", w);
	return s;
}

static struct rp_group *group_for(struct rp_model *m,
				  const struct rj_item *item)
{
	struct rp_group *g;
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], item->target, item->point,
			       item->workload, item->mode))
			return &m->g[i];
	if (pb_array_grow(&m->g, &m->gcap, m->ng, sizeof(*m->g)))
		return NULL;
	g = &m->g[m->ng];
	memset(g, 0, sizeof(*g));
	g->workload = strdup(item->workload);
	g->target_name = strdup(item->target_name);
	g->where = where_text(item->target_name, item->workload);
	m->ng++; /* disposed as it is, whatever failed */
	if (!g->workload || !g->target_name || !g->where)
		return NULL;
	g->target = item->target;
	g->doc = cur_doc;
	g->point = item->point;
	g->pmode = item->mode;
	g->mode = pb_mode_name(item->mode);
	g->applied = "";
	g->qd_kept_min = NAN;
	return g;
}

/* The same point of this model in another mode. */
const struct rp_group *rp_sibling(const struct rp_model *m,
				  const struct rp_group *g, enum pb_mode mode)
{
	for (size_t i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], g->target, g->point, g->workload,
			       mode))
			return &m->g[i];
	return NULL;
}

/*
 * Every per-item array of a group, one row each (n of them where the
 * group holds an array of arrays): grown together, room for one more item
 * doubling, and freed together. A new figure's array is a row here; its
 * element is a double unless the row says otherwise (figures.h's have
 * room for every rewrite pass of an item; spans are text and a length).
 */
#define ROW(member, size, n)                                                   \
	{                                                                      \
		offsetof(struct rp_group, member), size, n                     \
	}
#define DBL(member)	ROW(member, sizeof(double), 1)
#define DBLS(member, n) ROW(member[0], sizeof(double), n)
static const struct {
	size_t off, size, n;
} per_item[] = {
	DBL(first),
	DBL(rewrite),
	DBL(read),
	DBL(fsync),
	DBL(prov),
	DBL(steady),
	/* a later write's has room for every later pass of an item */
	ROW(fig[0], RP_MAX_REWRITES * sizeof(double), RP_FIG__COUNT),
	DBLS(conv, RP_MAX_REWRITES),
	DBL(mkfs),
	DBL(cmd),
	DBL(reclaim_back),
	DBL(reclaim_s),
	DBL(lr),
	DBL(lr2),
	DBL(d21),
	DBL(span_target),
	DBL(rw_spread),
	DBL(stripe_vs_pass),
	DBL(ref_target),
	ROW(span, sizeof(const char *), 1),
	ROW(span_len, sizeof(uint32_t), 1),
	ROW(ref_span, sizeof(const char *), 1),
	ROW(ref_span_len, sizeof(uint32_t), 1),
	DBLS(dev.first, RP_DEV__COUNT),
	DBLS(dev.later, RP_DEV__COUNT),
	DBLS(hostdev.first, RP_DEV__COUNT),
	DBLS(hostdev.later, RP_DEV__COUNT),
	DBL(ext.alloc),
	DBL(ext.conv),
	DBL(hostext.alloc),
	DBL(hostext.conv),
	DBLS(srv.first, RP_SV__COUNT),
	DBLS(srv.later, RP_SV__COUNT),
};
#undef DBLS
#undef DBL
#undef ROW

/* the k-th array of per_item's row i in g */
static void **per_item_array(struct rp_group *g, size_t i, size_t k)
{
	return (void **)((char *)g + per_item[i].off) + k;
}

static enum pb_error group_grow(struct rp_group *g)
{
	size_t cap, i, k;
	void *q;

	if (g->nreps < g->cap)
		return PB_OK;
	cap = g->cap ? g->cap * 2 : 16;
	for (i = 0; i < sizeof(per_item) / sizeof(per_item[0]); i++)
		for (k = 0; k < per_item[i].n; k++) {
			if (!(q = realloc(*per_item_array(g, i, k),
					  cap * per_item[i].size)))
				return PB_ERR_NOMEM;
			*per_item_array(g, i, k) = q;
		}
	g->cap = cap;
	return PB_OK;
}

/* a repetition's later passes' device figures, before their median */
struct dev_later {
	double v[RP_DEV__COUNT][RP_MAX_REWRITES];
	unsigned n;
};

/* One pass's device counts (dv: its "device" or "host_device") into d:
 * the first write's straight in, a later pass's into l */
static void dev_pass(struct rp_devtime *d, struct jl *dv,
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
			 jl_str(cur_doc, jl_get(dv, "name")));
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
			 jl_str(cur_doc, jl_get(sc, "unavailable")));
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
	if (!v->vdisk[0] && (s = jl_str(cur_doc, jl_get(vd, "instance"))))
		snprintf(v->vdisk, sizeof(v->vdisk), "%s", s);
	if (!v->lun[0] && (s = jl_str(cur_doc, jl_get(lun, "instance"))))
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
};

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
		g->mkfs[g->nmkfs++] = num(fs, RUNNER_K_MKFS_SECONDS);
		if (!m->fs_note[0])
			snprintf(m->fs_note, sizeof(m->fs_note),
				 "%s, lazy init %s", str(fs, RUNNER_K_FS_TYPE),
				 str(fs, RUNNER_K_LAZY_INIT));
	}

	g->prov[g->nprov++] = item->provision_s;
	if (*str(item->readback, RJ_K_RB_BACKING) &&
	    !strncmp(str(item->readback, RJ_K_RB_DEVICE), "/dev/loop", 9))
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
static void reclaim_pass(struct rp_group *g, struct jl *p)
{
	static const char *const methods[] = {"blkdiscard", "punch-hole",
					      "fitrim"};
	struct jl *rc = jl_get(p, RUNNER_K_RECLAIM);
	struct jl *srv = jl_get(p, "server_allocation");
	struct jl *ext = jl_get(p, "host_extents");
	const char *method = jl_str(cur_doc, jl_get(rc, "method"));
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
			 jl_str(cur_doc, jl_get(rc, "why_not")));
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

/* One pass of an item into its accumulator and its group. */
static void item_pass(struct rp_model *m, struct rp_group *g,
		      struct item_acc *a, struct jl *p)
{
	struct rj_pass ps;

	rj_pass_read(m->cur, &ps, p);
	if (ps.kind == RUNNER_PASS_RECLAIM && !a->reclaimed)
		reclaim_pass(g, p);
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
	if (ps.k[RJ_P_QD_ACHIEVED] && ps.kind != RUNNER_PASS_COMMAND &&
	    !ps.k[RJ_P_PAIRED]) {
		double kept = jl_num(ps.k[RJ_P_QD_ACHIEVED]);

		if (!(g->qd_kept_min <= kept))
			g->qd_kept_min = kept;
		g->qd_asked = jl_num(ps.k[RJ_P_QD]);
	}
	/* what the device did, and the host's under a guest */
	if (ps.kind == RUNNER_PASS_FIRST_WRITE || ps.kind == m->later) {
		dev_pass(&g->dev, jl_get(p, RUNNER_K_DEVICE), &ps,
			 ps.kind == RUNNER_PASS_FIRST_WRITE, false, &a->dl[0]);
		dev_pass(&g->hostdev, jl_get(p, "host_device"), &ps,
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
				strdup(jl_str(cur_doc, ps.k[RJ_P_COMMAND]));
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
	if (!isnan(lr))
		g->lr[g->nlr++] = lr;
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
	if (a->ncmd)
		g->cmd[g->ncmd++] = rp_median(a->cmd, a->ncmd);
}

static void add_item(struct rp_model *m, struct rp_group *g,
		     const struct rj_item *item)
{
	struct item_acc a = {
		.dl = {{.n = 0}, {.n = 0}},
		.first_mib = NAN,
		.rw_med = NAN,
		.stripes_mib = NAN,
		.ref_mib = NAN,
		.first2_mib = NAN,
	};
	struct jl *p;

	item_head(m, g, item);
	jl_foreach(item->passes, p)
	{
		item_pass(m, g, &a, p);
	}
	item_done(g, &a);
}

/* A series' points, parsed from its span and dropped again. */
struct series {
	uint64_t *bytes;
	double *mib;
	size_t n, have;
};

static enum pb_error series_load(struct series *out, struct jl_doc *doc,
				 const char *span, uint32_t len)
{
	struct jl *series, *pt;
	struct jl_mark mark;
	enum pb_error err = PB_OK;
	size_t n;

	out->n = 0;
	jl_mark(doc, &mark);
	series = jl_parse_span(doc, span, len);
	n = series ? series->n : 0;
	if (n + 1 > out->have) {
		uint64_t *b2 = realloc(out->bytes, (n + 1) * sizeof(*b2));
		double *m2;

		if (b2)
			out->bytes = b2;
		m2 = realloc(out->mib, (n + 1) * sizeof(*m2));
		if (m2)
			out->mib = m2;
		if (!b2 || !m2) {
			err = PB_ERR_NOMEM;
			goto out;
		}
		out->have = n + 1;
	}
	jl_foreach(series, pt)
	{
		/* a point is an object; a paired pass's rewritten stripes
		 * are bare rates, of one stripe each */
		if (pt->type == JL_NUM) {
			out->bytes[out->n] = 1;
			out->mib[out->n++] = jl_num(pt);
			continue;
		}
		out->bytes[out->n] = rp_u64(num(pt, RUNNER_K_BYTES));
		out->mib[out->n++] = num(pt, RUNNER_K_MIB_PER_S);
	}
out:
	jl_reset(doc, &mark);
	return err;
}

/*
 * The re-warm (issue 40) is the same estimate of the first write after a
 * reclaim, less the same baseline's first cycle: the method's own bias is
 * the first cycle's, and a baseline's second cycle may have been given
 * back too (a loop device's file is punched by a discard). Against the
 * rep's own first write it is a paired difference, with no baseline.
 */
static void penalty_of(struct rp_group *g, const struct rp_group *b)
{
	if (b && (b == g || b->penalty_paired != g->penalty_paired ||
		  b->nlr < 2 || b->mismatch))
		b = NULL;
	g->penalty_less_base = b != NULL;
	rp_penalty_estimate(&g->penalty, &g->penalty_lo, &g->penalty_hi, g->lr,
			    g->nlr, b ? b->lr : NULL, b ? b->nlr : 0);
	rp_penalty_estimate(&g->rewarm, &g->rewarm_lo, &g->rewarm_hi, g->lr2,
			    g->nlr2, b ? b->lr : NULL, b ? b->nlr : 0);
	rp_penalty_estimate(&g->rewarm_vs_first, &g->rewarm_vs_first_lo,
			    &g->rewarm_vs_first_hi, g->d21, g->nd21, NULL, 0);
}

/*
 * Where each repetition's first write settled, against its rewrite. A
 * host whose throughput wanders from one interval to the next makes a
 * rewrite itself leave the 10% band, and then where a first write
 * "settles" is noise: it is told over the window its own rep's reference
 * holds still over (rp_steady_window), or said to be too noisy to tell.
 * A rep without a reference series is told at RP_STEADY_WINDOW.
 */
static enum pb_error steady_points(struct rp_group *g)
{
	struct series first = {0}, ref = {0};
	uint64_t before;
	enum pb_error err = PB_OK;
	size_t i, w;

	for (i = 0; i < g->nspan && !err; i++) {
		double target = g->span_target[i];

		err = series_load(&first, g->doc, g->span[i], g->span_len[i]);
		if (err)
			break;
		w = RP_STEADY_WINDOW;
		if (g->ref_span[i] && !isnan(target) &&
		    first.n >= RP_STEADY_MIN_INTERVALS) {
			err = series_load(&ref, g->doc, g->ref_span[i],
					  g->ref_span_len[i]);
			if (err)
				break;
			w = rp_steady_window(ref.bytes, ref.mib, ref.n,
					     g->ref_target[i],
					     RP_STEADY_WINDOW);
			if (!w) {
				g->nnoisy++;
				continue;
			}
		}
		/* against that rep's own rewrite: disks differ */
		switch (rp_steady_after(&before, first.bytes, first.mib,
					first.n, target, w)) {
		case RP_STEADY_SETTLED:
			g->steady[g->nsteady++] = (double)before;
			g->nsettled++;
			if (w > g->steady_window)
				g->steady_window = w;
			break;
		case RP_STEADY_NEVER:
			g->nnever++;
			if (w > g->steady_window)
				g->steady_window = w;
			break;
		case RP_STEADY_TOO_SHORT:
			if (isnan(target))
				break; /* no rewrite to settle to */
			if (!g->nshort || first.n < g->short_intervals)
				g->short_intervals = first.n;
			g->nshort++;
			break;
		}
	}
	free(first.bytes);
	free(first.mib);
	free(ref.bytes);
	free(ref.mib);
	return err;
}

static void finish_group(struct rp_group *g)
{
	unsigned k;

	g->first_med = rp_median(g->first, g->nfirst);
	rp_median_ci(&g->first_lo, &g->first_hi, g->first, g->nfirst);
	g->rewrite_med = rp_median(g->rewrite, g->nrewrite);
	rp_median_ci(&g->rewrite_lo, &g->rewrite_hi, g->rewrite, g->nrewrite);
	g->read_med = rp_median(g->read, g->nread);
	g->fsync_med = rp_median(g->fsync, g->nfsync);
	for (unsigned dk = 0; dk < RP_DEV__COUNT; dk++) {
		g->dev.first_med[dk] =
			rp_median(g->dev.first[dk], g->dev.nfirst);
		g->dev.later_med[dk] =
			rp_median(g->dev.later[dk], g->dev.nlater);
		g->hostdev.first_med[dk] =
			rp_median(g->hostdev.first[dk], g->hostdev.nfirst);
		g->hostdev.later_med[dk] =
			rp_median(g->hostdev.later[dk], g->hostdev.nlater);
	}
	for (unsigned sk = 0; sk < RP_SV__COUNT; sk++) {
		g->srv.first_med[sk] =
			rp_median(g->srv.first[sk], g->srv.nfirst[sk]);
		g->srv.later_med[sk] =
			rp_median(g->srv.later[sk], g->srv.nlater[sk]);
	}
	g->ext.alloc_med = rp_median(g->ext.alloc, g->ext.n);
	g->ext.conv_med = rp_median(g->ext.conv, g->ext.n);
	g->hostext.alloc_med = rp_median(g->hostext.alloc, g->hostext.n);
	g->hostext.conv_med = rp_median(g->hostext.conv, g->hostext.n);
	g->prov_med = rp_median(g->prov, g->nprov);
	/* each rep's first write paired stripe by stripe with rewrites
	 * milliseconds after: free of the host's drift between passes */
	g->penalty_paired = g->npaired && g->npaired == g->nfirst;
	/* its own, for now: cross_group takes the baseline's out */
	penalty_of(g, NULL);
	for (k = 0; k < RP_FIG__COUNT; k++)
		g->fig_med[k] = rp_median(g->fig[k], g->nfig[k]);
	for (k = 0; k < g->max_rewrites; k++)
		g->conv_med[k] = rp_median(g->conv[k], g->nconv[k]);
	steady_points(g);
	g->steady_med = rp_median(g->steady, g->nsteady);
	g->mkfs_med = rp_median(g->mkfs, g->nmkfs);
	g->reclaim_back_med = rp_median(g->reclaim_back, g->nreclaim);
	g->reclaim_s_med = rp_median(g->reclaim_s, g->nreclaim);
	g->rw_spread_med = rp_median(g->rw_spread, g->nrw_spread);
	g->stripe_vs_pass_med =
		rp_median(g->stripe_vs_pass, g->nstripe_vs_pass);
	g->cmd_med = rp_median(g->cmd, g->ncmd);
	rp_median_ci(&g->cmd_lo, &g->cmd_hi, g->cmd, g->ncmd);
	/* under RP_MIN_TELL repetitions a figure, never an interval:
	 * nothing can be said of noise with two values */
	if (g->nfirst < RP_MIN_TELL)
		g->first_lo = g->first_hi = NAN;
	if (g->nrewrite < RP_MIN_TELL)
		g->rewrite_lo = g->rewrite_hi = NAN;
	if (g->ncmd < 2)
		g->cmd_lo = g->cmd_hi = NAN;
	/* the page draws one rep's curve: that one series stays parsed */
	if (g->nspan)
		g->curve = jl_parse_span(g->doc, g->span[0], g->span_len[0]);
}

/*
 * The baseline asked for, unless the run has no figures of it (rdm
 * skipped without root for a loop device): then eager, the other mode
 * with nothing to zero, said as such, so ratios are still shown.
 */
static void choose_baseline(struct rp_model *m)
{
	const struct rp_group *g = NULL;
	size_t i;
	bool have = false, eager = false, made_other = false;

	if (!m->have_base_mode)
		return;
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *h = &m->g[i];

		/* a baseline is a mode that applied as asked: a raw-device
		 * mapping the server made as something else is not one */
		if (h->pmode == m->base_mode && h->first_med > 0 &&
		    !h->mismatch)
			have = true;
		if (h->pmode == m->base_mode && h->mismatch)
			made_other = true;
		if (h->pmode == m->base_mode && !g)
			g = h;
		if (h->pmode == PB_MODE_EAGER && h->first_med > 0 &&
		    !h->mismatch)
			eager = true;
	}
	if (have)
		return;
	if (!eager || m->base_mode == PB_MODE_EAGER) {
		if (made_other) {
			snprintf(m->base_note, sizeof(m->base_note),
				 "%s was made as %s, not as asked: no "
				 "baseline, no ratios",
				 m->baseline, g->applied);
			m->have_base_mode = false;
		}
		return;
	}
	if (made_other)
		snprintf(m->base_note, sizeof(m->base_note),
			 "%s was made as %s, not as asked: eager, which has "
			 "nothing left to zero either, is the baseline instead",
			 m->baseline, g->applied);
	else
		snprintf(m->base_note, sizeof(m->base_note),
			 "%s has no figures in this run%s%s%s: eager, which "
			 "has nothing left to zero either, is the baseline "
			 "instead",
			 m->baseline, g && g->first_error[0] ? " (" : "",
			 g && g->first_error[0] ? g->first_error : "",
			 g && g->first_error[0] ? ")" : "");
	m->base_mode = PB_MODE_EAGER;
	m->baseline = pb_mode_name(PB_MODE_EAGER);
}

/* Ratios to the baseline and eager's break-even need every group done. */
/* a / b of two groups' medians, and the interval of the share from each
 * side resampled on its own (none under two values a side) */
static void share(struct rp_share *out, const double *a, size_t na, double ma,
		  const double *b, size_t nb, double mb)
{
	out->v = out->lo = out->hi = NAN;
	if (!(ma > 0) || !(mb > 0))
		return;
	out->v = ma / mb;
	if (na >= RP_MIN_TELL && nb >= RP_MIN_TELL)
		rp_ratio_ci(&out->lo, &out->hi, a, na, b, nb);
}

/* g against ref, every pass kind; ref NULL: none */
static void shares_of(struct rp_shares *out, const struct rp_group *g,
		      const struct rp_group *ref)
{
	unsigned k;

	out->ref = ref;
	for (k = 0; k < RP_SH__COUNT; k++)
		out->s[k].v = out->s[k].lo = out->s[k].hi = NAN;
	if (!ref)
		return;
	share(&out->s[RP_SH_FIRST], g->first, g->nfirst, g->first_med,
	      ref->first, ref->nfirst, ref->first_med);
	share(&out->s[RP_SH_LATER], g->rewrite, g->nrewrite, g->rewrite_med,
	      ref->rewrite, ref->nrewrite, ref->rewrite_med);
	share(&out->s[RP_SH_READ], g->read, g->nread, g->read_med, ref->read,
	      ref->nread, ref->read_med);
	share(&out->s[RP_SH_FSYNC], g->fsync, g->nfsync, g->fsync_med,
	      ref->fsync, ref->nfsync, ref->fsync_med);
	share(&out->s[RP_SH_CMD], g->cmd, g->ncmd, g->cmd_med, ref->cmd,
	      ref->ncmd, ref->cmd_med);
}

/* the group of g's mode, point and workload on target t, or NULL */
static const struct rp_group *on_target(const struct rp_model *m,
					const struct rp_group *g, long long t)
{
	for (size_t i = 0; i < m->ng; i++)
		if (m->g[i].target == t && m->g[i].point == g->point &&
		    !strcmp(m->g[i].workload, g->workload) &&
		    m->g[i].pmode == g->pmode)
			return &m->g[i];
	return NULL;
}

/* host_baseline: g in the guest against the same mode and point on the
 * host twin of g's target */
static void host_twin(struct rp_model *m, struct rp_group *g)
{
	size_t t;

	for (t = 0; t < m->ntinfo && m->tinfo[t].host_of != g->target; t++)
		;
	shares_of(&g->host, g,
		  t < m->ntinfo ? on_target(m, g, (long long)t) : NULL);
}

/* Several targets: g against the same mode and point on the first target
 * (host twins are compared with their guests instead) */
static void arm_of(struct rp_model *m, struct rp_group *g)
{
	const struct rp_group *a = NULL;

	if (g->target != 0 && m->ntinfo >= 2 &&
	    !(g->target < (long long)m->ntinfo &&
	      m->tinfo[g->target].host_of >= 0) &&
	    m->tinfo[0].host_of < 0)
		a = on_target(m, g, 0);
	if (a && !(a->first_med > 0 && g->first_med > 0))
		a = NULL;
	shares_of(&g->arm, g, a);
}

static void cross_group(struct rp_model *m)
{
	size_t i;

	for (i = 0; i < m->ng; i++) {
		struct rp_group *g = &m->g[i];
		const struct rp_group *b =
			m->have_base_mode ? rp_sibling(m, g, m->base_mode)
					  : NULL;
		const struct rp_group *lz = rp_sibling(m, g, PB_MODE_LAZY);
		const struct rp_group *th = rp_sibling(m, g, PB_MODE_THIN);

		g->first_vs_base = g->rewrite_vs_base = g->cmd_vs_base = NAN;
		g->first_vs_base_lo = g->first_vs_base_hi = NAN;
		g->rewrite_vs_base_lo = g->rewrite_vs_base_hi = NAN;
		/* a command's time against the baseline's: 2.0 = twice as
		 * long */
		if (b && b->cmd_med > 0)
			g->cmd_vs_base = g->cmd_med / b->cmd_med;
		if (b && b->mismatch)
			b = NULL; /* not a baseline: choose_baseline said */
		/* the penalty less what the baseline's own first write
		 * shows (the baseline's own stays its own) */
		if (b && b != g)
			penalty_of(g, b);
		if (b && b->first_med > 0 && b->rewrite_med > 0) {
			m->have_baseline = true;
			g->first_vs_base = g->first_med / b->first_med;
			g->rewrite_vs_base = g->rewrite_med / b->rewrite_med;
			/* the baseline against itself is 1 by definition:
			 * no interval, nothing to call noise; one
			 * repetition on a side gives no interval either */
			if (g != b && g->nfirst >= RP_MIN_TELL &&
			    b->nfirst >= RP_MIN_TELL) {
				rp_ratio_ci(&g->first_vs_base_lo,
					    &g->first_vs_base_hi, g->first,
					    g->nfirst, b->first, b->nfirst);
				rp_ratio_ci(&g->rewrite_vs_base_lo,
					    &g->rewrite_vs_base_hi, g->rewrite,
					    g->nrewrite, b->rewrite,
					    b->nrewrite);
			}
		}
		host_twin(m, g);
		arm_of(m, g);
		g->be_lazy = g->be_thin = NAN;
		/* eager's provisioning against the others', each as asked:
		 * a disk made as another mode says nothing of either */
		if (g->pmode != PB_MODE_EAGER || isnan(g->first_med) ||
		    g->mismatch)
			continue;
		if (lz && lz->mismatch)
			lz = NULL;
		if (th && th->mismatch)
			th = NULL;
		if (lz)
			g->be_lazy =
				rp_breakeven_bytes(g->prov_med, g->first_med,
						   lz->prov_med, lz->first_med);
		if (th)
			g->be_thin =
				rp_breakeven_bytes(g->prov_med, g->first_med,
						   th->prov_med, th->first_med);
	}
}

const char *rp_group_status(const struct rp_group *g)
{
	if (g->nok)
		return g->nfailed ? "partial" : "ok";
	if (g->nskipped && !g->nfailed)
		return "skipped";
	return "failed";
}

size_t rp_across(const struct rp_model *m, const struct rp_group *g,
		 const struct rp_group **out, size_t max)
{
	size_t i, n = 0;

	/* groups are sorted by target: out comes in target order */
	for (i = 0; i < m->ng && n < max; i++) {
		const struct rp_group *h = &m->g[i];

		if (h->point == g->point && h->pmode == g->pmode &&
		    !strcmp(h->workload, g->workload))
			out[n++] = h;
	}
	return n;
}

const struct rp_group *rp_model_find(const struct rp_model *m,
				     const char *target, const char *workload,
				     const char *mode)
{
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (!strcmp(m->g[i].target_name, target) &&
		    !strcmp(m->g[i].workload, workload) &&
		    !strcmp(m->g[i].mode, mode))
			return &m->g[i];
	return NULL;
}

/* An item that did not measure (or that stalled once), kept for the
 * page's list: step and error as they say. */
static enum pb_error add_item_to(struct rp_failure **list, size_t *n,
				 size_t *cap, const struct rj_item *item,
				 const char *step, const char *error)
{
	struct rp_failure *f;

	if (pb_array_grow(list, cap, *n, sizeof(**list)))
		return PB_ERR_NOMEM;
	f = &(*list)[*n];
	f->mode = item->mode;
	f->rep = item->rep;
	f->point = item->point;
	f->status = item->status;
	f->target_name = strdup(item->target_name);
	f->workload = strdup(item->workload);
	f->step = strdup(step);
	f->error = strdup(error);
	(*n)++;
	return f->target_name && f->workload && f->step && f->error
		       ? PB_OK
		       : PB_ERR_NOMEM;
}

static enum pb_error add_failure(struct rp_model *m, const struct rj_item *item)
{
	return add_item_to(&m->fail, &m->nfail, &m->failcap, item, item->step,
			   item->error);
}

/* The order of the page and the files: by point, then in the profile's
 * "modes" order, so rows and colours stay put however the plan was
 * shuffled. */
static int mode_rank(const struct rp_model *m, enum pb_mode mode)
{
	json_t *modes = json_object_get(m->profile, "modes"), *v;
	size_t i;

	json_array_foreach(modes, i, v)
	{
		enum pb_mode pm;

		if (json_is_string(v) &&
		    pb_mode_parse(&pm, json_string_value(v)) && pm == mode)
			return (int)i;
	}
	return PB_MODE__COUNT + (int)mode; /* not in the profile: after */
}

static int group_cmp(const void *a, const void *b, void *model)
{
	const struct rp_group *x = a, *y = b;
	int rx = mode_rank(model, x->pmode);
	int ry = mode_rank(model, y->pmode);

	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	if (strcmp(x->workload, y->workload))
		return strcmp(x->workload, y->workload);
	return rx < ry ? -1 : rx > ry;
}

/* A place named in the environment: an object's "name", or a string. */
static void env_name(char *out, size_t len, json_t *env, const char *key)
{
	json_t *v = json_object_get(env, key);

	if (json_is_object(v))
		v = json_object_get(v, "name");
	snprintf(out, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

/* The number of the model's run being read. */
static size_t run_index(const struct rp_model *m)
{
	return m->cur == &m->rd ? 0 : (size_t)(m->cur - m->more) + 1;
}

/* One result item: its group's counts and values; then the sink's. */
static enum pb_error load_item(struct rp_model *m, const struct rj_item *item,
			       const struct rp_item_sink *sink)
{
	struct rp_group *g;
	enum pb_error err;

	g = group_for(m, item);
	if (!g || group_grow(g))
		return PB_ERR_NOMEM;
	g->nreps++;
	err = sink && sink->item ? sink->item(sink->arg, m, item) : PB_OK;
	if (!err && item->status != RJ_STATUS_OK)
		err = add_failure(m, item);
	if (!err && *item->retried)
		err = add_item_to(&m->retry, &m->nretry, &m->retrycap, item,
				  item->retried_diagnostics, item->retried);
	if (item->status == RJ_STATUS_SKIPPED) {
		g->nskipped++;
		if (!g->first_error[0])
			snprintf(g->first_error, sizeof(g->first_error), "%s",
				 item->error);
	} else if (item->status != RJ_STATUS_OK || !item->runner) {
		g->nfailed++;
		m->failed_items++;
		if (!g->first_error[0])
			snprintf(g->first_error, sizeof(g->first_error),
				 "%s: %s", rj_status_name(item->status),
				 item->error);
	} else {
		g->nok++;
		add_item(m, g, item);
		if (!err)
			err = rp_fleet_add(&m->fleet, m->cur, run_index(m),
					   item, g->workload);
	}
	return err;
}

/* The i-th run of the model: the first, or one merged with it. */
static struct rj_reader *run_reader(struct rp_model *m, size_t i)
{
	return i ? &m->more[i - 1] : &m->rd;
}

/* Is name already a target's, before target n? */
static bool name_taken(const struct rp_model *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m->tinfo[i].name, name))
			return true;
	return false;
}

/*
 * A run's targets as the report names them: the head's "targets", or (a
 * run before them) one, the run's environment. Merged with other runs,
 * each target stays its own, never pooled with another run's: one without
 * a name is named by its run's id, a name already taken gets "@run id".
 */
static enum pb_error load_targets(struct rp_model *m, struct rj_reader *rd,
				  size_t *base)
{
	size_t n = json_array_size(rd->targets), k = n ? n : 1, i;
	void *q = realloc(m->tinfo, (m->ntinfo + k) * sizeof(*m->tinfo));

	if (!q)
		return PB_ERR_NOMEM;
	m->tinfo = q;
	*base = m->ntinfo;
	for (i = 0; i < k; i++) {
		struct rp_target_info *t = &m->tinfo[m->ntinfo];
		json_t *env =
			n ? json_object_get(json_array_get(rd->targets, i),
					    RJ_K_ENVIRONMENT)
			  : rd->environment;
		const char *name = rj_target_name(rd, (long long)i);

		memset(t, 0, sizeof(*t));
		t->rd = rd;
		if (m->nmore && !*name)
			snprintf(t->name, sizeof(t->name), "%s", rd->run);
		else if (name_taken(m, m->ntinfo, name))
			snprintf(t->name, sizeof(t->name), "%s@%s", name,
				 rd->run);
		else
			snprintf(t->name, sizeof(t->name), "%s", name);
		t->places = n ? json_object_get(json_array_get(rd->targets, i),
						RJ_K_PLACES)
			      : NULL;
		t->host_of = rj_target_host_of(rd, (long long)i);
		if (t->host_of >= 0)
			t->host_of += (long long)*base;
		env_name(t->vm, sizeof(t->vm), env, "vm");
		env_name(t->datastore, sizeof(t->datastore), env, "datastore");
		m->ntinfo++;
	}
	return PB_OK;
}

/* Every item of one run into the model. */
static enum pb_error load_run(struct rp_model *m, struct rj_reader *rd,
			      const struct rp_item_sink *sink, char *errbuf)
{
	struct rj_item item;
	enum pb_error err;
	bool more = true;
	size_t base = 0;
	long long n;

	err = load_targets(m, rd, &base);
	n = (long long)(m->ntinfo - base);
	m->cur = rd;
	cur_doc = &rd->jd;
	if (!err && sink && sink->run)
		err = sink->run(sink->arg, m, base, m->ntinfo - base);
	while (!err) {
		err = rj_reader_next(rd, &item, &more, errbuf);
		if (!err && more && item.target >= n)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "%s: results[%zu]: target %lld: not in "
				      "\"targets\"",
				      rd->path, item.index, item.target);
		if (err || !more)
			break;
		item.target += (long long)base;
		item.target_name = m->tinfo[item.target].name;
		err = load_item(m, &item, sink);
		if (err)
			pb_fail(errbuf, err, "%s: results[%zu]: %s", rd->path,
				item.index, pb_strerror(err));
	}
	if (err == PB_ERR_NOMEM && !errbuf[0])
		pb_fail(errbuf, err, "out of memory");
	return err;
}

enum pb_error rp_model_load(struct rp_model *m, const char *dir,
			    const char *baseline,
			    const struct rp_item_sink *sink, char *errbuf)
{
	return rp_model_load_many(m, &dir, 1, false, baseline, sink, errbuf);
}

enum pb_error rp_model_load_many(struct rp_model *m, const char *const *dirs,
				 size_t ndirs, bool force, const char *baseline,
				 const struct rp_item_sink *sink, char *errbuf)
{
	enum pb_error err;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (ndirs > 1) {
		m->more = calloc(ndirs - 1, sizeof(*m->more));
		if (!m->more)
			return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = rj_reader_open(&m->rd, dirs[0], errbuf);
	/* every run is checked against the first before anything is read:
	 * a merge of different experiments is refused, naming why */
	for (i = 1; !err && i < ndirs; i++) {
		char differ[1024];

		err = rj_reader_open(&m->more[i - 1], dirs[i], errbuf);
		if (err)
			break;
		m->nmore = i;
		rp_runs_differ(differ, sizeof(differ), &m->rd, &m->more[i - 1],
			       false);
		if (differ[0] && !force)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "will not merge %s with %s: %s (--force "
				      "merges anyway)",
				      m->more[i - 1].run, m->rd.run, differ);
		else if (differ[0])
			rp_list_add(m->merge_note, sizeof(m->merge_note),
				    "%s: %s", m->more[i - 1].run, differ);
	}
	if (err)
		goto out;
	m->env = m->rd.environment;
	m->profile = m->rd.profile;
	/* the baseline asked on the command line, else the profile's (seed
	 * 001 compares with a physical RDM), else rdm */
	if (!baseline)
		baseline = json_string_value(
			json_object_get(m->profile, "baseline"));
	m->baseline = baseline ? baseline : pb_mode_name(PB_MODE_RDM);
	m->have_base_mode = pb_mode_parse(&m->base_mode, m->baseline);
	/* "units": "MB" prints rates as the field notes do (10^6 bytes a
	 * second); the figures underneath stay MiB/s */
	if (!strcmp(json_string_value(json_object_get(m->profile, "units"))
			    ? json_string_value(
				      json_object_get(m->profile, "units"))
			    : "",
		    "MB")) {
		m->rate_unit = "MB/s";
		m->rate_per_mib = 1.048576;
	} else {
		m->rate_unit = "MiB/s";
		m->rate_per_mib = 1.0;
	}
	m->run = m->rd.run;
	m->profile_name = m->rd.profile_name;
	m->backend = m->rd.backend;
	m->accel = m->rd.accel;
	m->version = m->rd.version;
	m->commit = m->rd.commit;
	m->started_at = m->rd.started_at;
	env_name(m->vm, sizeof(m->vm), m->env, "vm");
	env_name(m->datastore, sizeof(m->datastore), m->env, "datastore");
	for (i = 0; !err && i < ndirs; i++)
		err = load_run(m, run_reader(m, i), sink, errbuf);
	if (err)
		goto out;
	/* finished and uninterrupted only if every merged run was */
	m->updated_at = m->rd.updated_at;
	m->finished = true;
	for (i = 0; i < ndirs; i++) {
		m->finished &= run_reader(m, i)->finished;
		m->interrupted |= run_reader(m, i)->interrupted;
	}
	for (i = 0; i < m->ng; i++)
		finish_group(&m->g[i]);
	if (m->ng > 1)
		qsort_r(m->g, m->ng, sizeof(*m->g), group_cmp, m);
	choose_baseline(m);
	cross_group(m);
	rp_model_warmup(m, NULL);
	/* one place (a target and workload point): sentences and tables
	 * need not name it in every line */
	for (i = 1; i < m->ng; i++)
		if (!rp_same_place(&m->g[i], m->g[0].target, m->g[0].point,
				   m->g[0].workload))
			break;
	if (m->ng && i == m->ng)
		for (i = 0; i < m->ng; i++)
			m->g[i].where[0] = '\0';
	err = rp_fleet_build(&m->fleet, m->ntinfo);
	if (err)
		pb_fail(errbuf, err, "out of memory");
out:
	/* a model that failed to load holds nothing */
	if (err)
		rp_model_dispose(m);
	return err;
}

double rp_rate(const struct rp_model *m, double mib_per_s)
{
	return mib_per_s * (m->rate_per_mib > 0 ? m->rate_per_mib : 1.0);
}

const char *rp_later_name(const struct rp_model *m)
{
	return m->later_set && m->later == RUNNER_PASS_RECREATE ? "recreate"
								: "rewrite";
}

void rp_later_words(char *text, size_t len, const struct rp_model *m)
{
	char *p = text;

	if (!m->later_set || m->later != RUNNER_PASS_RECREATE)
		return;
	/* "rewrite" and "recreate" are one letter apart in length */
	while ((p = strstr(p, "rewrite")) && strlen(text) + 1 < len) {
		memmove(p + 8, p + 7, strlen(p + 7) + 1);
		memcpy(p, "recreate", 8);
		p += 8;
	}
}

void rp_model_dispose(struct rp_model *m)
{
	size_t i, k;

	free(m->tinfo);
	for (i = 0; m->more && i < m->nmore; i++)
		rj_reader_dispose(&m->more[i]);
	free(m->more);
	for (i = 0; m->g && i < m->ng; i++) {
		struct rp_group *g = &m->g[i];

		for (k = 0; k < sizeof(per_item) / sizeof(per_item[0]); k++)
			for (size_t j = 0; j < per_item[k].n; j++)
				free(*per_item_array(g, k, j));
		free(g->workload);
		free(g->target_name);
		free(g->where);
		free(g->applied_why);
	}
	free(m->g);
	for (i = 0; m->fail && i < m->nfail; i++) {
		free(m->fail[i].workload);
		free(m->fail[i].target_name);
		free(m->fail[i].step);
		free(m->fail[i].error);
	}
	free(m->fail);
	for (i = 0; m->retry && i < m->nretry; i++) {
		free(m->retry[i].workload);
		free(m->retry[i].target_name);
		free(m->retry[i].step);
		free(m->retry[i].error);
	}
	free(m->retry);
	free(m->command);
	rp_fleet_dispose(&m->fleet);
	rj_reader_dispose(&m->rd);
	memset(m, 0, sizeof(*m));
}

/* ---- CSV ---- */

/* Why two runs' figures do not compare: "" when they do. */
/*
 * How two runs differ in what makes their figures comparable ("" when
 * they do not): for a comparison also the profile's name, for a merge
 * its modes (a merge's targets differ by design).
 */
void rp_runs_differ(char *out, size_t len, const struct rj_reader *m,
		    const struct rj_reader *old, bool compare)
{
	static const char *const keys[] = {"disk_size", "workload",   "matrix",
					   "command",	"filesystem", "modes"};
	size_t i, nkeys = sizeof(keys) / sizeof(keys[0]) - (compare ? 1 : 0);

	out[0] = '\0';
	if (strcmp(m->backend, old->backend))
		rp_list_add(out, len, "backend %s, then %s", m->backend,
			    old->backend);
	if (strcmp(m->accel, old->accel))
		rp_list_add(out, len, "accelerator %s, then %s",
			    *m->accel ? m->accel : "none",
			    *old->accel ? old->accel : "none");
	if (compare && strcmp(m->profile_name, old->profile_name))
		rp_list_add(out, len, "profile %s, then %s", m->profile_name,
			    old->profile_name);
	for (i = 0; i < nkeys; i++) {
		json_t *a = json_object_get(m->profile, keys[i]);
		json_t *b = json_object_get(old->profile, keys[i]);

		if (!(a == b || (a && b && json_equal(a, b))))
			rp_list_add(out, len, "the profile's %s differs",
				    keys[i]);
	}
}

enum pb_error rp_compare_check(char *note, size_t len, const struct rp_model *m,
			       const struct rp_model *old, const char *old_dir,
			       bool force, char *errbuf)
{
	note[0] = '\0';
	/* a run against itself (a copy, a link, the same path) says
	 * nothing: every change would be zero, and read as "no change" */
	if (*m->run && !strcmp(m->run, old->run))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--compare: %s is the run itself (%s): compare "
			       "it with another run",
			       old_dir, m->run);
	rp_runs_differ(note, len, &m->rd, &old->rd, true);
	if (note[0] && !force)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "will not compare with %s: %s (--force "
			       "compares anyway)",
			       old->run, note);
	return PB_OK;
}

/* One more item of a "; "-separated list in out (cut at len). */
void rp_list_add(char *out, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(out, len);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(out + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	if (n < len)
		vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
}

void rp_model_warmup(struct rp_model *m, const struct rp_pts *rules)
{
	static const struct rp_pts def = RP_PTS_INIT;
	size_t i, k;

	m->pts = rules ? *rules : def;
	for (i = 0; i < m->ng; i++) {
		struct rp_group *g = &m->g[i];
		double series[RP_MAX_REWRITES + 1];
		size_t n = 0;

		/* the first write, then each rewrite (each pass's median
		 * over repetitions); a first write in stripe pairs drains
		 * its queue after each stripe, so its rate is not a pass's
		 * and the series starts at rewrite 1 */
		g->pts_from = g->penalty_paired ? 1 : 0;
		if (!isnan(g->first_med) && !g->penalty_paired)
			series[n++] = g->first_med;
		for (k = 0; k < g->max_rewrites && n <= RP_MAX_REWRITES; k++)
			series[n++] = g->conv_med[k];
		g->pts_n = n;
		g->pts_window = rp_pts_window(&m->pts, n);
		g->pts_at = n >= 2 ? rp_pts_steady(series, n, &m->pts) : -2;
		g->pts_pass =
			g->pts_at >= 0 ? g->pts_at + (int)g->pts_from : -1;
		g->pts_firstv = n ? series[0] : NAN;
		g->pts_lastv = n ? series[n - 1] : NAN;
	}
}
