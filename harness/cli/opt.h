/*
 * opt.h - a command's options and arguments, declared once as a table
 * that both parses the command line and prints the usage and help (after
 * libgit2's src/cli/opt.h). Options go in any position ("run PROFILE
 * --dry-run"), as --name VALUE, --name=VALUE, -n VALUE or -nVALUE; a
 * long name may also be given with one dash ("-json"), govc's habit; "--"
 * ends the options. -h and --help print the help to stdout, anywhere.
 */
#ifndef PB_CLI_OPT_H
#define PB_CLI_OPT_H

#include <stdbool.h>
#include <stdio.h>

#include "option.h"

/* A command's table is of common's option rows (option.h): an option is
 * PB_OPT_BOOL (bool *: present or not) or PB_OPT_STR (const char **:
 * --name VALUE), an argument PB_OPT_ARG (const char **: the next
 * positional) or PB_OPT_ARGS (struct cli_args *: every positional
 * left); flags PB_OPT_F_REQUIRED (an argument that must be there),
 * PB_OPT_F_LITERAL_AFTER and PB_OPT_F_HIDDEN. */

struct cli_args {
	char **argv;
	int argc;
};

/* the table's entries: name, short name, where the value goes, help */
/* (clang-format would spread each over a line a member) */
/* clang-format off */
#define CLI_SWITCH(n, a, v, h) \
	{.name = n, .short_name = a, .type = PB_OPT_BOOL, .value = v, .help = h}
#define CLI_VALUE(n, a, v, vn, h) \
	{.name = n, .short_name = a, .type = PB_OPT_STR, .value = v, \
	 .arg = vn, .help = h}
#define CLI_ARG(n, v, h, f) \
	{.name = n, .type = PB_OPT_ARG, .value = v, .help = h, .flags = f}
#define CLI_ARGS(n, v, h, f) \
	{.name = n, .type = PB_OPT_ARGS, .value = v, .help = h, .flags = f}
#define CLI_OPT_END {.name = NULL}
/* which of a profile's modes and targets: one pair of rows for run,
 * check and cleanup alike (a lab without a LUN says -m eager,lazy,thin
 * to each) */
#define CLI_SELECTION(m, t) \
	CLI_VALUE("modes", 'm', m, "LIST", \
		  "only these of the profile's modes: thin,eager"), \
	CLI_VALUE("targets", 't', t, "LIST", \
		  "only these of the profile's targets, by name: a " \
		  "controller's share of a fleet")
/* clang-format on */

struct cli_cmd {
	const char *name;    /* "run", "vsphere disk add" */
	const char *summary; /* one line */
	const char *help;    /* paragraphs after the options, or NULL */
};

/* cli_parse's answers besides an exit code of the usual kind */
#define CLI_PARSED 0
#define CLI_HELPED (-1) /* the help was asked for and printed: exit 0 */

/*
 * Parse argv[1..argc) (argv[0] is the command's name) into the table's
 * values. A mistake prints one line, "provbench: CMD: why; usage: ...",
 * and returns PB_EXIT_USAGE; -h or --help prints the help and returns
 * CLI_HELPED. Values not given keep what the caller put there.
 */
int cli_parse(const struct cli_cmd *cmd, const struct pb_option *opts, int argc,
	      char **argv);

/* A percentage option's value ("10", "2.5") into *out: 0, or the one-line
 * message naming the option and the value and PB_EXIT_USAGE. */
int cli_percent(double *out, const char *opt, const char *s);

/* "usage: provbench CMD [-o DIR] [--quiet] PROFILE" */
void cli_usage(FILE *fp, const struct cli_cmd *cmd,
	       const struct pb_option *opts);
/* The usage, the summary, a line per option and argument, the help. */
void cli_help(FILE *fp, const struct cli_cmd *cmd,
	      const struct pb_option *opts);

#endif
