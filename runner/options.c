/*
 * options.c - provbench-runner's vocabulary: one table of its options
 * (fio's struct fio_option is the model). The table drives the command
 * line parser, --help, the profile loader's workload keys (harness/), the
 * serialiser that turns a workload back into runner arguments, and the
 * rules between options; so a profile is valid exactly when the runner
 * accepts its arguments, and every default and limit is written once.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_int.h"

static const char *const pass_names[] = {
	[RUNNER_PASS_FIRST_WRITE] = "first-write",
	[RUNNER_PASS_REWRITE] = "rewrite",
	[RUNNER_PASS_READ] = "read",
	[RUNNER_PASS_FSYNC_WRITE] = "fsync-write",
	[RUNNER_PASS_COMMAND] = "command",
	[RUNNER_PASS_RECREATE] = "recreate",
	[RUNNER_PASS_RECLAIM] = "reclaim",
	NULL,
};
static const char *const patterns[] = {
	[RUNNER_PATTERN_SEQ] = "seq", [RUNNER_PATTERN_RAND] = "rand", NULL};
/* where uuid: looks: on Windows every \\.\PhysicalDriveN's device
 * identifiers, and a by-id directory only when one is given */
#ifdef _WIN32
#define BY_ID_DEF     NULL
#define SYS_BLOCK_DEF NULL
#define BY_ID_HELP    "a directory of by-id names uuid: looks in before the disks"
#else
#define BY_ID_DEF     "/dev/disk/by-id"
#define SYS_BLOCK_DEF "/sys/block"
#define BY_ID_HELP    "where uuid: looks"
#endif

/* the platform's asynchronous and synchronous engines, in that order */
#ifdef _WIN32
static const char *const engines[] = {[RUNNER_ENGINE_AUTO] = "auto",
				      [RUNNER_ENGINE_IO_URING] = "iocp",
				      [RUNNER_ENGINE_PSYNC] = "sync",
				      NULL};
#define ENGINE_HELP "iocp, or sync; auto: iocp, sync if unavailable"
#else
static const char *const engines[] = {[RUNNER_ENGINE_AUTO] = "auto",
				      [RUNNER_ENGINE_IO_URING] = "io_uring",
				      [RUNNER_ENGINE_PSYNC] = "psync",
				      NULL};
#define ENGINE_HELP "io_uring, or psync; auto: io_uring, psync if unavailable"
#endif
static const char *const filesystems[] = {[RUNNER_FS_NONE] = "none",
					  [RUNNER_FS_EXT4] = "ext4",
					  [RUNNER_FS_XFS] = "xfs",
					  [RUNNER_FS_NTFS] = "ntfs",
					  NULL};

#define OFF(f) offsetof(struct runner_opts, f)
#define W      PB_OPT_F_WORKLOAD
#define M      (PB_OPT_F_WORKLOAD | PB_OPT_F_MATRIX)

