/*
 * check_out.c - a check's findings, as lines or check --json's entries
 * (check_out.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check_out.h"

static void check_vsay(struct pb_check_out *o, const char *level,
		       const char *name, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static void check_vsay(struct pb_check_out *o, const char *level,
		       const char *name, const char *fmt, va_list ap)
{
	char text[2048];

	if (!o)
		return;
	vsnprintf(text, sizeof(text), fmt, ap);
	if (!strcmp(level, "problem") && !o->problems++)
		snprintf(o->first_msg, sizeof(o->first_msg), "%s", text);
	if (o->items)
		json_array_append_new(o->items,
				      json_pack("{s:s,s:s,s:s,s:s?}", "name",
						name, "level", level, "detail",
						text, "target", o->target));
	else if (o->run && !strcmp(level, "warning"))
		fprintf(stderr, "provbench: warning: %s%s%s\n",
			o->target ? o->target : "", o->target ? ": " : "",
			text);
	else if (o->run)
		; /* ok is not said; problems are pb_check_result's */
	else if (!strcmp(level, "warning"))
		fprintf(o->fp, "warning: %s\n", text);
	else if (!strcmp(level, "problem"))
		fprintf(o->fp, "problem: %s\n", text);
	else
		fprintf(o->fp, "%s: %s\n", name, text);
}

void pb_check_say(struct pb_check_out *out, const char *name, const char *fmt,
		  ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vsay(out, "ok", name, fmt, ap);
	va_end(ap);
}

void pb_check_warn(struct pb_check_out *out, const char *name, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vsay(out, "warning", name, fmt, ap);
	va_end(ap);
}

enum pb_error pb_check_problem(struct pb_check_out *out, enum pb_error err,
			       const char *name, const char *fmt, ...)
{
	va_list ap;

	if (!out)
		return err;
	if (!out->problems)
		out->first = err;
	else if (out->run) {
		/* said now: the first is the run's error line, at the end */
		char text[2048];

		va_start(ap, fmt);
		vsnprintf(text, sizeof(text), fmt, ap);
		va_end(ap);
		fprintf(stderr, "provbench: problem: %s%s%s\n",
			out->target ? out->target : "", out->target ? ": " : "",
			text);
	}
	va_start(ap, fmt);
	check_vsay(out, "problem", name, fmt, ap);
	va_end(ap);
	return err;
}

enum pb_error pb_check_result(struct pb_check_out *out, char *errbuf)
{
	if (!out || !out->problems)
		return PB_OK;
	if (out->problems == 1)
		return pb_fail(errbuf, out->first, "%s", out->first_msg);
	return pb_fail(errbuf, out->first, "%s (and %u more problem%s %s)",
		       out->first_msg, out->problems - 1,
		       out->problems > 2 ? "s" : "",
		       out->run ? "above" : "listed");
}
