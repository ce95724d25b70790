/*
 * vsphere.h - public interface of the vSphere SOAP client (vim25 over
 * libcurl + libxml2): configuration from the environment, a session, the
 * inventory, disks, tasks.
 *
 * Every call returns an enum pb_error; the detail (and, for a server
 * fault, its type) is kept on the session: vs_session_error(),
 * vs_session_fault().
 */
#ifndef PB_VSPHERE_H
#define PB_VSPHERE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

/* ---- configuration (docs/DESIGN.md: never from argv) ---- */

struct vs_config {
	char *url; /* https://host/sdk */
	char *username;
	char *password;	  /* wiped when disposed */
	char *thumbprint; /* lower-case hex without colons, or NULL */
	char *ca_file;	  /* one PEM file, or a ':'-separated list */
	bool insecure;
	bool tls_legacy; /* TLS 1.0 / 1.1 allowed (PROVBENCH_TLS_LEGACY) */
	char *guest_username;
	char *guest_password;
	char *guest_transfer_host;
	char *debug_dir;
	/* bounds on every request (watch.c): the TCP and TLS handshakes
	 * (PROVBENCH_CONNECT_TIMEOUT), a reply's start and each span of it
	 * (PROVBENCH_REPLY_TIMEOUT), and the whole of it */
	long connect_timeout_ms;
	long reply_timeout_ms;
	long request_timeout_ms;
};

#define VS_CONFIG_INIT                                                         \
	{                                                                      \
		.connect_timeout_ms = 15000, .reply_timeout_ms = 60000,        \
		.request_timeout_ms = 600000                                   \
	}

/* A getenv() stand-in, so tests can hand in an environment. */
typedef const char *(*vs_getenv_fn)(const char *name, void *arg);

/*
 * PROVBENCH_* first, then govc's GOVC_* (docs/DESIGN.md). A URL without a path
 * gets /sdk; credentials in the URL (govc style user:pass@host) are taken
 * when the variables are unset, and removed from cfg->url.
 */
enum pb_error vs_config_from_env(struct vs_config *cfg, vs_getenv_fn get,
				 void *arg, char *errbuf);
/* The connection's settings unset (PROVBENCH_URL, PROVBENCH_USERNAME,
 * PROVBENCH_PASSWORD, each with its alternatives), and with run what a
 * run needs too (the guest's login, a pin or a CA): a comma-separated
 * list in out; how many. */
size_t vs_config_env_unset(vs_getenv_fn get, void *arg, char *out, size_t len,
			   bool run);
void vs_config_dispose(struct vs_config *cfg);

/* SHA-1 (40 hex) or SHA-256 (64 hex), colons optional, any case. */
enum pb_error vs_thumbprint_normalize(char *out, size_t len, const char *in,
				      char *errbuf);

/* A server's certificate as it presents it. */
struct vs_cert_id {
	char sha1[60]; /* AB:CD:..., as vCenter shows sslThumbprint */
	char sha256[100];
	char subject[256];
};

/*
 * Connect to url for the TLS handshake only (no request, no credentials)
 * and note the certificate, trusted or not: what to put in
 * PROVBENCH_THUMBPRINT, once checked.
 */
enum pb_error vs_cert_probe(struct vs_cert_id *out, const char *url,
			    bool tls_legacy, char *errbuf);

/* ---- session ---- */

struct vs_session;

struct vs_about {
	char name[128];
	char full_name[256];
	char version[32];
	char build[32];
	char api_type[32];
	char api_version[16];
	char instance_uuid[64];
};

/* Called with every request body before it is sent (tests validate it). */
typedef void (*vs_request_hook)(const char *op, const char *body, size_t len,
				void *arg);

/*
 * Connect, discover the API version, RetrieveServiceContent and Login.
 * On failure *out is NULL and errbuf says why (PB_ERR_CONNECT, _TLS,
 * _LOGIN, ...).
 */
enum pb_error vs_session_open(struct vs_session **out,
			      const struct vs_config *cfg, vs_request_hook hook,
			      void *hook_arg, char *errbuf);
/*
 * Another session of with's server sharing its login: one session on the
 * server (its sessionManager lists one), this one's own connection and
 * property collector, so it may be used from another thread while with is.
 * A login the server drops is taken again once, by whichever session
 * notices first; the others take that one. The last of them logs out.
 * Open and free them from one thread.
 */
