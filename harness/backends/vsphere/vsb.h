/*
 * vsb.h - the vsphere backend's parts: disks of each mode created on and
 * attached to a test VM with ReconfigVM_Task (backend.c), what the
 * datastore makes of each mode and why (storage.c), the settings a run
 * needs live and the power cycle that makes them so (settings.c), and the
 * static runner uploaded once and run inside the guest through VMware
 * Tools against the disk's identity (guest.c). Its profile section,
 * "vsphere" (options.c).
 *
 * What real servers make necessary:
 *   - settings such as disk.EnableUUID take effect at power-on only: they
 *     are read first, and a change on a running VM needs a power cycle the
 *     profile allows (vsphere.power_cycle); nothing is measured with a
 *     setting that is not live;
 *   - a guest sees a virtual disk (and a virtual-mode RDM) by the disk's
 *     uuid, but a physical-mode RDM as the LUN itself: by its NAA id;
 *   - provisioning time is the server's (the task's start to completion);
 *   - guest processes are polled sparingly (each poll is a guest login),
 *     and one Tools forgot is still judged by the output it left.
 */
#ifndef PB_VSB_H
#define PB_VSB_H

#include "harness_int.h"
#include "vsphere_options.h"
#include "vsphere.h"

/* one setting the profile needs live, as found and as it will be */
struct vsb_setting {
	const char *key;
	const char *want;
	char had[256];
	bool change;
};

/* what the datastore will make of one mode (storage.c) */
struct vsb_made {
	enum pb_mode made; /* PB_MODE_UNKNOWN: the server cannot say */
	char why[400];	   /* "" when as asked */
	char policy[128];  /* the storage policy its disks get, if any */
	char policy_id[64];
	int reserve; /* its object space reservation, %; -1 unknown */
};

struct vsb {
	struct pb_backend base; /* first: what the harness holds */
	const struct pb_profile *p;
	const struct vsphere_opts *o;
	const struct pb_kv *sysctl; /* this target's guest_sysctl */
	struct vs_session *s;
	struct vs_vm_info vm;
	struct vs_vm_state state;
	struct vs_disk cur; /* the disk of the mode in progress */
	char url[512];
	char user[256]; /* the login, for sharing it */
	char key[800];
	/* the datastore's key, the LUN's, the VM's ESXi host's */
	char shared[3][800];
	char ds[256];	  /* datastore for new disks */
	char vm_dir[300]; /* the VM's folder, when on that datastore */
	char run_id[32];
	char runner_guest[600];
	/* the guest's family, from guest.guestFamily (vsb_guest_family) */
	bool windows;
	char gdir[512];	       /* the guest directory */
	const char *by_id_dir; /* NULL: the runner's own lookup */
	const char *runner;    /* the local runner this guest runs */
	struct vsb_setting set[PB_MAX_KV + 1];
	unsigned nset;
	bool power_cycled;
	char power_cycled_at[32];
	/* the datastore for new disks, read by check (storage.c) */
	struct vs_ds_detail dsd;
	bool have_dsd;
	bool policy_driven; /* vSAN, vVols: the policy sets provisioning */
	struct vsb_made made[PB_MODE__COUNT];
	char ns_folder[64]; /* a namespace folder made for the disks */
	/* the server's counters this server has (check reads them); why
	 * not, when it could not */
	struct vs_perf_counters pc;
	bool have_pc;
	char pc_why[PB_ERRBUF_SIZE];
};

extern const struct pb_backend_ops vsphere_backend;

/* The backend's own struct from what the harness holds (base is first). */
static inline struct vsb *vsb_of(struct pb_backend *be)
{
	return (struct vsb *)be;
}

/* The guest family's runner, directory, path separator and disk lookup,
 * from b->state (read it first). */
void vsb_guest_family(struct vsb *b);
/* A file in the guest directory: "<dir>/<name>" or "<dir>\\<name>". */
void vsb_guest_path(const struct vsb *b, char *out, size_t len,
		    const char *name);

/* The session's message as the op's (when the op has none yet). */
static inline enum pb_error vsb_sess_err(struct vsb *b, enum pb_error err,
					 char *errbuf)
{
	if (err)
		pb_fail(errbuf, err, "%s", vs_session_error(b->s));
	return err;
}

/* storage.c */
/* The datastore (a datastore cluster named instead is a problem) and what
 * it makes of each of the plan's modes, said, into b. */
