/*
 * runner_int.h - internals of provbench-runner shared between its files:
 * the I/O engine interface, the target, per-pass results and the run
 * context. Nothing outside runner/ includes this.
 */
#ifndef PB_RUNNER_INT_H
#define PB_RUNNER_INT_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "runner.h"

/* ---- I/O engines (fio's struct ioengine_ops is the model) ---- */

enum runner_io_op {
	RUNNER_OP_READ,
	RUNNER_OP_WRITE,
	RUNNER_OP_WRITE_DSYNC, /* write, then fdatasync, as one I/O */
};

struct runner_io {
	void *buf;
	uint64_t off;
	uint32_t len;
	unsigned slot;
	int res;	  /* bytes transferred, or -errno */
	uint64_t t_start; /* ns, taken just before queueing */
};

struct runner_engine;

/* Capability bits of an engine. */
/* keeps more than one I/O in flight */
#define RUNNER_ENGINE_F_ASYNC 0x1u
/* buffers registered with the kernel */
#define RUNNER_ENGINE_F_FIXEDBUFS 0x2u
/* io_uring: completions run in the runner's task when it asks for them
 * (DEFER_TASKRUN, 6.1+), or at least without an IPI (COOP_TASKRUN, 5.19+) */
#define RUNNER_ENGINE_F_DEFER_TASKRUN 0x4u
#define RUNNER_ENGINE_F_COOP_TASKRUN  0x8u
/* Windows: completions queued to an I/O completion port, reaped in the
 * runner's wait (GetQueuedCompletionStatusEx) */
#define RUNNER_ENGINE_F_COMPLETION_PORT 0x10u

struct runner_engine_ops {
	const char *name;
	unsigned flags;
	/* bufs[depth] of buflen bytes each, allocated by the caller */
	enum pb_error (*init)(struct runner_engine *e, int fd, unsigned depth,
			      void *const *bufs, size_t buflen, char *errbuf);
	void (*queue)(struct runner_engine *e, struct runner_io *io,
		      enum runner_io_op op);
	/* send what was queued; returns 0 or -errno */
	int (*commit)(struct runner_engine *e);
	/* wait for at least min completions; returns how many, or -errno */
	int (*getevents)(struct runner_engine *e, unsigned min,
			 struct runner_io **done, unsigned max);
	/* wait at most timeout_ns for one completion (an offered rate's
	 * next start is due then); 0 when none came. NULL: the engine
	 * completes each I/O as it queues it, getevents never waits */
	int (*getevents_timed)(struct runner_engine *e, struct runner_io **done,
			       unsigned max, uint64_t timeout_ns);
	void (*cleanup)(struct runner_engine *e);
};

struct runner_engine {
	const struct runner_engine_ops *ops;
	unsigned flags; /* ops->flags plus what init found */
	int fd;
	unsigned depth;
	void *priv;
};

#ifdef _WIN32
extern const struct runner_engine_ops runner_engine_win_sync;
extern const struct runner_engine_ops runner_engine_iocp;
#else
extern const struct runner_engine_ops runner_engine_psync;
extern const struct runner_engine_ops runner_engine_io_uring;
#endif

/* ---- target ---- */

enum runner_target_kind {
	RUNNER_TARGET_FILE,
	RUNNER_TARGET_BLOCK,
};

struct runner_target {
	char path[PATH_MAX];
	char identity[256]; /* serial / WWN / by-id name; "" if unknown */
	enum runner_target_kind kind;
	uint64_t size;	   /* bytes the passes cover */
	uint64_t dev_size; /* size of the device or file */
	unsigned lbs;	   /* logical block size */
	int fd;
	bool created; /* the runner created this file */
	bool writes;  /* opened for writing */
};

/* ---- disk identity (identity.c) ---- */

/* the hex digits of s, lower-cased; their count */
size_t runner_id_hex(char *out, size_t len, const char *s);
/* does the identifier id (a by-id name, a serial, a WWID) name the disk
 * with this uuid (as runner_id_hex gives it)? */
bool runner_id_matches(const char *id, const char *uuid_hex);
/* the uuid of --target uuid:UUID as hex digits, or PB_ERR_USAGE */
enum pb_error runner_id_uuid_hex(char *hex, size_t len, const char *uuid,
				 char *errbuf);

