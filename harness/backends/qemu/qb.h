/*
 * qb.h - the qemu backend's parts: the built-in default backend, the
 * experiment for real on the local machine. Disks of each mode are made
 * the way qemu makes them (disks.c), a small guest boots with the disk as
 * virtio-blk and runs the runner (guest.c), the accelerator is probed
 * (accel.c), and backend.c holds the ops, the check and the run.
 *
 * Its profile section, "qemu" (options.c): dir, accel, rdm_device, guest,
 * binary, memory_mib, cpus.
 */
#ifndef PB_QB_H
#define PB_QB_H

#include <limits.h>

#include "harness_int.h"
#include "local.h"
#include "qemu_options.h"

#ifndef PB_GUEST_DIR
#define PB_GUEST_DIR "/usr/local/lib/provbench/guest"
#endif

/* a KVM guest reaches init in about a second; one that has not in this
 * long is stuck in the firmware (seen on nested machines) */
#define QB_KVM_PROBE_S 10

/* qemu and qemu-img run in their own process group (a terminal's ^C
 * reaches the harness, which stops the guest itself, in order) and die
 * with the harness, even a SIGKILLed one */
#define QB_CHILD (PB_CHILD_OWN_GROUP | PB_CHILD_DIE_WITH_US)

enum qb_disk_kind { QB_QCOW2, QB_RAW, QB_LOOP, QB_DEVICE };

struct qb {
	struct pb_backend base; /* first: what the harness holds */
	const struct pb_profile *p;
	const struct qemu_opts *o;
	const struct pb_kv *sysctl; /* this target's guest_sysctl */
	struct pb_local loc; /* host, disk directory, key, places, run id */
	char guest[PATH_MAX];
	char kernel[PATH_MAX + 16];
	char initrd[PATH_MAX + 16];
	char qemu_img[PATH_MAX];
	const char *accel; /* "kvm" | "tcg", once prepared */
	char accel_note[256];
	const char *aio; /* what qemu accepted last */
	json_t *manifest;
	bool root;
	struct pb_loop loop; /* the loop device of the disk in progress */
	char qmp[64];	     /* the boot in progress's monitor socket */
};

extern const struct pb_backend_ops qemu_backend;

/* The backend's own struct from what the harness holds (base is first). */
static inline struct qb *qb_of(struct pb_backend *be)
{
	return (struct qb *)be;
}

/* cmd.c: a short command to its end, its stdout into out (capped) */
enum pb_error qb_run_cmd(struct qb *b, char *const argv[], struct pb_buf *out,
			 char *errbuf);
/* seconds since t0 (pb_now_ns()) */
double qb_since(uint64_t t0);

/* disks.c */
enum qb_disk_kind qb_disk_kind(const struct qb *b, enum pb_mode m);
/* rdm cannot be made here: no device named, and a loop device needs
 * root */
bool qb_skip_rdm(const struct qb *b);
enum pb_error qb_plan_disk(struct pb_backend *be, enum pb_mode mode,
			   unsigned seq, struct pb_disk *d, json_t *j,
			   char *errbuf);
enum pb_error qb_create(struct pb_backend *be, struct pb_disk *d, char *errbuf);
enum pb_error qb_destroy(struct pb_backend *be, const struct pb_disk *d,
			 char *errbuf);
enum pb_error qb_cleanup(struct pb_backend *be, json_t *entry, bool mine,
			 char *errbuf);
void qb_disks_close(struct qb *b);

/* guest.c: one boot of the guest */
#include "runner.h"

