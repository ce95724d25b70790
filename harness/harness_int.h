/*
 * harness_int.h - internals of provbench's orchestrator: profiles as plain
 * option structs, the plan and the journal. The backend interface is
 * backend.h.
 */
#ifndef PB_HARNESS_INT_H
#define PB_HARNESS_INT_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "backend.h"
#include "runner.h"

/* ---- profiles ---- */

#define PB_MAX_POINTS  64
#define PB_MAX_TARGETS 64

/*
 * A target: a place the disks live and the guest that writes them (a VM
 * and a datastore; a host directory). Its options are the backend's
 * section with the target's own keys over it, checked as the section is.
 */
struct pb_target {
	char *name;  /* "" for a profile's one implicit target */
	void *bopts; /* the backend's options struct for this target */
	/* NULL: the profile's backend. host_baseline's twins are the host
	 * backend's, on the place of the target they mirror (twin_of) */
	const struct pb_backend_ops *backend;
	bool twin; /* a host twin, of the guest target twin_of */
	unsigned twin_of;
	/* an arm's guest settings ("guest_sysctl" in the target or the
	 * matrix); without has_sysctl, the profile's */
	struct pb_kv sysctl;
	bool has_sysctl;
	/* the keys that made it (its "targets" entry over its matrix
	 * combination): two targets on one place differ in settings */
	json_t *spec;
};

struct pb_profile;
/* the guest settings target t applies: its arm's, else the profile's */
const struct pb_kv *pb_target_sysctl(const struct pb_profile *p, unsigned t);

struct pb_profile {
	char *path;
	char *text; /* the file as read, for run.json */
	char *name;
	char *description;
	const struct pb_backend_ops *backend;
	void *bopts; /* the backend's section, as its option table reads it */
	/* "targets", each times every value of the matrix's backend keys
	 * (datastore, vm, ...); without any, one: the section itself */
	struct pb_target targets[PB_MAX_TARGETS];
	unsigned ntargets;
	/* the largest disk of the plan (what space checks need); each
	 * point's own is point_disk[] ("matrix": {"disk_size": [...]}) */
	uint64_t disk_size;
	bool disk_size_si; /* a size written 8GB, read as 8 GiB (as vSphere
			    * does): said in a note */
	/* "host_baseline": the last ntwins targets are the host backend's
	 * twins of the first ntwins, each item of theirs measured just
	 * before its guest's (the seeds' host-against-guest question) */
	bool host_baseline;
	unsigned ntwins;
	/* "vsphere.lun (PROVBENCH_LUN)": rdm's settings whose "env:"
	 * variables are unset, left "env:NAME"; an error only if rdm runs
	 * (pb_profile_settle, once --modes has applied) */
	char *rdm_unset;
	/* the other settings whose "env:" variables are unset, the same
	 * way: pb_profile_load keeps them for pb_profile_settle, so that a
	 * plan is said before they are asked for (issue 38) */
	char *unset;
	/* run --shard I/N: this run is the I-th (from 0) of N disjoint
	 * shares of the targets; shard_tag ("-s0of3", "" unsharded) goes in
	 * every disk's and the results directory's name */
	unsigned shard, nshards;
	char shard_tag[32];
	/* what loading adjusted and a person should know ("file_size 10000
	 * MiB rounded down to whole 3 MiB blocks"), a line each */
	char notes[1024];
	enum pb_mode modes[PB_MODE__COUNT];
	unsigned nmodes;
	unsigned repetitions;
	/* the precision form (issue 54): repetitions is the most a mode
	 * runs, from min_repetitions on each stopping once its question
	 * (precision_pct, threshold_pct) is answered; adaptive: asked */
	unsigned min_repetitions;
	double precision_pct, threshold_pct;
	bool threshold_set, adaptive;
	/* and the nightly gate's question, against the last finished run
	 * of the profile (gate_set: asked) */
	double gate_pct;
	bool gate_set;
	/* the rate headroom's question (issue 55): the p99.9 a write must
	 * keep, in ms, over a matrix of offered rates (0: not asked) */
	double p999_target_ms;
	char *order; /* "fixed" or "shuffle" (shuffle then true) */
	bool shuffle;
	char *units;	/* "MiB" or "MB": the pages' rate */
	bool exclusive; /* refuse to share a datastore, LUN or host fs */
	/* a plan writing more to shared storage asks first (0: never) */
	uint64_t confirm_above;
	/* "baseline": the mode the report compares with (has_baseline);
	 * unset, rdm */
	enum pb_mode baseline;
	bool has_baseline;
	bool seed_set;
	uint64_t seed;
	unsigned cooldown_s;
	/* targets measured at once: a wave is one (repetition, point, mode)
	 * on up to this many targets, all started together */
	unsigned concurrency;
	unsigned timeout_s; /* per runner invocation */
	/* a runner invocation with no progress for this long stalled: its
	 * diagnostics kept and its repetition tried once more (0: never) */
	unsigned stall_s;
	/* the workload, expanded over the matrix: one point without one.
	 * Each is the runner's options as it will get them (size: the disk,
	 * or the file of a filesystem workload; target and seed: per item),
	 * described in full by the matrix values that make it ("" alone) */
	struct runner_opts points[PB_MAX_POINTS];
	char *point_desc[PB_MAX_POINTS];
	uint64_t point_disk[PB_MAX_POINTS]; /* each point's disk */
	unsigned npoints;
	struct pb_kv sysctl;
	char *command; /* what command passes run (workload.command) */
};

