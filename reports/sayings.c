/*
 * sayings.c - the saying floor: the findings that tell where a first
 * write's time went (the device's requests, a file's extents, the
 * server's counters), what a reclaim gave back and what the next write
 * paid, a place against another (a guest against its host, arms), and
 * what a run did beside its figures (items failed or retried, passes left
 * out, targets that shared a place).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "findings.h"
#include "fleet.h"
#include "model.h"
#include "words.h"
#include "words_int.h"

/* "first write 0.50x [0.30-0.53]": a ratio, and whether the finding
 * judged it within noise (never judged here) */
static void ratio(char *out, size_t len, const char *what, double v, double lo,
		  double hi, enum rp_sig sig)
{
	pb_cat(out, len, "%s %.2fx", what, v);
	if (!isnan(lo))
		pb_cat(out, len, " [%.2f-%.2f]%s", lo, hi,
		       sig == RP_SIG_NOISE ? " (within noise)" : "");
}

/* "; read 1.27x [1.19-1.34], beyond noise": one share of a pass kind,
 * nothing when it has no figure */
void rp_share_said(char *out, size_t len, const char *what, double v, double lo,
		   double hi)
{
	if (isnan(v))
		return;
	pb_cat(out, len, "; %s %.2fx", what, v);
	if (isnan(lo))
		return;
	pb_cat(out, len, " [%.2f-%.2f], %s", lo, hi,
	       lo <= 1.0 && hi >= 1.0 ? "within noise" : "beyond noise");
}

/* "first write 0.05-0.33x (3 of 3 beyond noise)" */
static void range_said(char *out, size_t len, const char *what, double a,
		       double b, unsigned yes, size_t n, bool first)
{
	if (isnan(a))
		return;
	pb_cat(out, len, "%s%s ", first ? "" : ", ", what);
	if (a == b || fabs(a - b) < 0.005)
		pb_cat(out, len, "%.2fx", a);
	else
		pb_cat(out, len, "%.2f-%.2fx", a, b);
	if (!yes)
		pb_cat(out, len, " (within noise)");
	else if (yes == n)
		pb_cat(out, len, " (beyond noise)");
	else
		pb_cat(out, len, " (%u of %zu modes beyond noise)", yes, n);
}

/* RP_F_H_HOST, RP_F_H_ARM: a comparison's shares, over its modes */
void rp_say_compare_line(char *out, size_t len, const struct rp_finding *f)
{
	static const struct {
		enum rp_share_kind k;
		const char *what;
	} rates[] = {{RP_SH_FIRST, "first write"},
		     {RP_SH_READ, "read"},
		     {RP_SH_FSYNC, "fsync-write"}};
	bool first = true;
	double a = f->ra[RP_SH_CMD], b = f->rb[RP_SH_CMD];
	unsigned yes = f->yes[RP_SH_CMD];

	if (f->kind == RP_F_H_HOST)
		snprintf(out, len, "the guest against the host: ");
	else
		snprintf(out, len, "%s against %s: ", f->g->target_name,
			 *f->h->target_name ? f->h->target_name : "the first");
	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (!isnan(f->ra[rates[i].k])) {
			range_said(out, len, rates[i].what, f->ra[rates[i].k],
				   f->rb[rates[i].k], f->yes[rates[i].k], f->n,
				   first);
			first = false;
		}
	/* a time: larger is slower, said as such */
	if (isnan(a))
		return;
	pb_cat(out, len, "; the command takes ");
	if (fabs(a - b) < 0.05)
		pb_cat(out, len, "%.1fx", a);
	else
		pb_cat(out, len, "%.1f-%.1fx", a, b);
	pb_cat(out, len, " as long%s",
	       !yes	     ? " (within noise)"
	       : yes == f->n ? " (beyond noise)"
			     : " (not beyond noise for every mode)");
}

