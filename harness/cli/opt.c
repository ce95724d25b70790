/*
 * opt.c - parse a command line against its table and print its usage and
 * help from the same table (opt.h).
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "harness_int.h"
#include "opt.h"

static const struct pb_option *find_long(const struct pb_option *opts,
					 const char *name, size_t len)
{
	for (; opts->name; opts++)
		if ((opts->type == PB_OPT_BOOL || opts->type == PB_OPT_STR) &&
		    strlen(opts->name) == len &&
		    !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

static const struct pb_option *find_short(const struct pb_option *opts, char c)
{
	for (; opts->name; opts++)
		if ((opts->type == PB_OPT_BOOL || opts->type == PB_OPT_STR) &&
		    opts->short_name == c)
			return opts;
	return NULL;
}

/* an argument's row, not an option's */
static bool positional(const struct pb_option *o)
{
	return o->type == PB_OPT_ARG || o->type == PB_OPT_ARGS;
}

/* The usage on one line, without a newline. */
static void usage_line(FILE *fp, const struct cli_cmd *cmd,
		       const struct pb_option *opts)
{
	const struct pb_option *o;

	fprintf(fp, "usage: provbench %s", cmd->name);
	for (o = opts; o->name; o++) {
		if (o->flags & PB_OPT_F_HIDDEN)
			continue;
		switch (o->type) {
		case PB_OPT_BOOL:
			if (o->short_name)
				fprintf(fp, " [-%c]", o->short_name);
			else
				fprintf(fp, " [--%s]", o->name);
			break;
		case PB_OPT_STR:
			if (o->short_name)
				fprintf(fp, " [-%c %s]", o->short_name, o->arg);
			else
				fprintf(fp, " [--%s %s]", o->name, o->arg);
			break;
		case PB_OPT_ARG:
			fprintf(fp,
				o->flags & PB_OPT_F_REQUIRED ? " %s" : " [%s]",
				o->name);
			break;
		case PB_OPT_ARGS:
			fprintf(fp,
				o->flags & PB_OPT_F_REQUIRED ? " %s..."
							     : " [%s...]",
				o->name);
			break;
		default: /* no command table has another type */
			break;
		}
	}
}

void cli_usage(FILE *fp, const struct cli_cmd *cmd,
	       const struct pb_option *opts)
{
	usage_line(fp, cmd, opts);
	fputc('\n', fp);
}

void cli_help(FILE *fp, const struct cli_cmd *cmd, const struct pb_option *opts)
{
	const struct pb_option *o;
	char left[64];

	cli_usage(fp, cmd, opts);
	fprintf(fp, "\n%s\n", cmd->summary);
	for (o = opts; o->name; o++) {
		if (o->flags & PB_OPT_F_HIDDEN)
			continue;
		if (o == opts || positional(o) != positional(&o[-1]))
			fprintf(fp, "\n%s:\n",
				positional(o) ? "arguments" : "options");
		if (o->type == PB_OPT_BOOL || o->type == PB_OPT_STR)
			snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
				 o->short_name ? "-" : "",
				 o->short_name ? o->short_name : ' ',
				 o->short_name ? ", " : "   ", o->name,
				 o->type == PB_OPT_STR ? " " : "",
				 o->type == PB_OPT_STR ? o->arg : "");
		else
			snprintf(left, sizeof(left), "%s", o->name);
		if (strlen(left) > 22)
			fprintf(fp, "  %s\n  %-22s %s\n", left, "", o->help);
		else
			fprintf(fp, "  %-22s %s\n", left, o->help);
	}
	if (cmd->help)
		fprintf(fp, "\n%s\n", cmd->help);
}

/* One line: provbench: CMD: why; usage: ... */
static int fail(const struct cli_cmd *cmd, const struct pb_option *opts,
		const char *why, const char *what)
{
	fprintf(stderr, "provbench: %s: ", cmd->name);
	if (what)
		fprintf(stderr, "'%s': ", what);
	fprintf(stderr, "%s; ", why);
	usage_line(stderr, cmd, opts);
	fputc('\n', stderr);
	return PB_EXIT_USAGE;
}

/* Is help asked for at or after argv[i], before a "--"? A mistake ahead
 * of -h is no reason to withhold the help. */
