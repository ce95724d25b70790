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

enum cli_opt_type {
	CLI_OPT_SWITCH, /* bool *: present or not */
	CLI_OPT_VALUE,	/* const char **: --name VALUE */
	CLI_OPT_ARG,	/* const char **: the next positional argument */
	CLI_OPT_ARGS,	/* struct cli_args *: every positional left */
};

#define CLI_OPT_REQUIRED 0x1u /* an argument that must be there */
/* the positional after which nothing is an option (guest run PROGRAM
 * ARGS...: the program's own options are its own) */
#define CLI_OPT_LITERAL_AFTER 0x2u
#define CLI_OPT_HIDDEN	      0x4u /* parsed, not listed (aliases) */

struct cli_args {
	char **argv;
	int argc;
};

struct cli_opt {
	enum cli_opt_type type;
	const char *name; /* the long name, or an argument's placeholder */
	char alias;	  /* a short name, or 0 */
	void *value;
	const char *value_name; /* "DIR"; for a value option */
	const char *help;
	unsigned flags;
};

/* the table's entries: name, short name, where the value goes, help */
/* (one line each: clang-format would spread them over four) */
/* clang-format off */
#define CLI_SWITCH(n, a, v, h) {CLI_OPT_SWITCH, n, a, v, NULL, h, 0}
#define CLI_VALUE(n, a, v, vn, h) {CLI_OPT_VALUE, n, a, v, vn, h, 0}
#define CLI_ARG(n, v, h, f) {CLI_OPT_ARG, n, 0, v, NULL, h, f}
#define CLI_ARGS(n, v, h, f) {CLI_OPT_ARGS, n, 0, v, NULL, h, f}
#define CLI_OPT_END {CLI_OPT_SWITCH, NULL, 0, NULL, NULL, NULL, 0}
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
int cli_parse(const struct cli_cmd *cmd, const struct cli_opt *opts, int argc,
	      char **argv);

/* A percentage option's value ("10", "2.5") into *out: 0, or the one-line
 * message naming the option and the value and PB_EXIT_USAGE. */
int cli_percent(double *out, const char *opt, const char *s);

/* "usage: provbench CMD [-o DIR] [--quiet] PROFILE" */
void cli_usage(FILE *fp, const struct cli_cmd *cmd, const struct cli_opt *opts);
/* The usage, the summary, a line per option and argument, the help. */
void cli_help(FILE *fp, const struct cli_cmd *cmd, const struct cli_opt *opts);

#endif