/* the kinds after the first write, each said when it has a figure */
static void shares_said(char *out, size_t len, const struct rp_shares *sh,
			bool later)
{
	if (later)
		rp_share_said(out, len, "rewrite", sh->s[RP_SH_LATER].v,
			      sh->s[RP_SH_LATER].lo, sh->s[RP_SH_LATER].hi);
	rp_share_said(out, len, "read", sh->s[RP_SH_READ].v,
		      sh->s[RP_SH_READ].lo, sh->s[RP_SH_READ].hi);
	rp_share_said(out, len, "fsync-write", sh->s[RP_SH_FSYNC].v,
		      sh->s[RP_SH_FSYNC].lo, sh->s[RP_SH_FSYNC].hi);
	rp_share_said(out, len, "the command's time", sh->s[RP_SH_CMD].v,
		      sh->s[RP_SH_CMD].lo, sh->s[RP_SH_CMD].hi);
}

void rp_say_vs_baseline(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;
	const char *o = s->o;

	snprintf(out, len, "%s against %s: ", l, o);
	ratio(out, len, "first write", f->v, f->lo, f->hi, f->sig);
	ratio(out, len, ", rewrite", f->v2, f->lo2, f->hi2, f->sig2);
	if (f->sig == RP_SIG_FEW) {
		char nr[32];

		pb_cat(out, len, " (%s: no interval)",
		       rp_reps_few(nr, sizeof(nr), f->g->nfirst));
	}
}

void rp_say_vs_host(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;

	/* "thin in the guest: 0.91x the host's first write [0.88-0.93]
	 * (1478.4 against 1633.4 MiB/s), 0.97x its rewrite [...],
	 * beyond noise; read ..." */
	const struct rp_share *w = &f->g->host.s[RP_SH_LATER];
	char a[64] = "", b[64] = "";

	if (!isnan(f->lo))
		snprintf(a, sizeof(a), " [%.2f-%.2f]", f->lo, f->hi);
	if (!isnan(w->lo))
		snprintf(b, sizeof(b), " [%.2f-%.2f]", w->lo, w->hi);
	snprintf(out, len,
		 "%s in the guest: %.2fx the host's first write%s "
		 "(%.1f against %.1f %s)",
		 f->g->mode, f->v, a, rp_rate(m, f->g->first_med),
		 rp_rate(m, f->h->first_med), m->rate_unit);
	if (!isnan(w->v))
		pb_cat(out, len, ", %.2fx its rewrite%s", w->v, b);
	pb_cat(out, len, "%s",
	       f->sig == RP_SIG_FEW	? " (too few repetitions: no "
					  "interval)"
	       : f->sig == RP_SIG_NOISE ? ", within noise of the host"
					: ", beyond noise");
	shares_said(out, len, &f->g->host, false);
}

void rp_say_arm(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;

	/* "thin on mem_file=true: first write 0.86x mem_file=false's
	 * [0.83-0.89] (120.2 against 140.4 MiB/s), beyond noise;
	 * rewrite 0.95x [0.90-1.01], within noise" */
	char a[64] = "";

	if (!isnan(f->lo))
		snprintf(a, sizeof(a), " [%.2f-%.2f]", f->lo, f->hi);
	snprintf(out, len,
		 "%s on %s: first write %.2fx %s's%s (%.1f against "
		 "%.1f %s)%s",
		 f->g->mode, f->g->target_name, f->v,
		 *f->h->target_name ? f->h->target_name : "the first", a,
		 rp_rate(m, f->g->first_med), rp_rate(m, f->h->first_med),
		 m->rate_unit,
		 f->sig == RP_SIG_FEW	  ? " (too few repetitions: "
					    "no interval)"
		 : f->sig == RP_SIG_NOISE ? ", within noise"
					  : ", beyond noise");
	shares_said(out, len, &f->g->arm, true);
}

/* "2,000", "5,000,000" */
static const char *thousands(char *buf, size_t len, double v)
{
	long long n = llround(v);

	if (n >= 1000) {
		thousands(buf, len, (double)(n / 1000));
		pb_cat(buf, len, ",%03lld", n % 1000);
	} else {
		snprintf(buf, len, "%lld", n);
	}
	return buf;
}

/*
 * "thin: at 2,000 IOPS offered (8 KiB rand writes), a first write's
 * p99.9 is 14.2 ms against 0.9 ms on rewrite: +13.1 ms [9.0 to 17.2],
 * beyond noise, less rdm's own; p50 +0.1 ms, p99 +6.2 ms; 96 stalls
 * over 10 ms against 0 (5 repetitions)"
 */
