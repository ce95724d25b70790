/*
 * runner.h - public interface of provbench-runner, the in-guest I/O runner.
 *
 * The runner writes a freshly attached disk end to end (first-write), then
 * rewrites it, and records throughput, a latency histogram and a throughput
 * time series per pass, so the first-touch zeroing cost of thin and
 * lazy-zeroed disks shows against eager-zeroed disks and raw devices.
 *
 * The harness and the report generator use only this header: the option
 * struct and its parser, the run entry point, and the building blocks
 * (histogram, permutation) that tests and reports reuse.
 */
#ifndef PB_RUNNER_H
#define PB_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "option.h"

#define RUNNER_MAX_PASSES 64

enum runner_pass_kind {
	RUNNER_PASS_FIRST_WRITE,
	RUNNER_PASS_REWRITE,
	RUNNER_PASS_READ,
	RUNNER_PASS_FSYNC_WRITE,
	RUNNER_PASS_COMMAND, /* a shell command, timed (--command) */
	/* on a filesystem: delete the file (and --trim), write a new one */
	RUNNER_PASS_RECREATE,
	/* give the written blocks back: BLKDISCARD on a device, a punched
	 * hole in a file, the file deleted and the filesystem trimmed; a
	 * first-write follows it, writing them fresh again */
	RUNNER_PASS_RECLAIM,
};
#define RUNNER_PASS_LAST RUNNER_PASS_RECLAIM

/* --filesystem: passes on one file of a fresh filesystem, not the device */
enum runner_fs_type {
	RUNNER_FS_NONE,
	RUNNER_FS_EXT4,
	RUNNER_FS_XFS,
	RUNNER_FS_NTFS, /* the Windows runner's; ext4 and xfs the Linux one's */
};

enum runner_pattern {
	RUNNER_PATTERN_SEQ,
	RUNNER_PATTERN_RAND,
};

enum runner_engine_kind {
	RUNNER_ENGINE_AUTO,
	RUNNER_ENGINE_IO_URING,
	RUNNER_ENGINE_PSYNC,
};

/* I/Os in flight at most, and the largest I/O: the limits of --qd and
 * --bs, and the sizes of the runner's per-I/O arrays */
#define RUNNER_MAX_QD 1024u
#define RUNNER_MAX_BS (64u << 20)

/*
 * What a run does. Enumerated fields are unsigned (fio's habit), so the
 * option table can set every field through its offset; the enum each
 * holds is named beside it. Strings point into argv (or the caller's own
 * storage: the profile's).
 */
struct runner_opts {
	const char *target; /* path, or "uuid:<UUID>" */
	uint64_t size;	    /* bytes; 0 = the whole existing target */
	unsigned passes[RUNNER_MAX_PASSES]; /* enum runner_pass_kind */
	unsigned npasses;
	uint32_t bs;
	unsigned qd;
	unsigned batch;	  /* I/Os queued per submission (fio's
			   * iodepth_batch_submit) */
	unsigned pattern; /* enum runner_pattern */
	unsigned engine;  /* enum runner_engine_kind */
	bool buffered;
	unsigned interval_ms;
	unsigned ramp_ms;     /* each pass's first ms left out of its figures */
	uint64_t pair_stripe; /* bytes; 0: the first write in one stream */
	/* an offered rate: I/Os started on a schedule of this many a
	 * second, whatever the completions do (up to qd in flight), each
	 * one's latency from its intended start; 0: a closed loop */
	unsigned rate_iops;
	bool poisson;	   /* the schedule's gaps exponential, seeded */
	unsigned stall_us; /* an I/O slower than this is a stall; 0: none */
	uint64_t seed;
	bool verify;
	bool force;
	bool full_format; /* ntfs: a full format, not a quick one */
	bool trim; /* recreate passes: FITRIM the filesystem once deleted */
	/* after a reclaim pass, ms held still before the next pass: the
	 * hypervisor's time to give the space back, and the host's to read
	 * it back (a 20 ms sampler under qemu, a datastore under vSphere) */
	unsigned reclaim_wait_ms;
	bool quiet;		   /* no progress or summary on stderr */
	const char *output;	   /* NULL or "-" = stdout */
	const char *progress_file; /* progress as JSON, rewritten each second */
	const char *stop_file;	   /* stop as on SIGINT once it exists */
	/* a reclaim's wait ends once it exists (a harness read the space
	 * back); NULL: the wait is reclaim_wait_ms */
	const char *reclaim_go_file;
	const char *log_file;  /* stderr goes here (main.c) */
	const char *by_id_dir; /* where uuid: targets are looked up */
	const char *sys_block_dir;
	unsigned filesystem;	  /* enum runner_fs_type */
	const char *command;	  /* for command passes */
	const char *command_file; /* or read from here */
};

