/*
 * cmd_export.c - `provbench export --format FMT RESULTS...`: the runs'
 * figures as OpenMetrics, InfluxDB line protocol, JUnit XML or fio's
 * JSON, on stdout or into one file (written whole, or not at all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "harness_int.h"
#include "report.h"

int cmd_export(int argc, char **argv)
{
	struct rp_export_opts o = {.max_regression = -1};
	const char *fmt = NULL, *outf = NULL, *maxreg = NULL, *first = NULL;
	struct cli_args rest = {0};
	struct pb_buf out = PB_BUF_INIT(1u << 30);
	char errbuf[PB_ERRBUF_SIZE] = "", hint[256];
	const char **dirs = NULL;
	enum pb_error err;
	int rc;
	const struct pb_option opts[] = {
		CLI_VALUE("format", 'f', &fmt, "FMT",
			  "openmetrics (Prometheus), influx (InfluxDB line "
			  "protocol), junit (CI servers), fio-json (fio's "
			  "--output-format=json, for fio-plot)"),
		CLI_VALUE("output", 'o', &outf, "FILE",
			  "write there (default: standard output)"),
		CLI_VALUE("compare", 'c', &o.compare_dir, "OLD_RESULTS",
			  "junit: a failure for each fall beyond noise "
			  "against this older run"),
		CLI_VALUE("max-regression", 0, &maxreg, "PCT",
			  "junit: only a fall beyond noise of more than PCT "
			  "percent fails (the gate's rule; with --compare)"),
		CLI_VALUE("baseline", 'b', &o.baseline, "MODE",
			  "the mode others are compared with (default: the "
			  "profile's, else rdm)"),
		CLI_ARG("RESULTS_DIR", &first,
			"a run's results directory (holds run.json)",
			PB_OPT_F_REQUIRED),
		CLI_ARGS("MORE", &rest, "more runs, each exported as its own",
			 0),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"export",
		"Write runs' figures where labs keep theirs: Prometheus, "
		"InfluxDB, a CI server's JUnit reader, fio's JSON tools. Every "
		"figure is the report's own.",
		NULL};

	rc = cli_parse(&cmd, opts, argc, argv);
	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	if (!fmt)
		return pb_cli_fail(PB_ERR_USAGE, "export",
				   "--format is required (openmetrics, "
				   "influx, junit or fio-json)");
	if (!rp_export_format_parse(&o.format, fmt)) {
		snprintf(errbuf, sizeof(errbuf), "'%s': not a format (%s)", fmt,
			 pb_choices_hint(hint, sizeof(hint), fmt, strlen(fmt),
					 rp_export_formats()));
		return pb_cli_fail(PB_ERR_USAGE, "--format", errbuf);
	}
	if (maxreg) {
		rc = cli_percent(&o.max_regression, "--max-regression", maxreg);
		if (rc)
			return rc;
		if (!o.compare_dir)
			return pb_cli_fail(PB_ERR_USAGE, "--max-regression",
					   "needs --compare OLD_RESULTS");
	}
	if (o.compare_dir && o.format != RP_EXPORT_JUNIT)
		return pb_cli_fail(PB_ERR_USAGE, "--compare",
				   "only junit says regressions");
	dirs = calloc((size_t)rest.argc + 1, sizeof(*dirs));
	if (!dirs)
		return pb_cli_fail(PB_ERR_NOMEM, "export", "out of memory");
	dirs[0] = first;
	for (int i = 0; i < rest.argc; i++)
		dirs[i + 1] = rest.argv[i];
	o.dirs = dirs;
	o.ndirs = (size_t)rest.argc + 1;
	err = rp_export(&out, &o, errbuf);
	if (!err && outf)
		err = pb_write_atomic(outf, out.data ? out.data : "", out.len,
				      errbuf);
	else if (!err && out.len &&
		 fwrite(out.data, 1, out.len, stdout) != out.len)
		err = pb_fail(errbuf, PB_ERR_IO,
			      "standard output: short write");
	free(dirs);
	pb_buf_dispose(&out);
	return err ? pb_cli_fail(err, "export", errbuf) : PB_EXIT_OK;
}
