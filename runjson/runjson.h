/*
 * runjson.h - run.json, the results file: one module owns its format.
 * The harness writes it through rj_doc_*, the reports (and anything else
 * that reads results) read it through rj_reader_*, and both use the key
 * names and the status table below, so a rename is a compile error on both
 * sides, not a report that silently reads nothing. The fields are
 * documented in docs/run-json.md.
 *
 * The embedded "runner" document is the runner's own output; its keys
 * are RUNNER_K_* in runner.h (the runner owns that format).
 */
#ifndef PB_RUNJSON_H
#define PB_RUNJSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "jlite.h"
#include "runner.h"

/*
 * The format version, the "format" member. Bump it when a reader of the
 * old version would misread a new file (a key renamed or its meaning
 * changed); adding a member is not a bump. Readers refuse files newer
 * than they know.
 *   1  provbench 0.1: no "format" member; "workload" could be cut at 64
 *      bytes and a matrix over passes named every point "passes=false"
 *   2  "format", "points"; "workload" is the point's full description and
 *      results are grouped by "point", its index
 */
#define RJ_FORMAT     2
#define RJ_FORMAT_MIN 1

/* top level */
#define RJ_K_FORMAT	  "format"
#define RJ_K_TOOL	  "tool"
#define RJ_K_VERSION	  "version"
#define RJ_K_COMMIT	  "commit"
#define RJ_K_STARTED_AT	  "started_at"
#define RJ_K_UPDATED_AT	  "updated_at"
#define RJ_K_PROFILE_PATH "profile_path"
#define RJ_K_PROFILE	  "profile"
#define RJ_K_RUN	  "run"
#define RJ_K_PLAN	  "plan"
#define RJ_K_ORDER	  "order"
#define RJ_K_SEED	  "seed"
#define RJ_K_CONCURRENCY  "concurrency"
#define RJ_K_ITEMS	  "items"
#define RJ_K_POINTS	  "points"
#define RJ_K_TARGETS	  "targets"
#define RJ_K_ENVIRONMENT  "environment"
#define RJ_K_RESULTS	  "results"
#define RJ_K_INTERRUPTED  "interrupted"
/* the signal that stopped the run: "SIGINT", "SIGTERM", "SIGHUP", ... */
#define RJ_K_INTERRUPTED_BY "interrupted_by"
#define RJ_K_FINISHED	    "finished"
/* the precision form's (issue 54): where each mode stopped, written as
 * it stops, after the results (rj_doc_add_stop) */
#define RJ_K_STOPS "stops"
#define RJ_K_AFTER "after"
#define RJ_K_RULE  "rule"
/* in "resolved": the precision form's design, absent for a fixed count */
#define RJ_K_ADAPTIVE	   "adaptive"
#define RJ_K_MIN_REPS	   "min_repetitions"
#define RJ_K_PRECISION_PCT "precision_pct"
#define RJ_K_THRESHOLD_PCT "threshold_pct"
/* resolved's rate headroom question, ms (absent: not asked) */
#define RJ_K_P999_TARGET_MS "p999_target_ms"
#define RJ_K_LOOK_ALPHA	    "look_alpha"
#define RJ_K_GATE_PCT	    "gate_pct"
#define RJ_K_GATE_AGAINST   "gate_against"
/* a point of "points" */
#define RJ_K_INDEX	 "index"
#define RJ_K_DESCRIPTION "description"
/*
 * What ran, resolved (issue 57): typed, defaults applied, as the harness
 * knew it, so a reader never guesses from the profile's text. Top level:
 * "modes" [names, as ran], "baseline" (a mode's name, or null: the
 * reports' own), "units" ("MiB" or "MB"), "repetitions", "description".
 * A point's: "disk_bytes", "workload" {each workload key: its value as
 * the runner prints it (sizes in bytes, passes a comma list)}. A file
 * written before has them filled from its profile as it is opened.
 */