/*
 * Load and validate a profile: unknown keys, wrong types and bad values
 * are errors naming file:line:column (syntax) or file: key.path (content).
 * Values "env:NAME" come from the environment; unset ones are left for
 * pb_profile_settle to refuse, which every caller must call before the
 * profile's settings are used.
 */
enum pb_error pb_profile_load(struct pb_profile *p, const char *path,
			      char *errbuf);
/* The same from a profile as a run.json embeds it (what that run used,
 * whatever became of its file); name is what messages call it. */
enum pb_error pb_profile_load_json(struct pb_profile *p, const char *name,
				   const json_t *profile, char *errbuf);
void pb_profile_dispose(struct pb_profile *p);
/* After --modes, and after the plan is said: the profile's unset "env:"
 * settings fail it, named at once with the connection's the backend
 * lacks; rdm's only if rdm runs, dropped (as never given) if not. */
enum pb_error pb_profile_settle(struct pb_profile *p, char *errbuf);
/* A target's options, freed (its name is the caller's). */
void pb_profile_target_dispose(struct pb_profile *p, struct pb_target *t);
/* One profile key as help, the manual and docs/profile.md say it. */
struct pb_profile_key {
	const char *section; /* "" (top level), "workload", "qemu", ... */
	/* the section's sentence, with its first key; NULL after */
	const char *section_help;
	const char *key;
	const char *text; /* its help, range or choices, default */
};
/* The profile's own keys (profile_keys.c), ended by a row without a
 * name; the loader applies them. */
extern const struct pb_option pb_profile_options[];
typedef int (*pb_profile_key_cb)(const struct pb_profile_key *k, void *data);
/* Every profile key, from the tables that read them, in order; a non-zero
 * return of cb stops the walk. */
enum pb_error pb_profile_keys_foreach(pb_profile_key_cb cb, void *data);
/* The runner's argument string for one workload point (its target, and
 * the command as a file, are the backend's to add). */
enum pb_error pb_workload_args(struct pb_buf *out, const struct runner_opts *w,
			       uint64_t seed);
/* Does the workload have a command pass? */
bool pb_workload_has_command(const struct runner_opts *w);
/* Does any of p's points run a pass of kind (enum runner_pass_kind)? */
bool pb_profile_has_pass(const struct pb_profile *p, unsigned kind);
/* A point's description, "" for a profile without a matrix. */
static inline const char *pb_point_desc(const struct pb_profile *p,
					unsigned point)
{
	return p->point_desc[point] ? p->point_desc[point] : "";
}

#include "plan.h"

/* Colour on fd (say.c): a terminal that is not "dumb", and NO_COLOR
 * unset or empty (no-color.org). */
bool pb_want_color(int fd);

/* ---- journal: what will exist, fsynced before it does (docs/DESIGN.md) */

struct pb_journal {
	char path[1024];
	int fd;
};

/* The commit this provbench was built from ("unknown" unless the binary's
 * main sets it: only main.o is rebuilt when HEAD moves); run.json keeps it. */
extern const char *pb_build_commit;

/* The state directory: $PROVBENCH_STATE_DIR, or /var/lib/provbench for
 * root, or ~/.local/state/provbench. Created 0700. */
enum pb_error pb_state_dir(char *out, size_t len, char *errbuf);
enum pb_error pb_journal_open(struct pb_journal *j, const char *dir,
			      char *errbuf);
void pb_journal_close(struct pb_journal *j);
/* Append one JSON object as a line and fsync it before returning. */
enum pb_error pb_journal_append(struct pb_journal *j, json_t *entry,
				char *errbuf);
/*
 * Every disk the journal says was (or may have been) created and not
 * destroyed: an array of the "intent" entries, each merged with its
 * "created" entry when there is one.
 */
enum pb_error pb_journal_open_disks(json_t **out, const char *dir,
				    char *errbuf);

/*
 * Remove what the journal says a crashed run left on the target of b
 * (ops): every open disk whose target is b's, or with run_id only that
 * run's; with dry_run only say what would go. count[0]: how many disks,
 * count[1]: how many changes to the target undone (a VM powered on again).
 */
enum pb_error pb_journal_recover(const struct pb_backend_ops *ops,
				 struct pb_backend *b, struct pb_journal *j,
				 const char *state, const char *run_id,
				 bool dry_run, bool quiet, unsigned count[2],
				 char *errbuf);

/* Print "provbench: what: why" and return the exit code for err. */
int pb_cli_fail(int err, const char *what, const char *why);

/* ---- what the commands run; each returns an exit code ---- */

struct pb_run_args {
	const char *profile;
	const char *out_dir; /* NULL: results */
	const char *modes;   /* "thin,eager": only those; NULL: all */
	const char *targets; /* "nfs,local": only those; NULL: all */
	/* "I/N": the I-th of N shares of the targets; NULL: from
	 * JOB_COMPLETION_INDEX and shard_count, or SLURM_ARRAY_TASK_ID and
	 * SLURM_ARRAY_TASK_COUNT, when set; else all */
	const char *shard, *shard_count;
	bool dry_run;
	bool quiet;
	bool yes; /* a plan above confirm_above runs without asking */
};

int pb_run(const struct pb_run_args *a);
/* Validate a profile and its target, print the plan; create nothing. */
/* results: where earlier runs are, for the last one's rate (NULL:
 * results) */
/* modes, targets: only those of the profile's, as run's -m and -t (NULL:
 * all), applied before any setting is demanded */
int pb_check(const char *profile, bool json, const char *results,
	     const char *modes, const char *targets);
/* Remove what crashed runs left (arg: a results directory or a profile). */
int pb_cleanup(const char *arg, bool dry_run, const char *modes,
	       const char *targets);

#endif