#define RUNNER_DEVID_LEN 80
/*
 * The identifiers in a STORAGE_DEVICE_ID_DESCRIPTOR (Windows' VPD page
 * 0x83, IOCTL_STORAGE_QUERY_PROPERTY StorageDeviceIdProperty) as text:
 * binary NAA ones "naa.<hex>", EUI-64 "eui.<hex>", ASCII ones as they are
 * (vendor ones after "t10."). Returns how many, at most max.
 */
unsigned runner_devid_parse(char (*ids)[RUNNER_DEVID_LEN], unsigned max,
			    const uint8_t *buf, size_t len);

/*
 * Find the disk whose serial or WWN matches uuid in by_id_dir or under
 * sys_block_dir. Writes the device path and the identity that matched.
 */
enum pb_error runner_target_find_uuid(char *path, size_t pathlen,
				      char *identity, size_t idlen,
				      const char *uuid, const char *by_id_dir,
				      const char *sys_block_dir, char *errbuf);

/*
 * Resolve, check and open the target. Every safety check runs before a
 * byte is written; a refused target returns PB_ERR_UNSAFE.
 */
enum pb_error runner_target_open(struct runner_target *t,
				 const struct runner_opts *opts, bool writes,
				 char *errbuf);
void runner_target_close(struct runner_target *t);
/*
 * A reclaim pass on a raw target: the passes' region [0, t->size) given
 * back, BLKDISCARD on a block device, a punched hole in a file; r gets
 * the time, the bytes and the method (trim_*), or in r->trim_error why
 * it could not (a device that does not discard): not an error, the
 * first write after it is still measured.
 */
struct runner_pass_result;
enum pb_error runner_target_reclaim(struct runner_target *t,
				    struct runner_pass_result *r, char *errbuf);
/* Set t->size from --size or the target's size, and check it against the
 * target and --bs (region.c). */
enum pb_error runner_target_region(struct runner_target *t,
				   const struct runner_opts *o, char *errbuf);

/* ---- data stamps: every chunk starts with one ---- */

#define RUNNER_STAMP_MAGIC "PBRUNNR1"
#define RUNNER_CHUNK	   4096u

struct runner_stamp {
	char magic[8];
	uint64_t offset;     /* byte offset of this chunk on the target */
	uint64_t seed;	     /* the run's --seed */
	uint32_t generation; /* which write pass of the run: 1, 2, ... */
	uint32_t reserved;
};

/* ---- results ---- */

struct runner_point {
	double t_s;	/* end of the interval, since the pass started */
	uint64_t bytes; /* completed in the interval */
	double mib_per_s;
};

/*
 * A first write in pairs (--pair-stripe): each fresh stripe against the
 * rewrite of the stripe before it, written right after it.
 */
struct runner_pairs {
	uint64_t stripe; /* bytes */
	unsigned n;	 /* pairs measured */
	double *penalty; /* the pairs' 1 - fresh / written, once done sorted */
	double *written; /* each pair's written MiB/s, in order */
	uint64_t written_bytes, written_ns;
	/* the measured pairs' fresh and rewritten stripes, each side's time
	 * in all: what a first write costs over a rewrite, in time, where
	 * a minority of expensive stripes count for what they cost (a
	 * median of the pairs' ratios leaves them out) */
	uint64_t pair_fresh_ns, pair_written_ns;
	uint64_t wall_ns; /* the whole pass: both kinds, and the drains */
	/* the device's counts over the fresh stripes and over the rewritten
	 * ones, apart (each stripe drains before the next: its requests
	 * are its own); has_dev: read around every stripe */
	struct runner_devstat dev_fresh, dev_written;
	bool has_dev;
};

/* The p-quantile (0..1) of the pairs' (sorted) penalties; 0 for none. */
double runner_pairs_quantile(const struct runner_pairs *pr, double p);
void runner_pairs_free(struct runner_pairs *pr);
/* The rewritten stripes' MiB/s, over their own time; 0 for none. */
double runner_pairs_written_rate(const struct runner_pairs *pr);