struct qb_job {
	const char *disk;   /* file or device */
	const char *format; /* qcow2 | raw */
	/* the disk passes a guest's discards down to its file or device
	 * (thin's qcow2 and rdm, as a thin VMDK on VMFS6 and an RDM do);
	 * else the guest is offered none, as a thick VMDK offers none */
	bool discard;
	const char *serial;  /* what the runner finds the disk by */
	const char *args;    /* NULL: a probe boot */
	const char *command; /* a command pass's text, or NULL */
	const char *out;     /* ttyS1 goes here */
	const char *accel;
	const char *aio;
	/* guest_sysctl as "key=value" lines, applied by the guest's init
	 * before the runner starts; NULL: none */
	const char *sysctl;
	/* qemu.mem_file: the guest's RAM in a file in this directory */
	const char *mem_dir;
	/* the disk's file or device, whose host device is sampled; -1: none */
	int sample_fd;
	/* the file whose extents are sampled where sample_fd is a device
	 * (a loop device's backing file); -1: sample_fd's own */
	int ext_fd;
	/* qemu's monitor (QMP), a unix socket; NULL: none */
	const char *qmp;
	/* the profile's stall_s, which the guest's init is told (it says
	 * what it sees of a runner that stopped at half of it) */
	unsigned stall_s;
};

/* The events a boot reports, from the console's markers. */
#define QB_TAIL_LINES 20

struct qb_boot {
	double t_boot, t_start; /* seconds from spawn; 0 = not seen */
	/* PB-START's guest uptime (CLOCK_BOOTTIME, 10 ms steps) and the
	 * host's clock when the line came: the guest's clock on the host's */
	int64_t start_uptime_ns, start_host_unix_ns;
	bool probe_ok, exited;
	/* guest_sysctl as the guest read each back ("key=value" lines), and
	 * the first key it could not set */
	char sysctl[1024], sysctl_fail[128];
	int status;
	char log[5][256];
	unsigned nlog;
	/* the console's last lines, whatever they say, for a failure */
	char tail[QB_TAIL_LINES][256];
	unsigned ntail, tail_next;
	char qemu_err[512];
	bool killed_timeout;
	bool interrupted;
	/* the run's stall watch said stalled: why, and the console from
	 * the boot on (every line but the progress stream's), kept */
	bool stalled;
	char stall_why[320];
	struct pb_buf console;
	/* the host's side, sampled while the guest ran: the device under
	 * the disk (its block layer's counts) and qemu's CPU, on the host's
	 * clock, every QB_SAMPLE_MS; none when the device has no counts */
	struct qb_sample *samples;
	size_t nsamples, asamples;
};

/* its samples and console freed (a boot's struct starts zeroed) */
void qb_boot_dispose(struct qb_boot *g);

/* qmp.c: what qemu's monitor at sock says of a stalled guest, into the
 * file at path (a stall's qmp.json) */
enum pb_error qb_qmp_dump(const char *sock, const char *path, char *errbuf);
/* A boot's monitor socket's path, in a directory made for it (those that
 * runs killed by SIGKILL left removed first); false if none could be */
bool qb_qmp_dir_make(char *sock, size_t len);
/* The socket and its directory, gone */
void qb_qmp_dir_remove(const char *sock);

#define QB_SAMPLE_MS 20
struct qb_sample {
	int64_t host_ns;
	struct runner_devstat ds;
	unsigned long long cpu_ms; /* qemu's user + system time */
	/* the disk's file's extents (FIEMAP), where it is a file */
	struct runner_extents ext;
	bool has_ext;
};

/*
 * Boot the guest for one job and follow its console until qemu exits,
 * the deadline passes (then it is killed: the watchdog) or a stop is
 * asked for. deadline_s 0 = none.
 */
enum pb_error qb_guest_boot(struct qb *b, struct qb_boot *g,
			    const struct qb_job *j, double deadline_s,
			    const struct pb_run_ctx *ctx, char *errbuf);

/* accel.c: the prepare op (the image, O_DIRECT, the accelerator) */
/* KVM or TCG, once per run: the profile's, or a probe boot's verdict
 * (kept for the host boot); b->accel and b->accel_note say which and why */
enum pb_error qb_accel_choose(struct qb *b, char *errbuf);
enum pb_error qb_prepare(struct pb_backend *be, const struct pb_prep_ctx *c,
			 char *errbuf);
/* the guest image's manifest, loaded once (and the image's files there) */
enum pb_error qb_load_manifest(struct qb *b, char *errbuf);

#endif
