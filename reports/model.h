/*
 * model.h - the report's model, its types: run.json grouped by target,
 * workload point and mode, each group's figures per repetition (read by
 * read.c and passes.c, the reading floor) and its statistics (taken by
 * the analysis floor: analysis.h). Every floor above reads these.
 */
#ifndef PB_RP_MODEL_H
#define PB_RP_MODEL_H

#include <jansson.h>
#include <math.h>

#include "figures.h"
#include "fleet.h"
#include "jlite.h"
#include "penalty.h"
#include "stats.h"
#include "runjson.h"

#define RP_MAX_REWRITES 32

/* the fewest repetitions that tell noise: under them a figure has no
 * interval and no verdict ("2 repetitions: too few to tell"); an interval
 * of two values is their spread, and the gate alarmed on it */
#define RP_MIN_TELL 3

/* a first write's settling is smoothed over this many intervals at least */
#define RP_STEADY_WINDOW 3

/* where a repetition's own noise was told from */
enum rp_within_kind {
	RP_WITHIN_NONE,
	RP_WITHIN_STRIPES, /* its stripe pairs' spread */
	RP_WITHIN_PASSES,  /* its rewrite passes' spread */
};

/* The pass kinds a comparison of two groups covers. */
enum rp_share_kind {
	RP_SH_FIRST, /* first write */
	RP_SH_LATER, /* rewrite, or recreate (rp_later_name) */
	RP_SH_READ,
	RP_SH_FSYNC, /* fsync-write */
	RP_SH_CMD,   /* a command's time: 10.5 = ten times as long */
	RP_SH__COUNT,
};

/* a median as a share of another's, and its 95% interval (each side
 * resampled on its own); NaN where either side has no figure */
struct rp_share {
	double v, lo, hi;
};

/* One group against another's same mode and point (its host twin, the
 * first target's): ref NULL when there is none. */
struct rp_group;

struct rp_shares {
	const struct rp_group *ref;
	struct rp_share s[RP_SH__COUNT];
};

/* A device's side of a group's first write and later writes: per
 * repetition and their medians, its mean write time in ms (write_ms /
 * writes), the bytes it wrote per byte the runner wrote, and (a host
 * under a guest) the guest's CPU in ms per write the runner made. */
enum rp_dev_kind { RP_DEV_MS, RP_DEV_AMP, RP_DEV_CPU, RP_DEV__COUNT };

struct rp_devtime {
	double *first[RP_DEV__COUNT], *later[RP_DEV__COUNT];
	double first_med[RP_DEV__COUNT], later_med[RP_DEV__COUNT];
	size_t nfirst, nlater;
	char name[64];
	bool paired; /* a first write in stripe pairs: not counted */
};

/* A file target's extents across its passes (FIEMAP, as the runner read
 * them before and after each): per repetition, what its first write had
 * the filesystem allocate (holes filled) and convert (unwritten extents
 * written); the most extents a first write left, and the most bytes any
 * later write pass allocated or converted (0: it found the file in
 * place) */
struct rp_extents {
	double *alloc, *conv;
	double alloc_med, conv_med, count_max, later_max;
	size_t n, nlater;
};

/* The server's counters over a group's first write and first later
 * write (run.json pass "server_counters", vSphere), per repetition and
 * their medians: the guest's own mean latency (the runner's), the
 * virtual disk's write latency as the host saw it,
 * the LUN's kernel, device and queue write latencies, and the VM's CPU
 * per write. */
enum rp_srv_kind {
	RP_SV_GUEST_MS, /* the runner's own mean write latency */
	RP_SV_VDISK_MS,
	RP_SV_KERNEL_MS,
	RP_SV_DEVICE_MS,
	RP_SV_QUEUE_MS,
	RP_SV_DS_MS, /* the datastore's write latency (NFS's only side) */
	RP_SV_CPU,
	RP_SV__COUNT
};

struct rp_server {
	double *first[RP_SV__COUNT], *later[RP_SV__COUNT];
	double first_med[RP_SV__COUNT], later_med[RP_SV__COUNT];
	size_t nfirst[RP_SV__COUNT], nlater[RP_SV__COUNT];
	char vdisk[32], lun[128];
};