void rp_say_tail(const struct said *s)
{
	char *out = s->out, r[32], nr[32];
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const struct rp_tail *t = &f->g->tail;

	snprintf(out, len,
		 "%s: at %s IOPS offered, a first write's p99.9 is %.2f ms "
		 "against %.2f ms on rewrite (medians); first less rewrite, "
		 "a mean over repetitions: %+.2f ms",
		 s->l, thousands(r, sizeof(r), f->x), f->v, f->v2,
		 t->d[RP_TL_P999]);
	if (f->sig == RP_SIG_FEW)
		pb_cat(out, len, " (%s: no interval)",
		       rp_reps_few(nr, sizeof(nr), t->n));
	else
		pb_cat(out, len, " [%+.2f to %+.2f], %s", f->lo, f->hi,
		       f->sig == RP_SIG_YES ? "beyond noise" : "within noise");
	if (f->h)
		pb_cat(out, len, ", less %s's own", s->o);
	pb_cat(out, len, "; p50 %+.2f ms, p99 %+.2f ms", t->d[RP_TL_P50],
	       t->d[RP_TL_P99]);
	if (t->stall_us > 0)
		pb_cat(out, len, "; %.0f stalls over %.0f ms against %.0f",
		       t->first_med[RP_TL_STALLS], t->stall_us / 1e3,
		       t->later_med[RP_TL_STALLS]);
	pb_cat(out, len,
	       " (latency from each I/O's intended start, %zu "
	       "repetition%s)",
	       t->n, t->n == 1 ? "" : "s");
}

/* a side's headroom: "up to 1,000 IOPS", "up to 4,000, the highest
 * swept", "at none of the rates swept" */
static void room_side(char *out, size_t len, double to, double hi)
{
	char r[32];

	if (!(to > 0))
		snprintf(out, len, "at none of the rates swept");
	else
		snprintf(out, len, "up to %s IOPS%s",
			 thousands(r, sizeof(r), to),
			 to >= hi ? ", the highest swept" : "");
}

/* "thin: for a p99.9 under 5 ms, a first write keeps it up to 1,000
 * IOPS offered, a rewrite up to 4,000 IOPS, the highest swept (4 rates
 * from 500 to 4,000 IOPS; each rate's median over its repetitions, a
 * rate not held keeping nothing)" */
void rp_say_headroom(const struct said *s)
{
	const struct rp_finding *f = s->f;
	char w[512], first[96], later[96], lo[32], hi[32];

	rp_workload_rate_free(w, sizeof(w), f->g->workload);
	room_side(first, sizeof(first), f->v, f->hi);
	room_side(later, sizeof(later), f->v2, f->hi);
	snprintf(s->out, s->len, "%s%s%s%s: for a p99.9 under %g ms, ",
		 f->g->mode, w[0] ? " (" : "", w, w[0] ? ")" : "", f->x);
	/* one side said once when both went as far */
	if (f->v == f->v2)
		pb_cat(s->out, s->len,
		       "a first write and a rewrite both keep "
		       "it %s",
		       first);
	else
		pb_cat(s->out, s->len,
		       "a first write keeps it %s, a rewrite %s", first, later);
	pb_cat(s->out, s->len,
	       " (%zu rates from %s to %s IOPS; each rate's median over its "
	       "repetitions, a rate not held keeping nothing)",
	       f->n, thousands(lo, sizeof(lo), f->lo),
	       thousands(hi, sizeof(hi), f->hi));
}

/* "thin: 3 passes could not hold 2,000 IOPS offered (1,420 at the
 * least): no latency at that rate is said for them" */
void rp_say_tail_unheld(const struct said *s)
{
	char r[32], a[32];

	snprintf(s->out, s->len,
		 "%s: %zu pass%s could not hold the %s IOPS offered (%s at "
		 "the least): no latency at that rate is said for %s",
		 s->l, s->f->n, s->f->n == 1 ? "" : "es",
		 thousands(r, sizeof(r), s->f->x),
		 thousands(a, sizeof(a), s->f->v),
		 s->f->n == 1 ? "it" : "them");
}

