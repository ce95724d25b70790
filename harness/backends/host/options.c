/*
 * options.c - the host backend's profile section, "host": one table
 * (applied by the profile loader, printed by `provbench help profile`),
 * and the rule across keys the table cannot say.
 */
#include <stddef.h>

#include "hb.h"

#define OFF(f) offsetof(struct host_opts, f)

const struct pb_option hb_options[] = {
	{.name = "dir",
	 .type = PB_OPT_STR,
	 .off = OFF(dir),
	 .flags = PB_OPT_F_PLACE,
	 .place_default = "the state directory's",
	 .help = "where the disk files go, on the filesystem to measure "
		 "(default: <state dir>/host)"},
	{.name = "device",
	 .type = PB_OPT_STR,
	 .off = OFF(device),
	 .flags = PB_OPT_F_RDM,
	 .help = "a block device for rdm (checked empty and unused, never "
		 "removed); default: a loop device over a written file (root)"},
	{.name = "runner",
	 .type = PB_OPT_STR,
	 .off = OFF(runner),
	 .help = "the provbench-runner to run (default: the one beside "
		 "provbench)"},
	{.name = NULL},
};

#undef OFF
