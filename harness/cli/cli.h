/*
 * cli.h - provbench's commands: one file each (cmd_*.c), each with one
 * option table (opt.h) that parses its command line and prints its usage
 * and help; main.c dispatches.
 */
#ifndef PB_CLI_H
#define PB_CLI_H

#include "opt.h"

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;
};

/* every command, NULL-terminated (main.c) */
extern const struct cli_command cli_commands[];

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_vsphere(int argc, char **argv);
int cmd_help(int argc, char **argv);

#endif