enum pb_error vs_session_open_shared(struct vs_session **out,
				     struct vs_session *with, char *errbuf);
/* Logout (the last of a shared login) and free; NULL-safe. */
void vs_session_free(struct vs_session *s);

/* Told of every change of a task's state or progress while waiting. */
typedef void (*vs_progress_fn)(const char *task, const char *state, int percent,
			       void *arg);
void vs_session_set_progress(struct vs_session *s, vs_progress_fn fn,
			     void *arg);
/* How long a task may run before the wait gives up (default 6 hours:
 * eager-zeroing a large disk on slow storage takes that long). */
void vs_session_set_task_timeout(struct vs_session *s, long seconds);

const char *vs_session_error(const struct vs_session *s);
const char *vs_session_fault(const struct vs_session *s);
/* about.apiVersion is the server's; the version spoken is
 * vs_session_api_version() (the newest dotted one both know). */
const struct vs_about *vs_session_about(const struct vs_session *s);
const char *vs_session_api_version(const struct vs_session *s);
unsigned vs_session_round_trips(const struct vs_session *s);
/* vCenter (true) or a host called directly (standalone ESXi)? */
bool vs_session_is_vcenter(const struct vs_session *s);

/*
 * The last task waited for, as the server timed it (TaskInfo.startTime to
 * completeTime: provisioning time is the server's), and as the client
 * waited for it (round trips and polling included).
 */
struct vs_task_times {
	bool have_server;
	double server_s;
	double wall_s;
	char start[40]; /* as the server wrote them */
	char complete[40];
};
const struct vs_task_times *vs_session_last_task(const struct vs_session *s);

/*
 * What the last guest transfer went through: "esx01.lab (resolves)", or
 * "esx01.lab does not resolve: its management vmknic 10.0.0.5", and the
 * certificate it was pinned to. "" before any.
 */
const char *vs_session_transfer_note(const struct vs_session *s);
/* the guest login's user name ("" when none is configured) */
const char *vs_session_guest_user(const struct vs_session *s);

/*
 * The licences a host called directly has: PB_ERR_LICENSE (naming the
 * edition) when the free vSphere Hypervisor edition, or an expired
 * evaluation, makes its API read-only. vCenter: PB_OK (it manages no free
 * hosts). edition gets the edition's name.
 */
enum pb_error vs_license_check(struct vs_session *s, char *edition, size_t len);

/* ---- inventory ---- */

struct vs_moref {
	char type[48];
	char value[160]; /* session-scoped ids run past 80 chars */
};

struct vs_vm_info {
	struct vs_moref ref;
	char name[256];
	char power_state[24];
	char tools_status[32];
	struct vs_moref host;
	char path[512]; /* vmPathName, "[ds] dir/vm.vmx" */
	/* a Windows guest (guest.guestFamily windowsGuest, set by the
	 * caller once it knows): guest files take GuestWindowsFileAttributes */
	bool windows;
};

struct vs_ds_info {
	struct vs_moref ref;
	char name[256];
	char type[32];
	uint64_t capacity;
	uint64_t free_space;
	bool accessible;
};

struct vs_host_info {
	struct vs_moref ref;
	char name[256];
	char version[32];
	char build[32];
	char connection_state[24];
};

enum pb_error vs_vm_list(struct vs_session *s, struct vs_vm_info **out,
			 size_t *n);
enum pb_error vs_datastore_list(struct vs_session *s, struct vs_ds_info **out,
				size_t *n);
enum pb_error vs_host_list(struct vs_session *s, struct vs_host_info **out,
			   size_t *n);

/*
 * A VM by inventory path ("/DC0/vm/bench-01"), by "moref:vm-123", or by
 * name, which must be unique: otherwise PB_ERR_INPUT and the candidates
 * in the error.
 */
enum pb_error vs_vm_find(struct vs_session *s, struct vs_vm_info *out,
			 const char *name_or_path);
enum pb_error vs_host_find(struct vs_session *s, struct vs_host_info *out,
			   const char *name);

/* ---- disks (their modes: enum pb_mode, common.h) ---- */

struct vs_disk_spec {
	enum pb_mode mode;
	uint64_t size_bytes;   /* flat disks; RDMs take the LUN's size */
	const char *datastore; /* name; NULL = the VM's own */
	const char *lun;       /* rdm: canonical name (naa.xxx) */
	const char *host;      /* rdm: where the LUN is; NULL = VM's host */
	int controller_key;    /* -1: the first SCSI controller with room */
	const char *policy_id; /* a storage policy's id (SPBM), or NULL */
	/* the datastore path to create ("[ds] dir/name.vmdk"); NULL lets
	 * the server choose. A caller that journals disks names them, so
	 * the record exists before the disk does. */
	const char *file;
};