void rp_say_device(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	/* "thin at the device (vda): a first write's requests took
	 * 2.57 ms on average against 1.63 ms in the rewrites (1.58x
	 * [1.11-2.08], beyond noise); it wrote 1.00x the bytes" */
	const struct rp_devtime *d = f->n ? &f->g->hostdev : &f->g->dev;
	char nr[32];

	snprintf(out, len,
		 "%s at the %sdevice (%s): a first write's requests "
		 "took %.2f ms on average against %.2f ms in the "
		 "rewrites (%.2fx",
		 l, f->n ? "host's " : "", *d->name ? d->name : "?", f->v,
		 f->v2, f->x);
	if (!isnan(f->lo))
		pb_cat(out, len, " [%.2f-%.2f], %s", f->lo, f->hi,
		       f->sig == RP_SIG_NOISE ? "within noise"
					      : "beyond noise");
	else
		pb_cat(out, len, "; %s: no interval",
		       rp_reps_few(nr, sizeof(nr), d->nfirst));
	pb_cat(out, len,
	       "); it wrote %.2fx the bytes the runner wrote (%.2fx in "
	       "the rewrites)",
	       d->first_med[RP_DEV_AMP], d->later_med[RP_DEV_AMP]);
	if (!isnan(d->first_med[RP_DEV_CPU]) &&
	    !isnan(d->later_med[RP_DEV_CPU]))
		pb_cat(out, len,
		       "; qemu used %.3f ms of CPU per write against %.3f "
		       "in the rewrites",
		       d->first_med[RP_DEV_CPU], d->later_med[RP_DEV_CPU]);
}

void rp_extents_phrase(char *out, size_t len, const struct rp_finding *f)
{
	char al[32], cv[32];

	pb_size_format(al, sizeof(al), (uint64_t)f->v);
	pb_size_format(cv, sizeof(cv), (uint64_t)f->v2);
	if (f->v > 0 && f->v2 > 0)
		snprintf(out, len,
			 "had the filesystem allocate %s (holes filled) and "
			 "convert %s of unwritten extents to written",
			 al, cv);
	else if (f->v > 0)
		snprintf(out, len,
			 "had the filesystem allocate %s (holes filled)", al);
	else if (f->v2 > 0)
		snprintf(out, len,
			 "had the filesystem convert %s of unwritten extents "
			 "to written",
			 cv);
	else
		snprintf(out, len,
			 "found every block written before (nothing "
			 "allocated or converted)");
}

void rp_say_extents(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	/* "thin in its file: the first write had the filesystem
	 * allocate 256 MiB (holes filled); 3 extents after it; the
	 * later writes found it in place" */
	char what[256], lt[32];

	rp_extents_phrase(what, sizeof(what), f);
	snprintf(out, len, "%s in %s: the first write %s", l,
		 f->n ? "its disk's file on the host" : "its file", what);
	pb_cat(out, len, "; %.0f extent%s after it", f->x,
	       f->x == 1 ? "" : "s");
	if (!isnan(f->lo) && f->lo > 0)
		pb_cat(out, len, "; the later writes changed %s",
		       pb_size_format(lt, sizeof(lt), (uint64_t)f->lo));
	else if (!isnan(f->lo))
		pb_cat(out, len, "; the later writes found it in place");
}