const struct pb_option runner_options[] = {
	{.name = "target",
	 .type = PB_OPT_STR,
	 .min = 1, /* a path, a command: never empty */
	 .off = OFF(target),
	 .arg = "PATH|uuid:UUID",
	 .help = "block device or file; uuid: finds the disk whose serial or "
		 "WWN matches (disk.EnableUUID)"},
	{.name = "size",
	 .key = "file_size",
	 .type = PB_OPT_SIZE,
	 .off = OFF(size),
	 .min = 1,
	 .max = UINT64_MAX,
	 .arg = "SIZE",
	 .flags = W,
	 .help = "bytes to cover (8G, 512MiB, ...); default the whole device "
		 "or file. In a profile: the file a filesystem workload uses "
		 "(default 3/4 of disk_size)"},
	{.name = "passes",
	 .type = PB_OPT_LIST,
	 .off = OFF(passes),
	 .def = "first-write,rewrite",
	 .choices = pass_names,
	 .arg = "LIST",
	 .flags = M,
	 .help = "the passes in order: first-write (first; again only "
		 "right after a reclaim), rewrite, read, fsync-write, "
		 "command, recreate (on a filesystem: the file deleted and a "
		 "new one written), reclaim (the written blocks given back: "
		 "a device's BLKDISCARD, a file's punched hole, or the file "
		 "deleted and the filesystem trimmed)"},
	{.name = "filesystem",
	 .type = PB_OPT_ENUM,
	 .off = OFF(filesystem),
	 .def = "none",
	 .choices = filesystems,
	 .arg = "FS",
	 .flags = M,
	 .help = "make it on the target (lazy init off), mount it privately, "
		 "run the passes on one file of --size in it, unmount at the "
		 "end"},
	{.name = "full-format",
	 .key = "full_format",
	 .type = PB_OPT_BOOL,
	 .off = OFF(full_format),
	 .flags = M,
	 .help = "ntfs: a full format (every block written, so a thin disk is "
		 "allocated in full), timed as the mkfs step, instead of a "
		 "quick one"},
	{.name = "trim",
	 .key = "fstrim",
	 .type = PB_OPT_BOOL,
	 .off = OFF(trim),
	 .flags = M,
	 .help = "recreate passes: once the file is deleted, discard the "
		 "filesystem's free blocks (fstrim's FITRIM), timed and "
		 "recorded, before the new file is written"},
	{.name = "reclaim-wait-ms",
	 .key = "reclaim_wait_ms",
	 .type = PB_OPT_UINT,
	 .off = OFF(reclaim_wait_ms),
	 .min = 0,
	 .max = 3600000,
	 .def = "250",
	 .arg = "N",
	 .flags = M,
	 .help = "reclaim passes: once the blocks are given back, hold still "
		 "N ms before the next pass, outside every figure: the time a "
		 "hypervisor takes to give the space back (VMFS6 reclaims in "
		 "the background, at its datastore's rate) and the host's to "
		 "read it back"},
	{.name = "command",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(command),
	 .arg = "CMD",
	 .flags = W,
	 .help = "what command passes run (sh -c), in the mount point; timed, "
		 "exit status and output tail kept"},
	{.name = "command-file",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(command_file),
	 .arg = "FILE",
	 .help = "the same, read from FILE"},
	{.name = "bs",
	 .type = PB_OPT_SIZE32,
	 .off = OFF(bs),
	 .min = 512,
	 .max = RUNNER_MAX_BS,
	 .mult = 512,
	 .def = "1M",
	 .arg = "SIZE",
	 .flags = M,
	 .help = "I/O size, a multiple of 512"},
	{.name = "qd",
	 .type = PB_OPT_UINT,
	 .off = OFF(qd),
	 .min = 1,
	 .max = RUNNER_MAX_QD,
	 .def = "8",
	 .arg = "N",
	 .flags = M,
	 .help = "I/Os in flight"},
	{.name = "batch",
	 .type = PB_OPT_UINT,
	 .off = OFF(batch),
	 .min = 1,
	 .max = RUNNER_MAX_QD,
	 .def = "1",
	 .arg = "N",
	 .flags = M,
	 .help = "I/Os queued per submission: 1 submits each as its slot "
		 "frees (fio's default, iodepth_batch_submit=1); more lets the "
		 "block layer merge neighbours"},
	{.name = "pattern",
	 .type = PB_OPT_ENUM,
	 .off = OFF(pattern),
	 .def = "seq",
	 .choices = patterns,
	 .arg = "seq|rand",
	 .flags = M,
	 .help = "rand: a seeded permutation, every block once per pass"},
	{.name = "engine",
	 .type = PB_OPT_ENUM,
	 .off = OFF(engine),
	 .def = "auto",
	 .choices = engines,
	 .arg = "ENGINE",
	 .flags = M,
	 .help = ENGINE_HELP},
	{.name = "buffered",
	 .key = "direct",
	 .type = PB_OPT_BOOL,
	 .off = OFF(buffered),
	 .flags = M | PB_OPT_F_INVERT,
	 .help = "page cache instead of O_DIRECT; the closing fdatasync counts "
		 "in the pass (profile: \"direct\": false)",
	 .key_help = "true: O_DIRECT, past the guest's page cache; false: "
		     "through it, the closing fdatasync counting in the pass "
		     "(the runner's --buffered)"},
	{.name = "interval-ms",
	 .key = "interval_ms",
	 .type = PB_OPT_UINT,
	 .off = OFF(interval_ms),
	 .min = 10,
	 .max = 3600000,
	 .arg = "N",
	 .flags = M,
	 .help = "time series interval; unset: sized to the pass (10 ms, "
		 "doubled as it grows, at least 50 points in any pass over "
		 "0.5 s)"},
	{.name = "ramp-ms",
	 .key = "ramp_ms",
	 .type = PB_OPT_UINT,
	 .off = OFF(ramp_ms),
	 .min = 1,
	 .max = 600000,
	 .arg = "N",
	 .flags = M,
	 .help = "fio's ramp_time: each pass's I/Os that complete in its first "
		 "N ms are done but left out of its throughput, IOPS and "
		 "latency (its series keeps them); a pass no longer than that "
		 "keeps them all and says so; unset: none"},
	{.name = "pair-stripe",
	 .key = "pair_stripe",
	 .type = PB_OPT_SIZE,
	 .off = OFF(pair_stripe),
	 .min = 512,
	 .max = UINT64_MAX,
	 .arg = "SIZE",
	 .flags = M,
	 .help = "the first write in stripes of SIZE, each fresh stripe "
		 "followed by a rewrite of the one before it, each alone in "
		 "the queue: a first write and a rewrite milliseconds apart, "
		 "so the host's drift cancels in the penalty (the median of "
		 "the pairs'); the pass's figures are the fresh stripes'; "
		 "unset: one stream"},
	{.name = "rate-iops",
	 .key = "rate_iops",
	 .type = PB_OPT_UINT,
	 .off = OFF(rate_iops),
	 .min = 1,
	 .max = 10000000,
	 .arg = "N",
	 .flags = M,
	 .help = "an offered rate instead of a closed loop: N I/Os started a "
		 "second on a schedule, whatever the completions do (qd in "
		 "flight at most; a due I/O with none free waits and is "
		 "counted), each I/O's latency from its intended start (wrk2, "
		 "fio's rate_iops); a pass that cannot hold it says so; "
		 "unset: qd kept full"},
	{.name = "poisson",
	 .type = PB_OPT_BOOL,
	 .off = OFF(poisson),
	 .flags = M,
	 .help = "with rate-iops: Poisson arrivals, the gaps exponential and "
		 "seeded (fio's rate_process=poisson), as independent clients "
		 "offer them; default a fixed interval"},
	{.name = "stall-us",
	 .key = "stall_us",
	 .type = PB_OPT_UINT,
	 .off = OFF(stall_us),
	 .min = 1,
	 .max = 60000000,
	 .arg = "N",
	 .flags = M,
	 .help = "an I/O whose latency passes N microseconds is a stall: each "
		 "pass counts them and their total time (with rate-iops, from "
		 "the intended start: every I/O a stall delayed counts); "
		 "unset: none counted"},
	{.name = "seed",
	 .type = PB_OPT_U64,
	 .off = OFF(seed),
	 /* JSON integers are signed 64-bit */
	 .min = 0,
	 .max = INT64_MAX,
	 .def = "8102661233840582243",
	 .arg = "N",
	 .help = "data and permutation seed"},
	{.name = "verify",
	 .type = PB_OPT_BOOL,
	 .off = OFF(verify),
	 .flags = M,
	 .help = "read everything back at the end and report mismatching "
		 "blocks"},
	{.name = "force",
	 .type = PB_OPT_BOOL,
	 .off = OFF(force),
	 .help = "write over a signature or existing data (never over a "
		 "mounted or root device)"},
	{.name = "output",
	 .short_name = 'o',
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(output),
	 .arg = "FILE",
	 .help = "JSON to FILE (default stdout)"},
	{.name = "quiet",
	 .short_name = 'q',
	 .type = PB_OPT_BOOL,
	 .off = OFF(quiet),
	 .help = "no progress or summary on stderr"},
	{.name = "progress-file",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(progress_file),
	 .arg = "FILE",
	 .help = "progress as JSON, rewritten every second"},
	{.name = "stop-file",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(stop_file),
	 .arg = "FILE",
	 .help = "stop as on SIGINT (drain, partial JSON, exit 130) once FILE "
		 "exists; looked for four times a second. A harness's gentle "
		 "stop where it has no signal to send (VMware Tools ends a "
		 "Windows process outright)"},
	{.name = "reclaim-go-file",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(reclaim_go_file),
	 .arg = "FILE",
	 .help = "reclaim passes: end the wait after a reclaim once FILE "
		 "exists (removed then, for the next): a harness that read "
		 "back the space the hypervisor gave back says so"},
	{.name = "log-file",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(log_file),
	 .arg = "FILE",
	 .help = "stderr appended to FILE (errors too)"},
	{.name = "by-id-dir",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(by_id_dir),
	 .def = BY_ID_DEF,
	 .arg = "DIR",
	 .help = BY_ID_HELP},
	{.name = "sys-block-dir",
	 .type = PB_OPT_STR,
	 .min = 1,
	 .off = OFF(sys_block_dir),
	 .def = SYS_BLOCK_DEF,
	 .arg = "DIR",
	 .help = "sysfs fallback for uuid:"},
	{.name = NULL},
};

