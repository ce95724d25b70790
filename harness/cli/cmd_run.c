/*
 * cmd_run.c - `provbench run`: a profile's experiment, every disk made,
 * measured and removed, results and report in a new results directory.
 */
#include "cli.h"
#include "harness_int.h"

int cmd_run(int argc, char **argv)
{
	struct pb_run_args a = {0};
	const struct pb_option opts[] = {
		CLI_VALUE(
			"output", 'o', &a.out_dir, "DIR",
			"where the results directory goes (default: results)"),
		CLI_SELECTION(&a.modes, &a.targets),
		CLI_VALUE(
			"shard", 0, &a.shard, "I/N",
			"only the I-th (from 0) of N disjoint shares of the "
			"targets, for a scheduler's array of runs (default: "
			"JOB_COMPLETION_INDEX, or SLURM_ARRAY_TASK_ID of "
			"SLURM_ARRAY_TASK_COUNT, when set); merge the shards' "
			"results with provbench report -o DIR"),
		CLI_VALUE("shard-count", 0, &a.shard_count, "N",
			  "with JOB_COMPLETION_INDEX (a Kubernetes Indexed "
			  "Job): the Job's completions"),
		CLI_SWITCH("dry-run", 'n', &a.dry_run,
			   "check and print the plan; create nothing"),
		CLI_SWITCH("yes", 'y', &a.yes,
			   "run a plan above the profile's confirm_above "
			   "without asking: what an unattended run passes"),
		CLI_SWITCH("quiet", 'q', &a.quiet,
			   "silent unless something failed (then one line "
			   "each, and run.json's path)"),
		CLI_ARG("PROFILE", &a.profile,
			"the experiment, a JSON profile (provbench help "
			"profile)",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"run", "Run a profile's experiment.",
		"Each plan item makes a disk, runs the runner against it and "
		"removes it;\nrun.json is rewritten after each, so an "
		"interrupted run keeps what it\nmeasured. Progress goes to "
		"stderr, the results' paths to stdout. Exit: 0\nevery item "
		"measured, 4 partial (some failed, the rest measured), 1 "
		"failed,\n2 bad input, 3 cannot connect or log in, 128 + the "
		"signal when\ninterrupted (130 for Ctrl-C): provbench help "
		"exit-codes says more."};
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	return pb_run(&a);
}