#define RJ_K_RESOLVED	 "resolved"
#define RJ_K_DISK_BYTES	 "disk_bytes"
#define RJ_K_WORKLOAD_RS "workload"
/* a target of "targets" (also RJ_K_INDEX, RJ_K_ENVIRONMENT) */
#define RJ_K_NAME   "name"
#define RJ_K_KEY    "key"
#define RJ_K_PLACES "places"
/* a host_baseline twin: the index of the target it is the host of */
#define RJ_K_HOST_OF "host_baseline_of"
/* a result item */
#define RJ_K_TARGET   "target"
#define RJ_K_WAVE     "wave"
#define RJ_K_REP      "rep"
#define RJ_K_MODE     "mode"
#define RJ_K_POINT    "point"
#define RJ_K_WORKLOAD "workload"
#define RJ_K_STATUS   "status"
#define RJ_K_ERROR    "error"
#define RJ_K_STEP     "step"
/* a stalled first try: {reason, diagnostics} */
#define RJ_K_RETRIED	 "retried"
#define RJ_K_REASON	 "reason"
#define RJ_K_DIAGNOSTICS "diagnostics"
#define RJ_K_DISK	 "disk"
#define RJ_K_TIMING	 "timing"
#define RJ_K_RUNNER	 "runner"
/* its disk */
#define RJ_K_ID		      "id"
#define RJ_K_FILE	      "file"
#define RJ_K_UUID	      "uuid"
#define RJ_K_PROVISION_S      "provision_s"
#define RJ_K_PROVISION_SOURCE "provision_source"
#define RJ_K_PROVISION_WALL_S "provision_wall_s"
#define RJ_K_READBACK	      "readback"
/* a read-back's device, and the file under it: the qemu backend's rdm is
 * a loop device over a file, a path of its own the report names */
#define RJ_K_RB_DEVICE	"device"
#define RJ_K_RB_BACKING "backing"
/* why the server made another mode than asked (the backend's word: the
 * datastore's type and VAAI, its storage policy) */
#define RJ_K_RB_WHY "why"
/* its timing */
#define RJ_K_TOTAL_S	     "total_s"
#define RJ_K_RUNNER_S	     "runner_s"
#define RJ_K_DESTROY_S	     "destroy_s"
#define RJ_K_STARTED_UNIX_NS "started_unix_ns"
#define RJ_K_WAVE_WAIT_S     "wave_wait_s"
/* the backend's note in the runner's document: its passes on the host's
 * clock (a pass began at pass[base] + host_offset_s) */
#define RJ_K_CLOCK	  "clock"
#define RJ_K_CLOCK_BASE	  "base"
#define RJ_K_CLOCK_OFFSET "host_offset_ns"
#define RJ_K_CLOCK_SOURCE "source"
/* the environment: the harness's own; the rest is the backend's */
#define RJ_K_BACKEND	 "backend"
#define RJ_K_ACCELERATOR "accelerator"

#define RJ_TOOL "provbench"

/* How one item ended. Names are what run.json says. */
enum rj_status {
	RJ_STATUS_OK,
	RJ_STATUS_FAILED,
	RJ_STATUS_SKIPPED,     /* the backend cannot make this mode here */
	RJ_STATUS_INTERRUPTED, /* SIGINT / SIGTERM while it ran */
	RJ_STATUS__COUNT
};

const char *rj_status_name(enum rj_status s);

/*
 * Why a mode of a precision-form run stopped getting disks (issue 54),
 * as "stops" says it: its penalty's interval narrow enough (precise),
 * wholly above or under the threshold, still open at the most
 * repetitions (max), the baseline (on while a mode measured against it
 * was), nothing to look at (every repetition skipped: the backend
 * cannot make it), or futile (its threshold question not to be told by
 * the most on the spread so far). open: not stopped (a run
 * interrupted).
 */
enum rj_stop {
	RJ_STOP_OPEN,
	RJ_STOP_PRECISE,
	RJ_STOP_ABOVE,
	RJ_STOP_WITHIN,
	RJ_STOP_MAX,
	RJ_STOP_BASELINE,
	RJ_STOP_NONE,
	RJ_STOP_FUTILE,
	RJ_STOP__COUNT
};

const char *rj_stop_name(enum rj_stop s);
bool rj_stop_parse(enum rj_stop *out, const char *s);

/* A stop: a target's point's mode had its last repetition at "after". */
struct rj_stop_rec {
	unsigned target, point;
	enum pb_mode mode;
	unsigned after;
	enum rj_stop rule;
};

/* Where an item that did not finish stopped: "step" says which. */
#define RJ_STEP_PLAN	"plan"
#define RJ_STEP_JOURNAL "journal"
#define RJ_STEP_CREATE	"create"
#define RJ_STEP_RUN	"run"
#define RJ_STEP_DESTROY "destroy"
bool rj_status_parse(enum rj_status *out, const char *s);