#undef OFF
#undef W
#undef M

const char *runner_pass_name(enum runner_pass_kind kind)
{
	return (unsigned)kind <= RUNNER_PASS_LAST ? pass_names[kind] : "?";
}

bool runner_pass_parse(enum runner_pass_kind *out, const char *name)
{
	for (unsigned k = 0; k <= RUNNER_PASS_LAST; k++)
		if (!strcmp(pass_names[k], name)) {
			*out = (enum runner_pass_kind)k;
			return true;
		}
	return false;
}

bool runner_pass_writes(enum runner_pass_kind kind)
{
	/* a command may write, but not the runner's stamped blocks; a
	 * reclaim gives blocks back */
	return kind != RUNNER_PASS_READ && kind != RUNNER_PASS_COMMAND &&
	       kind != RUNNER_PASS_RECLAIM;
}

const struct pb_option *runner_option_find(const char *name)
{
	const struct pb_option *o;

	for (o = runner_options; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

const struct pb_option *runner_option_by_key(const char *key)
{
	const struct pb_option *o;

	for (o = runner_options; o->name; o++)
		if ((o->flags & PB_OPT_F_WORKLOAD) &&
		    !strcmp(o->key ? o->key : o->name, key))
			return o;
	return NULL;
}

const char *runner_option_key(const struct pb_option *opt)
{
	return opt->key ? opt->key : opt->name;
}

static const void *cfield(const struct runner_opts *o,
			  const struct pb_option *opt)
{
	return (const char *)o + opt->off;
}

static int choice(const char *const *choices, const char *s, size_t len)
{
	int k;

	for (k = 0; choices[k]; k++)
		if (strlen(choices[k]) == len && !strncmp(s, choices[k], len))
			return k;
	return -1;
}

static enum pb_error parse_passes(struct runner_opts *o, const char *list,
				  char *why)
{
	const char *p = list, *comma;
	size_t len;
	bool seen_write = false;
	char names[256];
	int k;

	o->npasses = 0;
	if (!*list)
		return pb_fail(why, PB_ERR_USAGE, "empty list");
	while (*p) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		k = choice(pass_names, p, len);
		/* "[1]: ": the caller names the list ("workload.passes[1]") */
		if (k < 0)
			return pb_fail(why, PB_ERR_USAGE,
				       "[%u]: unknown pass '%.*s' (%s)",
				       o->npasses, (int)len, p,
				       pb_choices_hint(names, sizeof(names), p,
						       len, pass_names));
		if (o->npasses == RUNNER_MAX_PASSES)
			return pb_fail(why, PB_ERR_USAGE, "more than %d passes",
				       RUNNER_MAX_PASSES);
		/* "first" must mean first: no write may come before it,
		 * but a reclaim, which gives the written blocks back */
		if (k == RUNNER_PASS_FIRST_WRITE && seen_write)
			return pb_fail(why, PB_ERR_USAGE,
				       "first-write must be the first write "
				       "pass, and appear once, or again "
				       "right after a reclaim");
		if (o->npasses &&
		    o->passes[o->npasses - 1] == RUNNER_PASS_RECLAIM &&
		    k != RUNNER_PASS_FIRST_WRITE)
			return pb_fail(why, PB_ERR_USAGE,
				       "[%u]: after a reclaim comes "
				       "first-write: the blocks given back "
				       "are written fresh",
				       o->npasses);
		if (k == RUNNER_PASS_RECLAIM && !seen_write)
			return pb_fail(
				why, PB_ERR_USAGE,
				"[%u]: a reclaim gives back what a write "
				"before it took: none came before",
				o->npasses);
		if (runner_pass_writes((enum runner_pass_kind)k))
			seen_write = true;
		if (k == RUNNER_PASS_RECLAIM)
			seen_write = false;
		o->passes[o->npasses++] = (unsigned)k;
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return pb_fail(why, PB_ERR_USAGE,
				       "trailing comma in '%s'", list);
	}
	return PB_OK;
}

enum pb_error runner_option_set(struct runner_opts *o,
				const struct pb_option *opt, const char *value,
				char *why)
{
	/* the passes are this table's own list; every other row goes
	 * through the one applier (common/option.c): the command line's
	 * flag has no value, a profile's says true or false of its key */
	if (opt->type == PB_OPT_LIST)
		return parse_passes(o, value, why);
	return pb_option_set(o, opt, value, value ? PB_OPT_SET_KEY : 0, why);
}

const char *runner_option_value(const struct runner_opts *o,
				const struct pb_option *opt, char *buf,
				size_t len)
{
	const void *f = cfield(o, opt);
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	switch (opt->type) {
	case PB_OPT_BOOL:
		snprintf(buf, len, "%s",
			 *(const bool *)f != !!(opt->flags & PB_OPT_F_INVERT)
				 ? "true"
				 : "false");
		break;
	case PB_OPT_STR:
		snprintf(buf, len, "%s",
			 *(const char *const *)f ? *(const char *const *)f
						 : "");
		break;
	case PB_OPT_SIZE:
	case PB_OPT_U64:
		snprintf(buf, len, "%llu",
			 (unsigned long long)*(const uint64_t *)f);
		break;
	case PB_OPT_SIZE32:
		snprintf(buf, len, "%u", *(const uint32_t *)f);
		break;
	case PB_OPT_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)f);
		break;
	case PB_OPT_ENUM:
		snprintf(buf, len, "%s", opt->choices[*(const unsigned *)f]);
		break;
	case PB_OPT_LIST:
		for (i = 0; i < o->npasses; i++)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
					      "%s%s", i ? "," : "",
					      pass_names[o->passes[i]]);
		break;
	default: /* the profile's types: no runner row has one */
		break;
	}
	return buf;
}