void rp_say_server(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;
	const char *l = s->l;

	/* "thin at the server (scsi0:1, LUN naa.x): a first write's
	 * device write latency 5.0 ms against 4.0 ms in the rewrites
	 * (1.25x [1.10-1.40], beyond noise); kernel 0.1 against 0.1
	 * ms, queue 0.0 against 0.0 ms, the virtual disk 6.0 against
	 * 4.5 ms; CPU 0.400 against 0.300 ms per write" */
	static const char *const what[RP_SV__COUNT] = {
		[RP_SV_GUEST_MS] = "the guest (the runner)",
		[RP_SV_VDISK_MS] = "the virtual disk",
		[RP_SV_KERNEL_MS] = "kernel",
		[RP_SV_DEVICE_MS] = "device",
		[RP_SV_QUEUE_MS] = "queue",
		[RP_SV_DS_MS] = "the datastore",
	};
	const struct rp_server *v = &f->g->srv;
	const char *later = rp_later_name(m);

	snprintf(out, len,
		 "%s at the server (%s%s%s): a first write's %s write "
		 "latency %.2f ms against %.2f ms in the %ss",
		 l, *v->vdisk ? v->vdisk : "?", *v->lun ? ", LUN " : "", v->lun,
		 f->n == RP_SV_DEVICE_MS ? "device"
		 : f->n == RP_SV_DS_MS	 ? "datastore"
					 : "virtual disk",
		 f->v, f->v2, later);
	if (!isnan(f->lo))
		pb_cat(out, len, " (%.2fx [%.2f-%.2f], %s)", f->x, f->lo, f->hi,
		       f->sig == RP_SIG_NOISE ? "within noise"
					      : "beyond noise");
	else if (!isnan(f->x))
		pb_cat(out, len,
		       " (%.2fx; too few repetitions: no "
		       "interval)",
		       f->x);
	for (unsigned k = 0; k < RP_SV_CPU; k++) {
		if (k == (unsigned)f->n || isnan(v->first_med[k]) ||
		    isnan(v->later_med[k]))
			continue;
		pb_cat(out, len, "; %s %.2f against %.2f ms", what[k],
		       v->first_med[k], v->later_med[k]);
	}
	if (!isnan(v->first_med[RP_SV_CPU]) && !isnan(v->later_med[RP_SV_CPU]))
		pb_cat(out, len,
		       "; the VM's CPU %.3f against %.3f ms per write",
		       v->first_med[RP_SV_CPU], v->later_med[RP_SV_CPU]);
	/* where the first write's extra time is, said only when the
	 * difference is beyond noise: the layer that grew most */
	if (f->sig == RP_SIG_YES) {
		static const char *const at[RP_SV__COUNT] = {
			[RP_SV_KERNEL_MS] = "in the VMkernel",
			[RP_SV_DEVICE_MS] = "in the device",
			[RP_SV_QUEUE_MS] = "in the queue",
		};
		unsigned best = RP_SV__COUNT;
		double d, bd = 0;

		for (unsigned k = RP_SV_KERNEL_MS; k <= RP_SV_QUEUE_MS; k++) {
			d = v->first_med[k] - v->later_med[k];
			if (!isnan(d) && d > bd) {
				bd = d;
				best = k;
			}
		}
		if (best < RP_SV__COUNT)
			pb_cat(out, len,
			       ": the first write's extra time is %s "
			       "(+%.2f ms a write)",
			       at[best], bd);
	}
}

void rp_say_server_short(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	if (f->x > 0)
		snprintf(out, len,
			 "the server's counters cannot tell where the "
			 "time went: every write pass was shorter than "
			 "two "
			 "of its %.0f s samples (the longest %.1f s); "
			 "a pass needs %.0f s to hold a sample of its "
			 "own (a larger disk, or passes of the same "
			 "disk that take longer)",
			 f->v / 2, f->x, f->v);
	else
		snprintf(out, len,
			 "the server's counters could not be read: %s",
			 *f->detail ? f->detail : "?");
}

void rp_say_after_reclaim(const struct said *s)
{
	snprintf(s->out, s->len,
		 "%.0f pass%s after a reclaim (the first write again and what "
		 "followed it) %s not in these figures: a second cycle is "
		 "another workload, whose cost the re-warm lines say "
		 "(run.json and report.csv keep each pass)",
		 s->f->x, s->f->x == 1 ? "" : "es",
		 s->f->x == 1 ? "is" : "are");
}

/*
 * "thin: a reclaim (punch-hole) gave back 64 MiB of its file in 0.01 s,
 * read back from its extents (median of 3)"; eager and lazy files that
 * gave blocks back turned sparse, which a real disk of theirs does not
 */
