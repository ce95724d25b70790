/*
 * opt.c - parse a command line against its table and print its usage and
 * help from the same table (opt.h).
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "harness_int.h"
#include "opt.h"

static const struct cli_opt *find_long(const struct cli_opt *opts,
				       const char *name, size_t len)
{
	for (; opts->name; opts++)
		if ((opts->type == CLI_OPT_SWITCH ||
		     opts->type == CLI_OPT_VALUE) &&
		    strlen(opts->name) == len &&
		    !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_opt *opts, char c)
{
	for (; opts->name; opts++)
		if ((opts->type == CLI_OPT_SWITCH ||
		     opts->type == CLI_OPT_VALUE) &&
		    opts->alias == c)
			return opts;
	return NULL;
}

/* The usage on one line, without a newline. */
static void usage_line(FILE *fp, const struct cli_cmd *cmd,
		       const struct cli_opt *opts)
{
	const struct cli_opt *o;

	fprintf(fp, "usage: provbench %s", cmd->name);
	for (o = opts; o->name; o++) {
		if (o->flags & CLI_OPT_HIDDEN)
			continue;
		switch (o->type) {
		case CLI_OPT_SWITCH:
			if (o->alias)
				fprintf(fp, " [-%c]", o->alias);
			else
				fprintf(fp, " [--%s]", o->name);
			break;
		case CLI_OPT_VALUE:
			if (o->alias)
				fprintf(fp, " [-%c %s]", o->alias,
					o->value_name);
			else
				fprintf(fp, " [--%s %s]", o->name,
					o->value_name);
			break;
		case CLI_OPT_ARG:
			fprintf(fp,
				o->flags & CLI_OPT_REQUIRED ? " %s" : " [%s]",
				o->name);
			break;
		case CLI_OPT_ARGS:
			fprintf(fp,
				o->flags & CLI_OPT_REQUIRED ? " %s..."
							    : " [%s...]",
				o->name);
			break;
		}
	}
}

void cli_usage(FILE *fp, const struct cli_cmd *cmd, const struct cli_opt *opts)
{
	usage_line(fp, cmd, opts);
	fputc('\n', fp);
}

void cli_help(FILE *fp, const struct cli_cmd *cmd, const struct cli_opt *opts)
{
	const struct cli_opt *o;
	char left[64];

	cli_usage(fp, cmd, opts);
	fprintf(fp, "\n%s\n", cmd->summary);
	for (o = opts; o->name; o++) {
		if (o->flags & CLI_OPT_HIDDEN)
			continue;
		if (o == opts ||
		    (o->type >= CLI_OPT_ARG) != (o[-1].type >= CLI_OPT_ARG))
			fprintf(fp, "\n%s:\n",
				o->type >= CLI_OPT_ARG ? "arguments"
						       : "options");
		if (o->type == CLI_OPT_SWITCH || o->type == CLI_OPT_VALUE)
			snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
				 o->alias ? "-" : "", o->alias ? o->alias : ' ',
				 o->alias ? ", " : "   ", o->name,
				 o->type == CLI_OPT_VALUE ? " " : "",
				 o->type == CLI_OPT_VALUE ? o->value_name : "");
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
static int fail(const struct cli_cmd *cmd, const struct cli_opt *opts,
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

static void set_value(const struct cli_opt *o, char *v)
{
	if (o->type == CLI_OPT_SWITCH)
		*(bool *)o->value = true;
	else
		*(const char **)o->value = v;
}

/* a mistake, unless help comes later on the line */
#define FAIL(...)                                                              \
	(help_later(argc, argv, i) ? (cli_help(stdout, cmd, opts), CLI_HELPED) \
				   : fail(cmd, opts, __VA_ARGS__))

int cli_parse(const struct cli_cmd *cmd, const struct cli_opt *opts, int argc,
	      char **argv)
{
	const struct cli_opt *o, *pos = opts;
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
				if (o->type == CLI_OPT_SWITCH && eq)
					return FAIL("takes no value", a);
				if (o->type == CLI_OPT_VALUE && !eq &&
				    i + 1 >= argc)
					return FAIL("needs a value", a);
				set_value(o, o->type == CLI_OPT_SWITCH ? NULL
					     : eq		       ? eq + 1
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
				if (o->type == CLI_OPT_SWITCH) {
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
		while (pos->name && pos->type != CLI_OPT_ARG &&
		       pos->type != CLI_OPT_ARGS)
			pos++;
		if (!pos->name)
			return FAIL("unexpected argument", a);
		if (pos->type == CLI_OPT_ARGS) {
			struct cli_args *rest = pos->value;

			/* the rest; options among them are still options
			 * unless the list is literal */
			if (!rest->argv)
				rest->argv = argv + i;
			rest->argv[rest->argc++] = a;
			if (pos->flags & CLI_OPT_LITERAL_AFTER)
				literal = true;
			continue;
		}
		*(const char **)pos->value = a;
		if (pos->flags & CLI_OPT_LITERAL_AFTER)
			literal = true;
		pos++;
	}
	for (; pos->name; pos++) {
		char why[128];

		if (!(pos->flags & CLI_OPT_REQUIRED))
			continue;
		if (pos->type == CLI_OPT_ARG ||
		    (pos->type == CLI_OPT_ARGS &&
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