/* ---- the option table: one definition of the runner's vocabulary ---- */

/* Every option, ended by one whose name is NULL. */
extern const struct pb_option runner_options[];

const struct pb_option *runner_option_find(const char *name);
/* A workload key of a profile ("direct", "interval_ms", ...), or NULL. */
const struct pb_option *runner_option_by_key(const char *key);
const char *runner_option_key(const struct pb_option *opt);
/*
 * Set opt from its text (for a flag: NULL on the command line, "true" or
 * "false" from a profile). why gets what is wrong with value, without the
 * option's name: the caller says "--qd: " or "file: workload.qd: ".
 */
enum pb_error runner_option_set(struct runner_opts *o,
				const struct pb_option *opt, const char *value,
				char *why);
/* opt's value in o as text, canonical (sizes in bytes) */
const char *runner_option_value(const struct runner_opts *o,
				const struct pb_option *opt, char *buf,
				size_t len);
/* Every option at its default. */
void runner_opts_init(struct runner_opts *o);
/* The rules between options (a command pass needs a command, ...); the
 * message names options as a profile says them, when profile. */
enum pb_error runner_opts_check(const struct runner_opts *o, bool profile,
				char *errbuf);
/* --pair-stripe's rules, against a region of size bytes (0: not known
 * yet: the rest only) */
#define RUNNER_PAIR_MIN_STRIPES 8
enum pb_error runner_pair_check(const struct runner_opts *o, uint64_t size,
				bool profile, char *errbuf);
/*
 * The options with all of flags (PB_OPT_F_WORKLOAD: a workload) as
 * runner arguments, "--bs 65536 --qd 16 ...", appended to out. Strings
 * (target, command) are the caller's to add.
 */
enum pb_error runner_opts_format(struct pb_buf *out,
				 const struct runner_opts *o, unsigned flags);
/* One line per option with all of flags: "--bs SIZE ..." or, for a
 * profile, "bs ...": what it does, its choices, range and default. */
void runner_options_help(struct pb_buf *b, unsigned flags, bool profile);
/* One option's help with its choices, range and default (profile: as a
 * profile key, a flag's default said true or false). */
void runner_option_describe(const struct pb_option *opt, bool profile,
			    char *more, size_t len);

/* What parsing the command line asks for besides a run. */
enum runner_action {
	RUNNER_ACTION_RUN,
	RUNNER_ACTION_HELP,
	RUNNER_ACTION_VERSION,
};

/*
 * Parse argv into opts (which the caller set with runner_opts_init). On
 * error, errbuf says what is wrong with which argument and PB_ERR_USAGE is
 * returned. Strings in opts point into argv.
 */
enum pb_error runner_opts_parse(struct runner_opts *opts,
				enum runner_action *action, int argc,
				char **argv, char *errbuf);
const char *runner_usage(void);

const char *runner_pass_name(enum runner_pass_kind kind);
/* A pass's name back into its kind (false: no such pass). */
bool runner_pass_parse(enum runner_pass_kind *out, const char *name);
bool runner_pass_writes(enum runner_pass_kind kind);

