/*
 * os_posix.c - the runner's platform parts on Linux that are not the
 * target or an engine: what system it runs on, its clocks, flushing and
 * forgetting the page cache, the engines it has, the stop signals.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "runner_int.h"

bool runner_system_get(struct runner_system *s)
{
	struct utsname u;

	if (uname(&u))
		return false;
	snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	snprintf(s->machine, sizeof(s->machine), "%s", u.machine);
	snprintf(s->hostname, sizeof(s->hostname), "%s", u.nodename);
	return true;
}

void runner_clock_now(struct timespec *unix_t, struct timespec *boot_t)
{
	clock_gettime(CLOCK_REALTIME, unix_t);
	clock_gettime(CLOCK_BOOTTIME, boot_t);
}

int runner_fd_sync(int fd)
{
	return fdatasync(fd) ? -errno : 0;
}

void runner_fd_drop_cache(int fd)
{
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

const struct runner_engine_ops *const runner_engine_async =
	&runner_engine_io_uring;
const struct runner_engine_ops *const runner_engine_sync = &runner_engine_psync;

static void on_signal(int sig)
{
	(void)sig;
	runner_request_stop();
}

void runner_stop_handlers_install(void)
{
	struct sigaction sa;

	/* no SA_RESTART: a blocked wait returns EINTR and sees the flag */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
