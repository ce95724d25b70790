/*
 * cmd_check.c - `provbench check`: a profile and its target validated
 * and the plan printed, nothing created.
 */
#include "cli.h"
#include "harness_int.h"

int cmd_check(int argc, char **argv)
{
	const char *profile = NULL, *results = NULL, *modes = NULL,
		   *targets = NULL;
	bool json = false;
	const struct pb_option opts[] = {
		CLI_VALUE("output", 'o', &results, "DIR",
			  "where run puts results (default: results): the "
			  "last finished run of the profile there gives the "
			  "plan's rate"),
		CLI_SELECTION(&modes, &targets),
		CLI_SWITCH("json", 0, &json,
			   "print the plan, every finding and the verdict as "
			   "JSON"),
		CLI_ARG("PROFILE", &profile, "the experiment, a JSON profile",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"check",
		"Validate a profile and its target; print the plan. Nothing is "
		"created.",
		"What a run needs is tried: the server's login and licence, "
		"the "
		"VM's settings\nand Tools, the datastore's room, the LUN, a "
		"guest file transfer there and\nback; or qemu, the guest image "
		"and O_DIRECT where the disks go."};
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	return pb_check(profile, json, results, modes, targets);
}