struct runner_pass_result {
	enum runner_pass_kind kind;
	unsigned index; /* position in --passes */
	unsigned qd;	/* effective queue depth */
	unsigned batch; /* I/Os per submission */
	bool direct;
	uint64_t bytes;
	uint64_t ios;
	uint64_t ns; /* wall time, closing fdatasync included */
	/* when it started, on the guest's clock (CLOCK_REALTIME) and since
	 * the guest booted (CLOCK_BOOTTIME, /proc/uptime's): what a harness
	 * lines passes on several guests up by (concurrent targets) */
	struct timespec started_unix, started_boot;
	uint64_t sync_ns;
	bool complete;
	char error[PB_ERRBUF_SIZE];
	int exit_status; /* command passes */
	char *output;	 /* command passes: the tail of stdout + stderr */
	struct runner_hist *hist;
	struct runner_point *series;
	size_t nseries, aseries;
	uint64_t interval_ns; /* the series' interval, as it ended */
	/* --ramp-ms: the I/Os that completed in it, left out of the
	 * figures (not of bytes, ios or the series); ramp_ns 0 when the
	 * pass was no longer than its ramp and everything counts */
	uint64_t ramp_ns, ramp_bytes, ramp_ios;
	struct runner_hist *ramp_hist;
	/* --rate-iops: the I/Os started after their intended start because
	 * every slot was busy (the qd cap reached), and how late the last
	 * one started; --stall-us: the stalls and their total time */
	uint64_t cap_waits, lag_ns;
	uint64_t stalls, stall_ns;
	/* --pair-stripe's first write: the figures above are its fresh
	 * stripes' (one series point each), these the rewritten ones' */
	struct runner_pairs *pairs;
	/* recreate passes: the delete (unlink and the filesystem's sync)
	 * and, with --trim, the discard of free blocks before the write */
	uint64_t delete_ns, trim_ns, trim_bytes;
	/* the device's counters at the pass's start and end (has_dev:
	 * both read) */
	struct runner_devstat dev0, dev1;
	bool has_dev;
	/* a file target's extents before and after (has_ext: both read) */
	struct runner_extents ext0, ext1;
	bool has_ext;
	bool trimmed;
	char trim_error[160];	    /* asked for and not done: why */
	const char *reclaim_method; /* "blkdiscard", "punch-hole", "fitrim" */
	uint64_t wait_ns;   /* held still after it (--reclaim-wait-ms) */
	bool wait_told;	    /* ended by --reclaim-go-file, not the time */
	uint64_t before_ns; /* held before it for a harness's read */
};

/* A pass's throughput and IOPS: over what came after its ramp (the whole
 * pass without one); 0 for a pass that took no time. */
void runner_pass_rates(double *mib_per_s, double *iops,
		       const struct runner_pass_result *r);

#define RUNNER_VERIFY_MAX_REPORTED 16

struct runner_mismatch {
	uint64_t offset;
	const char *reason;
	uint32_t found_generation;
};

struct runner_verify {
	bool done;
	uint32_t expected_generation;
	uint64_t chunks;
	uint64_t mismatches;
	struct runner_mismatch first[RUNNER_VERIFY_MAX_REPORTED];
	unsigned nfirst;
};

struct runner_ctx {
	const struct runner_opts *opts;
	struct runner_target target;
	struct runner_engine engine;
	const char *engine_note; /* why the engine is not the one asked */
	char engine_note_buf[64];
	uint8_t *pool; /* bs bytes of incompressible data */
	void *bufs[RUNNER_MAX_QD];
	struct runner_io *ios;
	unsigned nbufs; /* buffers and ios allocated */
	unsigned depth; /* I/Os in flight: what the engine can take */
	uint64_t nblocks;
	uint32_t generation;
	struct runner_pass_result passes[RUNNER_MAX_PASSES];
	unsigned npasses_done;
	struct runner_verify verify;
	struct runner_fs *fs; /* NULL: raw target */
	/* a reclaim deleted the filesystem's file: the next pass makes a
	 * new one */
	bool reopen;
	char *command; /* the text of command passes */
	bool interrupted;
	/* where a stop found it: "mkfs", "pass 2 (rewrite)", "verify" */
	char stopped_in[48];
	bool tty;
	char started_at[32];
	char *errbuf;
};

/*
 * A wait on something other than the runner's own I/O (mkfs, a command
 * pass): its heartbeat rewrites the progress file at most once a second,
 * saying what it waits on and what the device under path does (the I/Os
 * it completed, and those in flight), so a watcher tells a command at
 * rest (nothing in flight) from a stuck device (requests in flight, none
 * completing). wait.c's; a struct runner_wait is the tick's argument.
 */
struct runner_wait {
	const char *what; /* "mkfs", "command" */
	const char *path; /* the device, or a file on it; NULL: none */
	int fd;		  /* path opened by the first tick; -1 before */
	uint64_t next;	  /* pb_now_ns() of the next rewrite */
};
#define RUNNER_WAIT_INIT(w, p)                                                 \
	{                                                                      \
		.what = (w), .path = (p), .fd = -1                             \
	}