void runner_opts_init(struct runner_opts *o)
{
	const struct pb_option *opt;
	char why[PB_ERRBUF_SIZE];

	memset(o, 0, sizeof(*o));
	for (opt = runner_options; opt->name; opt++)
		if (opt->def)
			runner_option_set(o, opt, opt->def, why);
}

static bool has_pass(const struct runner_opts *o, enum runner_pass_kind k)
{
	unsigned i;

	for (i = 0; i < o->npasses; i++)
		if (o->passes[i] == (unsigned)k)
			return true;
	return false;
}

/* An option as the user wrote it: "--passes", or "workload.passes". */
static const char *said(char *buf, size_t len, const char *name, bool profile)
{
	const struct pb_option *opt = runner_option_find(name);

	if (profile && opt && (opt->flags & PB_OPT_F_WORKLOAD))
		snprintf(buf, len, "workload.%s", runner_option_key(opt));
	else
		snprintf(buf, len, "--%s", name);
	return buf;
}

/*
 * What --pair-stripe needs: a first-write pass to pair, direct I/O (a
 * buffered stripe times the page cache), no ramp (a stripe has no start
 * to leave out), whole blocks, a full queue in every stripe, and at
 * least RUNNER_PAIR_MIN_STRIPES stripes in the region (size; 0: not
 * known yet, the runner checks again once the target says).
 */
