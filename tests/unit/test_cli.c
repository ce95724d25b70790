/*
 * test_cli.c - the command-line option tables (harness/cli/opt.c): every
 * spelling of an option, options in any position, literal arguments, and
 * each mistake's one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "opt.h"
#include "table.h"
#include "unit.h"

struct got {
	const char *out, *modes, *profile;
	bool dry, quiet;
	struct cli_args rest;
};

static const struct cli_cmd cmd = {"t", "A test command.", NULL};

/* A command line in words: parse it against a run-like table. */
static int parse(struct got *g, const char *line, bool with_rest)
{
	/* static: what the table keeps points into them, as into main's */
	static char buf[512], *argv[32];
	char *tok, *save = NULL;
	int argc = 1;
	const struct pb_option plain[] = {
		CLI_VALUE("output", 'o', &g->out, "DIR", "out"),
		CLI_VALUE("modes", 'm', &g->modes, "LIST", "modes"),
		CLI_SWITCH("dry-run", 'n', &g->dry, "dry"),
		CLI_SWITCH("quiet", 'q', &g->quiet, "quiet"),
		CLI_ARG("PROFILE", &g->profile, "profile", PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	const struct pb_option rest[] = {
		CLI_SWITCH("quiet", 'q', &g->quiet, "quiet"),
		CLI_ARG("PROGRAM", &g->profile, "program",
			PB_OPT_F_REQUIRED | PB_OPT_F_LITERAL_AFTER),
		CLI_ARGS("ARGS", &g->rest, "args", 0),
		CLI_OPT_END,
	};

	memset(g, 0, sizeof(*g));
	memset(argv, 0, sizeof(argv));
	argv[0] = "t";
	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	return cli_parse(&cmd, with_rest ? rest : plain, argc, argv);
}

static const struct {
	const char *line;
	int rc;
	const char *out, *modes, *profile;
	bool dry, quiet;
} lines[] = {
	{"p.json", CLI_PARSED, NULL, NULL, "p.json", false, false},
	{"p.json --dry-run", CLI_PARSED, NULL, NULL, "p.json", true, false},
	/* a switch takes nothing after it */
	{"--dry-run p.json -q", CLI_PARSED, NULL, NULL, "p.json", true, true},
	{"-o dir p.json", CLI_PARSED, "dir", NULL, "p.json", false, false},
	{"-odir p.json", CLI_PARSED, "dir", NULL, "p.json", false, false},
	{"--output dir p.json", CLI_PARSED, "dir", NULL, "p.json", false,
	 false},
	{"--output=dir p.json", CLI_PARSED, "dir", NULL, "p.json", false,
	 false},
	{"-qn p.json", CLI_PARSED, NULL, NULL, "p.json", true, true},
	{"-qo dir p.json", CLI_PARSED, "dir", NULL, "p.json", false, true},
	/* govc's one-dash long names */
	{"-modes thin p.json", CLI_PARSED, NULL, "thin", "p.json", false,
	 false},
	{"-- -p.json", CLI_PARSED, NULL, NULL, "-p.json", false, false},
	{"", PB_EXIT_USAGE, NULL, NULL, NULL, false, false},
	{"p.json -x", PB_EXIT_USAGE, NULL, NULL, NULL, false, false},
	{"p.json --dry-run -x", PB_EXIT_USAGE, NULL, NULL, NULL, false, false},
	{"p.json -o", PB_EXIT_USAGE, NULL, NULL, NULL, false, false},
	{"p.json --dry-run=yes", PB_EXIT_USAGE, NULL, NULL, NULL, false, false},
	{"a.json b.json", PB_EXIT_USAGE, NULL, NULL, NULL, false, false},
	{"--help", CLI_HELPED, NULL, NULL, NULL, false, false},
	/* help wins over a mistake before it */
	{"-x -h", CLI_HELPED, NULL, NULL, NULL, false, false},
	/* after "--", -h is an argument */
	{"-- -h", CLI_PARSED, NULL, NULL, "-h", false, false},
};

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void cli_lines(void)
{
	FILE *devnull = fopen("/dev/null", "w");
	int saved_out = dup(1), saved_err = dup(2);

	/* the help and the one-line mistakes are not this test's output */
	dup2(fileno(devnull), 1);
	dup2(fileno(devnull), 2);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct got g;
		int rc = parse(&g, lines[i].line, false);
		bool ok = rc == lines[i].rc;

		if (ok && rc == CLI_PARSED)
			ok = same(g.out, lines[i].out) &&
			     same(g.modes, lines[i].modes) &&
			     same(g.profile, lines[i].profile) &&
			     g.dry == lines[i].dry && g.quiet == lines[i].quiet;
		if (!ok) {
			fflush(stdout);
			dup2(saved_err, 2);
			fprintf(stderr, "\n  '%s': rc %d", lines[i].line, rc);
			dup2(fileno(devnull), 2);
			CU_FAIL(lines[i].line);
		}
	}
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	fclose(devnull);
}

/* After a literal positional, the rest are arguments, options or not. */
static void cli_literal_rest(void)
{
	struct got g;

	CU_ASSERT_EQUAL(parse(&g, "-q /bin/ls -l -h --all", true), CLI_PARSED);
	CU_ASSERT(g.quiet);
	CU_ASSERT_STRING_EQUAL(g.profile, "/bin/ls");
	CU_ASSERT_EQUAL_FATAL(g.rest.argc, 3);
	CU_ASSERT_STRING_EQUAL(g.rest.argv[0], "-l");
	CU_ASSERT_STRING_EQUAL(g.rest.argv[1], "-h");
	CU_ASSERT_STRING_EQUAL(g.rest.argv[2], "--all");
}

/* The one line of a mistake names the word and shows the usage. */
static void cli_mistake_line(void)
{
	char path[] = "/tmp/pb-cli-XXXXXX", *text;
	int fd = mkstemp(path), saved = dup(2);
	struct got g;

	CU_ASSERT_FATAL(fd >= 0);
	dup2(fd, 2);
	CU_ASSERT_EQUAL(parse(&g, "p.json --bogus", false), PB_EXIT_USAGE);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	text = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_STRING_EQUAL(
		text, "provbench: t: '--bogus': unknown option; usage: "
		      "provbench t [-o DIR] [-m LIST] [-n] [-q] "
		      "PROFILE\n");
	free(text);
	unlink(path);
}

/* Columns as wide as their widest cell: a long VM name is neither cut
 * nor run into the next column; numbers right-aligned; no trailing pad. */
static void cli_table_sized(void)
{
	struct cli_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	cli_table_init(&t, "lrl");
	cli_table_row(&t, "NAME", "SIZE", "PATH");
	cli_table_row(&t, "a-very-long-virtual-machine-name-of-a-lab", "8 GiB",
		      "/dc/vm/a");
	cli_table_row(&t, "b", "16 GiB", NULL);
	CU_ASSERT_EQUAL(cli_table_print(&t, fp), PB_OK);
	fclose(fp);
	CU_ASSERT_STRING_EQUAL(
		text,
		"NAME                                         SIZE  PATH\n"
		"a-very-long-virtual-machine-name-of-a-lab   8 GiB  "
		"/dc/vm/a\n"
		"b                                          16 GiB  -\n");
	free(text);
	cli_table_dispose(&t);
}

static const struct pb_case cases[] = {
	PB_CASE(cli_lines),
	PB_CASE(cli_literal_rest),
	PB_CASE(cli_mistake_line),
	PB_CASE(cli_table_sized),
	PB_CASES_END,
};

const struct pb_suite suite_cli = {"cli", NULL, NULL, cases};