/*
 * An offered rate's tail (issue 55, the runner's rate_iops): per
 * repetition, the first write's latency quantiles (ms, from each I/O's
 * intended start) and stalls, and its first later write's at the same
 * rate, from passes that held the rate only; what could not hold it is
 * counted, never pooled; the medians, and each difference's interval
 * over repetitions less the baseline's own median difference (NaN: too
 * few to tell).
 */
enum rp_tail_kind {
	RP_TL_P50,
	RP_TL_P99,
	RP_TL_P999,
	RP_TL_STALLS,
	RP_TL__COUNT
};

struct rp_tail {
	double *first[RP_TL__COUNT], *later[RP_TL__COUNT];
	size_t n;
	size_t unheld;	     /* passes at the rate that fell behind it */
	double rate_iops;    /* offered; 0: the point offers none */
	double achieved_min; /* the lowest an unheld pass achieved */
	double stall_us;     /* the stalls' threshold; 0: none counted */
	double first_med[RP_TL__COUNT], later_med[RP_TL__COUNT];
	double d[RP_TL__COUNT], lo[RP_TL__COUNT], hi[RP_TL__COUNT];
	bool less_base; /* the baseline's own difference taken out */
	/* the rate headroom (the run's p999_target_ms, over the points
	 * that differ from this one by their offered rate alone): the
	 * highest rate swept up to which every rate's first write (later:
	 * its rewrite) kept its p99.9 median under target_ms, 0 not even
	 * the lowest; a rate whose passes fell behind it kept nothing.
	 * nrates 0: not asked; lead: the set's lowest rate, where it is
	 * said once */
	struct rp_room {
		double target_ms, rate_lo, rate_hi, first, later;
		size_t nrates;
		bool lead;
	} room;
};

/* One target x workload point x mode: results are grouped by the target,
 * the point's index and full description (another run's groups are
 * matched by target name and description). */
