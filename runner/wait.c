/*
 * wait.c - a wait on something other than the runner's own I/O (mkfs, a
 * command pass): its heartbeat, at most once a second, hands the beat
 * the run set (run.c writes it into the progress file) what is waited on
 * and what the device under it did. Below fs.c and command.c, which
 * wait, and run.c, which listens.
 */
#include <fcntl.h>
#include <unistd.h>

#include "runner_int.h"

static void (*beat)(const char *what, const struct runner_devstat *dev);

void runner_wait_beat_set(void (*fn)(const char *what,
				     const struct runner_devstat *dev))
{
	beat = fn;
}

void runner_wait_tick(void *arg)
{
	struct runner_wait *w = arg;
	struct runner_devstat ds;
	uint64_t now = pb_now_ns();
	bool have = false;

	if (!beat || now < w->next)
		return;
	w->next = now + 1000000000ull;
	if (w->fd < 0 && w->path)
		w->fd = open(w->path, O_RDONLY | O_CLOEXEC);
	if (w->fd >= 0)
		have = runner_devstat_get(&ds, w->fd);
	beat(w->what, have ? &ds : NULL);
}

void runner_wait_done(struct runner_wait *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
