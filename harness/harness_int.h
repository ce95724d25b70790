/*
 * harness_int.h - internals of provbench's orchestrator: profiles as plain
 * option structs, the plan, the journal, and the backend interface every
 * backend (vsphere, qemu) fills in.
 */
#ifndef PB_HARNESS_INT_H
#define PB_HARNESS_INT_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "harness.h"
#include "runner.h"

/* ---- profiles ---- */

#define PB_MAX_KV     32
#define PB_MAX_POINTS 64

struct pb_kv {
	char *key[PB_MAX_KV];
	char *val[PB_MAX_KV];
	unsigned n;
};

struct pb_vsphere_opts {
	char *vm;	     /* inventory path or unique name */
	char *datastore;     /* NULL: the VM's own */
	char *host;	     /* for the LUN; NULL: the VM's host */
	char *lun;	     /* canonical name, for rdm / rdmp */
	int controller;	     /* -1: any SCSI controller with room */
	char *guest_dir;     /* where the runner and its output go */
	char *runner;	     /* local static runner to upload */
	char *by_id_dir;     /* where the runner looks disks up */
	long task_timeout_s; /* a vSphere task not done by then failed */
	struct pb_kv extra_config;
	/* settings that take effect at power-on may be made live by a
	 * power cycle of the VM (shutdown through Tools, set, power on) */
	bool power_cycle;
};

struct pb_qemu_opts {
	char *dir;	  /* disk files; NULL: <state dir>/qemu */
	char *accel;	  /* "auto" (KVM if a probe boot works), "kvm", "tcg" */
	char *rdm_device; /* host block device for rdm; NULL: a loop device */
	char *guest;	  /* guest image directory; NULL: see backend */
	char *binary;	  /* qemu-system-x86_64 */
	unsigned memory_mib;
	unsigned cpus;
};

struct pb_profile {
	char *path;
	char *text; /* the file as read, for run.json */
	char *name;
	char *description;
	char *backend; /* "vsphere" | "qemu" */
	struct pb_vsphere_opts vsphere;
	struct pb_qemu_opts qemu;
	uint64_t disk_size;
	enum pb_mode modes[PB_MODE__COUNT];
	unsigned nmodes;
	unsigned repetitions;
	bool shuffle;
	bool seed_set;
	uint64_t seed;
	unsigned cooldown_s;
	long timeout_s; /* per runner invocation */
	/* the workload, expanded over the matrix: one point without one.
	 * Each is the runner's options as it will get them (size: the disk,
	 * or the file of a filesystem workload; target and seed: per item),
	 * described in full by the matrix values that make it ("" alone) */
	struct runner_opts points[PB_MAX_POINTS];
	char *point_desc[PB_MAX_POINTS];
	unsigned npoints;
	struct pb_kv sysctl;
	char *command; /* what command passes run (workload.command) */
};

/*
 * Load and validate a profile: unknown keys, wrong types and bad values
 * are errors naming file:line:column (syntax) or file: key.path (content).
 * Values "env:NAME" come from the environment.
 */
enum pb_error pb_profile_load(struct pb_profile *p, const char *path,
			      char *errbuf);
void pb_profile_dispose(struct pb_profile *p);
/* The runner's argument string for one workload point (its target, and
 * the command as a file, are the backend's to add). */
enum pb_error pb_workload_args(struct pb_buf *out, const struct runner_opts *w,
			       uint64_t seed);
/* Does the workload have a command pass? */
bool pb_workload_has_command(const struct runner_opts *w);
/* A point's description, "" for a profile without a matrix. */
static inline const char *pb_point_desc(const struct pb_profile *p,
					unsigned point)
{
	return p->point_desc[point] ? p->point_desc[point] : "";
}

/* ---- plan ---- */

struct pb_plan_item {
	unsigned rep; /* 1-based */
	enum pb_mode mode;
	unsigned point; /* index into profile points */
};

struct pb_plan {
	struct pb_plan_item *items;
	size_t n;
	uint64_t seed; /* the shuffle seed, recorded so it can be replayed */
};

enum pb_error pb_plan_build(struct pb_plan *plan, const struct pb_profile *p,
			    char *errbuf);
void pb_plan_dispose(struct pb_plan *plan);

/* ---- journal (DESIGN.md: what will exist, fsynced before it does) ---- */

struct pb_journal {
	char path[1024];
	int fd;
};

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

/* ---- backends (fio's ioengine_ops, curl's Curl_ssl) ---- */

struct pb_backend;

/* A disk a backend made, as the journal and run.json describe it. */
struct pb_disk {
	enum pb_mode mode;
	char id[64];	/* journal id: the backend's unique name for it */
	char file[600]; /* where it lives (datastore path, host path) */
	char uuid[80];	/* what the guest finds it by */
	double provision_s;	 /* as the server timed it, when it did */
	double provision_wall_s; /* as the harness waited for it */
	const char *provision_source; /* "server task", "client wall" */
	json_t *readback; /* the provisioning the backend reports */
};

#define PB_BACKEND_F_RDM      0x1u /* can map raw devices */
#define PB_BACKEND_F_GUEST_VM 0x2u /* the runner runs in a guest */

struct pb_run_ctx {
	volatile sig_atomic_t *stop; /* set by SIGINT / SIGTERM */
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
};

struct backend_ops {
	const char *name;
	unsigned flags;
	enum pb_error (*open)(struct pb_backend **out,
			      const struct pb_profile *p, char *errbuf);
	/* validate the plan against the target, creating nothing */
	enum pb_error (*check)(struct pb_backend *b, const struct pb_plan *plan,
			       FILE *out);
	/* environment for run.json: versions, host, datastore, ... */
	enum pb_error (*describe)(struct pb_backend *b, json_t *env);
	/* once per run: upload the runner, settings */
	enum pb_error (*prepare)(struct pb_backend *b);
	/* journal entry fields for a disk about to be made (into j) */
	enum pb_error (*plan_disk)(struct pb_backend *b, enum pb_mode mode,
				   unsigned seq, struct pb_disk *d, json_t *j);
	/* create and attach; provisioning time measured inside */
	enum pb_error (*create_disk)(struct pb_backend *b, struct pb_disk *d);
	/* run the runner against d with args; its JSON into local_out */
	enum pb_error (*run)(struct pb_backend *b, const struct pb_disk *d,
			     const char *args, long timeout_s,
			     const struct pb_run_ctx *ctx,
			     const char *local_out);
	enum pb_error (*destroy_disk)(struct pb_backend *b,
				      const struct pb_disk *d);
	/* remove a leftover the journal names; PB_ERR_NOTFOUND if gone. Also
	 * asked about entries of this backend's other targets: PB_ERR_UNSAFE
	 * leaves them alone (they may be another run's), PB_ERR_NOTFOUND
	 * says the target itself is gone (a VM deleted since) */
	enum pb_error (*cleanup)(struct pb_backend *b, json_t *entry);
	/* a one-line key naming the target, for the lock and journal */
	const char *(*target_key)(struct pb_backend *b);
	const char *(*error)(struct pb_backend *b);
	void (*close)(struct pb_backend *b);
};

extern const struct backend_ops vsphere_backend;
extern const struct backend_ops qemu_backend;

const struct backend_ops *pb_backend_find(const char *name);

/* ---- commands ---- */

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