struct rp_group {
	/* host_baseline: against the same mode and point measured on the
	 * host; several targets: against them on the first target */
	struct rp_shares host, arm;
	bool unread; /* read back as no mode: not confirmed, so not claimed */
	long long target;   /* index into the model's targets */
	struct jl_doc *doc; /* the run.json its items came from */
	char *target_name;  /* "" for a run's one implicit target */
	long long point;    /* -1: a format-1 file's item without one */
	char *workload;	    /* the point's full description, "" alone */
	/* target and workload, as sentences name them: "nfs, bs=64K" */
	char *where;
	enum pb_mode pmode;
	const char *mode;  /* its name */
	double disk_bytes; /* the runner's target's, NaN or 0 if not said */
	size_t nreps;	   /* items seen, failed ones included */
	size_t nok;
	size_t nfailed;
	size_t nskipped; /* the backend could not make this mode here */
	char first_error[256];
	/* per successful repetition */
	double *first, *rewrite, *read, *prov, *steady;
	/* per repetition, the log of its first write's time over its later
	 * writes' on the same bytes: the paired stripes' sides, or the
	 * first-write pass against the later passes' median. The penalty
	 * is exp(their mean, less the baseline's) - 1: what a first write
	 * costs in time, over what the baseline's first write shows (a
	 * paired run's own rewrite-after-write bias, a first pass's own
	 * start) */
	double *lr;
	size_t nlr;
	/* each lr's repetition; in a precision-form run, why the group
	 * stopped (RJ_STOP_OPEN: it did not, or a fixed count) and after
	 * which repetition: its penalty is the look's it stopped on, its
	 * own and the baseline's repetitions to then, at alpha (0.05, or
	 * the run's look level) */
	double *lr_rep;
	/* each lr's own noise within its disk (a variance: its pairs' or
	 * its passes' spread, lr_within_kind), and the group's spread split
	 * between disks and within one (rp_levels; NaN: not told) */
	double *lr_within, *lr_within_df;
	enum rp_within_kind lr_within_kind;
	double lv_between, lv_within, lv_p;
	enum rj_stop stop;
	unsigned stop_after;
	double alpha;
	bool penalty_less_base; /* the baseline's was taken out */
	/* each span's own rewrite rate: where that rep settles */
	double *span_target;
	size_t nfirst, nrewrite, nread, nprov, nsteady;
	/* figures.h's, per repetition (its later writes: each of them)
	 * and their median */
	double *fig[RP_FIG__COUNT], fig_med[RP_FIG__COUNT];
	size_t nfig[RP_FIG__COUNT];
	/* fsync-write passes (each write waits for the device: seed 004's
	 * NFS question): a repetition's median, their median */
	double *fsync, fsync_med;
	size_t nfsync;
	/* the device under the target as the runner saw it (a pass's
	 * "device"), and the host's under a guest's disk (its
	 * "host_device", with qemu's CPU) */
	struct rp_devtime dev, hostdev;
	/* the runner's file (host backend, a guest's filesystem), and the
	 * disk's file on the host under a qemu guest */
	struct rp_extents ext, hostext;
	struct rp_server srv;
	struct rp_tail tail;
	double *conv[RP_MAX_REWRITES]; /* the k-th rewrite, per rep */
	size_t nconv[RP_MAX_REWRITES];
	unsigned max_rewrites;
	/* steady state per rep: settled, never settled, too short to tell
	 * (the fewest intervals a too-short pass had) */
	size_t nsettled, nnever, nshort, short_intervals;
	/* reps whose own rewrite strays over the band however smoothed
	 * (too noisy to tell), and the widest smoothing a told one took */
	size_t nnoisy, steady_window;
	/* the depth the passes really kept, against the one asked: the
	 * lowest pass's (Little's law, recorded by the runner) */
	double qd_kept_min, qd_asked;
	/* passes whose figures leave out a ramp (ramp_s > 0: the point's
	 * ramp_ms), and passes that asked for one and were no longer */
	size_t nramped, nunramped;
	double ramp_s;
	/* what the server applied, and whether it is what was asked */
	const char *applied; /* a mode's name, "" when not read back */
	bool mismatch;
	char *applied_why; /* the backend's reason, NULL when none said */
	struct jl *curve;  /* first-write series of the first good rep */
	/* each good rep's first-write series, as spans of run.json, parsed
	 * again for the steady-state point once the rewrite median is known */
	const char **span;
	uint32_t *span_len;
	size_t nspan;
	/* beside each span, its rep's reference: the first rewrite's
	 * series, or a paired first write's rewritten stripes (NULL: none).
	 * The steady-state point is told only as finely as it holds still */
	const char **ref_span;
	uint32_t *ref_span_len;
	double *ref_target; /* the reference's own rate */
	size_t cap;	    /* items the arrays hold */
	/* results */
	double first_med, first_lo, first_hi;
	double rewrite_med, rewrite_lo, rewrite_hi;
	double read_med, prov_med, steady_med, penalty, penalty_lo, penalty_hi;
	double first_vs_base, rewrite_vs_base;
	double first_vs_base_lo, first_vs_base_hi;
	double rewrite_vs_base_lo, rewrite_vs_base_hi;
	double be_lazy, be_thin; /* bytes; -1 never; NAN n/a */
	double conv_med[RP_MAX_REWRITES];
	/* filesystem workloads: mkfs time; command passes: wall time */
	double *mkfs, *cmd;
	size_t nmkfs, ncmd;
	/* a reclaim pass's, one an item: the bytes its file gave back, read
	 * back from its extents (NaN where they are not read: a device),
	 * and its seconds; how many were done, and why one was not */
	double *reclaim_back, *reclaim_s;
	size_t nreclaim, nreclaim_done;
	double reclaim_back_med, reclaim_s_med;
	const char *reclaim_method; /* the first's, static */
	/* where it was read back: "file" (the runner's), "disk's file on
	 * the host" (qemu), "disk's file on the datastore" (vSphere) */
	const char *reclaim_where;
	char reclaim_why[160];
	/* the re-warm (issue 40): per rep, the log of the first write
	 * after a reclaim's time over its rewrites' (lr2, as lr is made),
	 * and that less the rep's own first write's (d21). rewarm is what
	 * the second first write costs, less the baseline's first cycle's
	 * lr as the penalty is; rewarm_vs_first its time over the first's
	 * (0: the same cost again, -0.2: a fifth less) */
	double *lr2, *d21;
	size_t nlr2, nd21;
	double rewarm, rewarm_lo, rewarm_hi;
	double rewarm_vs_first, rewarm_vs_first_lo, rewarm_vs_first_hi;
	double mkfs_med, cmd_med, cmd_lo, cmd_hi, cmd_vs_base;
	/* how much one disk's rewrites, passes alike in everything, differ
	 * from each other: (max - min) / median per rep of two or more, and
	 * the median of those (the host's pass-to-pass noise) */
	double *rw_spread;
	size_t nrw_spread;
	double rw_spread_med;
	/* a first write in pairs (--pair-stripe): how many reps had them,
	 * the fewest pairs a rep had and the stripe. When every rep has
	 * them, they are the penalty's */
	size_t npaired, pairs_min;
	double pair_stripe;
	bool penalty_paired;
	/* per rep, its rewritten stripes' MiB/s over its rewrite passes':
	 * what a stripe alone in the queue costs against a streamed pass
	 * (its drain), which the first-write column carries too */
	double *stripe_vs_pass;
	size_t nstripe_vs_pass;
	double stripe_vs_pass_med;
	/* reps whose disk the backend read back as a loop device over a
	 * file (the qemu backend's rdm): a path of its own */
	size_t nloop;
	/* warm-up across passes (rp_model_warmup): the series' length and
	 * first pass (1: it starts at rewrite 1), the PTS window, where a
	 * window holds steady (its index in the series; -1 never, -2 too
	 * short), as a pass (0 the first write; -1 none), its first and
	 * last figures */
	size_t pts_n, pts_from;
	unsigned pts_window;
	int pts_at, pts_pass;
	double pts_firstv, pts_lastv;
};

