/*
 * cmd_trend.c - `provbench trend`: nightly runs over time, from their
 * run.json files alone: trend.csv and a self-contained trend.html.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "harness_int.h"
#include "report.h"

int cmd_trend(int argc, char **argv)
{
	struct rp_trend_opts o = {
		.out_dir = ".", .baseline = "rdm", .max_regression = 10};
	const char *maxreg = NULL, *first = NULL;
	struct cli_args rest = {0};
	char errbuf[PB_ERRBUF_SIZE] = "";
	const char **paths = NULL;
	unsigned reg = 0;
	enum pb_error err;
	bool quiet = false;
	int rc, i;
	const struct pb_option opts[] = {
		CLI_VALUE("output", 'o', &o.out_dir, "DIR",
			  "write trend.csv and trend.html there (default: "
			  "the current directory)"),
		CLI_VALUE("max-regression", 0, &maxreg, "PCT",
			  "mark a figure that fell more than PCT percent "
			  "against the run before (default: 10)"),
		CLI_SWITCH("quiet", 'q', &quiet, "no summary line"),
		CLI_ARG("RESULTS", &first,
			"a run's results directory, or a directory of runs "
			"(the -o of `provbench run`)",
			PB_OPT_F_REQUIRED),
		CLI_ARGS("MORE", &rest, "more of them", 0),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"trend",
		"Show runs over time (trend.csv, trend.html): first write, "
		"rewrite and penalty per mode, with regressions, failed runs "
		"and changed environments marked.",
		NULL};

	rc = cli_parse(&cmd, opts, argc, argv);
	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	if (maxreg) {
		rc = cli_percent(&o.max_regression, "--max-regression", maxreg);
		if (rc)
			return rc;
	}
	paths = calloc((size_t)rest.argc + 1, sizeof(*paths));
	if (!paths)
		return pb_cli_fail(PB_ERR_NOMEM, "trend", "out of memory");
	paths[0] = first;
	for (i = 0; i < rest.argc; i++)
		paths[i + 1] = rest.argv[i];
	o.paths = paths;
	o.npaths = (size_t)rest.argc + 1;
	o.quiet = quiet;
	err = rp_trend(&o, &reg, errbuf);
	free(paths);
	if (err)
		return pb_cli_fail(err, "trend", errbuf);
	return PB_EXIT_OK;
}
