/*
 * say.c - what a person reads while provbench works: the one-line error
 * ("provbench: what: why") with its exit code, and the timestamped
 * progress lines on stderr (stdout keeps results), one line at a time
 * whichever worker thread says it, each naming its target while several
 * run at once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run_int.h"

int pb_cli_fail(int err, const char *what, const char *why)
{
	/* a failure that lost its detail on the way still says its kind:
	 * never "provbench: run: " and nothing */
	pb_error_print("provbench", what,
		       why && *why ? why : pb_strerror((enum pb_error)err));
	return pb_exit_code((enum pb_error)err);
}

static void vsay(bool quiet, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* -q: set once per command, read by pb_progress (backends' steps) */
static bool quiet_run;
/* the target a worker thread measures, named on its lines while several
 * run at once (NULL: one at a time, the item line names it) */
_Thread_local const char *run_say_target;

static void vsay(bool quiet, const char *fmt, va_list ap)
{
	char ts[32];

	if (quiet)
		return;
	pb_utc_format(ts, sizeof(ts), time(NULL), PB_TIME_CLOCK);
	/* one line at a time, whichever worker says it */
	flockfile(stderr);
	fprintf(stderr, "%s ", ts);
	if (run_say_target)
		fprintf(stderr, "[%s] ", run_say_target);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

/* Progress: timestamped lines on stderr a log can keep (and a person can
 * read); stdout is for results. */
void run_say(bool quiet, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(quiet, fmt, ap);
	va_end(ap);
}

void pb_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(quiet_run, fmt, ap);
	va_end(ap);
}

void pb_notes_print(FILE *fp, const char *notes)
{
	const char *p = notes, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(fp, "note: %s\n", p);
			break;
		}
		fprintf(fp, "note: %.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
}

void run_say_quiet(bool quiet)
{
	quiet_run = quiet;
}

bool pb_want_color(int fd)
{
	const char *term = getenv("TERM");
	const char *no = getenv("NO_COLOR");

	/* no-color.org: set and not empty, whatever its value */
	if (no && *no)
		return false;
	return isatty(fd) && term && *term && strcmp(term, "dumb");
}