#define VS_DISK_SPEC_INIT                                                      \
	{                                                                      \
		.mode = PB_MODE_LAZY, .controller_key = -1                     \
	}

/* A disk as the server describes it, after the fact. */
struct vs_disk {
	int key;
	int controller_key;
	int unit;
	char label[64];
	char file[512];
	char uuid[64];
	uint64_t capacity_bytes;
	char backing[64];
	int thin_provisioned; /* -1 when the backing has no such flag */
	int eagerly_scrub;
	char compat_mode[24];
	char device_name[256];
	char lun_uuid[128];
	char disk_mode[32]; /* persistent, independent_persistent, ... */
	enum pb_mode mode;  /* derived from the flags read back */
	/* an RDM made by vs_disk_add: its LUN's canonical name. A guest
	 * sees a physical RDM as that LUN (its NAA id), not by uuid */
	char lun_name[128];
};

enum pb_error vs_disk_list(struct vs_session *s, const struct vs_moref *vm,
			   struct vs_disk **out, size_t *n);

/* A VM's SCSI controllers, for "is there a unit for one more disk". */
#define VS_MAX_CONTROLLERS 8
struct vs_controller {
	int key, bus;
	char type[48];	/* ParaVirtualSCSIController, VirtualLsiLogic... */
	char label[64]; /* "SCSI controller 0" */
	unsigned units; /* units a disk may take: 14, or 62 (PVSCSI, vmx-14) */
	unsigned free;	/* of those, free (any device holds its unit) */
};
struct vs_vm_hw {
	char hw_version[16]; /* "vmx-19" */
	struct vs_controller ctl[VS_MAX_CONTROLLERS];
	size_t nctl;
	/* NVMe, SATA (AHCI) and NVDIMM controllers: disks provbench does
	 * not add there (an RDM needs SCSI) */
	unsigned other_controllers;
};
enum pb_error vs_vm_controllers(struct vs_session *s, const struct vs_moref *vm,
				struct vs_vm_hw *out);
/*
 * ReconfigVM_Task with fileOperation create, wait for the task, then read
 * the disk back: out holds what the server really applied, which may
 * differ from the spec (compare out->mode with spec->mode).
 */
enum pb_error vs_disk_add(struct vs_session *s, const struct vs_moref *vm,
			  const struct vs_disk_spec *spec, struct vs_disk *out);
/*
 * Remove d (as vs_disk_list or vs_disk_add described it) and, unless
 * keep_file, destroy its file. A disk no longer attached is a fault.
 */
enum pb_error vs_disk_remove(struct vs_session *s, const struct vs_moref *vm,
			     const struct vs_disk *d, bool keep_file);

struct vs_lun {
	char canonical_name[128];
	char display_name[256];
	char uuid[128];
	char device_path[256];
	char lun_type[32];
	char vendor[16];
	char model[32];
	char vaai[24]; /* vStorageSupported | vStorageUnsupported | ... */
	uint64_t capacity_bytes;
	char used_by[64]; /* "" free, "vmfs:<volume>", or "rdm:<vm moref>" */
	bool offered;	  /* QueryConfigTarget offers it for RDM */
	char why[80];	  /* why not offered: vSAN, local disk, a cdrom */
};

/* Every SCSI device of the host, marked: which may be mapped (offered
 * and free), which are in use, and why the rest are not offered. */
enum pb_error vs_host_luns(struct vs_session *s, const struct vs_moref *host,
			   struct vs_lun **out, size_t *n);
/* The LUN by canonical name, uuid or display name, if it may be mapped:
 * PB_ERR_INPUT naming why not (in use, not offered), _NOTFOUND if none. */
enum pb_error vs_lun_find(struct vs_session *s, const struct vs_moref *host,
			  const char *name, struct vs_lun *out);

/* ---- VM settings and power (vm.c) ---- */

enum pb_error vs_vm_set_extra_config(struct vs_session *s,
				     const struct vs_moref *vm,
				     const char *const *keys,
				     const char *const *values, size_t n);
/* values[i] gets config.extraConfig's value for keys[i] ("" when unset).
 * What is configured, which is what is live only since a power-on. */
