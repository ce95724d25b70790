/*
 * stop.c - a stop asked of the runner: by a signal (the platform's
 * handler calls runner_request_stop) or by a file a harness makes
 * (--stop-file); the passes, mkfs and a command's wait look for it.
 * Below everything that polls it.
 */
#include <signal.h>
#include <sys/stat.h>

#include "runner_int.h"

static volatile sig_atomic_t stop_requested;

void runner_request_stop(void)
{
	stop_requested = 1;
}

bool runner_stop_requested(void)
{
	return stop_requested != 0;
}

void runner_stop_file_poll(const char *path, uint64_t now)
{
	static uint64_t next;
	struct stat st;

	if (!path || now < next)
		return;
	next = now + 250000000ull;
	if (!stat(path, &st))
		runner_request_stop();
}
