/*
 * win/engine_iocp.c - the asynchronous engine on Windows: overlapped
 * ReadFile/WriteFile on a handle tied to an I/O completion port, --qd in
 * flight, completions reaped with GetQueuedCompletionStatusEx (fio's
 * windowsaio engine is the model). queue() only notes an I/O; commit()
 * issues what was noted, so --batch means here what it means on Linux.
 *
 * A write followed by FlushFileBuffers (the fsync-write pass, one I/O in
 * flight) is done in commit() and waited for on an event whose low bit is
 * set, which keeps its completion off the port.
 */
#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <windows.h>

#include "runner_int.h"

int runner_win_errno(DWORD code);

struct iocp_slot {
	OVERLAPPED ov;
	struct runner_io *io;
	enum runner_io_op op;
};

struct iocp_data {
	HANDLE h, port, ev;
	unsigned depth;
	struct iocp_slot *slots; /* by runner_io.slot */
	struct runner_io **pending, **done;
	unsigned npending, ndone;
	OVERLAPPED_ENTRY *ents;
};

static void iocp_cleanup(struct runner_engine *e)
{
	struct iocp_data *d = e->priv;

	if (!d)
		return;
	if (d->port)
		CloseHandle(d->port);
	if (d->ev)
		CloseHandle(d->ev);
	free(d->slots);
	free(d->pending);
	free(d->done);
	free(d->ents);
	free(d);
	e->priv = NULL;
}

static enum pb_error iocp_init(struct runner_engine *e, int fd, unsigned depth,
			       void *const *bufs, size_t buflen, char *errbuf)
{
	struct iocp_data *d;

	(void)bufs;
	(void)buflen;
	e->priv = d = calloc(1, sizeof(*d));
	if (!d)
		return pb_fail(errbuf, PB_ERR_NOMEM, "iocp: out of memory");
	d->depth = depth;
	d->h = (HANDLE)_get_osfhandle(fd);
	d->slots = calloc(depth, sizeof(*d->slots));
	d->pending = calloc(depth, sizeof(*d->pending));
	d->done = calloc(depth, sizeof(*d->done));
	d->ents = calloc(depth, sizeof(*d->ents));
	d->ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	if (!d->slots || !d->pending || !d->done || !d->ents || !d->ev) {
		iocp_cleanup(e);
		return pb_fail(errbuf, PB_ERR_NOMEM, "iocp: out of memory");
	}
	if (d->h == INVALID_HANDLE_VALUE ||
	    !(d->port = CreateIoCompletionPort(d->h, NULL, 0, 1))) {
		DWORD code = GetLastError();

		iocp_cleanup(e);
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "cannot make an I/O completion port (error "
			       "%lu)",
			       code);
	}
	e->fd = fd;
	e->depth = depth;
	e->flags |= RUNNER_ENGINE_F_ASYNC | RUNNER_ENGINE_F_COMPLETION_PORT;
	return PB_OK;
}

static void iocp_queue(struct runner_engine *e, struct runner_io *io,
		       enum runner_io_op op)
{
	struct iocp_data *d = e->priv;

	d->slots[io->slot].io = io;
	d->slots[io->slot].op = op;
	d->pending[d->npending++] = io;
}

/* the write and its flush, waited for; nothing reaches the port */
static int write_flush(struct iocp_data *d, struct iocp_slot *s)
{
	DWORD n = 0;

	s->ov.hEvent = (HANDLE)((ULONG_PTR)d->ev | 1);
	ResetEvent(d->ev);
	if (!WriteFile(d->h, s->io->buf, s->io->len, NULL, &s->ov) &&
	    GetLastError() != ERROR_IO_PENDING)
		return runner_win_errno(GetLastError());
	if (!GetOverlappedResult(d->h, &s->ov, &n, TRUE))
		return runner_win_errno(GetLastError());
	if (!FlushFileBuffers(d->h))
		return runner_win_errno(GetLastError());
	return (int)n;
}

static int iocp_commit(struct iocp_data *d)
{
	unsigned i;

	for (i = 0; i < d->npending; i++) {
		struct runner_io *io = d->pending[i];
		struct iocp_slot *s = &d->slots[io->slot];
		BOOL ok;

		memset(&s->ov, 0, sizeof(s->ov));
		s->ov.Offset = (DWORD)io->off;
		s->ov.OffsetHigh = (DWORD)(io->off >> 32);
		if (s->op == RUNNER_OP_WRITE_DSYNC) {
			io->res = write_flush(d, s);
			d->done[d->ndone++] = io;
			continue;
		}
		ok = s->op == RUNNER_OP_READ
			     ? ReadFile(d->h, io->buf, io->len, NULL, &s->ov)
			     : WriteFile(d->h, io->buf, io->len, NULL, &s->ov);
		if (!ok && GetLastError() != ERROR_IO_PENDING) {
			/* refused at once: no completion will come */
			io->res = GetLastError() == ERROR_HANDLE_EOF
					  ? 0
					  : runner_win_errno(GetLastError());
			d->done[d->ndone++] = io;
		}
	}
	d->npending = 0;
	return 0;
}

static int iocp_commit_op(struct runner_engine *e)
{
	return iocp_commit(e->priv);
}

static int iocp_getevents(struct runner_engine *e, unsigned min,
			  struct runner_io **done, unsigned max)
{
	struct iocp_data *d = e->priv;
	unsigned got = 0, i;
	ULONG n = 0;

	while (d->ndone && got < max)
		done[got++] = d->done[--d->ndone];
	if (got >= min || got == max)
		return (int)got;
	if (max - got > d->depth)
		max = d->depth + got;
	if (!GetQueuedCompletionStatusEx(d->port, d->ents, max - got, &n,
					 INFINITE, FALSE))
		return runner_win_errno(GetLastError());
	for (i = 0; i < n; i++) {
		struct iocp_slot *s = CONTAINING_RECORD(d->ents[i].lpOverlapped,
							struct iocp_slot, ov);
		DWORD bytes = 0;

		if (GetOverlappedResult(d->h, &s->ov, &bytes, FALSE))
			s->io->res = (int)bytes;
		else
			s->io->res = GetLastError() == ERROR_HANDLE_EOF
					     ? 0
					     : runner_win_errno(GetLastError());
		done[got++] = s->io;
	}
	return (int)got;
}

const struct runner_engine_ops runner_engine_iocp = {
	.name = "iocp",
	.flags = RUNNER_ENGINE_F_ASYNC | RUNNER_ENGINE_F_COMPLETION_PORT,
	.init = iocp_init,
	.queue = iocp_queue,
	.commit = iocp_commit_op,
	.getevents = iocp_getevents,
	.cleanup = iocp_cleanup,
};