enum pb_error vs_vm_extra_config_get(struct vs_session *s,
				     const struct vs_moref *vm,
				     const char *const *keys,
				     char (*values)[256], size_t n);

struct vs_vm_state {
	char power_state[24];
	char tools[32];	       /* guest.toolsRunningStatus */
	char tools_status[32]; /* guest.toolsStatus: toolsNotInstalled... */
	char guest_family[32];
	char guest_full_name[128];
	char boot_time[40];
	bool has_snapshot; /* writes go to a delta disk then */
};
/*
 * What a VM's disk file holds on its datastore, as the server says after
 * RefreshStorageInfo: layoutEx's uniqueSize of the disk's extent
 * ("-flat.vmdk"), or of its descriptor where none is listed.
 */
enum pb_error vs_vm_file_allocated(struct vs_session *s,
				   const struct vs_moref *vm, const char *file,
				   uint64_t *bytes);
enum pb_error vs_vm_state_get(struct vs_session *s, const struct vs_moref *vm,
			      struct vs_vm_state *out);

/*
 * Settings that take effect only at power-on (disk.EnableUUID and every
 * extraConfig key): shut the guest down through Tools, wait for it to be
 * off, set them, power on, and wait for Tools to run again. Each step
 * waits at most timeout_s; a guest that does not shut down is not
 * powered off hard (PB_ERR_TIMEOUT, saying so).
 *
 * Once the VM is off it is powered on again whatever fails after (a
 * fault, an HTTP 503, a timeout): the error is the first failure, its
 * message saying "VM X powered on again after ..." or, when even that
 * failed, "VM X is powered off: ...". off(arg) is called with the VM off,
 * before anything is set (a test stops the run there).
 */
struct vs_power_cycle {
	const char *name; /* the VM's name, for the messages */
	long timeout_s;
	void (*off)(void *arg);
	void *arg;
	/* out: the VM went off; it is on again with Tools running */
	bool went_off, on_again;
};
enum pb_error vs_vm_power_cycle(struct vs_session *s, const struct vs_moref *vm,
				const char *const *keys,
				const char *const *values, size_t n,
				struct vs_power_cycle *pc);
/*
 * Power the VM on unless it is on, and wait for its Tools to run: what
 * puts a VM back after a power cycle that failed or was killed. A
 * PowerOnVM_Task that fails is tried again (three times in all) after the
 * state is read again: the VM is never powered on twice.
 */
enum pb_error vs_vm_power_on(struct vs_session *s, const struct vs_moref *vm,
			     long timeout_s);

/* ---- storage policies (pbm.c: vCenter's SPBM service) ---- */

struct vs_policy {
	char id[64];
	char name[128];
	/* VSAN.proportionalCapacity, the object space reservation in %;
	 * -1 when the policy says nothing of it (0 is vSAN's default) */
	int reserve;
};
/* A storage policy by name: PB_ERR_NOTFOUND names the ones there are. */
enum pb_error vs_pbm_policy_find(struct vs_session *s, const char *name,
				 struct vs_policy *out);
/* The policy a datastore gives disks that ask for none. */
enum pb_error vs_pbm_default_policy(struct vs_session *s,
				    const struct vs_moref *datastore,
				    struct vs_policy *out);
/* The policy a VM's disk (its device key) has now. */
enum pb_error vs_pbm_disk_policy(struct vs_session *s,
				 const struct vs_moref *vm, int disk_key,
				 struct vs_policy *out);

/* ---- the lab around the VM (lab.c) ---- */

struct vs_ds_detail;

/* A host as a run depends on it. */
struct vs_host_state {
	char name[256];
	char connection[24];	   /* connected, disconnected, notResponding */
	bool in_maintenance;	   /* runtime.inMaintenanceMode */
	bool entering_maintenance; /* an EnterMaintenanceMode task runs */
};
enum pb_error vs_host_state_get(struct vs_session *s,
				const struct vs_moref *host,
				struct vs_host_state *out);
/*
 * A datastore cluster (StoragePod) named name: PB_OK and its datastores'
 * names, comma-separated, into members; PB_ERR_NOTFOUND when there is
 * none by that name.
 */
enum pb_error vs_storage_pod_find(struct vs_session *s, const char *name,
				  char *members, size_t len);
