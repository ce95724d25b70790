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

#define RUNNER_MAX_PASSES 64

enum runner_pass_kind {
	RUNNER_PASS_FIRST_WRITE,
	RUNNER_PASS_REWRITE,
	RUNNER_PASS_READ,
	RUNNER_PASS_FSYNC_WRITE,
	RUNNER_PASS_COMMAND, /* a shell command, timed (--command) */
};

/* --filesystem: passes on one file of a fresh filesystem, not the device */
enum runner_fs_type {
	RUNNER_FS_NONE,
	RUNNER_FS_EXT4,
	RUNNER_FS_XFS,
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

struct runner_opts {
	const char *target; /* path, or "uuid:<UUID>" */
	uint64_t size;	    /* bytes; 0 = the whole existing target */
	enum runner_pass_kind passes[RUNNER_MAX_PASSES];
	unsigned npasses;
	uint32_t bs;
	unsigned qd;
	enum runner_pattern pattern;
	enum runner_engine_kind engine;
	bool buffered;
	unsigned interval_ms;
	uint64_t seed;
	bool verify;
	bool force;
	bool quiet;		   /* no progress or summary on stderr */
	const char *output;	   /* NULL or "-" = stdout */
	const char *progress_file; /* progress as JSON, rewritten each second */
	const char *by_id_dir;	   /* where uuid: targets are looked up */
	const char *sys_block_dir;
	enum runner_fs_type filesystem;
	const char *command;	  /* for command passes */
	const char *command_file; /* or read from here */
	const char *log_file;	  /* stderr goes here (main.c) */
};

#define RUNNER_DEFAULT_BS	   (1u << 20)
#define RUNNER_DEFAULT_QD	   8u
#define RUNNER_DEFAULT_INTERVAL_MS 500u
#define RUNNER_DEFAULT_SEED	   0x70726f7662656e63ull /* "provbenc" */

#define RUNNER_OPTS_INIT                                                       \
	{                                                                      \
		.passes = {RUNNER_PASS_FIRST_WRITE, RUNNER_PASS_REWRITE},      \
		.npasses = 2, .bs = RUNNER_DEFAULT_BS,                         \
		.qd = RUNNER_DEFAULT_QD, .pattern = RUNNER_PATTERN_SEQ,        \
		.engine = RUNNER_ENGINE_AUTO,                                  \
		.interval_ms = RUNNER_DEFAULT_INTERVAL_MS,                     \
		.seed = RUNNER_DEFAULT_SEED, .by_id_dir = "/dev/disk/by-id",   \
		.sys_block_dir = "/sys/block",                                 \
	}

/* What parsing the command line asks for besides a run. */
enum runner_action {
	RUNNER_ACTION_RUN,
	RUNNER_ACTION_HELP,
	RUNNER_ACTION_VERSION,
};

/*
 * Parse argv into opts (which the caller set to RUNNER_OPTS_INIT). On error,
 * errbuf says what is wrong with which argument and PB_ERR_USAGE or
 * PB_ERR_INPUT is returned. Strings in opts point into argv.
 */
enum pb_error runner_opts_parse(struct runner_opts *opts,
				enum runner_action *action, int argc,
				char **argv, char *errbuf);
const char *runner_usage(void);

const char *runner_pass_name(enum runner_pass_kind kind);
bool runner_pass_writes(enum runner_pass_kind kind);

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
	uint64_t min;
	uint64_t max;
	uint64_t buckets[RUNNER_HIST_NR];
};

void runner_hist_init(struct runner_hist *h);
void runner_hist_add(struct runner_hist *h, uint64_t value);
/* p in [0, 100]; the nearest-rank percentile, as a bucket midpoint. */
uint64_t runner_hist_percentile(const struct runner_hist *h, double p);

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