enum pb_error vsb_storage_check(struct vsb *b, const struct pb_plan *plan,
				struct pb_check_out *out);
/* A folder for the disks where folders are namespace objects (vSAN,
 * vVols) and the VM's own is elsewhere. */
enum pb_error vsb_storage_prepare(struct vsb *b, char *errbuf);
/* The disk's storage facts into its read-back: what it applied as and
 * why, the policy read back through SPBM. */
void vsb_storage_readback(struct vsb *b, struct pb_disk *d, json_t *rb);
json_t *vsb_storage_json(const struct vsb *b);
/* vsphere.unapplied "skip" and a mode the datastore will not make: true,
 * the reason in errbuf (PB_ERR_UNSUPPORTED: the item is skipped). */
bool vsb_storage_skips(const struct vsb *b, enum pb_mode m, char *errbuf);

/* settings.c */
enum pb_error vsb_settings_read(struct vsb *b, char *errbuf);
/* The settings to change, as one line ("" and 0 when none). */
unsigned vsb_settings_to_change(const struct vsb *b, char *out, size_t len);
enum pb_error vsb_settings_refuse(const struct vsb *b, const char *what,
				  char *errbuf);
enum pb_error vsb_settings_apply(struct vsb *b, const struct pb_prep_ctx *c,
				 char *errbuf);
/* A journaled power cycle left unfinished: the VM on again (cleanup). */
enum pb_error vsb_power_restore(struct vsb *b, const char *moref,
				const char *name, char *errbuf);
json_t *vsb_settings_json(const struct vsb *b);

/* guest.c */
enum pb_error vsb_transfer_round_trip(struct vsb *b, struct pb_check_out *out,
				      char *errbuf);
enum pb_error vsb_prepare(struct pb_backend *be, const struct pb_prep_ctx *c,
			  char *errbuf);
enum pb_error vsb_run(struct pb_backend *be, const struct pb_disk *d,
		      const char *args, long timeout_s,
		      const struct pb_run_ctx *ctx, const char *local_out,
		      char *errbuf);

/* counters.c */
/* check: the counters this server keeps of the plan's passes, and
 * whether this user may read them, said */
void vsb_counters_check(struct vsb *b, struct pb_check_out *out);
/* Each pass of the runner's document at path gets the server's counters
 * over it ("server_counters"); launched and ended: the server's clock
 * when it started the runner and saw it end (NaN: unknown). */
void vsb_counters_annotate(struct vsb *b, const char *path, double launched,
			   double ended, const struct pb_run_ctx *ctx);

/* storage.c: what a guest's reclaim can do on a datastore (issue 40):
 * to which disks its discard reaches ("thin disks", "none", ...), the
 * settings said in a sentence, and as run.json records them */
const char *vsb_reclaim_reach(const struct vs_ds_detail *ds);
void vsb_reclaim_words(char *out, size_t len, const struct vs_ds_detail *ds);
json_t *vsb_reclaim_json(const struct vs_ds_detail *ds);

/* reclaim.c: a thin disk's give-back read from the server while the
 * runner waits after its reclaim, the runner told to go on once it stops
 * moving, and the reads put in its reclaim pass ("server_allocation") */
struct vsb_reclaim_watch {
	bool on;	   /* the workload has a reclaim pass */
	const char *file;  /* the disk's "[ds] path.vmdk" */
	const char *go;	   /* the runner's --reclaim-go-file, in the guest */
	double before;	   /* read in the hold before a discard; NaN none */
	long before_index; /* the reclaim it was read for, plus 1 */
	double before_at;  /* the one the current reclaim counts from */
	long index;	   /* the reclaim pass being read; -1 none */
	json_t *samples;   /* its reads, [seconds, bytes] */
	uint64_t t0;
	bool told;    /* the runner was told to go on */
	json_t *done; /* each read reclaim, by pass index */
};
void vsb_reclaim_watch_init(struct vsb_reclaim_watch *w, const struct vsb *b,
			    const char *file, const char *go);
/* at each poll, with the runner's progress: the ms until the next poll
 * it wants (a second while a reclaim gives back), 0 no opinion */
unsigned vsb_reclaim_watch_poll(struct vsb *b, struct vsb_reclaim_watch *w,
				const json_t *progress);
void vsb_reclaim_annotate(struct vsb_reclaim_watch *w, const char *path);
void vsb_reclaim_watch_dispose(struct vsb_reclaim_watch *w);

#endif
