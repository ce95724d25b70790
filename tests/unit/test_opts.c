/*
 * test_opts.c - provbench-runner's argument parsing: every argument error
 * gives PB_ERR_USAGE and a message naming the argument; good arguments
 * land in the option struct.
 */
#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "unit.h"

#define MAXARGS 12

static enum pb_error parse(struct runner_opts *o, enum runner_action *act,
			   char *err, const char *const *args)
{
	char *argv[MAXARGS + 2];
	int argc = 1;

	argv[0] = (char *)"provbench-runner";
	while (args[argc - 1] && argc <= MAXARGS) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	err[0] = '\0';
	runner_opts_init(o);
	return runner_opts_parse(o, act, argc, argv, err);
}

static const struct {
	const char *args[MAXARGS];
	const char *msg; /* a substring of the one-line message */
} bad[] = {
	{{NULL}, "--target: required"},
	{{"--size", "1G"}, "--target: required"},
	{{"--target", ""}, "--target: must not be empty"},
	{{"--target", "/x", "--size", "-1"}, "negative"},
	{{"--target", "/x", "--size", "0"}, "more than 0"},
	{{"--target", "/x", "--size", "12Q"}, "unknown unit"},
	{{"--target", "/x", "--size", "abc"}, "--size"},
	{{"--target", "/x", "--size", "1000"}, "not a multiple of --bs"},
	{{"--target", "/x", "--bs", "100"}, "multiple of 512"},
	{{"--target", "/x", "--bs", "0"}, "--bs"},
	{{"--target", "/x", "--bs", "128M"}, "--bs"},
	{{"--target", "/x", "--bs", "4X"}, "--bs"},
	{{"--target", "/x", "--qd", "0"}, "out of range"},
	{{"--target", "/x", "--qd", "1025"}, "out of range"},
	{{"--target", "/x", "--qd", "-3"}, "not a whole number, 0 or more"},
	{{"--target", "/x", "--qd", "8x"}, "not a whole number"},
	{{"--target", "/x", "--pattern", "zigzag"}, "--pattern"},
	{{"--target", "/x", "--engine", "libaio"}, "--engine"},
	{{"--target", "/x", "--passes", ""}, "empty list"},
	{{"--target", "/x", "--passes", "first-write,bogus"}, "'bogus'"},
	{{"--target", "/x", "--passes", "rewrite,first-write"},
	 "first write pass"},
	{{"--target", "/x", "--passes", "first-write,first-write"},
	 "first write pass"},
	{{"--target", "/x", "--passes", "first-write,"}, "trailing comma"},
	/* a reclaim gives back what was written, and a first write follows */
	{{"--target", "/x", "--passes", "reclaim,first-write"},
	 "[0]: a reclaim gives back what a write before it took"},
	{{"--target", "/x", "--passes", "first-write,reclaim,rewrite"},
	 "[2]: after a reclaim comes first-write"},
	{{"--target", "/x", "--passes", "first-write,rewrite,first-write"},
	 "or again right after a reclaim"},
	{{"--target", "/x", "--passes", "first-write,command"},
	 "needs --command"},
	{{"--target", "/x", "--command", "true"}, "no command pass"},
	{{"--target", "/x", "--passes", "command", "--command", "true",
	  "--command-file", "/f"},
	 "give one"},
	{{"--target", "/x", "--passes", "command", "--command", ""},
	 "--command: must not be empty"},
	{{"--target", "/x", "--filesystem", "btrfs"}, "'btrfs'"},
	{{"--target", "/x", "--filesystem", "ext4"}, "give --size"},
	{{"--target", "/x", "--filesystem", "ext4", "--size", "4M",
	  "--full-format"},
	 "only with --filesystem ntfs"},
	{{"--target", "/x", "--interval-ms", "5"}, "out of range"},
	{{"--target", "/x", "--reclaim-wait-ms", "3600001"}, "out of range"},
	{{"--target", "/x", "--seed", "nope"}, "not a whole number"},
	{{"--target", "/x", "--seed", "18446744073709551615"}, "range"},
	{{"--target", "/x", "--frobnicate"}, "'--frobnicate': unknown"},
	{{"--target", "/x", "-z"}, "'-z': unknown"},
	{{"--target", "/x", "stray"}, "'stray': unexpected"},
	{{"--target"}, "needs a value"},
	{{"--target", "/x", "-o"}, "needs a value"},
	{{"--target", "/x", "--output", ""}, "--output: must not be empty"},
};

static void bad_arguments_table(void)
{
	struct runner_opts o;
	enum runner_action act;
	char err[PB_ERRBUF_SIZE];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(parse(&o, &act, err, bad[i].args),
				PB_ERR_USAGE);
		if (!strstr(err, bad[i].msg)) {
			fprintf(stderr, "\n  want '%s', got '%s'", bad[i].msg,
				err);
			CU_FAIL(bad[i].msg);
		}
		/* one line: no newline inside the message */
		CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	}
}

