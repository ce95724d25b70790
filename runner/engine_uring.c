/*
 * engine_uring.c - the io_uring engine (liburing): up to --qd I/Os in
 * flight, buffers and the file registered with the kernel when it allows,
 * so the per-I/O cost stays at fio's level or below.
 *
 * A write followed by fdatasync (fsync-write passes) is a linked pair of
 * SQEs; the pair counts as one I/O that completes with the fsync's CQE.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "runner_int.h"

/* user_data low bits: which half of a linked write + fdatasync pair */
#define TAG_WRITE 1ull
#define TAG_FSYNC 2ull
#define TAG_MASK  3ull

struct uring_data {
	struct io_uring ring;
	bool fixed_bufs;
	bool fixed_file;
};

static enum pb_error uring_init(struct runner_engine *e, int fd, unsigned depth,
				void *const *bufs, size_t buflen, char *errbuf)
{
	static const struct {
		unsigned flags, feature;
	} setups[] = {
		{IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		 RUNNER_ENGINE_F_DEFER_TASKRUN},
		{IORING_SETUP_COOP_TASKRUN, RUNNER_ENGINE_F_COOP_TASKRUN},
		{0, 0},
	};
	struct uring_data *d;
	struct iovec *iov = NULL;
	enum pb_error err = PB_OK;
	unsigned i;
	int r;

	d = calloc(1, sizeof(*d));
	if (!d)
		return pb_fail(errbuf, PB_ERR_NOMEM, "io_uring: out of memory");
	/* twice the depth: an fsync-write pair takes two SQEs. One thread
	 * submits and reaps, so the kernel may run completion work when we
	 * ask for it instead of interrupting us: the newest setup the kernel
	 * knows, down to none */
	for (i = 0; i < sizeof(setups) / sizeof(setups[0]); i++) {
		r = io_uring_queue_init(depth * 2, &d->ring, setups[i].flags);
		if (r != -EINVAL)
			break;
	}
	if (r >= 0)
		e->flags |= setups[i].feature;
	if (r < 0) {
		free(d);
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED, "io_uring_setup: %s",
			       strerror(-r));
	}
	iov = calloc(depth, sizeof(*iov));
	if (!iov) {
		err = pb_fail(errbuf, PB_ERR_NOMEM, "io_uring: out of memory");
		goto out;
	}
	for (i = 0; i < depth; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = buflen;
	}
	/* both are optimisations: without them (RLIMIT_MEMLOCK) all works */
	d->fixed_bufs = io_uring_register_buffers(&d->ring, iov, depth) == 0;
	d->fixed_file = io_uring_register_files(&d->ring, &fd, 1) == 0;
	e->fd = fd;
	e->depth = depth;
	e->priv = d;
	if (d->fixed_bufs)
		e->flags |= RUNNER_ENGINE_F_FIXEDBUFS;
out:
	free(iov);
	if (err) {
		io_uring_queue_exit(&d->ring);
		free(d);
	}
	return err;
}

static void prep_rw(struct uring_data *d, struct io_uring_sqe *sqe, int fd,
		    struct runner_io *io, bool write)
{
	int f = d->fixed_file ? 0 : fd;

	if (d->fixed_bufs && write)
		io_uring_prep_write_fixed(sqe, f, io->buf, io->len, io->off,
					  (int)io->slot);
	else if (d->fixed_bufs)
		io_uring_prep_read_fixed(sqe, f, io->buf, io->len, io->off,
					 (int)io->slot);
	else if (write)
		io_uring_prep_write(sqe, f, io->buf, io->len, io->off);
	else
		io_uring_prep_read(sqe, f, io->buf, io->len, io->off);
	if (d->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
}

static void uring_queue(struct runner_engine *e, struct runner_io *io,
			enum runner_io_op op)
{
	struct uring_data *d = e->priv;
	struct io_uring_sqe *sqe;

