/*
 * env_help.c - `provbench help environment` and `help exit-codes`: env.c's
 * table of PROVBENCH_* variables said by group, and error.c's of exit
 * codes, as text, Markdown or roff (the manual's ENVIRONMENT and EXIT
 * STATUS). Nothing here knows a variable or a code.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "env_help.h"
#include "harness_int.h"

static void text_var(struct pb_buf *b, const struct pb_env_var *v)
{
	if (strlen(v->name) + 2 >= 31)
		pb_buf_printf(b, "  %s\n%31s", v->name, "");
	else
		pb_buf_printf(b, "  %-29s", v->name);
	pb_buf_add_wrapped(b, v->help, 31, 31, 79);
	pb_buf_addstr(b, "\n");
}

static void man_var(struct pb_buf *b, const struct pb_env_var *v)
{
	const char *s;

	pb_buf_printf(b, ".TP\n.B %s\n", v->name);
	for (s = v->help; *s; s++)
		if (*s == '-')
			pb_buf_addstr(b, "\\-");
		else if (*s == '\\')
			pb_buf_addstr(b, "\\e");
		else
			pb_buf_printf(b, "%c", *s);
	pb_buf_addstr(b, "\n");
}

/* The text made, to fp, or the one line why not; an exit code. */
static int emit(struct pb_buf *b, FILE *fp)
{
	enum pb_error err = pb_buf_error(b);
	int rc = PB_EXIT_OK;

	if (err)
		rc = pb_cli_fail(err, "help", pb_strerror(err));
	else
		fputs(b->data, fp);
	pb_buf_dispose(b);
	return rc;
}

int cli_env_help(FILE *fp, enum cli_help_format fmt)
{
	struct pb_buf b = PB_BUF_INIT(1 << 18);
	const struct pb_env_var *v;
	const char *group = "";

	if (fmt == CLI_HELP_TEXT)
		pb_buf_addstr(&b, "Settings that are not the profile's come "
				  "from the environment, never the\ncommand "
				  "line, so that no password shows in ps.\n");
	for (v = pb_env_vars; v->name; v++) {
		if (strcmp(group, v->group)) {
			group = v->group;
			if (fmt == CLI_HELP_TEXT)
				pb_buf_printf(&b, "\n%s:\n", group);
			else if (fmt == CLI_HELP_MARKDOWN)
				pb_buf_printf(&b, "\n## %s\n\n", group);
			else
				pb_buf_printf(&b, ".SS %s\n", group);
		}
		if (fmt == CLI_HELP_TEXT)
			text_var(&b, v);
		else if (fmt == CLI_HELP_MARKDOWN)
			pb_buf_printf(&b, "- **`%s`**: %s\n", v->name, v->help);
		else
			man_var(&b, v);
	}
	return emit(&b, fp);
}

int cli_exit_help(FILE *fp, enum cli_help_format fmt)
{
	struct pb_buf b = PB_BUF_INIT(1 << 16);
	const struct pb_exit_row *r;

	for (r = pb_exit_rows; r->code; r++) {
		if (fmt == CLI_HELP_TEXT) {
			pb_buf_printf(&b, "  %-7s", r->code);
			pb_buf_add_wrapped(&b, r->meaning, 9, 9, 79);
			pb_buf_addstr(&b, "\n");
		} else if (fmt == CLI_HELP_MARKDOWN) {
			pb_buf_printf(&b, "- **%s**: %s\n", r->code,
				      r->meaning);
		} else {
			const struct pb_env_var v = {r->code, "", r->meaning};

			man_var(&b, &v);
		}
	}
	return emit(&b, fp);
}
