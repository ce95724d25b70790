/*
 * error.c - the project's error enum: names, exit codes, and pb_fail(), the
 * detail-message formatter every module uses (curl's failf).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common.h"

static const char *const messages[PB_ERR__COUNT] = {
	[PB_OK] = "no error",
	[PB_ERR_USAGE] = "usage error",
	[PB_ERR_INPUT] = "invalid input",
	[PB_ERR_NOMEM] = "out of memory",
	[PB_ERR_IO] = "I/O error",
	[PB_ERR_UNSAFE] = "refused by a safety check",
	[PB_ERR_NOTFOUND] = "not found",
	[PB_ERR_INTERRUPTED] = "interrupted",
	[PB_ERR_TOO_LARGE] = "too large",
	[PB_ERR_UNSUPPORTED] = "not supported",
	[PB_ERR_CONNECT] = "cannot connect",
	[PB_ERR_LOGIN] = "login refused",
	[PB_ERR_TLS] = "certificate not trusted",
	[PB_ERR_FAULT] = "server fault",
	[PB_ERR_PROTOCOL] = "unexpected reply",
	[PB_ERR_TIMEOUT] = "timed out",
	[PB_ERR_INTERNAL] = "internal error",
	[PB_ERR_VERIFY] = "data verification failed",
	[PB_ERR_LICENSE] = "not allowed by the server's licence",
	[PB_ERR_CHILD] = "a program it ran failed",
	[PB_ERR_REGRESSED] = "regressed past the limit",
	[PB_ERR_INCOMPLETE] = "some measurements failed",
	[PB_ERR_STALLED] = "stalled: no progress",
};

const char *pb_strerror(enum pb_error err)
{
	if ((unsigned)err >= PB_ERR__COUNT || !messages[err])
		return "unknown error";
	return messages[err];
}

const struct pb_exit_row pb_exit_rows[] = {
	{"0", "done: every item measured, or nothing wrong found (check)"},
	{"1", "failed: the run could not go on (no journal, a disk that would "
	      "not go), or a gate's figure fell past its limit (report "
	      "--max-regression)"},
	{"2", "a usage, profile or input error; a VM, LUN or target not found "
	      "or locked; an unusable state or results directory"},
	{"3", "cannot reach, log in to or trust the server, or what answers "
	      "is not vSphere's API; a free ESXi licence"},
	{"4", "partial: some items failed, the rest were measured (run.json "
	      "says which and why)"},
	{"128+N", "stopped by signal N, after its disk was removed: 130 "
		  "SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT (SIGPIPE is "
		  "ignored)"},
	{NULL, NULL},
};

int pb_exit_code(enum pb_error err)
{
	switch (err) {
	case PB_OK:
		return PB_EXIT_OK;
	case PB_ERR_USAGE:
	case PB_ERR_INPUT:
	case PB_ERR_UNSAFE:
	case PB_ERR_NOTFOUND:
		return PB_EXIT_USAGE;
	case PB_ERR_CONNECT:
	case PB_ERR_LOGIN:
	case PB_ERR_TLS:
	case PB_ERR_LICENSE:
		return PB_EXIT_CONNECT;
	case PB_ERR_INTERRUPTED:
		return PB_EXIT_INTERRUPTED;
	case PB_ERR_INCOMPLETE:
		return PB_EXIT_PARTIAL;
	default:
		return PB_EXIT_FAILED;
	}
}

enum pb_error pb_fail(char *errbuf, enum pb_error err, const char *fmt, ...)
{
	va_list ap;

	if (!errbuf || errbuf[0])
		return err;
	va_start(ap, fmt);
	vsnprintf(errbuf, PB_ERRBUF_SIZE, fmt, ap);
	va_end(ap);
	return err;
}

void pb_error_print(const char *prog, const char *what, const char *why)
{
	if (what && *what)
		fprintf(stderr, "%s: %s: %s\n", prog, what, why);
	else
		fprintf(stderr, "%s: %s\n", prog, why);
}
