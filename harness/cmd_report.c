/*
 * cmd_report.c - `provbench report`: rebuild a run's report from its
 * run.json, optionally compared with an older run; --max-regression turns
 * a slower run into exit 1, for nightly runs that should alert.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "report.h"

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"compare", required_argument, NULL, 'c'},
		{"max-regression", required_argument, NULL, 'r'},
		{"baseline", required_argument, NULL, 'b'},
		{"quiet", no_argument, NULL, 'q'},
		{NULL, 0, NULL, 0},
	};
	struct rp_opts o = RP_OPTS_INIT;
	char errbuf[PB_ERRBUF_SIZE] = "", *end;
	enum pb_mode m;
	bool reg = false;
	enum pb_error err;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:q", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out_dir = optarg;
			break;
		case 'c':
			o.compare_dir = optarg;
			break;
		case 'r':
			o.max_regression = strtod(optarg, &end);
			if (*end || o.max_regression < 0)
				return pb_cli_fail(
					PB_ERR_USAGE, "--max-regression",
					"give a percentage, like 10");
			break;
		case 'b':
			if (!pb_mode_parse(&m, optarg))
				return pb_cli_fail(PB_ERR_USAGE, "--baseline",
						   "a mode: thin, lazy, eager, "
						   "rdm, rdmp");
			o.baseline = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		default:
			fprintf(stderr, "usage: provbench report [-o DIR] "
					"[--compare OLD_RESULTS] "
					"[--max-regression PCT] [--baseline "
					"MODE] [--quiet] RESULTS_DIR\n");
			return PB_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: provbench report [-o DIR] [--compare "
				"OLD_RESULTS] [--max-regression PCT] "
				"[--baseline MODE] [--quiet] RESULTS_DIR\n");
		return PB_EXIT_USAGE;
	}
	if (o.max_regression >= 0 && !o.compare_dir)
		return pb_cli_fail(PB_ERR_USAGE, "--max-regression",
				   "needs --compare OLD_RESULTS");
	o.results_dir = argv[optind];
	err = rp_generate(&o, &reg, errbuf);
	if (reg)
		return pb_cli_fail(PB_ERR_REGRESSED, "report", errbuf);
	if (err)
		return pb_cli_fail(err, "report", errbuf);
	return PB_EXIT_OK;
}