enum pb_error runner_pair_check(const struct runner_opts *o, uint64_t size,
				bool profile, char *errbuf)
{
	char a[48], b[48];
	uint64_t s = o->pair_stripe;

	said(a, sizeof(a), "pair-stripe", profile);
	if (!has_pass(o, RUNNER_PASS_FIRST_WRITE))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: no first-write pass in %s to pair", a,
			       said(b, sizeof(b), "passes", profile));
	if (o->buffered)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: needs direct I/O (a buffered stripe times "
			       "the page cache, not the disk)",
			       a);
	if (o->ramp_ms)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s and %s: give one (a stripe has no start to "
			       "leave out)",
			       a, said(b, sizeof(b), "ramp-ms", profile));
	if (s % o->bs)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: %llu is not a multiple of %s %u", a,
			       (unsigned long long)s,
			       said(b, sizeof(b), "bs", profile), o->bs);
	if (s / o->bs < o->qd)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: %llu holds %llu blocks, fewer than %s %u "
			       "keeps in flight",
			       a, (unsigned long long)s,
			       (unsigned long long)(s / o->bs),
			       said(b, sizeof(b), "qd", profile), o->qd);
	if (size && size / s < RUNNER_PAIR_MIN_STRIPES)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: %llu bytes hold %llu stripes of %llu; "
			       "pairing needs at least %u",
			       a, (unsigned long long)size,
			       (unsigned long long)(size / s),
			       (unsigned long long)s, RUNNER_PAIR_MIN_STRIPES);
	return PB_OK;
}