struct rp_model;

/* An item that did not measure: listed with where and why. A retried
 * one (its first try stalled) is kept the same way, status its second
 * try's, error the stall's, step its diagnostics' directory. */
struct rp_failure {
	enum pb_mode mode;
	long long rep, point;
	enum rj_status status;
	char *target_name, *workload, *step, *error;
};

/* A target of the run, as the report names it. */
struct rp_target_info {
	/* "" for a run's one implicit target */
	char name[160];
	/* host_baseline: the model's target this one is the host of, or -1 */
	long long host_of;
	const struct rj_reader *rd; /* the run it belongs to */
	char vm[256], datastore[256];
	json_t *places; /* the places it shares (run.json), borrowed */
};

struct rp_model {
	struct rj_reader rd; /* run.json, read through its module */
	/* runs merged with it (report DIR DIR...), and the one being read */
	struct rj_reader *more, *cur;
	size_t nmore;
	char merge_note[1024]; /* how merged runs differ (--force) */
	json_t *env;	       /* borrowed from rd */
	json_t *profile;       /* likewise; NULL when absent */
	const char *run;
	const char *profile_name;
	const char *backend;
	const char *accel;
	const char *version, *commit, *started_at, *updated_at;
	bool finished, interrupted;
	/* where it ran, from the environment ("" when not said): the first
	 * target's, and each target's */
	char vm[256], datastore[256];
	struct rp_target_info *tinfo;
	size_t ntinfo; /* at least 1 once loaded */
	struct rp_group *g;
	size_t ng, gcap;
	char *command;	   /* the command passes' text, as run */
	char fs_note[160]; /* "ext4, lazy init off (...)" */
	/* why the baseline is not the one asked: "rdm has no figures in
	 * this run (skipped: ...): eager instead" */
	char base_note[384];
	/* how a compared run differs (--force), "" when it does not, and
	 * the compared run's id */
	char compare_note[1024];
	const char *compare_run;
	const char *baseline;
	enum pb_mode base_mode;
	bool have_base_mode; /* baseline names a mode */
	bool have_baseline;  /* and the run has its figures */
	size_t failed_items;
	struct rp_failure *fail;
	size_t nfail, failcap;
	/* repetitions whose first try stalled and ran again */
	struct rp_failure *retry;
	size_t nretry, retrycap;
	struct rp_seq seq;     /* the precision form's design, if asked */
	double p999_target_ms; /* the rate headroom's question; 0: none */
	struct rp_fleet fleet; /* targets at once */
	struct rp_pts pts;     /* the warm-up rule the groups were judged by */
	/* the write passes after the first: rewrites (in place) or, in a
	 * run that has none, recreates (the file deleted and written anew);
	 * never the two pooled: the other kind's passes are counted here */
	int later; /* enum runner_pass_kind */
	bool later_set;
	size_t unpooled;
	/* the passes after a reclaim (the first write again, what follows):
	 * a second cycle, never pooled with the first's figures */
	size_t after_reclaim;
	/* rates as the profile's "units" asks: MiB/s, or MB/s (10^6) as the
	 * field notes print them; per_mib converts the model's MiB/s */
	const char *rate_unit;
	double rate_per_mib;
	/* the server's counters (vSphere): passes that had them, passes
	 * too short for them (the longest such), passes they could not be
	 * read for (and why) */
	size_t srv_passes, srv_short, srv_unavail;
	double srv_short_max_s, srv_needs_s;
	char srv_why[256];
};