	/* the ring holds 2 * depth SQEs and at most depth I/Os are queued */
	sqe = io_uring_get_sqe(&d->ring);
	prep_rw(d, sqe, e->fd, io, op != RUNNER_OP_READ);
	if (op != RUNNER_OP_WRITE_DSYNC) {
		io_uring_sqe_set_data64(sqe, (uint64_t)(uintptr_t)io);
		return;
	}
	sqe->flags |= IOSQE_IO_LINK;
	io_uring_sqe_set_data64(sqe, (uint64_t)(uintptr_t)io | TAG_WRITE);
	sqe = io_uring_get_sqe(&d->ring);
	io_uring_prep_fsync(sqe, d->fixed_file ? 0 : e->fd,
			    IORING_FSYNC_DATASYNC);
	if (d->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, (uint64_t)(uintptr_t)io | TAG_FSYNC);
}

static int uring_commit(struct runner_engine *e)
{
	struct uring_data *d = e->priv;
	int r;

	do
		r = io_uring_submit(&d->ring);
	while (r == -EINTR);
	return r < 0 ? r : 0;
}

static int uring_getevents(struct runner_engine *e, unsigned min,
			   struct runner_io **done, unsigned max);

/* One completion within timeout_ns, then whatever else is there. */
static int uring_getevents_timed(struct runner_engine *e,
				 struct runner_io **done, unsigned max,
				 uint64_t timeout_ns)
{
	struct uring_data *d = e->priv;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = {
		.tv_sec = (long long)(timeout_ns / 1000000000u),
		.tv_nsec = (long long)(timeout_ns % 1000000000u)};
	int r;

	do
		r = io_uring_wait_cqe_timeout(&d->ring, &cqe, &ts);
	while (r == -EINTR);
	if (r == -ETIME)
		return 0;
	if (r < 0)
		return r;
	return uring_getevents(e, 0, done, max);
}

static int uring_getevents(struct runner_engine *e, unsigned min,
			   struct runner_io **done, unsigned max)
{
	struct uring_data *d = e->priv;
	struct io_uring_cqe *cqe;
	unsigned n = 0, head, seen;
	int r;

	while (n < max) {
		seen = 0;
		io_uring_for_each_cqe(&d->ring, head, cqe)
		{
			uint64_t ud = io_uring_cqe_get_data64(cqe);
			struct runner_io *io =
				(struct runner_io *)(uintptr_t)(ud & ~TAG_MASK);

			seen++;
			if (ud & TAG_WRITE) {
				/* the write half: keep its result, wait on */
				io->res = cqe->res;
				continue;
			}
			/* a failed write cancels its fsync: keep the
			 * write's error, it says more */
			if (!(ud & TAG_FSYNC) || (cqe->res < 0 && io->res >= 0))
				io->res = cqe->res;
			done[n++] = io;
			if (n == max)
				break;
		}
		io_uring_cq_advance(&d->ring, seen);
		if (n >= min)
			break;
		/* anything queued goes with the wait: one system call */
		r = io_uring_submit_and_wait(&d->ring, 1);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
	}
	return (int)n;
}

static void uring_cleanup(struct runner_engine *e)
{
	struct uring_data *d = e->priv;

	if (!d)
		return;
	/* the ring's table holds its own reference to the file until the
	 * kernel tears the ring down, which it does later, in a worker: a
	 * mount stayed busy after the runner had exited (50 ms every time
	 * here; twice in quiet test tiers, more than 5 s). Unregistered here,
	 * the last reference is ours, and goes when the target is closed */
	if (d->fixed_file)
		io_uring_unregister_files(&d->ring);
	if (d->fixed_bufs)
		io_uring_unregister_buffers(&d->ring);
	io_uring_queue_exit(&d->ring);
	free(d);
	e->priv = NULL;
}

const struct runner_engine_ops runner_engine_io_uring = {
	.name = "io_uring",
	.flags = RUNNER_ENGINE_F_ASYNC,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.getevents_timed = uring_getevents_timed,
	.cleanup = uring_cleanup,
};