static bool help_later(int argc, char **argv, int i)
{
	for (; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

/* by the one applier (common/option.c): a flag is there, a value is
 * borrowed from argv */
static void set_value(const struct pb_option *o, char *v)
{
	char why[PB_ERRBUF_SIZE];

	pb_option_set(NULL, o, o->type == PB_OPT_BOOL ? NULL : v, 0, why);
}

/* a mistake, unless help comes later on the line */
#define FAIL(...)                                                              \
	(help_later(argc, argv, i) ? (cli_help(stdout, cmd, opts), CLI_HELPED) \
				   : fail(cmd, opts, __VA_ARGS__))

int cli_parse(const struct cli_cmd *cmd, const struct pb_option *opts, int argc,
	      char **argv)
{
	const struct pb_option *o, *pos = opts;
	bool literal = false;
	int i;

	for (i = 1; i < argc; i++) {
		char *a = argv[i], *eq;

		if (!literal && !strcmp(a, "--")) {
			literal = true;
			continue;
		}
		if (!literal && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			cli_help(stdout, cmd, opts);
			return CLI_HELPED;
		}
		if (!literal && a[0] == '-' && a[1]) {
			size_t len;

			/* --name[=value], or a long name with one dash */
			eq = strchr(a, '=');
			len = eq ? (size_t)(eq - a) : strlen(a);
			o = a[1] == '-' ? find_long(opts, a + 2, len - 2)
			    : len > 2	? find_long(opts, a + 1, len - 1)
					: NULL;
			if (o) {
				if (o->type == PB_OPT_BOOL && eq)
					return FAIL("takes no value", a);
				if (o->type == PB_OPT_STR && !eq &&
				    i + 1 >= argc)
					return FAIL("needs a value", a);
				set_value(o, o->type == PB_OPT_BOOL ? NULL
					     : eq		    ? eq + 1
						  : argv[++i]);
				continue;
			}
			if (a[1] == '-')
				return FAIL("unknown option", a);
			/* -x, -xVALUE, -qn */
			for (char *c = a + 1; *c; c++) {
				char one[3] = {'-', *c, '\0'};

				o = find_short(opts, *c);
				if (!o)
					return FAIL("unknown option", one);
				if (o->type == PB_OPT_BOOL) {
					set_value(o, NULL);
					continue;
				}
				if (c[1]) {
					set_value(o, c + 1);
				} else if (i + 1 < argc) {
					set_value(o, argv[++i]);
				} else {
					return FAIL("needs a value", one);
				}
				break;
			}
			continue;
		}
		/* a positional argument: the next in the table */
		while (pos->name && pos->type != PB_OPT_ARG &&
		       pos->type != PB_OPT_ARGS)
			pos++;
		if (!pos->name)
			return FAIL("unexpected argument", a);
		if (pos->type == PB_OPT_ARGS) {
			struct cli_args *rest = pos->value;

			/* the rest; options among them are still options
			 * unless the list is literal */
			if (!rest->argv)
				rest->argv = argv + i;
			rest->argv[rest->argc++] = a;
			if (pos->flags & PB_OPT_F_LITERAL_AFTER)
				literal = true;
			continue;
		}
		*(const char **)pos->value = a;
		if (pos->flags & PB_OPT_F_LITERAL_AFTER)
			literal = true;
		pos++;
	}
	for (; pos->name; pos++) {
		char why[128];

		if (!(pos->flags & PB_OPT_F_REQUIRED))
			continue;
		if (pos->type == PB_OPT_ARG ||
		    (pos->type == PB_OPT_ARGS &&
		     !((struct cli_args *)pos->value)->argc)) {
			snprintf(why, sizeof(why), "%s missing", pos->name);
			return FAIL(why, NULL);
		}
	}
	return CLI_PARSED;
}

#undef FAIL

int cli_percent(double *out, const char *opt, const char *s)
{
	char why[256], *end;

	*out = strtod(s, &end);
	if (!*end && *s && *out >= 0)
		return 0;
	snprintf(why, sizeof(why), "'%s': give a percentage, like 10", s);
	return pb_cli_fail(PB_ERR_USAGE, opt, why);
}
