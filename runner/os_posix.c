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
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

bool runner_devstat_get(struct runner_devstat *out, int fd)
{
	char path[96], line[512];
	struct stat st;
	unsigned long long v[11] = {0};
	dev_t d;
	FILE *fp;
	int n;

	memset(out, 0, sizeof(*out));
	if (fstat(fd, &st))
		return false;
	d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major(d),
		 minor(d));
	if ((fp = fopen(path, "re"))) {
		while (fgets(line, sizeof(line), fp))
			if (!strncmp(line, "DEVNAME=", 8)) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(out->name, sizeof(out->name), "%s",
					 line + 8);
			}
		fclose(fp);
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(d),
		 minor(d));
	fp = fopen(path, "re");
	if (!fp)
		return false;
	n = fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9], &v[10]);
	fclose(fp);
	if (n != 11)
		return false;
	/* reads, merges, sectors, ms; writes, merges, sectors, ms;
	 * in flight, io_ticks, time_in_queue */
	out->reads = v[0], out->read_sectors = v[2], out->read_ms = v[3];
	out->writes = v[4], out->write_sectors = v[6], out->write_ms = v[7];
	out->in_flight = v[8], out->busy_ms = v[9], out->queue_ms = v[10];
	return true;
}

bool runner_extents_get(struct runner_extents *out, int fd)
{
	enum { N = 256 };
	struct fiemap *fm =
		calloc(1, sizeof(*fm) + N * sizeof(fm->fm_extents[0]));
	uint64_t start = 0;
	bool ok = false, last = false;

	memset(out, 0, sizeof(*out));
	while (fm && !last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = ~0ull - start;
		fm->fm_extent_count = N;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			goto out;
		if (!fm->fm_mapped_extents)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
				out->unwritten += e->fe_length;
			else
				out->written += e->fe_length;
			out->count++;
			start = e->fe_logical + e->fe_length;
			last |= e->fe_flags & FIEMAP_EXTENT_LAST;
		}
	}
	ok = true;
out:
	free(fm);
	return ok;
}

const struct runner_engine_ops *const runner_engine_async =
	&runner_engine_io_uring;
const struct runner_engine_ops *const runner_engine_sync = &runner_engine_psync;

static void on_signal(int sig)
{
	(void)sig;
	runner_request_stop();
}

void runner_sleep_ms(unsigned ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

void runner_sleep_until_ns(uint64_t t)
{
	/* pb_now_ns is CLOCK_MONOTONIC's */
	struct timespec ts = {(time_t)(t / 1000000000u),
			      (long)(t % 1000000000u)};
	static bool slack_set;

	/* a wake that comes late delays the I/O due then, and its latency
	 * from its intended start counts that: the kernel's default 50 us
	 * of timer slack down to 1 ns (fio's timer slack is its own: it
	 * measures from submission) */
	if (!slack_set) {
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		slack_set = true;
	}

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
		       EINTR &&
	       !runner_stop_requested())
		;
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
	/* a terminal that went (an ssh session dropped) and ^\: the same
	 * stop, the partial document written */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