/*
 * The runner's JSON document (output.c writes it; run.json embeds it as
 * each item's "runner", and the reports read it): the names of the
 * members others read, so writer and readers cannot drift apart.
 */
#define RUNNER_K_TOOL		   "tool"
#define RUNNER_K_PASSES		   "passes"
#define RUNNER_K_NAME		   "name"
#define RUNNER_K_INDEX		   "index"
#define RUNNER_K_PATTERN	   "pattern"
#define RUNNER_K_BS		   "bs"
#define RUNNER_K_QD		   "qd"
#define RUNNER_K_QD_ACHIEVED	   "qd_achieved"
#define RUNNER_K_BATCH		   "batch"
#define RUNNER_K_INTERVAL_MS	   "interval_ms"
#define RUNNER_K_RAMP_S		   "ramp_s"
#define RUNNER_K_RAMP_BYTES	   "ramp_bytes"
#define RUNNER_K_BYTES		   "bytes"
#define RUNNER_K_SECONDS	   "seconds"
#define RUNNER_K_MIB_PER_S	   "mib_per_s"
#define RUNNER_K_IOPS		   "iops"
#define RUNNER_K_LAT_US		   "lat_us"
#define RUNNER_K_P50		   "p50"
#define RUNNER_K_MEAN		   "mean"
#define RUNNER_K_P99		   "p99"
#define RUNNER_K_P999		   "p999"
#define RUNNER_K_P9999		   "p9999"
#define RUNNER_K_MAX		   "max"
#define RUNNER_K_RATE		   "rate"
#define RUNNER_K_OFFERED_IOPS	   "offered_iops"
#define RUNNER_K_ACHIEVED_IOPS	   "achieved_iops"
#define RUNNER_K_RATE_HELD	   "held"
#define RUNNER_K_STALLS		   "stalls"
#define RUNNER_K_STALL_US	   "threshold_us"
#define RUNNER_K_COUNT		   "count"
#define RUNNER_K_TOTAL_MS	   "total_ms"
#define RUNNER_K_COMPLETE	   "complete"
#define RUNNER_K_SERIES		   "series"
#define RUNNER_K_T_S		   "t_s"
#define RUNNER_K_STARTED_UNIX	   "started_unix_ns"
#define RUNNER_K_STARTED_BOOT	   "started_boot_ns"
#define RUNNER_K_COMMAND	   "command"
#define RUNNER_K_FILESYSTEM	   "filesystem"
#define RUNNER_K_FS_TYPE	   "type"
#define RUNNER_K_LAZY_INIT	   "lazy_init"
#define RUNNER_K_MKFS_SECONDS	   "mkfs_seconds"
#define RUNNER_K_INTERRUPTED	   "interrupted"
#define RUNNER_K_PAIRED		   "paired"
#define RUNNER_K_PENALTY	   "penalty"
#define RUNNER_K_WRITTEN_SERIES	   "written_series"
#define RUNNER_K_WRITTEN_MIB_PER_S "written_mib_per_s"
#define RUNNER_K_PAIRS		   "pairs"
#define RUNNER_K_PAIRS_FRESH_S	   "pairs_fresh_seconds"
#define RUNNER_K_PAIRS_WRITTEN_S   "pairs_written_seconds"
#define RUNNER_K_STRIPE		   "stripe"
#define RUNNER_K_RECREATE	   "recreate"
#define RUNNER_K_DELETE_SECONDS	   "delete_seconds"
#define RUNNER_K_TRIM		   "trim"
#define RUNNER_K_TRIM_BYTES	   "trimmed_bytes"
#define RUNNER_K_RECLAIM	   "reclaim"
#define RUNNER_K_DEVICE		   "device"
#define RUNNER_K_EXTENTS	   "extents"