/* "format" as found (1 when absent): PB_ERR_INPUT, naming both versions,
 * for one this build cannot read. */
enum pb_error rj_format_check(long long found, const char *path, char *errbuf);

/* ---- writing (the harness) ---- */

struct rj_head {
	const char *started_at; /* ISO 8601, UTC */
	const char *profile_path;
	json_t *profile; /* the profile as loaded; NULL if unparsable */
	const char *run; /* the results directory's name */
	bool shuffled;
	uint64_t seed;
	size_t items;
	unsigned concurrency;	 /* targets at once, as it ran; 0: 1 */
	unsigned shard, nshards; /* run --shard: this of nshards; 0: none */
	const char *const
		*points; /* each point's full description (NULL: "") */
	size_t npoints;
	/* what ran, resolved: the run's (stolen) and each point's runner
	 * options and disk (rj_point_resolved) */
	json_t *resolved;
	const struct runner_opts *point_opts;
	const uint64_t *point_disk;
	json_t *environment; /* the backend's description (stolen) */
	const char *backend;
	const char *commit; /* the build's commit, NULL: unknown */
	/* where the disks live: each target's name ("" for a profile's one
	 * implicit target), lock key and environment (stolen; the first is
	 * also the top-level "environment", for readers of one target) */
	const struct rj_target *targets;
	size_t ntargets;
};

struct rj_target {
	const char *name, *key;
	json_t *environment;
	/* the places it shares with whatever else uses them (datastores,
	 * LUNs, host filesystems), strings; stolen; NULL for none */
	json_t *places;
	/* host_baseline: a host twin, and the guest target (an index of
	 * targets) it is the baseline of */
	bool is_twin;
	unsigned twin_of;
};

/* A new document with its head and no results (NULL: out of memory). */
json_t *rj_doc_new(const struct rj_head *h);

struct rj_result {
	unsigned target; /* index into the head's targets */
	unsigned wave;	 /* the items of a wave ran at once */
	unsigned rep;
	enum pb_mode mode;
	unsigned point;
	const char *workload; /* the point's full description */
	enum rj_status status;
	const char *error; /* NULL or "" for none */
	const char *step;  /* the step that failed (RJ_STEP_*), or NULL */
	/* a first try that stalled: why, and its diagnostics' directory
	 * (in the results directory); NULL: none */
	const char *retried, *retried_diagnostics;
	struct {
		const char *id, *file, *uuid;
		double provision_s;	      /* the server's, when it said */
		const char *provision_source; /* NULL: "client wall" */
		double provision_wall_s;      /* <= 0: provision_s */
		json_t *readback;	      /* borrowed; NULL for none */
	} disk;
	struct {
		double total_s, provision_s, runner_s, destroy_s;
		int64_t started_unix_ns; /* the host's clock */
		double wave_wait_s;	 /* at the wave's start line */
	} timing;
	json_t *runner; /* the runner's document (stolen), or NULL */
};

/* Append one item; the new item (borrowed) or NULL when out of memory. */
json_t *rj_doc_add_result(json_t *doc, const struct rj_result *r);
/* Record a stop (the "stops" array made after the results at the
 * first); false when out of memory. */
bool rj_doc_add_stop(json_t *doc, const struct rj_stop_rec *st);
/* Mark the run finished: every planned item ran or the run stopped. */
void rj_doc_finish(json_t *doc);
/* Stamp updated_at and interrupted and write the file atomically. */
enum pb_error rj_doc_save(json_t *doc, const char *path, bool interrupted,
			  char *errbuf);

/* ---- reading (reports, cleanup, scripts' helpers) ---- */

/*
 * A run.json read one result at a time: the head is parsed at open, each
 * item by rj_reader_next, which drops the previous item's nodes, so
 * memory stays at one item however many the file holds.
 */
struct rj_reader {
	struct jl_doc jd;
	struct jl_iter it;
	struct jl_mark mark;
	bool marked;
	char path[1100];
	/* the head */
	long long format;
	const char *version, *commit, *run, *profile_path, *started_at;
	const char *updated_at; /* read at the end, with finished */
	bool finished, interrupted;
	json_t *profile; /* parsed; NULL when absent */
	/* what ran, resolved (RJ_K_RESOLVED), and the points with theirs:
	 * a file's own, or filled from its profile */
	json_t *resolved, *points;
	/* where a precision-form run's modes stopped (RJ_K_STOPS): parsed
	 * with the members after the results; NULL before then or when
	 * absent. rj_stop_read reads one */
	json_t *stops;
	json_t *environment;   /* parsed; an empty object when absent */
	json_t *targets;       /* parsed; an empty array before targets */
	long long concurrency; /* plan.concurrency; 1 when absent */
	long long plan_items;  /* plan.items; 0 when absent */
	const char *profile_name, *backend, *accel; /* "" when absent */
};

