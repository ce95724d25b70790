/*
 * harness.h - the provbench command line: the command table and what the
 * commands share.
 */
#ifndef PB_HARNESS_H
#define PB_HARNESS_H

struct pb_cmd {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name */
	const char *help;
};

/* provbench vsphere ... */
int cmd_vsphere(int argc, char **argv);

/* Print "provbench: what: why" and return the exit code for err. */
int pb_cli_fail(int err, const char *what, const char *why);

#endif
