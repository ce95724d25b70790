/*
 * main.c - provbench, the orchestrator CLI: a table of commands, each with
 * the exit codes of DESIGN.md (0 done, 1 failed, 2 usage or input,
 * 3 cannot reach or log in, 130 interrupted).
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "harness_int.h"

static const struct pb_cmd commands[] = {
	{"run", cmd_run,
	 "Run a profile: [-o DIR] [--modes LIST] [--dry-run] "
	 "[--quiet] PROFILE"},
	{"check", cmd_check,
	 "Validate a profile and its target; print the plan"},
	{"cleanup", cmd_cleanup,
	 "Remove disks crashed runs left: [--dry-run] RESULTS_DIR|PROFILE"},
	{"report", cmd_report,
	 "Report a run: [-o DIR] [--compare OLD] [--max-regression PCT] "
	 "RESULTS_DIR"},
	{"vsphere", cmd_vsphere,
	 "Talk to vCenter or ESXi: about, ls, luns, disk ls|add|rm"},
	{NULL, NULL, NULL},
};

static void usage(FILE *fp)
{
	const struct pb_cmd *c;

	fprintf(fp, "usage: provbench COMMAND [ARGS]\n\ncommands:\n");
	for (c = commands; c->name; c++)
		fprintf(fp, "  %-10s %s\n", c->name, c->help);
	fprintf(fp, "\nConnection settings come from the environment "
		    "(PROVBENCH_URL, PROVBENCH_USERNAME,\nPROVBENCH_PASSWORD "
		    "or PROVBENCH_PASSWORD_FILE, PROVBENCH_THUMBPRINT, ...; "
		    "GOVC_* too).\n");
}

int main(int argc, char **argv)
{
	const struct pb_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return PB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return PB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("provbench %s\n", PB_VERSION);
		return PB_EXIT_OK;
	}
	for (c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	return pb_cli_fail(PB_ERR_USAGE, argv[1],
			   "unknown command (see provbench --help)");
}