static void good_arguments(void)
{
	static const char *const args[] = {
		"--target",  "/dev/sdb",
		"--size",    "8G",
		"--passes",  "first-write,rewrite,rewrite,read,fsync-write",
		"--bs",	     "64K",
		"--qd",	     "16",
		"--pattern", "rand",
		NULL};
	/* the synchronous engine by the platform's own name (psync; sync on
	 * Windows), from the option table that defines both */
	const char *more[] = {
		"--target",
		"uuid:6000C29a-1234",
		"--engine",
		runner_option_find("engine")->choices[RUNNER_ENGINE_PSYNC],
		"--buffered",
		"--interval-ms",
		"100",
		"--seed",
		"7",
		"--verify",
		"--force",
		NULL};
	static const char *const fs[] = {"--target",
					 "uuid:0123",
					 "--filesystem",
					 "xfs",
					 "--size",
					 "64M",
					 "--passes",
					 "first-write,command,read",
					 "--command-file",
					 "/run/cmd",
					 NULL};
	struct runner_opts o;
	enum runner_action act;
	char err[PB_ERRBUF_SIZE];

	CU_ASSERT_EQUAL_FATAL(parse(&o, &act, err, args), PB_OK);
	CU_ASSERT_EQUAL(act, RUNNER_ACTION_RUN);
	CU_ASSERT_STRING_EQUAL(o.target, "/dev/sdb");
	CU_ASSERT_EQUAL(o.size, 8ull << 30);
	CU_ASSERT_EQUAL(o.npasses, 5);
	CU_ASSERT_EQUAL(o.passes[0], RUNNER_PASS_FIRST_WRITE);
	CU_ASSERT_EQUAL(o.passes[2], RUNNER_PASS_REWRITE);
	CU_ASSERT_EQUAL(o.passes[3], RUNNER_PASS_READ);
	CU_ASSERT_EQUAL(o.passes[4], RUNNER_PASS_FSYNC_WRITE);
	CU_ASSERT_EQUAL(o.bs, 65536);
	CU_ASSERT_EQUAL(o.qd, 16);
	CU_ASSERT_EQUAL(o.pattern, RUNNER_PATTERN_RAND);
	CU_ASSERT_FALSE(o.verify);

	CU_ASSERT_EQUAL_FATAL(parse(&o, &act, err, more), PB_OK);
	CU_ASSERT_EQUAL(o.engine, RUNNER_ENGINE_PSYNC);
	CU_ASSERT_TRUE(o.buffered);
	CU_ASSERT_EQUAL(o.interval_ms, 100);
	CU_ASSERT_EQUAL(o.seed, 7);
	CU_ASSERT_TRUE(o.verify);
	CU_ASSERT_TRUE(o.force);
	/* defaults untouched */
	CU_ASSERT_EQUAL(o.bs, 1u << 20);
	CU_ASSERT_EQUAL(o.npasses, 2);
	CU_ASSERT_EQUAL(o.filesystem, RUNNER_FS_NONE);

	CU_ASSERT_EQUAL_FATAL(parse(&o, &act, err, fs), PB_OK);
	CU_ASSERT_EQUAL(o.filesystem, RUNNER_FS_XFS);
	CU_ASSERT_EQUAL(o.npasses, 3);
	CU_ASSERT_EQUAL(o.passes[1], RUNNER_PASS_COMMAND);
	CU_ASSERT_STRING_EQUAL(o.command_file, "/run/cmd");
	CU_ASSERT_PTR_NULL(o.command);
}

/* The thin life's cycle: first write, reclaim, first write again; a
 * reclaim may end the passes */
static void reclaim_passes(void)
{
	char *argv[] = {"provbench-runner",
			"--target",
			"/x",
			"--passes",
			"first-write,rewrite,reclaim,first-write,rewrite,"
			"reclaim",
			NULL};
	struct runner_opts o;
	enum runner_action act;
	char err[PB_ERRBUF_SIZE] = "";

	runner_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(runner_opts_parse(&o, &act, 5, argv, err), PB_OK);
	CU_ASSERT_EQUAL(o.npasses, 6);
	CU_ASSERT_EQUAL(o.passes[2], RUNNER_PASS_RECLAIM);
	CU_ASSERT_EQUAL(o.passes[3], RUNNER_PASS_FIRST_WRITE);
	CU_ASSERT_FALSE(runner_pass_writes(RUNNER_PASS_RECLAIM));
	CU_ASSERT_STRING_EQUAL(runner_pass_name(RUNNER_PASS_RECLAIM),
			       "reclaim");
	/* held still 250 ms after each unless told */
	CU_ASSERT_EQUAL(o.reclaim_wait_ms, 250);
	{
		char *w[] = {"provbench-runner",
			     "--target",
			     "/x",
			     "--passes",
			     "first-write,reclaim,first-write",
			     "--reclaim-wait-ms",
			     "0",
			     NULL};

		runner_opts_init(&o);
		CU_ASSERT_EQUAL_FATAL(runner_opts_parse(&o, &act, 7, w, err),
				      PB_OK);
		CU_ASSERT_EQUAL(o.reclaim_wait_ms, 0);
	}
}

static void help_and_version(void)
{
	static const char *const h[] = {"--help", NULL};
	static const char *const v[] = {"-V", NULL};
	struct runner_opts o;
	enum runner_action act;
	char err[PB_ERRBUF_SIZE];

	CU_ASSERT_EQUAL(parse(&o, &act, err, h), PB_OK);
	CU_ASSERT_EQUAL(act, RUNNER_ACTION_HELP);
	CU_ASSERT_EQUAL(parse(&o, &act, err, v), PB_OK);
	CU_ASSERT_EQUAL(act, RUNNER_ACTION_VERSION);
	CU_ASSERT_PTR_NOT_NULL(strstr(runner_usage(), "--target"));
}

static const struct pb_case cases[] = {
	PB_CASE(bad_arguments_table),
	PB_CASE(good_arguments),
	PB_CASE(reclaim_passes),
	PB_CASE(help_and_version),
	PB_CASES_END,
};

const struct pb_suite suite_opts = {"opts", NULL, NULL, cases};
