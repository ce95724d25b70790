/*
 * cmd_cleanup.c - `provbench cleanup`: what crashed runs left on a
 * profile's target, found in the journal and removed.
 */
#include "cli.h"
#include "harness_int.h"

int cmd_cleanup(int argc, char **argv)
{
	const char *what = NULL, *modes = NULL, *targets = NULL;
	bool dry = false;
	const struct pb_option opts[] = {
		CLI_SELECTION(&modes, &targets),
		CLI_SWITCH("dry-run", 'n', &dry,
			   "list what would be removed; remove nothing"),
		CLI_ARG("RESULTS_DIR|PROFILE", &what,
			"a run's results directory (that run's disks) or a "
			"profile "
			"(its target's)",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"cleanup", "Remove the disks crashed runs left.",
		"Only disks the journal says provbench created are touched, "
		"and only on the\nprofile's own target."};
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	return pb_cleanup(what, dry, modes, targets);
}
