/*
 * opts.c - provbench-runner's command line: parse and validate everything
 * before anything touches a disk, with one clear message per mistake.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_int.h"

static const char usage_text[] =
	"usage: provbench-runner --target PATH|uuid:UUID [--size SIZE]\n"
	"         [--passes first-write,rewrite,...] [--bs SIZE] [--qd N]\n"
	"         [--pattern seq|rand] [--engine io_uring|psync]\n"
	"         [--buffered] [--interval-ms N] [--seed N] [--verify]\n"
	"         [--force] [--filesystem ext4|xfs]\n"
	"         [--command CMD|--command-file FILE] [-o FILE] [-q]\n"
	"\n"
	"Write a disk for the first time, then rewrite it, and report\n"
	"throughput, latency percentiles and a throughput time series per\n"
	"pass as JSON, so the first-write (zeroing) cost shows.\n"
	"\n"
	"  --target PATH|uuid:UUID  block device or file; uuid: finds the "
	"disk\n"
	"                           whose serial/WWN matches "
	"(disk.EnableUUID)\n"
	"  --size SIZE              bytes to cover (8G, 512MiB, ...); default\n"
	"                           the whole device or file\n"
	"  --passes LIST            first-write, rewrite, read, fsync-write,\n"
	"                           command (default first-write,rewrite)\n"
	"  --filesystem ext4|xfs    make the filesystem on the target (lazy\n"
	"                           init off), mount it privately, run the\n"
	"                           passes on one file of --size in it,\n"
	"                           unmount at the end\n"
	"  --command CMD            what a command pass runs (sh -c), in the\n"
	"                           mount point; timed, output tail kept\n"
	"  --command-file FILE      the same, read from FILE\n"
	"  --bs SIZE                I/O size, a multiple of 512 (default 1M)\n"
	"  --qd N                   I/Os in flight, 1-1024 (default 8)\n"
	"  --pattern seq|rand       rand: a seeded permutation, every block\n"
	"                           once per pass (default seq)\n"
	"  --engine io_uring|psync  default io_uring, psync if unavailable\n"
	"  --buffered               page cache instead of O_DIRECT; the\n"
	"                           closing fdatasync counts in the pass\n"
	"  --interval-ms N          time series interval (default 500)\n"
	"  --seed N                 data and permutation seed\n"
	"  --verify                 read everything back at the end and\n"
	"                           report mismatching blocks\n"
	"  --force                  write over a signature or existing data\n"
	"                           (never over a mounted or root device)\n"
	"  -o, --output FILE        JSON to FILE (default stdout)\n"
	"  -q, --quiet              no progress or summary on stderr\n"
	"  --progress-file FILE     progress as JSON, rewritten every second\n"
	"  --log-file FILE          stderr appended to FILE (errors too)\n"
	"  --by-id-dir DIR          where uuid: looks (default "
	"/dev/disk/by-id)\n"
	"  --sys-block-dir DIR      sysfs fallback (default /sys/block)\n"
	"  -h, --help               this text\n"
	"  -V, --version            version\n"
	"\n"
	"Exit: 0 done, 1 the run failed (partial JSON written), 2 bad\n"
	"arguments or refused target, 130 interrupted (partial JSON "
	"written).\n";

const char *runner_usage(void)
{
	return usage_text;
}

static const char *const pass_names[] = {
	[RUNNER_PASS_FIRST_WRITE] = "first-write",
	[RUNNER_PASS_REWRITE] = "rewrite",
	[RUNNER_PASS_READ] = "read",
	[RUNNER_PASS_FSYNC_WRITE] = "fsync-write",
	[RUNNER_PASS_COMMAND] = "command",
};

const char *runner_pass_name(enum runner_pass_kind kind)
{
	return pass_names[kind];
}

bool runner_pass_writes(enum runner_pass_kind kind)
{
	/* a command may write, but not the runner's stamped blocks */
	return kind != RUNNER_PASS_READ && kind != RUNNER_PASS_COMMAND;
}

enum opt_id {
	OPT_TARGET = 256,
	OPT_SIZE,
	OPT_PASSES,
	OPT_BS,
	OPT_QD,
	OPT_PATTERN,
	OPT_ENGINE,
	OPT_BUFFERED,
	OPT_INTERVAL,
	OPT_SEED,
	OPT_VERIFY,
	OPT_FORCE,
	OPT_BYID,
	OPT_SYSBLOCK,
	OPT_PROGRESS,
	OPT_FILESYSTEM,
	OPT_COMMAND,
	OPT_COMMAND_FILE,
	OPT_LOG_FILE,
};

