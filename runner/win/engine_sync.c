/*
 * win/engine_sync.c - the synchronous engine on Windows: ReadFile and
 * WriteFile at an offset, one I/O at a time, waited for (the handle is
 * opened overlapped, for the completion-port engine, so even a
 * synchronous call names its offset in an OVERLAPPED and waits on it).
 * The fallback when the port cannot be made, and what dd-style tools do.
 */
#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <windows.h>

#include "runner_int.h"

struct wsync_data {
	HANDLE h;
	HANDLE ev;
	struct runner_io *done;
};

static enum pb_error wsync_init(struct runner_engine *e, int fd, unsigned depth,
				void *const *bufs, size_t buflen, char *errbuf)
{
	struct wsync_data *d;

	(void)bufs;
	(void)buflen;
	(void)depth;
	d = calloc(1, sizeof(*d));
	if (!d)
		return pb_fail(errbuf, PB_ERR_NOMEM, "sync: out of memory");
	d->h = (HANDLE)_get_osfhandle(fd);
	d->ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	if (d->h == INVALID_HANDLE_VALUE || !d->ev) {
		if (d->ev)
			CloseHandle(d->ev);
		free(d);
		return pb_fail(errbuf, PB_ERR_IO, "sync: no handle or event");
	}
	e->fd = fd;
	e->depth = 1; /* synchronous: one I/O in flight, whatever --qd says */
	e->priv = d;
	return PB_OK;
}

/* -EIO and friends from the Windows error of the last call */
int runner_win_errno(DWORD code)
{
	switch (code) {
	case ERROR_HANDLE_EOF:
		return 0;
	case ERROR_DISK_FULL:
		return -ENOSPC;
	case ERROR_ACCESS_DENIED:
	case ERROR_WRITE_PROTECT:
		return -EACCES;
	case ERROR_OPERATION_ABORTED:
		return -ECANCELED;
	case ERROR_INVALID_PARAMETER:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static int full_io(struct wsync_data *d, struct runner_io *io, bool write)
{
	uint32_t done = 0;

	while (done < io->len) {
		OVERLAPPED ov = {.hEvent = d->ev};
		uint64_t off = io->off + done;
		DWORD n = 0;
		BOOL ok;

		ov.Offset = (DWORD)off;
		ov.OffsetHigh = (DWORD)(off >> 32);
		ResetEvent(d->ev);
		ok = write ? WriteFile(d->h, (char *)io->buf + done,
				       io->len - done, NULL, &ov)
			   : ReadFile(d->h, (char *)io->buf + done,
				      io->len - done, NULL, &ov);
		if (!ok && GetLastError() != ERROR_IO_PENDING)
			return GetLastError() == ERROR_HANDLE_EOF
				       ? (int)done
				       : runner_win_errno(GetLastError());
		if (!GetOverlappedResult(d->h, &ov, &n, TRUE))
			return GetLastError() == ERROR_HANDLE_EOF
				       ? (int)done
				       : runner_win_errno(GetLastError());
		if (n == 0)
			break; /* end of the file or disk: a short transfer */
		done += n;
	}
	return (int)done;
}

static void wsync_queue(struct runner_engine *e, struct runner_io *io,
			enum runner_io_op op)
{
	struct wsync_data *d = e->priv;

	io->res = full_io(d, io, op != RUNNER_OP_READ);
	if (op == RUNNER_OP_WRITE_DSYNC && io->res >= 0 &&
	    !FlushFileBuffers(d->h))
		io->res = runner_win_errno(GetLastError());
	d->done = io;
}

static int wsync_commit(struct runner_engine *e)
{
	(void)e;
	return 0;
}

static int wsync_getevents(struct runner_engine *e, unsigned min,
			   struct runner_io **done, unsigned max)
{
	struct wsync_data *d = e->priv;

	(void)min;
	if (!d->done || !max)
		return 0;
	done[0] = d->done;
	d->done = NULL;
	return 1;
}

static void wsync_cleanup(struct runner_engine *e)
{
	struct wsync_data *d = e->priv;

	if (d)
		CloseHandle(d->ev);
	free(d);
	e->priv = NULL;
}

const struct runner_engine_ops runner_engine_win_sync = {
	.name = "sync",
	.flags = 0,
	.init = wsync_init,
	.queue = wsync_queue,
	.commit = wsync_commit,
	.getevents = wsync_getevents,
	.cleanup = wsync_cleanup,
};
