/*
 * test_child.c - child processes (common/child.c): how each ended, what
 * came back on stdout, the last line of stderr, and the tail kept of a
 * long stream.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "unit.h"

static const struct {
	const char *name;
	const char *script; /* run by sh -c */
	unsigned flags;
	int status;
	const char *out;  /* stdout, exactly */
	const char *line; /* the last line of stderr */
} runs[] = {
	{"success", "echo hello", 0, 0, "hello\n", ""},
	{"exit code", "echo partial; exit 3", 0, 3, "partial\n", ""},
	{"last line of stderr", "echo a >&2; echo 'b: why' >&2; exit 1", 0, 1,
	 "", "b: why"},
	{"trailing newlines dropped", "printf 'x\\n\\n\\r\\n' >&2", 0, 0, "",
	 "x"},
	{"killed by a signal", "kill -9 $$", 0, 128 + SIGKILL, "", ""},
	{"stderr merged", "echo out; echo err >&2", PB_CHILD_MERGE_ERR, 0,
	 "out\nerr\n", ""},
	{"stdout dropped", "echo gone; echo kept >&2", PB_CHILD_NO_STDOUT, 0,
	 "", "kept"},
	{"own group", "test \"$(ps -o pgid= $$)\" -eq $$", PB_CHILD_OWN_GROUP,
	 0, "", ""},
	{"stdin is /dev/null", "cat", 0, 0, "", ""},
	{"environment added", "echo \"$PB_TEST_VALUE\"", 0, 0, "v 1\n", ""},
};

static void child_run_table(void)
{
	static const char *const env[] = {"PB_TEST_VALUE=v 1", NULL};

	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char *argv[] = {"sh", "-c", (char *)runs[i].script, NULL};
		struct pb_child_spec sp = {
			.argv = argv, .env = env, .flags = runs[i].flags};
		struct pb_buf out;
		char msg[256], errbuf[PB_ERRBUF_SIZE] = "";
		int rc;

		pb_buf_init(&out, 1 << 16);
		rc = pb_child_run(&sp, &out, msg, sizeof(msg), errbuf);
		if (rc != runs[i].status ||
		    strcmp(out.data ? out.data : "", runs[i].out) ||
		    strcmp(msg, runs[i].line))
			CU_FAIL(runs[i].name);
		pb_buf_dispose(&out);
	}
}

/* A program that is not there: status 127 and its name in the line. */
static void child_missing_program(void)
{
	char *argv[] = {"pb-no-such-program", NULL};
	struct pb_child_spec sp = {.argv = argv};
	char msg[256], errbuf[PB_ERRBUF_SIZE] = "";

	CU_ASSERT_EQUAL(pb_child_run(&sp, NULL, msg, sizeof(msg), errbuf), 127);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "pb-no-such-program"));
}

/* A directory it cannot enter: 126, and the directory named. */
static void child_bad_cwd(void)
{
	char *argv[] = {"true", NULL};
	struct pb_child_spec sp = {.argv = argv, .cwd = "/nonexistent/dir"};
	char msg[256], errbuf[PB_ERRBUF_SIZE] = "";

	CU_ASSERT_EQUAL(pb_child_run(&sp, NULL, msg, sizeof(msg), errbuf), 126);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "/nonexistent/dir"));
}

/* pb_child_kill ends a child that would run for ever, group and all. */
static void child_kill_group(void)
{
	char *argv[] = {"sh", "-c", "sleep 300 & sleep 300; wait", NULL};
	struct pb_child_spec sp = {.argv = argv, .flags = PB_CHILD_OWN_GROUP};
	struct pb_child c;
	char errbuf[PB_ERRBUF_SIZE] = "";
	pid_t pid;

	CU_ASSERT_EQUAL_FATAL(pb_child_start(&c, &sp, errbuf), PB_OK);
	pid = c.pid;
	usleep(100 * 1000);
	pb_child_kill(&c);
	CU_ASSERT_EQUAL(pb_child_finish(&c), 128 + SIGKILL);
	/* the group's background sleep is gone too (once its new parent
	 * has reaped it) */
	for (int i = 0; i < 40 && kill(-pid, 0) == 0; i++)
		usleep(50 * 1000);
	CU_ASSERT_EQUAL(kill(-pid, 0), -1);
}

/* The tail keeps the last cap bytes however the input arrives. */
static void child_tail(void)
{
	char tail[8];
	size_t len = 0;

	pb_tail_add(tail, &len, 8, "abc", 3);
	CU_ASSERT(len == 3 && !memcmp(tail, "abc", 3));
	pb_tail_add(tail, &len, 8, "defghij", 7);
	CU_ASSERT(len == 8 && !memcmp(tail, "cdefghij", 8));
	pb_tail_add(tail, &len, 8, "0123456789", 10);
	CU_ASSERT(len == 8 && !memcmp(tail, "23456789", 8));
}

static const struct pb_case cases[] = {
	PB_CASE(child_run_table), PB_CASE(child_missing_program),
	PB_CASE(child_bad_cwd),	  PB_CASE(child_kill_group),
	PB_CASE(child_tail),	  PB_CASES_END,
};

const struct pb_suite suite_child = {"child", NULL, NULL, cases};