void rp_say_reclaimed(const struct said *s)
{
	const struct rp_finding *f = s->f;
	char sz[32], med[40] = "";
	bool thick =
		f->g->pmode == PB_MODE_EAGER || f->g->pmode == PB_MODE_LAZY;
	/* a raw mapping's stand-in: a loop device over a written file */
	bool raw = pb_mode_is_raw_mapping(f->g->pmode);
	const char *where = f->g->reclaim_where ? f->g->reclaim_where : "file";

	if (f->x > 1)
		snprintf(med, sizeof(med), " (median of %.0f)", f->x);
	if (!f->n) {
		snprintf(s->out, s->len, "%s: the reclaim was not done (%s)",
			 s->l, *f->detail ? f->detail : "not said why");
		return;
	}
	if (isnan(f->v)) {
		snprintf(s->out, s->len,
			 "%s: a reclaim (%s) discarded the region in %.2f s%s; "
			 "whether the space came back is not read back here",
			 s->l, f->metric ? f->metric : "?", f->v2, med);
		return;
	}
	pb_size_format(sz, sizeof(sz), f->v > 0 ? (uint64_t)f->v : 0);
	snprintf(s->out, s->len,
		 "%s: a reclaim (%s) gave back %s of its %s in %.2f s, read "
		 "back from %s%s%s",
		 s->l, f->metric ? f->metric : "?", sz, where, f->v2,
		 strstr(where, "datastore") ? "the server" : "its extents", med,
		 !(f->v > 0) ? ""
		 : thick     ? ": the file turned sparse, a thin disk's from "
			       "then on (a real disk of this mode keeps its "
			       "blocks)"
		 : raw	     ? ": the LUN's file turned sparse, a thin LUN's "
			       "from then on (as an array's thin LUN that "
			       "honours UNMAP)"
			     : "");
}

/* what gave the space back, as the re-warm line starts */
static void rewarm_after(char *out, size_t len, const struct rp_finding *f,
			 const char *l)
{
	const struct rp_group *g = f->g;
	char sz[32];

	if (!g->nreclaim_done) {
		snprintf(out, len, "%s: after a reclaim that was not done", l);
	} else if (isnan(f->x)) {
		snprintf(out, len, "%s: after a reclaim (%s) in %.2f s", l,
			 g->reclaim_method ? g->reclaim_method : "?",
			 g->reclaim_s_med);
	} else if (!(f->x > 0)) {
		snprintf(out, len, "%s: with no space given back", l);
	} else {
		pb_size_format(sz, sizeof(sz), (uint64_t)f->x);
		snprintf(out, len, "%s: after %s reclaimed in %.2f s", l, sz,
			 g->reclaim_s_med);
	}
}

/*
 * "thin: after 1 GiB reclaimed in 0.01 s, the next write paid 31%
 * [26-36%] again (the first write 33%: the same within noise)";
 * "eager: with no space given back, the next write found its blocks:
 * 1% [-2 to 4%] over a rewrite, within noise". Found its blocks is said
 * only where nothing was given back; a cost within noise of a rewrite
 * and of the first write alike is said as not told.
 */