enum pb_error runner_opts_check(const struct runner_opts *o, bool profile,
				char *errbuf)
{
	bool cmd = o->command || o->command_file;
	char a[48], b[48];
	enum pb_error err;

	if (o->command && o->command_file)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--command and --command-file: give one");
	if (has_pass(o, RUNNER_PASS_COMMAND) && !cmd)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: a command pass needs %s%s",
			       said(a, sizeof(a), "passes", profile),
			       said(b, sizeof(b), "command", profile),
			       profile ? "" : " or --command-file");
	if (cmd && !has_pass(o, RUNNER_PASS_COMMAND))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: no command pass in %s",
			       said(a, sizeof(a), "command", profile),
			       said(b, sizeof(b), "passes", profile));
	if (o->full_format && o->filesystem != RUNNER_FS_NTFS)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--full-format: only with --filesystem ntfs "
			       "(mkfs.ext4 and mkfs.xfs write no data blocks "
			       "either way)");
	/* a raw target has no file to delete: overwriting it is rewrite */
	if (has_pass(o, RUNNER_PASS_RECREATE) &&
	    o->filesystem == RUNNER_FS_NONE)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: recreate deletes the file and writes a new "
			       "one, so it needs %s (on a raw target, use "
			       "rewrite)",
			       said(a, sizeof(a), "passes", profile),
			       said(b, sizeof(b), "filesystem", profile));
	if (o->trim && !has_pass(o, RUNNER_PASS_RECREATE))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: trims after a recreate pass's delete, and "
			       "%s has none",
			       said(a, sizeof(a), "trim", profile),
			       said(b, sizeof(b), "passes", profile));
	if (o->filesystem != RUNNER_FS_NONE && !o->size)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--filesystem: give --size, the size of the "
			       "file the passes use");
	if (o->pair_stripe) {
		err = runner_pair_check(o, o->size, profile, errbuf);
		if (err)
			return err;
	}
	if (o->poisson && !o->rate_iops)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: shapes an offered rate, and %s is unset",
			       said(a, sizeof(a), "poisson", profile),
			       said(b, sizeof(b), "rate-iops", profile));
	if (o->rate_iops && o->pair_stripe)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s and %s: give one (a stripe is timed alone "
			       "in the queue, not at a rate)",
			       said(a, sizeof(a), "rate-iops", profile),
			       said(b, sizeof(b), "pair-stripe", profile));