void runner_wait_tick(void *wait);
/* its fd closed */
void runner_wait_done(struct runner_wait *w);
/* who hears a wait's heartbeat (NULL: nobody; wait.c) */
void runner_wait_beat_set(void (*fn)(const char *what,
				     const struct runner_devstat *dev));

/* ---- filesystem and command passes (fs.c, command.c) ---- */

struct runner_fs {
	enum runner_fs_type type;
	char device[PATH_MAX];
	char mnt[PATH_MAX];
	char file[PATH_MAX + 32];
	char mkfs_cmd[160];
	double mkfs_s;
	bool full_format; /* ntfs: every block written by the format */
	bool mounted;
};

const char *runner_fs_name(enum runner_fs_type t);
/* Check the device, make the filesystem, mount it; fs->file is the file
 * the passes use. On error nothing stays mounted. */
enum pb_error runner_fs_setup(struct runner_fs *fs, const struct runner_opts *o,
			      char *errbuf);
/*
 * A recreate pass's first half: delete fs->file (the caller has closed
 * it), sync the filesystem so the blocks are free, and with trim discard
 * the free blocks (FITRIM); times and what was trimmed go in r. A trim the
 * device cannot do is said in r->trim_error, not an error: the write that
 * follows is still the note's "delete and write again".
 */
enum pb_error runner_fs_recreate(struct runner_fs *fs, bool trim,
				 struct runner_pass_result *r, char *errbuf);
/* Unmount (waiting out a busy mount briefly) and remove the mount point. */
void runner_fs_teardown(struct runner_fs *fs);
/* Run cmd with sh -c in cwd; r gets time, status, output tail, error.
 * stop_file: --stop-file, looked for while it runs. */
enum pb_error runner_command_run(struct runner_pass_result *r, const char *cmd,
				 const char *stop_file, const char *cwd,
				 const char *device);
bool runner_stop_requested(void);
/* --stop-file: a stop asked from outside by a file at path (NULL: none),
 * looked for at most four times a second (a stat the measurement does not
 * notice); now is pb_now_ns() */
void runner_stop_file_poll(const char *path, uint64_t now);

/* Fill a chunk-aligned buffer's stamps for a write at offset. */
void runner_stamp_buf(uint8_t *buf, uint32_t len, uint64_t offset,
		      uint64_t seed, uint32_t generation);
/* Fill the pool: deterministic from seed, incompressible. */
void runner_pool_fill(uint8_t *pool, size_t len, uint64_t seed);
/* Check one read chunk; returns NULL if it is as written, else why not. */
const char *runner_chunk_check(const uint8_t *chunk, uint32_t len,
			       const uint8_t *pool_chunk, uint64_t offset,
			       uint64_t seed, uint32_t expected_gen,
			       uint32_t *found_gen);

/*
 * ---- the platform (os_posix.c; win/os.c on Windows) ----
 * The target is a file descriptor on both: on Windows a C runtime one
 * over the HANDLE (_open_osfhandle), which the engines take back with
 * _get_osfhandle; so the engine and target interfaces are the same.
 */

struct runner_system {
	char kernel[128];
	char machine[64];
	char hostname[256];
};

/* what the document says the runner ran on */
bool runner_system_get(struct runner_system *s);
/* the two clocks a pass's start is recorded on: wall, and since boot */
void runner_clock_now(struct timespec *unix_t, struct timespec *boot_t);
/* write what the target holds in caches out to it; 0 or -errno */
int runner_fd_sync(int fd);
/* forget the target's cached pages (buffered reads measure the disk) */
void runner_fd_drop_cache(int fd);
/* sleep ms milliseconds, or less when a stop signal comes */
void runner_sleep_ms(unsigned ms);
/* until pb_now_ns() reads t (an offered rate's next start) */
void runner_sleep_until_ns(uint64_t t);
/* the platform's asynchronous engine (io_uring; an I/O completion port)
 * and its synchronous one (pread/pwrite; ReadFile/WriteFile) */
extern const struct runner_engine_ops *const runner_engine_async;
extern const struct runner_engine_ops *const runner_engine_sync;

/* The JSON document of a run (output.c). */
enum pb_error runner_output_build(struct pb_buf *out,
				  const struct runner_ctx *ctx);

#endif