/*
 * A folder at the top of a datastore whose folders are namespace objects
 * (vSAN, vVols: DatastoreCapability.topLevelDirectoryCreateSupported
 * false): made with DatastoreNamespaceManager.CreateDirectory unless it
 * is there (FileAlreadyExists). *made says which.
 */
enum pb_error vs_datastore_namespace(struct vs_session *s,
				     const struct vs_ds_detail *ds,
				     const char *folder, bool *made);

/* A datastore as a storage engineer asks about it. */
struct vs_ds_detail {
	char name[256];
	char type[32];	       /* VMFS, NFS, NFS41, vsan, vvol */
	char vmfs_version[16]; /* "6.82"; "" unless VMFS */
	char vaai[24];	       /* vStorageSupported, ...; "" unknown */
	uint64_t capacity;
	uint64_t free_space;
	bool accessible;
	struct vs_moref ref;
	/* DatastoreCapability: thin per file (false on NAS, where the
	 * server decides), RDM mapping files, top-level directories (false
	 * on vSAN and vVols: folders are namespace objects there) */
	bool per_file_thin, rdm_files, top_level_dirs;
	char url[512]; /* summary.url: "ds:///vmfs/volumes/..." */
	char lun[128]; /* a VMFS datastore's first extent's LUN (naa...) */
	/* its uuid, the instance of its host's datastore.* counters: VMFS's
	 * own, else the one in a "ds:///vmfs/volumes/UUID/" url */
	char uuid[80];
	/* VMFS's space reclamation (HostVmfsVolume, vSphere 6.5 and later;
	 * absent from older servers and other types): the major version (0
	 * not VMFS), unmapPriority ("none", "low"; "" not said), its
	 * granularity in KB (0 not said) and its bandwidth spec (policy
	 * "fixed" or "dynamic", "" none; MB/s) */
	struct vs_ds_reclaim {
		int vmfs_major;
		char priority[16];
		unsigned granularity_kb;
		char policy[16];
		uint64_t fixed_mbs, min_mbs, max_mbs;
	} reclaim;
};
/* name as the VM's host sees it (the host's ConfigTarget gives VAAI) */
enum pb_error vs_datastore_detail(struct vs_session *s,
				  const struct vs_moref *host, const char *name,
				  struct vs_ds_detail *out);

/*
 * The files on datastore ds, in any folder, whose names match pattern (a
 * glob: "provbench-*.vmdk"), as the server lists them
 * (HostDatastoreBrowser.SearchDatastoreSubFolders_Task, disks only), each
 * told to fn as "[ds] folder/name".
 */
typedef void (*vs_file_fn)(const char *path, void *arg);
enum pb_error vs_datastore_files(struct vs_session *s, const char *ds,
				 const char *pattern, vs_file_fn fn, void *arg);

/* ---- guest operations (VMware Tools) ---- */

/* Upload a local file; mode is the guest file's permissions (0700...);
 * on a Windows guest it has none (access is the directory's ACL). */
enum pb_error vs_guest_upload(struct vs_session *s, const struct vs_vm_info *vm,
			      const char *local, const char *guest_path,
			      unsigned mode, bool overwrite);
/* Download to local (written whole, then renamed into place). */
enum pb_error vs_guest_download(struct vs_session *s,
				const struct vs_vm_info *vm,
				const char *guest_path, const char *local);
enum pb_error vs_guest_mkdir(struct vs_session *s, const struct vs_vm_info *vm,
			     const char *path, bool parents);
/* POSIX permissions of a guest file or directory (e.g. 0700); not on a
 * Windows guest (PB_ERR_UNSUPPORTED). */
enum pb_error vs_guest_chmod(struct vs_session *s, const struct vs_vm_info *vm,
			     const char *path, unsigned mode);
enum pb_error vs_guest_remove(struct vs_session *s, const struct vs_vm_info *vm,
			      const char *path, bool directory);
enum pb_error vs_guest_start(struct vs_session *s, const struct vs_vm_info *vm,
			     const char *program, const char *args,
			     const char *workdir, int64_t *pid);
/*
 * One look at a guest process: *done and *code once it ended.
 * PB_ERR_NOTFOUND when Tools do not list it (never started, or ended
 * minutes ago: Tools keep an exited process about five minutes).
 */
enum pb_error vs_guest_poll(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid, bool *done, int *code);
/*
 * Wait for a guest process to end; *exit_code is its status. stop, when
 * given, is checked between polls: once set, PB_ERR_INTERRUPTED.
 */