static const struct option long_opts[] = {
	{"target", required_argument, NULL, OPT_TARGET},
	{"size", required_argument, NULL, OPT_SIZE},
	{"passes", required_argument, NULL, OPT_PASSES},
	{"bs", required_argument, NULL, OPT_BS},
	{"qd", required_argument, NULL, OPT_QD},
	{"pattern", required_argument, NULL, OPT_PATTERN},
	{"engine", required_argument, NULL, OPT_ENGINE},
	{"buffered", no_argument, NULL, OPT_BUFFERED},
	{"interval-ms", required_argument, NULL, OPT_INTERVAL},
	{"seed", required_argument, NULL, OPT_SEED},
	{"verify", no_argument, NULL, OPT_VERIFY},
	{"force", no_argument, NULL, OPT_FORCE},
	{"output", required_argument, NULL, 'o'},
	{"quiet", no_argument, NULL, 'q'},
	{"by-id-dir", required_argument, NULL, OPT_BYID},
	{"sys-block-dir", required_argument, NULL, OPT_SYSBLOCK},
	{"progress-file", required_argument, NULL, OPT_PROGRESS},
	{"filesystem", required_argument, NULL, OPT_FILESYSTEM},
	{"command", required_argument, NULL, OPT_COMMAND},
	{"command-file", required_argument, NULL, OPT_COMMAND_FILE},
	{"log-file", required_argument, NULL, OPT_LOG_FILE},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static enum pb_error parse_uint(uint64_t *out, const char *opt, const char *s,
				uint64_t min, uint64_t max, char *errbuf)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		goto bad;
	if (v < min || v > max)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: %s is out of range (%llu to %llu)", opt, s,
			       (unsigned long long)min,
			       (unsigned long long)max);
	*out = v;
	return PB_OK;
bad:
	return pb_fail(errbuf, PB_ERR_USAGE, "%s: '%s' is not a number", opt,
		       s);
}

static enum pb_error parse_passes(struct runner_opts *o, const char *list,
				  char *errbuf)
{
	const char *p = list, *comma;
	size_t len, k;
	bool seen_write = false, found;

	o->npasses = 0;
	if (!*list)
		return pb_fail(errbuf, PB_ERR_USAGE, "--passes: empty list");
	while (*p) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		found = false;
		for (k = 0; k < sizeof(pass_names) / sizeof(pass_names[0]);
		     k++) {
			if (strlen(pass_names[k]) == len &&
			    !strncmp(p, pass_names[k], len)) {
				found = true;
				break;
			}
		}
		if (!found)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--passes: unknown pass '%.*s' (use "
				       "first-write, rewrite, read, "
				       "fsync-write, command)",
				       (int)len, p);
		if (o->npasses == RUNNER_MAX_PASSES)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--passes: more than %d passes",
				       RUNNER_MAX_PASSES);
		/* "first" must mean first: no write may come before it */
		if (k == RUNNER_PASS_FIRST_WRITE && seen_write)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--passes: first-write must be the "
				       "first write pass, and appear once");
		if (runner_pass_writes((enum runner_pass_kind)k))
			seen_write = true;
		o->passes[o->npasses++] = (enum runner_pass_kind)k;
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--passes: trailing comma in '%s'",
				       list);
	}
	return PB_OK;
}

static bool has_pass(const struct runner_opts *o, enum runner_pass_kind k)
{
	unsigned i;

	for (i = 0; i < o->npasses; i++)
		if (o->passes[i] == k)
			return true;
	return false;
}

/* A command pass needs its command, and a command needs its pass; a
 * filesystem needs the file's size (the device holds the filesystem). */
static enum pb_error check_commands(const struct runner_opts *o, char *errbuf)
{
	bool cmd = o->command || o->command_file;

	if (o->command && o->command_file)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--command and --command-file: give one");
	if (has_pass(o, RUNNER_PASS_COMMAND) && !cmd)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--passes: a command pass needs --command or "
			       "--command-file");
	if (cmd && !has_pass(o, RUNNER_PASS_COMMAND))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--command: no command pass in --passes");
	if (o->filesystem != RUNNER_FS_NONE && !o->size)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--filesystem: give --size, the size of the "
			       "file the passes use");
	return PB_OK;
}

static enum pb_error parse_one(struct runner_opts *o, int c, const char *arg,
			       enum runner_action *action, char *errbuf)
{
	uint64_t v;
	enum pb_error err;