/* The later write passes' name, "rewrite" or "recreate". */
const char *rp_later_name(const struct rp_model *m);

/* text as written for rewrites, said of the passes that ran: "rewrite"
 * becomes "recreate" in a run whose later writes are recreates */
void rp_later_words(char *text, size_t len, const struct rp_model *m);

/* a MiB/s figure in the run's unit */
double rp_rate(const struct rp_model *m, double mib_per_s);

/* A group's status over its items: "ok", "partial" (some failed),
 * "failed" (none measured) or "skipped". */
const char *rp_group_status(const struct rp_group *g);

/* A number, or null where the data gives none (never a sentinel). */
static inline json_t *rp_jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/*
 * What the model hands each result item to while it loads, for what
 * needs an item's every pass as it comes (report.csv's rows: the items
 * are not kept). The model names no format: a renderer gives it a sink,
 * as libgit2's git_diff_foreach hands its pieces to callbacks it does
 * not know. Either callback may be NULL; an error stops the load.
 */
struct rj_item;

struct rp_item_sink {
	/* a run's targets are m->tinfo[first .. first + n - 1], before any
	 * of its items */
	enum pb_error (*run)(void *arg, const struct rp_model *m, size_t first,
			     size_t n);
	enum pb_error (*item)(void *arg, const struct rp_model *m,
			      const struct rj_item *item);
	void *arg;
};

void rp_model_dispose(struct rp_model *m);
/* Did any group's first write go in stripe pairs? (penalty.c) */
bool rp_any_paired(const struct rp_model *m);

/* The groups of g's mode and workload point on each target (g among
 * them), in target order; how many (PB_MAX_ACROSS: fleet.h). */
size_t rp_across(const struct rp_model *m, const struct rp_group *g,
		 const struct rp_group **out, size_t max);

/* The group of another model with this target, description and mode. */
const struct rp_group *rp_model_find(const struct rp_model *m,
				     const char *target, const char *workload,
				     const char *mode);

/* A byte count read as a double from run.json, as uint64_t: NaN and
 * negatives are 0, and nothing past the type's range (casting those is
 * undefined). */
static inline uint64_t rp_u64(double v)
{
	if (!(v > 0))
		return 0;
	return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

/* Groups at one place (target and point) differ only in mode. */
bool rp_same_place(const struct rp_group *g, long long target, long long point,
		   const char *w);

/* The same point of this model in another mode, or NULL. */
const struct rp_group *rp_sibling(const struct rp_model *m,
				  const struct rp_group *g, enum pb_mode mode);

/* Append "; " and the text to out (a note of several parts). */
void rp_list_add(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
