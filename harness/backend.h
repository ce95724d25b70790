/*
 * backend.h - what a backend is: a const struct of function pointers with
 * designated initializers (fio's ioengine_ops, curl's Curl_ssl), in its
 * own folder under harness/backends/, owning its profile section (an
 * option table the profile loader applies, and a check of its own), the
 * modes it can make and its capability bits. The harness drives every
 * backend the same way and knows none of them by name: backends.c lists
 * them. CONTRIBUTING.md says how to add one.
 *
 * Errors: every op takes the caller's error buffer and writes the detail
 * there with pb_fail(); the harness resets it (errbuf[0] = '\0') before
 * each op, in one place (curl's Curl_reset_fail), so the first failure of
 * an op is the message, and an op never clears it.
 */
#ifndef PB_BACKEND_H
#define PB_BACKEND_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "check_out.h"
#include "common.h"
#include "option.h"

/*
 * What the harness holds of an open backend: the first member of each
 * backend's own struct (struct qb, struct vsb), which gets itself back
 * from it (qb_of()). One name per type: the backends' structs are theirs.
 */
struct pb_backend {
	const struct pb_backend_ops *ops;
};
struct pb_profile;
struct pb_plan;

/* A row's help as `provbench help profile` says it: its line, then its
 * range or choices and its default. */
void pb_opt_describe(const struct pb_option *d, char *out, size_t len);

#define PB_MAX_KV 32

struct pb_kv {
	char *key[PB_MAX_KV];
	char *val[PB_MAX_KV];
	unsigned n;
};

/* ---- disks and runs ---- */

/* A disk a backend made, as the journal and run.json describe it. */
struct pb_disk {
	enum pb_mode mode;
	uint64_t size;	    /* bytes: its workload point's disk_size */
	char id[64];	    /* journal id: the backend's unique name for it */
	char file[600];	    /* where it lives (datastore path, host path) */
	char uuid[80];	    /* what the guest finds it by */
	double provision_s; /* as the server timed it, when it did */
	double provision_wall_s;      /* as the harness waited for it */
	const char *provision_source; /* "server task", "client wall" */
	json_t *readback;	      /* the provisioning the backend reports */
	/* what plan_disk expects of it when that is not the mode's usual
	 * (" (the datastore makes it thin)"), said as it is created */
	char note[200];
};

/*
 * The stall watch (stall.c): a run with no progress for stall_s is
 * stalled. The harness feeds it the progress documents; a backend adds
 * what it hears of the guest itself and asks at each poll.
 */
struct pb_stall {
	double limit_s;	  /* 0: no watch */
	uint64_t last_ns; /* pb_now_ns() of the last progress */
	/* the last document's counters (-1: not in it) and the document */
	long long beat, done, dev_done, bytes, index;
	json_t *last;
	char what[160]; /* the last progress, in words */
	bool runner;	/* the runner began: its start or a document seen */
};
/* Before the runner's first document (a guest booting, a runner being
 * uploaded and started) a watch waits at least this long: a loaded
 * machine's TCG guest can say nothing for more than 5 s as it boots */
#define PB_STALL_START_S 60.0
/* From now on, stalled after limit_s seconds without progress (0: never). */
void pb_stall_start(struct pb_stall *s, double limit_s);
/* A sign of life a backend sees itself ("the guest booted"). NULL-safe. */
void pb_stall_alive(struct pb_stall *s, const char *what);
/* The runner has started (a guest's PB-START): stall_s alone from now
 * on, as after its first document. NULL-safe. */
void pb_stall_begun(struct pb_stall *s, const char *what);
/* A progress document of the runner's. NULL-safe. */
void pb_stall_seen(struct pb_stall *s, json_t *progress);
/* Stalled? why then says since when and after what. NULL-safe (false). */
bool pb_stall_check(const struct pb_stall *s, char *why, size_t len);
void pb_stall_dispose(struct pb_stall *s);

