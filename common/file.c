/*
 * file.c - whole-file reads, and writes that are never torn: a temporary
 * file beside the target, fsynced, renamed over it, the directory fsynced.
 * On Windows (the runner's build) the rename is MoveFileEx replacing the
 * file, written through; a directory is not opened there.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

#ifdef _WIN32
#include <windows.h>
#endif

char *pb_slurp_file(const char *path, size_t *len)
{
	struct pb_buf b = PB_BUF_INIT(1u << 30);
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (pb_buf_add(&b, chunk, (size_t)n))
			break;
	close(fd);
	if (n != 0 || pb_buf_add(&b, "", 0)) {
		pb_buf_dispose(&b);
		errno = n < 0 ? errno : EFBIG;
		return NULL;
	}
	return pb_buf_steal(&b, len);
}

enum pb_error pb_write_atomic(const char *path, const void *data, size_t len,
			      char *errbuf)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	const char *p = data;
	size_t done = 0;
	ssize_t w;
	int fd, dfd;

	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return pb_fail(errbuf, PB_ERR_IO, "%s: cannot create: %s", path,
			       strerror(errno));
#ifdef _WIN32
	/* mkstemp's file is text mode there: newlines would grow a \r */
	setmode(fd, O_BINARY);
#else
	/* results and reports are for reading (mkstemp makes 0600); nothing
	 * written this way holds a secret */
	fchmod(fd, 0644);
#endif
	while (done < len) {
		w = write(fd, p + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		done += (size_t)w;
	}
#ifdef _WIN32
	if (_commit(fd))
		goto fail;
	close(fd);
	fd = -1;
	if (!MoveFileExA(tmp, path,
			 MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
		errno = EACCES;
		goto fail;
	}
	(void)dir;
	(void)dfd;
#else
	if (fsync(fd))
		goto fail;
	close(fd);
	fd = -1;
	if (rename(tmp, path))
		goto fail;
	/* the rename itself must survive a crash */
	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
#endif
	return PB_OK;
fail:
	pb_fail(errbuf, PB_ERR_IO, "%s: write failed: %s", path,
		strerror(errno ? errno : EIO));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return PB_ERR_IO;
}