enum pb_error vs_guest_wait(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid, long timeout_s,
			    volatile sig_atomic_t *stop, int *exit_code);
enum pb_error vs_guest_kill(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid);

/* ---- the server's counters (perf.c) ---- */

/* what a pass's attribution asks the server for, by name; the keys are
 * each server's own (vs_perf_counters_get) */
enum vs_pc {
	VS_PC_VD_WRITES,      /* virtualDisk.numberWriteAveraged: writes/s */
	VS_PC_VD_WRITE_KBPS,  /* virtualDisk.write: KB/s */
	VS_PC_VD_WRITE_MS,    /* virtualDisk.totalWriteLatency: ms */
	VS_PC_CPU_USED,	      /* cpu.used.summation: ms per interval */
	VS_PC_CPU_READY,      /* cpu.ready.summation: ms per interval */
	VS_PC_DISK_KERNEL_MS, /* the host's LUN: disk.kernelWriteLatency */
	VS_PC_DISK_DEVICE_MS, /* disk.deviceWriteLatency */
	VS_PC_DISK_QUEUE_MS,  /* disk.queueWriteLatency */
	VS_PC_DISK_TOTAL_MS,  /* disk.totalWriteLatency */
	/* the host's datastore (NFS has no LUN: this is its side) */
	VS_PC_DS_WRITES,   /* datastore.numberWriteAveraged: writes/s */
	VS_PC_DS_WRITE_MS, /* datastore.totalWriteLatency: ms */
	VS_PC__COUNT
};
/* "virtualDisk.totalWriteLatency.average" */
const char *vs_pc_name(enum vs_pc c);
/* a host's counter (asked of the VM's host), not the VM's */
bool vs_pc_on_host(enum vs_pc c);

struct vs_perf_counters {
	int key[VS_PC__COUNT]; /* 0: this server has no such counter */
	/* the real-time interval, seconds (QueryPerfProviderSummary's
	 * refreshRate: 20 on real servers); 0: not read, 20 assumed */
	int refresh_s;
};
/* PerformanceManager.perfCounter, matched by group.name.rollup */
enum pb_error vs_perf_counters_get(struct vs_session *s,
				   struct vs_perf_counters *out);
/* QueryAvailablePerfMetric at the real-time interval: of the counters
 * asked for, which this entity offers (any instance), as bits (1 << k) */
enum pb_error vs_perf_available(struct vs_session *s,
				const struct vs_moref *entity,
				const struct vs_perf_counters *pc,
				unsigned *offered);
/* QueryPerfProviderSummary of entity: its real-time refreshRate into
 * pc->refresh_s (PB_ERR_UNSUPPORTED when it has no real-time statistics) */
enum pb_error vs_perf_refresh(struct vs_session *s,
			      const struct vs_moref *entity,
			      struct vs_perf_counters *pc);
/* ServiceInstance.CurrentTime as Unix time: the clock samples are on */
enum pb_error vs_server_time(struct vs_session *s, double *out);

#define VS_PERF_MAX_SAMPLES 360 /* two hours of 20 s samples */
struct vs_perf_samples {
	unsigned n;
	int interval_s;
	double t[VS_PERF_MAX_SAMPLES]; /* each sample's end, server clock */
	double v[VS_PC__COUNT][VS_PERF_MAX_SAMPLES]; /* NaN: none */
};
/*
 * QueryPerf for one entity at the real-time interval (pc's), format csv:
 * the samples ending in (t0, t1] on the server's clock of the counters
 * with an instance in inst[] (NULL: not asked of this entity; "": the
 * aggregate). A window with no samples yet is PB_OK with n 0.
 */
enum pb_error vs_perf_query(struct vs_session *s, const struct vs_moref *entity,
			    const struct vs_perf_counters *pc,
			    const char *const *inst, double t0, double t1,
			    struct vs_perf_samples *out);

/* A pass's window [a, b] (server clock) against the samples: those
 * wholly in it, averages averaged and CPU summed; too short below two
 * intervals (no whole sample is sure to lie in it) */
struct vs_perf_window {
	bool too_short;
	double seconds, interval_s;
	unsigned samples;
	double first, last; /* the samples' span */
	double v[VS_PC__COUNT];
	unsigned nv[VS_PC__COUNT];
	double cpu_ms_per_write; /* NaN: no writes or no CPU figure */
};
void vs_perf_window(struct vs_perf_window *out,
		    const struct vs_perf_samples *smp, double a, double b);

#endif
