/*
 * main.c - provbench, the orchestrator's command line: the command table,
 * `provbench help [CMD|profile|environment]` and --version. Exit codes, for every
 * command: 0 done, 1 failed, 2 usage or input, 3 cannot reach or log in,
 * 4 partial (a run's items failed, others were measured), 128 + the
 * signal when interrupted (docs/DESIGN.md).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "harness_int.h"
#include "env_help.h"
#include "profile_help.h"

#ifndef PB_COMMIT
#define PB_COMMIT "unknown"
#endif

const struct cli_command cli_commands[] = {
	{"run", cmd_run, "run a profile's experiment"},
	{"check", cmd_check,
	 "validate a profile and its target, print the plan; create nothing"},
	{"report", cmd_report, "rebuild a run's report, compare two runs"},
	{"export", cmd_export,
	 "a run's figures as OpenMetrics, InfluxDB lines, JUnit XML or fio "
	 "JSON"},
	{"trend", cmd_trend, "many runs over time: trend.csv, trend.html"},
	{"cleanup", cmd_cleanup, "remove the disks crashed runs left"},
	{"vsphere", cmd_vsphere, "talk to vCenter or ESXi, like govc"},
	{"help", cmd_help, "help on a command, or on profiles"},
	{NULL, NULL, NULL},
};

static void usage(FILE *fp)
{
	const struct cli_command *c;

	fprintf(fp, "usage: provbench COMMAND [ARGS]\n\ncommands:\n");
	for (c = cli_commands; c->name; c++)
		fprintf(fp, "  %-10s %s\n", c->name, c->summary);
	fprintf(fp, "\nprovbench help COMMAND, or provbench COMMAND --help, "
		    "says more; provbench\nhelp profile lists every profile "
		    "key. Connection settings come from the\nenvironment "
		    "(PROVBENCH_URL, PROVBENCH_USERNAME, PROVBENCH_PASSWORD "
		    "or\nPROVBENCH_PASSWORD_FILE, PROVBENCH_THUMBPRINT, ...; "
		    "GOVC_* too): provbench\nhelp environment lists every "
		    "one.\n");
}

static const struct cli_command *find(const char *name)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name; c++)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

/* A command, or help's topic, that is none: git's "did you mean" */
static int unknown(const char *name, const char *in)
{
	const char *names[16], *near;
	char why[300];
	size_t n = 0;
	const struct cli_command *c;

	for (c = cli_commands; c->name && n + 4 < 16; c++)
		if (!in || c->fn != cmd_help)
			names[n++] = c->name;
	if (in) {
		names[n++] = "profile";
		names[n++] = "environment";
		names[n++] = "exit-codes";
	}
	names[n] = NULL;
	near = pb_closest(name, strlen(name), names);
	if (!in)
		snprintf(why, sizeof(why),
			 "unknown command (%s%s%ssee "
			 "provbench help)",
			 near ? "did you mean " : "", near ? near : "",
			 near ? "? " : "");
	else
		snprintf(why, sizeof(why),
			 "'%s': no such command or topic "
			 "(%s%s%ssee provbench help)",
			 name, near ? "did you mean " : "", near ? near : "",
			 near ? "? " : "");
	return pb_cli_fail(PB_ERR_USAGE, in ? in : name, why);
}

/* help profile and help environment: the tables said in a format */
static int table_help(const char *topic, const char *format, const char *key)
{
	/* in cli_help_format's order */
	static const char *const formats[] = {
		[CLI_HELP_TEXT] = "text",
		[CLI_HELP_MARKDOWN] = "markdown",
		[CLI_HELP_MAN] = "man",
		NULL,
	};
	char why[256], hint[128];
	unsigned f;

	for (f = 0; formats[f] && strcmp(formats[f], format); f++)
		;
	if (!formats[f]) {
		snprintf(why, sizeof(why), "--format: '%.64s': %s", format,
			 pb_choices_hint(hint, sizeof(hint), format,
					 strlen(format), formats));
		return pb_cli_fail(PB_ERR_USAGE, "help", why);
	}
	if (!strcmp(topic, "environment"))
		return cli_env_help(stdout, (enum cli_help_format)f);
	if (!strcmp(topic, "exit-codes"))
		return cli_exit_help(stdout, (enum cli_help_format)f);
	return cli_profile_help(stdout, (enum cli_help_format)f, key);
}

int cmd_help(int argc, char **argv)
{
	const char *topic = NULL, *key = NULL, *format = "text";
	const struct pb_option opts[] = {
		CLI_VALUE("format", 0, &format, "FMT",
			  "with profile, environment or exit-codes: text (the "
			  "default), "
			  "markdown (docs/profile.md) or man (the manual's "
			  "section)"),
		CLI_ARG("COMMAND|profile|environment|exit-codes", &topic,
			"a command, profile for every profile key, "
			"environment for every PROVBENCH_* variable, or "
			"exit-codes for what each exit code means",
			0),
		CLI_ARG("KEY", &key,
			"with profile: that key alone (bs, workload.bs, "
			"qemu.dir)",
			0),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {"help", "Help on provbench.", NULL};
	const struct cli_command *c;
	char *hargv[] = {NULL, "--help", NULL};
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	if (!topic) {
		usage(stdout);
		return PB_EXIT_OK;
	}
	if (!strcmp(topic, "profile") ||
	    ((!strcmp(topic, "environment") || !strcmp(topic, "exit-codes")) &&
	     !key))
		return table_help(topic, format, key);
	if (key || strcmp(format, "text"))
		return pb_cli_fail(PB_ERR_USAGE, "help",
				   key ? "a KEY goes with profile only"
				       : "--format goes with profile, "
					 "environment or exit-codes only");
	c = find(topic);
	if (!c || c->fn == cmd_help)
		return unknown(topic, "help");
	hargv[0] = (char *)c->name;
	return c->fn(2, hargv);
}

int main(int argc, char **argv)
{
	const struct cli_command *c;

	pb_build_commit = PB_COMMIT;
	if (argc < 2) {
		usage(stderr);
		return PB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return PB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		char guest[PATH_MAX], runner[PATH_MAX];
		bool g = pb_data_path(guest, sizeof(guest), "guest");
		bool rs = pb_data_path(runner, sizeof(runner),
				       "provbench-runner-static");

		/* where it looks for what it ships: the first thing to
		 * know of an installed or relocated copy */
		printf("provbench %s (commit %s)\nguest image: %s%s\nstatic "
		       "runner: %s%s\n",
		       PB_VERSION, PB_COMMIT, guest, g ? "" : " (missing)",
		       runner, rs ? "" : " (missing)");
		return PB_EXIT_OK;
	}
	c = find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	return unknown(argv[1], NULL);
}