	switch (c) {
	case OPT_TARGET:
		if (!*arg)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--target: empty path");
		o->target = arg;
		return PB_OK;
	case OPT_SIZE:
		err = pb_size_parse(&v, arg, errbuf);
		if (err) {
			/* prefix the option name to the parser's detail */
			char tmp[PB_ERRBUF_SIZE];

			snprintf(tmp, sizeof(tmp), "--size: %s", errbuf);
			memcpy(errbuf, tmp, sizeof(tmp));
			return PB_ERR_USAGE;
		}
		if (!v)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--size: must be more than 0");
		o->size = v;
		return PB_OK;
	case OPT_PASSES:
		return parse_passes(o, arg, errbuf);
	case OPT_BS:
		err = pb_size_parse(&v, arg, errbuf);
		if (err) {
			char tmp[PB_ERRBUF_SIZE];

			snprintf(tmp, sizeof(tmp), "--bs: %s", errbuf);
			memcpy(errbuf, tmp, sizeof(tmp));
			return PB_ERR_USAGE;
		}
		if (v < 512 || v > (64u << 20) || v % 512)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--bs: '%s' must be a multiple of 512 "
				       "from 512 to 64M",
				       arg);
		o->bs = (uint32_t)v;
		return PB_OK;
	case OPT_QD:
		err = parse_uint(&v, "--qd", arg, 1, 1024, errbuf);
		o->qd = (unsigned)v;
		return err;
	case OPT_PATTERN:
		if (!strcmp(arg, "seq"))
			o->pattern = RUNNER_PATTERN_SEQ;
		else if (!strcmp(arg, "rand"))
			o->pattern = RUNNER_PATTERN_RAND;
		else
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--pattern: '%s' (use seq or rand)",
				       arg);
		return PB_OK;
	case OPT_ENGINE:
		if (!strcmp(arg, "io_uring"))
			o->engine = RUNNER_ENGINE_IO_URING;
		else if (!strcmp(arg, "psync"))
			o->engine = RUNNER_ENGINE_PSYNC;
		else if (!strcmp(arg, "auto"))
			o->engine = RUNNER_ENGINE_AUTO;
		else
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--engine: '%s' (use io_uring or "
				       "psync)",
				       arg);
		return PB_OK;
	case OPT_BUFFERED:
		o->buffered = true;
		return PB_OK;
	case OPT_INTERVAL:
		err = parse_uint(&v, "--interval-ms", arg, 10, 3600000, errbuf);
		o->interval_ms = (unsigned)v;
		return err;
	case OPT_SEED:
		/* JSON integers are signed 64-bit */
		err = parse_uint(&v, "--seed", arg, 0, INT64_MAX, errbuf);
		o->seed = v;
		return err;
	case OPT_VERIFY:
		o->verify = true;
		return PB_OK;
	case OPT_FORCE:
		o->force = true;
		return PB_OK;
	case 'o':
		if (!*arg)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--output: empty path");
		o->output = arg;
		return PB_OK;
	case 'q':
		o->quiet = true;
		return PB_OK;
	case OPT_BYID:
		o->by_id_dir = arg;
		return PB_OK;
	case OPT_SYSBLOCK:
		o->sys_block_dir = arg;
		return PB_OK;
	case OPT_PROGRESS:
		if (!*arg)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--progress-file: empty path");
		o->progress_file = arg;
		return PB_OK;
	case OPT_FILESYSTEM:
		if (!strcmp(arg, "ext4"))
			o->filesystem = RUNNER_FS_EXT4;
		else if (!strcmp(arg, "xfs"))
			o->filesystem = RUNNER_FS_XFS;
		else if (!strcmp(arg, "none"))
			o->filesystem = RUNNER_FS_NONE;
		else
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--filesystem: '%s' (use ext4, xfs or "
				       "none)",
				       arg);
		return PB_OK;
	case OPT_COMMAND:
		if (!*arg)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--command: empty command");
		o->command = arg;
		return PB_OK;
	case OPT_COMMAND_FILE:
		if (!*arg)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--command-file: empty path");
		o->command_file = arg;
		return PB_OK;
	case OPT_LOG_FILE:
		if (!*arg)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--log-file: empty path");
		o->log_file = arg; /* opened by main, before parsing */
		return PB_OK;
	case 'h':
		*action = RUNNER_ACTION_HELP;
		return PB_OK;
	case 'V':
		*action = RUNNER_ACTION_VERSION;
		return PB_OK;
	default:
		return pb_fail(errbuf, PB_ERR_INTERNAL, "option %d", c);
	}
}

enum pb_error runner_opts_parse(struct runner_opts *o,
				enum runner_action *action, int argc,
				char **argv, char *errbuf)
{
	enum pb_error err = PB_OK;
	int c, prev;

	*action = RUNNER_ACTION_RUN;
	optind = 0; /* glibc: full reinitialisation, so tests can reparse */
	opterr = 0;
	for (;;) {
		prev = optind ? optind : 1;
		c = getopt_long(argc, argv, "+o:qhV", long_opts, NULL);
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
		err = parse_one(o, c, optarg, action, errbuf);
		if (err)
			return err;
		if (*action != RUNNER_ACTION_RUN)
			return PB_OK;
	}
	if (optind < argc)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "'%s': unexpected argument (see --help)",
			       argv[optind]);
	if (!o->target)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--target: required (see --help)");
	if (o->size && o->size % o->bs)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--size: %llu is not a multiple of --bs %u",
			       (unsigned long long)o->size, o->bs);
	return check_commands(o, errbuf);
}