#ifdef _WIN32
	if (o->rate_iops)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: not in the Windows runner yet (a closed "
			       "loop only); the Linux runner offers rates",
			       said(a, sizeof(a), "rate-iops", profile));
#endif
	if (o->size && o->size % o->bs)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: %llu is not a multiple of %s %u",
			       said(a, sizeof(a), "size", profile),
			       (unsigned long long)o->size,
			       said(b, sizeof(b), "bs", profile), o->bs);
	return PB_OK;
}

enum pb_error runner_opts_format(struct pb_buf *out,
				 const struct runner_opts *o, unsigned flags)
{
	const struct pb_option *opt;
	enum pb_error err = PB_OK;
	char v[1024];

	for (opt = runner_options; opt->name && !err; opt++) {
		if ((opt->flags & flags) != flags || opt->type == PB_OPT_STR)
			continue;
		if (opt->type == PB_OPT_BOOL) {
			if (*(const bool *)cfield(o, opt))
				err = pb_buf_printf(out, "%s--%s",
						    out->len ? " " : "",
						    opt->name);
			continue;
		}
		/* an unset size means the whole target, an unset number
		 * that may not be 0 its automatic value: not arguments */
		if (opt->type == PB_OPT_SIZE &&
		    !*(const uint64_t *)cfield(o, opt))
			continue;
		if (opt->type == PB_OPT_UINT && opt->min > 0 &&
		    !*(const unsigned *)cfield(o, opt))
			continue;
		err = pb_buf_printf(out, "%s--%s %s", out->len ? " " : "",
				    opt->name,
				    runner_option_value(o, opt, v, sizeof(v)));
	}
	return err;
}

/* ---- the command line ---- */

static const char intro[] =
	"usage: provbench-runner --target PATH|uuid:UUID [OPTIONS]\n"
	"\n"
	"Write a disk for the first time, then rewrite it, and report\n"
	"throughput, latency percentiles and a throughput time series per\n"
	"pass as JSON, so the first-write (zeroing) cost shows.\n"
	"\n";

static const char outro[] =
	"  -h, --help                this text\n"
	"  -V, --version             version\n"
	"\n"
	"Exit: 0 done, 1 the run failed (partial JSON written), 2 bad\n"
	"arguments or refused target, 130 interrupted (partial JSON "
	"written).\n";

void runner_option_describe(const struct pb_option *opt, bool profile,
			    char *more, size_t len)
{
	char names[160];
	size_t n;

	n = (size_t)snprintf(more, len, "%s",
			     profile && opt->key_help ? opt->key_help
						      : opt->help);
	if (opt->choices && opt->type == PB_OPT_ENUM)
		n += (size_t)snprintf(
			more + n, n < len ? len - n : 0, " (%s)",
			pb_choices_join(names, sizeof(names), opt->choices));
	if (opt->type == PB_OPT_UINT || opt->type == PB_OPT_U64)
		n += (size_t)snprintf(more + n, n < len ? len - n : 0,
				      "; %llu to %llu",
				      (unsigned long long)opt->min,
				      (unsigned long long)opt->max);
	if (opt->def && opt->type != PB_OPT_BOOL)
		n += (size_t)snprintf(more + n, n < len ? len - n : 0,
				      "; default %s", opt->def);
	if (profile && opt->type == PB_OPT_BOOL)
		snprintf(more + n, n < len ? len - n : 0, "; default %s",
			 opt->flags & PB_OPT_F_INVERT ? "true" : "false");
}