/* A pass of the runner's document, its members picked in one walk. */
enum rj_pass_key {
	RJ_P_NAME,
	RJ_P_INDEX,
	RJ_P_PATTERN,
	RJ_P_BS,
	RJ_P_QD,
	RJ_P_BYTES,
	RJ_P_SECONDS,
	RJ_P_MIB_PER_S,
	RJ_P_IOPS,
	RJ_P_LAT,
	RJ_P_COMPLETE,
	RJ_P_SERIES,
	RJ_P_COMMAND,
	RJ_P_QD_ACHIEVED,  /* absent before the runner kept count */
	RJ_P_STARTED_UNIX, /* the guest's clocks, ns: absent before them */
	RJ_P_STARTED_BOOT,
	RJ_P_RAMP_S, /* absent: no ramp asked (--ramp-ms) */
	RJ_P_PAIRED, /* a first write in pairs (--pair-stripe); else absent */
	RJ_P_DEVICE, /* the block layer's counts over the pass; else absent */
	RJ_P__COUNT
};

/* latency percentiles of a pass, in microseconds */
enum rj_lat_key { RJ_L_P50, RJ_L_P99, RJ_L_P999, RJ_L_MEAN, RJ_L__COUNT };

struct rj_item {
	size_t index;		 /* in "results" */
	long long target;	 /* 0 before targets */
	long long wave;		 /* 0 before waves */
	const char *target_name; /* "" for a run's one implicit target */
	long long rep, point;
	enum pb_mode mode;
	const char *workload, *error;
	const char *step; /* "" when absent (before format 2's "step") */
	/* a first try that stalled: why, and its diagnostics ("": none) */
	const char *retried, *retried_diagnostics;
	enum rj_status status;
	struct jl *disk, *readback, *timing;
	double provision_s;
	const char *applied;	 /* the read-back's mode, "" when none */
	const char *applied_why; /* and why, "" when not said */
	struct jl *runner;	 /* the runner's document (an object) or NULL */
	struct jl *passes, *filesystem;
};

struct rj_pass {
	struct jl *k[RJ_P__COUNT]; /* NULL when absent */
	struct jl *lat[RJ_L__COUNT];
	const char *name;
	int kind; /* enum runner_pass_kind, or -1 for a name unknown here */
	bool complete;
	double mib_per_s, seconds;
};

/* path: a run.json or the directory that holds one. */
enum pb_error rj_reader_open(struct rj_reader *r, const char *path,
			     char *errbuf);
/*
 * The next item into *out, *more false at the end. An item without a
 * known mode or status, or a point without an index, is PB_ERR_INPUT
 * naming results[i] and the value.
 */
enum pb_error rj_reader_next(struct rj_reader *r, struct rj_item *out,
			     bool *more, char *errbuf);
/* The i-th of r->stops into *out; false past the end or for a record
 * this build cannot read (a rule it does not know). */
bool rj_stop_read(const struct rj_reader *r, size_t i, struct rj_stop_rec *out);
/* A pass of out->passes, its members picked. */
void rj_pass_read(struct rj_reader *r, struct rj_pass *out, struct jl *pass);
/* Target t's name from the head ("" when none). */
const char *rj_target_name(const struct rj_reader *r, long long t);
/* host_baseline: the target t is the host of (its index), or -1 */
long long rj_target_host_of(const struct rj_reader *r, long long t);
/* A point's resolved object ({"disk_bytes", "workload"}), or NULL for a
 * point the file does not have (jansson's getters take NULL). */
json_t *rj_point_resolved(const struct rj_reader *r, long long point);
/* A point's runner options as run.json keeps them resolved: each workload
 * key and its value as the runner prints it. */
json_t *rj_workload_json(const struct runner_opts *o);
/* A string member of an object node, decoded ("" when not a string). */
const char *rj_str(struct rj_reader *r, struct jl *obj, const char *key);
void rj_reader_dispose(struct rj_reader *r);

#endif