struct pb_run_ctx {
	volatile sig_atomic_t *stop; /* set by a signal (signals.c) */
	/* told the runner's progress ({"pass","bytes","total","mib_per_s",
	 * "eta_s",...}) every few seconds while it runs; may be NULL */
	void (*progress)(const struct pb_run_ctx *ctx, json_t *p);
	void *arg;
	/* the text of the workload's command passes, or NULL: never part of
	 * args (it is shell text); each backend hands it to the runner as
	 * a file for --command-file */
	const char *command;
	/* adds fields to the disk's journal record, fsynced (a guest
	 * process the disk's run started, say, for cleanup to stop) */
	enum pb_error (*journal)(const struct pb_run_ctx *ctx, json_t *fields);
	const char *disk_id;
	/* the stall watch, which the progress callback feeds; NULL: none.
	 * A backend asks pb_stall_check at each poll; stalled, it keeps
	 * what it can see of the runner and what is under it in diag_dir
	 * (made on demand), stops the runner (the guest, the guest
	 * process) and returns PB_ERR_STALLED, errbuf naming the dir */
	struct pb_stall *stall;
	const char *diag_dir;
};

/* ---- the ops ---- */

struct pb_check_out; /* check_out.h */

/*
 * What prepare is handed. A change it makes to the target that must be
 * undone should the run die half way (a VM shut down for a power cycle:
 * left off, it is the lab's VM that is down) is journaled with begin
 * before it is made, fields holding "change" and what the backend's cleanup
 * needs, and closed with end once undone or done; cleanup after a crash
 * hands the open entry to ops->cleanup like a leftover disk. step(name):
 * where a test may stop the run (PROVBENCH_STOP_AT).
 */
struct pb_prep_ctx {
	enum pb_error (*begin)(const struct pb_prep_ctx *c, const char *id,
			       json_t *fields, char *errbuf);
	enum pb_error (*end)(const struct pb_prep_ctx *c, const char *id,
			     char *errbuf);
	void (*step)(const char *name);
	void *arg;
};

#define PB_MODE_BIT(m) (1u << (m))

/* capability bits, read by the profile loader and the harness */
#define PB_CAP_GUEST_SYSCTL 0x1u /* applies a profile's guest_sysctl */
#define PB_CAP_CLEANUP_GONE 0x2u /* tells when another target is gone */
/* each item starts its own guest with its target's settings (qemu boots
 * one per item): two arms may share a place */
#define PB_CAP_SETTINGS_PER_ITEM 0x4u
/* its disks go on storage others use (a datastore): run asks before a
 * plan above the profile's confirm_above */
#define PB_CAP_SHARED_STORAGE 0x8u

struct pb_backend_ops {
	const char *name; /* the profile's "backend", its section's key */
	const char *help; /* one line */
	unsigned modes;	  /* PB_MODE_BIT() of each mode it can make */
	unsigned caps;	  /* PB_CAP_* */
	/* its profile section: the table, the struct it fills, and the
	 * rules across keys (and the profile) the table cannot say */
	const struct pb_option *options;
	size_t options_size;
	bool section_required;
	enum pb_error (*options_check)(void *opts, const struct pb_profile *p,
				       char *errbuf);
	/* the environment's settings it will need and lacks (a server's
	 * address and login), said with a profile's own unset ones so
	 * that every missing setting is named at once; NULL: none */
	size_t (*settings_unset)(char *out, size_t len);