void runner_options_help(struct pb_buf *b, unsigned flags, bool profile)
{
	const struct pb_option *opt;
	char left[96], more[1024];

	for (opt = runner_options; opt->name; opt++) {
		if ((opt->flags & flags) != flags)
			continue;
		if (profile)
			snprintf(left, sizeof(left), "  %s",
				 runner_option_key(opt));
		else if (opt->short_name)
			snprintf(left, sizeof(left), "  -%c, --%s%s%s",
				 opt->short_name, opt->name,
				 opt->arg ? " " : "", opt->arg ? opt->arg : "");
		else
			snprintf(left, sizeof(left), "      --%s%s%s",
				 opt->name, opt->arg ? " " : "",
				 opt->arg ? opt->arg : "");
		runner_option_describe(opt, profile, more, sizeof(more));
		/* the help in a column of its own, wrapped at 80 */
		if (strlen(left) >= 27)
			pb_buf_printf(b, "%s\n%27s", left, "");
		else
			pb_buf_printf(b, "%-27s", left);
		pb_buf_add_wrapped(b, more, 27, 27, 79);
		pb_buf_addstr(b, "\n");
	}
}

const char *runner_usage(void)
{
	static char *text;
	struct pb_buf b = PB_BUF_INIT(64 * 1024);

	if (text)
		return text;
	pb_buf_addstr(&b, intro);
	runner_options_help(&b, 0, false);
	pb_buf_addstr(&b, outro);
	text = pb_buf_steal(&b, NULL);
	return text ? text : intro;
}

enum pb_error runner_opts_parse(struct runner_opts *o,
				enum runner_action *action, int argc,
				char **argv, char *errbuf)
{
	struct option lo[64];
	const struct pb_option *opt;
	char shorts[16] = "+hV", why[PB_ERRBUF_SIZE];
	size_t n = 0, k = 3;
	enum pb_error err;
	int c, prev;

	*action = RUNNER_ACTION_RUN;
	for (opt = runner_options; opt->name && n < 60; opt++, n++) {
		lo[n] = (struct option){opt->name,
					opt->type == PB_OPT_BOOL
						? no_argument
						: required_argument,
					NULL, 256 + (int)n};
		if (opt->short_name && k + 2 < sizeof(shorts)) {
			shorts[k++] = opt->short_name;
			if (opt->type != PB_OPT_BOOL)
				shorts[k++] = ':';
		}
	}
	lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[n++] = (struct option){"version", no_argument, NULL, 'V'};
	lo[n] = (struct option){NULL, 0, NULL, 0};
	shorts[k] = '\0';
	optind = 0; /* glibc: full reinitialisation, so tests can reparse */
	opterr = 0;
	for (;;) {
		prev = optind ? optind : 1;
		c = getopt_long(argc, argv, shorts, lo, NULL);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			const char *bad = prev < argc ? argv[prev] : "?";

			if (optopt && optopt < 256 && c == '?' &&
			    !strchr("o", optopt))
				return pb_fail(errbuf, PB_ERR_USAGE,
					       "'-%c': unknown option (see "
					       "--help)",
					       optopt);
			if (optopt)
				return pb_fail(errbuf, PB_ERR_USAGE,
					       "'%s': needs a value", bad);
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "'%s': unknown option (see --help)",
				       bad);
		}
		if (c == 'h' || c == 'V') {
			*action = c == 'h' ? RUNNER_ACTION_HELP
					   : RUNNER_ACTION_VERSION;
			return PB_OK;
		}
		if (c < 256) {
			for (opt = runner_options; opt->name; opt++)
				if (opt->short_name == c)
					break;
		} else {
			opt = &runner_options[c - 256];
		}
		if (!opt->name)
			return pb_fail(errbuf, PB_ERR_INTERNAL, "option %d", c);
		why[0] = '\0';
		err = runner_option_set(o, opt, optarg, why);
		if (err)
			/* "--passes[1]: unknown pass ..." */
			return pb_fail(errbuf, err, "--%s%s%s", opt->name,
				       why[0] == '[' ? "" : ": ", why);
	}
	if (optind < argc)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "'%s': unexpected argument (see --help)",
			       argv[optind]);
	if (!o->target)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--target: required (see --help)");
	return runner_opts_check(o, false, errbuf);
}

const char *runner_fs_name(enum runner_fs_type t)
{
	/* the names --filesystem takes: one table for both */
	const struct pb_option *o = runner_option_find("filesystem");

	return (unsigned)t <= RUNNER_FS_NTFS ? o->choices[t] : "none";
}
