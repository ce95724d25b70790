/*
 * profile_help.c - `provbench help profile [KEY]`: the profile's keys as
 * the tables that read them describe them (pb_profile_keys_foreach),
 * said as text, as Markdown (docs/profile.md) or as roff (the manual's
 * PROFILE KEYS section). Nothing here knows a key: a row added to a
 * table is in all three.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "harness_int.h"
#include "profile_help.h"

struct walk {
	enum cli_help_format fmt;
	const char *key; /* NULL: every key */
	struct pb_buf *out;
	unsigned found;
	char near[160]; /* a key the mistyped one likely meant */
};

/* w->key, when no key is it, may be a typo of k's: git's "did you mean",
 * by the closeness words.c judges (the first close one kept) */
static void near_key(struct walk *w, const struct pb_profile_key *k)
{
	char full[160];
	const char *one[2] = {full, NULL};

	if (w->near[0])
		return;
	snprintf(full, sizeof(full), "%s%s%s", k->section,
		 *k->section ? "." : "", k->key);
	if (pb_closest(w->key, strlen(w->key), one)) {
		snprintf(w->near, sizeof(w->near), "%s", full);
		return;
	}
	one[0] = k->key;
	if (pb_closest(w->key, strlen(w->key), one))
		snprintf(w->near, sizeof(w->near), "%s", full);
}

/* "qemu.dir" as written, "dir" in any section, "workload.bs" */
static bool key_matches(const struct pb_profile_key *k, const char *want)
{
	const char *dot = strchr(want, '.');
	size_t sl = strlen(k->section);

	if (!strcmp(k->key, want))
		return true;
	return dot && (size_t)(dot - want) == sl &&
	       !strncmp(want, k->section, sl) && !strcmp(dot + 1, k->key);
}

static void text_row(struct pb_buf *b, const struct pb_profile_key *k,
		     bool whole)
{
	char left[96], head[512];

	if (k->section_help && !whole && *k->section) {
		snprintf(head, sizeof(head), "%s: %s:", k->section,
			 k->section_help);
		pb_buf_addstr(b, "\n");
		pb_buf_add_wrapped(b, head, 0, 0, 79);
		pb_buf_addstr(b, "\n");
	} else if (k->section_help && !whole) {
		pb_buf_add_wrapped(b, k->section_help, 0, 0, 79);
		pb_buf_addstr(b, "\n\n");
	}
	snprintf(left, sizeof(left), "%s%s%s%s", whole ? "" : "  ", k->section,
		 *k->section ? "." : "", k->key);
	if (strlen(left) >= 27)
		pb_buf_printf(b, "%s\n%27s", left, "");
	else
		pb_buf_printf(b, "%-27s", left);
	pb_buf_add_wrapped(b, k->text, 27, 27, 79);
	pb_buf_addstr(b, "\n");
}

static void md_row(struct pb_buf *b, const struct pb_profile_key *k)
{
	if (k->section_help && *k->section)
		pb_buf_printf(b, "\n## %s\n\n%s.\n\n", k->section,
			      k->section_help);
	else if (k->section_help)
		pb_buf_printf(b, "## The profile's own keys\n\n%s\n\n",
			      k->section_help);
	pb_buf_printf(b, "- **`%s%s%s`**: %s\n", k->section,
		      *k->section ? "." : "", k->key, k->text);
}

/* roff: a leading dot or quote would be a request, a backslash an
 * escape, a hyphen a hyphen rather than a minus */
static void roff_text(struct pb_buf *b, const char *s)
{
	if (*s == '.' || *s == '\'')
		pb_buf_addstr(b, "\\&");
	for (; *s; s++)
		if (*s == '\\')
			pb_buf_addstr(b, "\\e");
		else if (*s == '-')
			pb_buf_addstr(b, "\\-");
		else
			pb_buf_printf(b, "%c", *s);
}

static void man_row(struct pb_buf *b, const struct pb_profile_key *k)
{
	if (k->section_help && *k->section) {
		pb_buf_printf(b, ".SS %s\n", k->section);
		roff_text(b, k->section_help);
		pb_buf_addstr(b, ".\n");
	} else if (k->section_help) {
		roff_text(b, k->section_help);
		pb_buf_addstr(b, "\n");
	}
	pb_buf_printf(b, ".TP\n.B %s%s%s\n", k->section, *k->section ? "." : "",
		      k->key);
	roff_text(b, k->text);
	pb_buf_addstr(b, "\n");
}

static int one_key(const struct pb_profile_key *k, void *data)
{
	struct walk *w = data;

	if (w->key && !key_matches(k, w->key)) {
		near_key(w, k);
		return 0;
	}
	w->found++;
	switch (w->fmt) {
	case CLI_HELP_TEXT:
		text_row(w->out, k, w->key != NULL);
		break;
	case CLI_HELP_MARKDOWN:
		md_row(w->out, k);
		break;
	case CLI_HELP_MAN:
		man_row(w->out, k);
		break;
	}
	return pb_buf_error(w->out) ? -1 : 0;
}

int cli_profile_help(FILE *fp, enum cli_help_format fmt, const char *key)
{
	struct pb_buf b = PB_BUF_INIT(1 << 20);
	struct walk w = {.fmt = fmt, .key = key, .out = &b};
	enum pb_error err;
	char why[300];
	int rc = PB_EXIT_OK;

	if (fmt == CLI_HELP_MARKDOWN && !key)
		pb_buf_addstr(&b, "# Profile keys\n\nEvery key a profile may "
				  "have, as `provbench help profile` says "
				  "it: generated from the tables that read "
				  "them (`make profile-doc`), so it "
				  "cannot drift from the code.\n\n");
	err = pb_profile_keys_foreach(one_key, &w);
	if (!err)
		err = pb_buf_error(&b);
	if (err) {
		rc = pb_cli_fail(err, "help", pb_strerror(err));
		goto out;
	}
	if (key && !w.found) {
		snprintf(why, sizeof(why),
			 "'%s': no such profile key (%s%s%sprovbench help "
			 "profile lists them)",
			 key, w.near[0] ? "did you mean " : "", w.near,
			 w.near[0] ? "? " : "");
		rc = pb_cli_fail(PB_ERR_USAGE, "help", why);
		goto out;
	}
	fputs(b.data, fp);
out:
	pb_buf_dispose(&b);
	return rc;
}
