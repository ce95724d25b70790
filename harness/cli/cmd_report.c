/*
 * cmd_report.c - `provbench report`: rebuild a run's report from its
 * run.json, optionally compared with an older run; --max-regression turns
 * a slower run into exit 1, for nightly runs that should alert;
 * `--compare previous` finds the run before this one by itself. Several
 * results directories are merged into one report (-o names where).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness_int.h"
#include "report.h"

int cmd_report(int argc, char **argv)
{
	struct rp_opts o = RP_OPTS_INIT;
	const char *maxreg = NULL, *baseline = NULL, **dirs = NULL;
	const char *swin = NULL, *srange = NULL, *sslope = NULL;
	struct cli_args rest = {0};
	char errbuf[PB_ERRBUF_SIZE] = "";
	enum pb_mode m;
	bool reg = false;
	enum pb_error err;
	const struct pb_option opts[] = {
		CLI_VALUE("output", 'o', &o.out_dir, "DIR",
			  "write the report there (default: the results "
			  "directory)"),
		CLI_VALUE("compare", 'c', &o.compare_dir, "OLD_RESULTS",
			  "compare with an older run's results; \"previous\": "
			  "the newest earlier complete run of the same "
			  "profile beside this one"),
		CLI_SWITCH("force", 0, &o.force,
			   "compare or merge runs whose backend, accelerator, "
			   "profile, disk size or workload differ (warned)"),
		CLI_SWITCH("json", 0, &o.json,
			   "print the summary (the page's numbers) as JSON "
			   "instead of the table"),
		CLI_VALUE("max-regression", 0, &maxreg, "PCT",
			  "exit 1 when a figure fell more than PCT percent, "
			  "beyond noise (the two runs' intervals apart; with "
			  "--compare)"),
		CLI_VALUE("baseline", 'b', &baseline, "MODE",
			  "the mode others are compared with (default: rdm)"),
		CLI_VALUE("steady-window", 0, &swin, "N",
			  "warm-up across passes: passes in the window "
			  "(default 3, 2 for a mode with 3 passes or fewer)"),
		CLI_VALUE("steady-range", 0, &srange, "PCT",
			  "the window's range within PCT of its mean (default "
			  "20)"),
		CLI_VALUE("steady-slope", 0, &sslope, "PCT",
			  "its least-squares line moving it by at most PCT of "
			  "its mean (default 10)"),
		CLI_SWITCH("quiet", 'q', &o.quiet, "no table on stdout"),
		CLI_SWITCH("wide", 0, &o.wide,
			   "every column with its interval, lines unwrapped "
			   "(summary.txt's table; default: one that fits 100 "
			   "columns)"),
		CLI_SWITCH("all", 0, &o.all,
			   "every finding (default: the 7 that matter most; "
			   "the page and summary.txt have them all)"),
		CLI_ARG("RESULTS_DIR", &o.results_dir,
			"a run's results directory (holds run.json)",
			PB_OPT_F_REQUIRED),
		CLI_ARGS("MORE", &rest,
			 "more runs of the same experiment, merged into one "
			 "report (each run's targets its own; needs -o)",
			 0),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"report",
		"Rebuild a run's report (report.html, report.csv, summary.csv, "
		"summary.txt).",
		NULL};
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	if (rest.argc && !o.out_dir)
		return pb_cli_fail(PB_ERR_USAGE, "report",
				   "several results directories need -o DIR "
				   "for the merged report (a run's own report "
				   "stays its own)");
	if (rest.argc && o.compare_dir)
		return pb_cli_fail(PB_ERR_USAGE, "--compare",
				   "compares one run with another, not a "
				   "merge of several");
	if (maxreg) {
		rc = cli_percent(&o.max_regression, "--max-regression", maxreg);
		if (rc)
			return rc;
		if (!o.compare_dir)
			return pb_cli_fail(PB_ERR_USAGE, "--max-regression",
					   "needs --compare OLD_RESULTS");
	}
	if (swin) {
		char *end;
		unsigned long w = strtoul(swin, &end, 10);

		if (*end || !*swin || w < 2 || w > 32) {
			snprintf(errbuf, sizeof(errbuf),
				 "'%s': give a number of passes, 2 to 32",
				 swin);
			return pb_cli_fail(PB_ERR_USAGE, "--steady-window",
					   errbuf);
		}
		o.pts.window = (unsigned)w;
	}
	if (srange) {
		rc = cli_percent(&o.pts.range, "--steady-range", srange);
		if (rc)
			return rc;
		o.pts.range /= 100;
	}
	if (sslope) {
		rc = cli_percent(&o.pts.slope, "--steady-slope", sslope);
		if (rc)
			return rc;
		o.pts.slope /= 100;
	}
	if (baseline) {
		if (!pb_mode_parse(&m, baseline)) {
			char hint[256];

			snprintf(errbuf, sizeof(errbuf),
				 "'%s': not a mode (%s)", baseline,
				 pb_choices_hint(hint, sizeof(hint), baseline,
						 strlen(baseline),
						 pb_mode_names()));
			return pb_cli_fail(PB_ERR_USAGE, "--baseline", errbuf);
		}
		o.baseline = baseline;
	}
	o.color = pb_want_color(STDOUT_FILENO);
	dirs = calloc((size_t)rest.argc + 1, sizeof(*dirs));
	if (!dirs)
		return pb_cli_fail(PB_ERR_NOMEM, "report", "out of memory");
	dirs[0] = o.results_dir;
	for (int i = 0; i < rest.argc; i++)
		dirs[i + 1] = rest.argv[i];
	o.results_dirs = dirs;
	o.nresults = (size_t)rest.argc + 1;
	err = rp_generate(&o, &reg, errbuf);
	free(dirs);
	if (reg)
		return pb_cli_fail(PB_ERR_REGRESSED, "report", errbuf);
	if (err)
		return pb_cli_fail(err, "report", errbuf);
	return PB_EXIT_OK;
}
