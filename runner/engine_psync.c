/*
 * engine_psync.c - the synchronous engine: pread/pwrite (and fdatasync),
 * one I/O at a time. The fallback when io_uring is unavailable (seccomp
 * filters, old kernels), and the engine dd-style measurements resemble.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "runner_int.h"

struct psync_data {
	struct runner_io *done;
};

static enum pb_error psync_init(struct runner_engine *e, int fd, unsigned depth,
				void *const *bufs, size_t buflen, char *errbuf)
{
	struct psync_data *d;

	(void)bufs;
	(void)buflen;
	(void)depth;
	d = calloc(1, sizeof(*d));
	if (!d)
		return pb_fail(errbuf, PB_ERR_NOMEM, "psync: out of memory");
	e->fd = fd;
	e->depth = 1; /* synchronous: one I/O in flight, whatever --qd says */
	e->priv = d;
	return PB_OK;
}

static int full_io(int fd, struct runner_io *io, bool write)
{
	uint32_t done = 0;
	ssize_t r;

	while (done < io->len) {
		if (write)
			r = pwrite(fd, (char *)io->buf + done, io->len - done,
				   (off_t)(io->off + done));
		else
			r = pread(fd, (char *)io->buf + done, io->len - done,
				  (off_t)(io->off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break; /* end of device: a short transfer */
		done += (uint32_t)r;
	}
	return (int)done;
}

static void psync_queue(struct runner_engine *e, struct runner_io *io,
			enum runner_io_op op)
{
	struct psync_data *d = e->priv;

	io->res = full_io(e->fd, io, op != RUNNER_OP_READ);
	if (op == RUNNER_OP_WRITE_DSYNC && io->res >= 0 && fdatasync(e->fd))
		io->res = -errno;
	d->done = io;
}

static int psync_commit(struct runner_engine *e)
{
	(void)e;
	return 0;
}

static int psync_getevents(struct runner_engine *e, unsigned min,
			   struct runner_io **done, unsigned max)
{
	struct psync_data *d = e->priv;

	(void)min;
	if (!d->done || !max)
		return 0;
	done[0] = d->done;
	d->done = NULL;
	return 1;
}

static void psync_cleanup(struct runner_engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct runner_engine_ops runner_engine_psync = {
	.name = "psync",
	.flags = 0,
	.init = psync_init,
	.queue = psync_queue,
	.commit = psync_commit,
	.getevents = psync_getevents,
	.cleanup = psync_cleanup,
};