/*
 * The block layer's own count for the device a target sits on (the
 * device itself, or the one holding its file or filesystem):
 * /sys/dev/block/MAJ:MIN/stat (Documentation/block/stat.rst), so a pass's
 * I/O is seen as the device saw it, not only as the runner timed it.
 */
struct runner_devstat {
	char name[64]; /* "sda1", "loop3", "vda" */
	unsigned long long reads, read_sectors, read_ms;
	unsigned long long writes, write_sectors, write_ms;
	unsigned long long busy_ms, queue_ms; /* io_ticks, time_in_queue */
	unsigned long long in_flight;
};

/* fd's device's counters now; false where there are none (a file on
 * tmpfs or overlayfs, Windows) */
bool runner_devstat_get(struct runner_devstat *out, int fd);

/* A file's extents as its filesystem holds them (FIEMAP): bytes in
 * written extents, in unwritten (allocated, reading as zeros) ones, and
 * how many extents. */
struct runner_extents {
	uint64_t written, unwritten, count;
};
/* false where the filesystem cannot say (NFS, tmpfs, Windows) */
bool runner_extents_get(struct runner_extents *out, int fd);

/*
 * Run the passes and write the JSON document. Returns PB_OK, or the error
 * that stopped the run (detail in errbuf). A run stopped by an I/O error or
 * a signal still writes its partial result.
 */
enum pb_error runner_run(const struct runner_opts *opts, char *errbuf);

/*
 * The runner's safety checks on a host block device, writing nothing: not
 * mounted (nor a partition or a dm stack on it), not root or swap, no
 * holders, no filesystem or partition signature, at least size bytes.
 * For a backend that hands the device to a guest.
 */
enum pb_error runner_device_check(const char *path, uint64_t size,
				  char *errbuf);

/* Ask a run in progress to stop (async-signal-safe). */
void runner_request_stop(void);
/* Have SIGINT, SIGTERM, SIGHUP and SIGQUIT (on Windows Ctrl-C,
 * Ctrl-Break, the console closing) ask it; SIGPIPE ignored. */
void runner_stop_handlers_install(void);

/*
 * Log-linear latency histogram (after fio's stat.h): 2^HIST_BITS buckets per
 * power of two, so a bucket's midpoint is within 1/2^(HIST_BITS+1) of any
 * value in it. Values are nanoseconds; values under 2^(HIST_BITS+1) are
 * exact.
 */
#define RUNNER_HIST_BITS   7
#define RUNNER_HIST_VAL	   (1u << RUNNER_HIST_BITS)
#define RUNNER_HIST_MAXLOG 48 /* 2^48 ns: 78 hours, longer is clamped */
#define RUNNER_HIST_NR                                                         \
	((RUNNER_HIST_MAXLOG - RUNNER_HIST_BITS + 1) * RUNNER_HIST_VAL)

struct runner_hist {
	uint64_t count;
	uint64_t sum; /* exact, for the mean (Little's law) */
	uint64_t min;
	uint64_t max;
	uint64_t buckets[RUNNER_HIST_NR];
};

void runner_hist_init(struct runner_hist *h);
void runner_hist_add(struct runner_hist *h, uint64_t value);
/* p in [0, 100]; the nearest-rank percentile, as a bucket midpoint. */
uint64_t runner_hist_percentile(const struct runner_hist *h, double p);
/* Everything in from added to into. */
void runner_hist_merge(struct runner_hist *into,
		       const struct runner_hist *from);

/*
 * A seeded permutation of [0, n): every index exactly once, in an order
 * that looks random, computed statelessly per position, so a random
 * first-write still touches every block exactly once.
 */
struct runner_perm {
	uint64_t n;
	uint64_t mask;
	unsigned bits;
	unsigned shift;
	uint64_t k1, k2, x1;
};

void runner_perm_init(struct runner_perm *p, uint64_t n, uint64_t seed);
uint64_t runner_perm_at(const struct runner_perm *p, uint64_t i);

#endif