	/* one per target: its options are p->targets[target].bopts */
	enum pb_error (*open)(struct pb_backend **out,
			      const struct pb_profile *p, unsigned target,
			      char *errbuf);
	/* validate the plan against the target, creating nothing; each
	 * finding said with pb_check_say. NULL: nothing to check */
	enum pb_error (*check)(struct pb_backend *b, const struct pb_plan *plan,
			       struct pb_check_out *out, char *errbuf);
	/* environment for run.json: versions, host, datastore, ... */
	enum pb_error (*describe)(struct pb_backend *b, json_t *env,
				  char *errbuf);
	/* once per run, after check found nothing wrong: upload the
	 * runner, make settings live; a change to the target that must not
	 * outlive a crash is journaled through c first. NULL: nothing to
	 * prepare */
	enum pb_error (*prepare)(struct pb_backend *b,
				 const struct pb_prep_ctx *c, char *errbuf);
	/* name the disk about to be made; its journal fields into j */
	enum pb_error (*plan_disk)(struct pb_backend *b, enum pb_mode mode,
				   unsigned seq, struct pb_disk *d, json_t *j,
				   char *errbuf);
	/* create and attach; provisioning time measured inside. NULL:
	 * plan_disk made it all (a backend with no disks to make) */
	enum pb_error (*create_disk)(struct pb_backend *b, struct pb_disk *d,
				     char *errbuf);
	/* run the runner against d with args; its JSON into local_out */
	enum pb_error (*run)(struct pb_backend *b, const struct pb_disk *d,
			     const char *args, long timeout_s,
			     const struct pb_run_ctx *ctx,
			     const char *local_out, char *errbuf);
	/* NULL: nothing made, nothing to destroy */
	enum pb_error (*destroy_disk)(struct pb_backend *b,
				      const struct pb_disk *d, char *errbuf);
	/*
	 * Remove a leftover the journal names; PB_ERR_NOTFOUND if gone. An
	 * entry with a "change" is one prepare journaled: undone (its
	 * errbuf then says what was done, for the log).
	 * mine: the entry's target is this backend's (the harness compares
	 * the journal's "target" with target_key). Of another target's
	 * entry, a backend with PB_CAP_CLEANUP_GONE says whether that target
	 * is gone (PB_ERR_NOTFOUND: a VM deleted since) or not (PB_ERR_UNSAFE:
	 * left alone, it may be another run's).
	 */
	enum pb_error (*cleanup)(struct pb_backend *b, json_t *entry, bool mine,
				 char *errbuf);
	/* a one-line key naming the target, for the lock and journal */
	const char *(*target_key)(struct pb_backend *b);
	/* the i-th place the target's disks share with whatever else uses
	 * it (a datastore, a LUN, a host filesystem), one line naming it, or
	 * NULL after the last: another run on one of them is warned of, or
	 * with "exclusive" refused. May be NULL (none). */
	const char *(*shared_key)(struct pb_backend *b, unsigned i);
	/* how many targets this controller can measure at once without
	 * their guests competing for it (qemu: the host's cores over a
	 * guest's vCPUs): "concurrency" above it is lowered, and said.
	 * May be NULL (no limit here: the guests run elsewhere). */
	unsigned (*at_once)(struct pb_backend *b);
	/* provbench's disks the server shows on the i-th shared place now,
	 * whichever controller made them, into files (strings): how a run
	 * on another machine is seen (its locks are not here). May be NULL:
	 * the places are this machine's. */
	enum pb_error (*place_disks)(struct pb_backend *b, unsigned i,
				     json_t *files, char *errbuf);
	void (*close)(struct pb_backend *b);
	/* "host_baseline": the host backend's section ({"dir", "device"})
	 * for the place this target's disks are backed by, so the host
	 * measures the same workload on what the guest's disks sit on.
	 * NULL: this backend has no host beside it to measure. */
	enum pb_error (*host_twin)(const void *bopts, json_t *host_section,
				   char *errbuf);
};

/* The registry (backends.c). */
const struct pb_backend_ops *pb_backend_find(const char *name);
/* Every backend, NULL-terminated. */
const struct pb_backend_ops *const *pb_backend_list(void);
/* One more, after the built-in ones: a test's backend with faults
 * injected through its table. False when full or the name is taken. */
bool pb_backend_add(const struct pb_backend_ops *ops);

/* ---- what check found: check_out.h ---- */

/* ---- saying what takes time ---- */

/*
 * A step the user waits for ("booting guest", "creating eager disk"): a
 * timestamped line on stderr, unless the run is quiet. Progress is stderr's;
 * stdout keeps results.
 */
void pb_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- what provbench ships with ---- */

/*
 * The path of a shipped file or directory (guest, provbench-runner-static):
 * beside the running binary (a build tree), else ../lib/provbench/NAME
 * (installed, under any PREFIX). False if neither is readable; out is then
 * the installed path, for the message.
 */
bool pb_data_path(char *out, size_t len, const char *name);
/* Is the running binary a source tree's build (so `make guest` helps)? */
bool pb_in_source_tree(void);

#endif