void rp_say_rewarm(const struct said *s)
{
	const struct rp_finding *f = s->f;
	const struct rp_group *g = f->g;
	bool kept = !g->nreclaim_done || (!isnan(f->x) && !(f->x > 0));
	char p[32], iv[48], p1[32];

	rewarm_after(s->out, s->len, f, s->l);
	rp_pct_text(p, sizeof(p), f->v);
	rp_pct_interval(iv, sizeof(iv), f->lo, f->hi);
	rp_pct_text(p1, sizeof(p1), g->penalty);
	if (f->sig == RP_SIG_FEW) {
		pb_cat(s->out, s->len,
		       ", the next write cost %s over a rewrite (%s: no "
		       "interval, too few to tell noise)",
		       p, rp_reps_few(iv, sizeof(iv), f->n));
	} else if (f->sig == RP_SIG_YES && f->v > 0) {
		pb_cat(s->out, s->len, ", the next write paid %s %s again", p,
		       iv);
	} else if (kept) {
		pb_cat(s->out, s->len,
		       ", the next write found its blocks: %s %s over a "
		       "rewrite%s",
		       p, iv, f->sig == RP_SIG_NOISE ? ", within noise" : "");
	} else if (f->sig2 == RP_SIG_NOISE) {
		pb_cat(s->out, s->len,
		       ", whether the next write paid again cannot be told: %s "
		       "%s "
		       "over a rewrite, within noise of a rewrite and of the "
		       "first write (%s)",
		       p, iv, p1);
		goto out;
	} else {
		pb_cat(s->out, s->len,
		       ", the next write paid no more than a rewrite: %s %s%s",
		       p, iv, f->sig == RP_SIG_NOISE ? ", within noise" : "");
	}
	if (f->sig2 == RP_SIG_NOISE) {
		pb_cat(s->out, s->len,
		       " (the first write %s: the same within noise)", p1);
	} else if (f->sig2 == RP_SIG_YES) {
		rp_pct_text(p, sizeof(p), fabs(f->v2));
		rp_pct_interval(iv, sizeof(iv), f->v2 > 0 ? f->lo2 : -f->hi2,
				f->v2 > 0 ? f->hi2 : -f->lo2);
		pb_cat(s->out, s->len,
		       " (the first write %s; this one took %s %s %s)", p1, p,
		       iv, f->v2 > 0 ? "longer" : "less time");
	} else if (!isnan(g->penalty)) {
		pb_cat(s->out, s->len, " (the first write %s)", p1);
	}
out:
	if (f->h)
		pb_cat(s->out, s->len, ", less what %s's first write shows",
		       f->h->mode);
}

void rp_say_unpooled(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_model *m = s->m;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "%.0f %s pass%s not in these figures: the later "
		 "writes here are %ss, and a %s is another workload "
		 "(run.json keeps each pass)",
		 f->x, m->later == RUNNER_PASS_REWRITE ? "recreate" : "rewrite",
		 f->x == 1 ? " is" : "es are", rp_later_name(m),
		 m->later == RUNNER_PASS_REWRITE ? "recreate" : "rewrite");
}

void rp_say_failed_items(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "%.0f item%s failed: the figures are from what did "
		 "run (see the list of failed items)",
		 f->x, f->x == 1 ? "" : "s");
}

void rp_say_fleet_place(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len, "%s", f->detail);
}

void rp_say_retried(const struct said *s)
{
	char *out = s->out;
	size_t len = s->len;
	const struct rp_finding *f = s->f;

	snprintf(out, len,
		 "%s, repetition %.0f: its first try stalled (%s); its "
		 "figures are a second try's, on a new disk",
		 f->detail, f->x, f->metric);
}

void rp_fleet_agg_text(char *out, size_t len, const struct rp_model *m,
		       const struct rp_fleet_row *r)
{
	/* in the run's unit, as every page's rates */
	if (r->nagg && r->nagg > 1)
		snprintf(out, len, "%.1f %s [%.1f-%.1f] over %.2f s",
			 rp_rate(m, r->agg_med), m->rate_unit,
			 rp_rate(m, r->agg_lo), rp_rate(m, r->agg_hi),
			 r->window_med);
	else if (r->nagg)
		snprintf(out, len,
			 "%.1f %s over %.2f s (one wave: no "
			 "interval)",
			 rp_rate(m, r->agg_med), m->rate_unit, r->window_med);
	else if (r->nshort)
		snprintf(out, len,
			 "too short to tell (the passes overlapped "
			 "for under %d intervals)",
			 RP_AGG_MIN_INTERVALS);
	else if (r->nnone)
		snprintf(out, len, "none: the passes did not overlap");
	else
		snprintf(out, len, "none: the passes carry no start times");
}

/* The wave's pass as a row names it: "rewrite (pass 2)". */
void rp_fleet_pass_name(char *out, size_t len, const struct rp_fleet_row *r)
{
	snprintf(out, len, "%s (pass %lld)", r->name, r->index + 1);
}

/* How the passes were put on one clock, for the tables' notes. */
const char *rp_fleet_clock_note(const struct rp_fleet *f)
{
	return f->clock_source[0] ? f->clock_source
				  : "the guests' own clocks, taken as the "
				    "host's (VMware Tools keep them in step)";
}
