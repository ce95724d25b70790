/*
 * qmp.c - a guest that stopped making progress, seen from the host: what
 * qemu itself says through its monitor (QMP, a unix socket each boot has),
 * and what the kernel says of the qemu process. Written into a stall's
 * diagnostics directory (qmp.json) before qemu is stopped:
 * query-status (running, paused), query-blockstats and query-block (the
 * disk's requests done, its I/O status), and for each virtio-blk device
 * its first queue's state (x-query-virtio-queue-status: "inuse", requests
 * qemu took from the guest and has not answered; QEMU 7.2 and later).
 * With the process's own side (local.c's host.txt: qemu's threads and
 * its io_uring rings), it tells a request stuck in qemu's I/O path from
 * one the guest never saw answered.
 *
 * The socket's directory is made and removed here too, with what runs
 * killed by SIGKILL left of theirs.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "qb.h"

struct qmp {
	int fd;
	char buf[1 << 16];
	size_t len;
};

/* One line of the monitor's, parsed; events are skipped. NULL past
 * 3 s. */
static json_t *qmp_read(struct qmp *q)
{
	uint64_t t0 = pb_now_ns();

	for (;;) {
		char *nl = memchr(q->buf, '\n', q->len);
		struct pollfd pfd = {.fd = q->fd, .events = POLLIN};
		ssize_t n;

		if (nl) {
			json_t *j;

			*nl = '\0';
			j = json_loads(q->buf, 0, NULL);
			q->len -= (size_t)(nl + 1 - q->buf);
			memmove(q->buf, nl + 1, q->len);
			if (j && json_object_get(j, "event")) {
				json_decref(j);
				continue;
			}
			return j;
		}
		if (q->len == sizeof(q->buf) ||
		    pb_now_ns() - t0 > 3000000000ull || poll(&pfd, 1, 500) < 0)
			return NULL;
		if (!(pfd.revents & (POLLIN | POLLHUP)))
			continue;
		n = read(q->fd, q->buf + q->len, sizeof(q->buf) - q->len);
		if (n <= 0)
			return NULL;
		q->len += (size_t)n;
	}
}

/* A command's reply (its "return" or "error"), or NULL. */
static json_t *qmp_ask(struct qmp *q, json_t *cmd)
{
	char *text = json_dumps(cmd, JSON_COMPACT);
	bool sent = false;

	if (text) {
		size_t n = strlen(text);

		text[n] = '\n';
		sent = write(q->fd, text, n + 1) == (ssize_t)(n + 1);
		free(text);
	}
	json_decref(cmd);
	return sent ? qmp_read(q) : NULL;
}

static bool qmp_open(struct qmp *q, const char *sock)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	json_t *r;

	q->len = 0;
	q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (q->fd < 0)
		return false;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", sock);
	if (connect(q->fd, (struct sockaddr *)&a, sizeof(a))) {
		close(q->fd);
		return false;
	}
	json_decref(qmp_read(q)); /* the greeting */
	r = qmp_ask(q, json_pack("{s:s}", "execute", "qmp_capabilities"));
	json_decref(r);
	return r != NULL;
}

/* every virtio-blk device's first queue, as qemu holds it */
static void virtio_queues(struct qmp *q, json_t *out)
{
	json_t *list =
		qmp_ask(q, json_pack("{s:s}", "execute", "x-query-virtio"));
	json_t *dev, *qs = json_array();
	size_t i;

	json_array_foreach(json_object_get(list, "return"), i, dev)
	{
		const char *path =
			json_string_value(json_object_get(dev, "path"));
		const char *name =
			json_string_value(json_object_get(dev, "name"));

		if (!path || !name || !strstr(name, "virtio-blk"))
			continue;
		json_array_append_new(
			qs, json_pack("{s:s,s:o*}", "path", path, "queue",
				      qmp_ask(q, json_pack("{s:s,s:{s:s,s:i}}",
							   "execute",
							   "x-query-virtio-"
							   "queue-status",
							   "arguments", "path",
							   path, "queue", 0))));
	}
	json_object_set_new(out, "virtio_blk_queues", qs);
	json_decref(list);
}

enum pb_error qb_qmp_dump(const char *sock, const char *path, char *errbuf)
{
	static const char *const cmds[] = {"query-status", "query-blockstats",
					   "query-block"};
	struct qmp q;
	json_t *out = json_object();
	size_t i;
	enum pb_error err = PB_OK;

	if (!qmp_open(&q, sock)) {
		json_decref(out);
		return pb_fail(errbuf, PB_ERR_IO, "qemu's monitor %s: %s", sock,
			       strerror(errno));
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		json_object_set_new(
			out, cmds[i],
			qmp_ask(&q, json_pack("{s:s}", "execute", cmds[i])));
	virtio_queues(&q, out);
	close(q.fd);
	if (json_dump_file(out, path, JSON_INDENT(1)))
		err = pb_fail(errbuf, PB_ERR_IO, "%s: cannot write", path);
	json_decref(out);
	return err;
}

/*
 * ---- the socket's directory ----
 * One in /tmp each boot: a unix socket's path is short (108 bytes), too
 * short for some state directories. A run killed with SIGKILL cannot
 * remove its own, so each new one first removes those: provbench's by
 * name, this user's, ten minutes old or more, and nobody listening on
 * the socket in it (or no socket; a "qmp" that is not a socket is not
 * ours, and stays). A boot in progress listens, however long it runs;
 * a directory just made, whose qemu is not listening yet, is young.
 */
#define QMP_TMP	    "/tmp"
#define QMP_PREFIX  "pb-qmp-"
#define QMP_STALE_S 600

/* Does anything listen on sock? (a socket that refuses, or none, is
 * left over; anything else is not ours to judge) */
static bool qmp_listening(const char *sock)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int fd, rc, e;

	if (strlen(sock) >= sizeof(a.sun_path))
		return true;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return true;
	memcpy(a.sun_path, sock, strlen(sock) + 1);
	rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
	e = errno;
	close(fd);
	return !rc || (e != ECONNREFUSED && e != ENOENT);
}

static void qmp_dirs_sweep(void)
{
	DIR *d = opendir(QMP_TMP);
	struct dirent *e;
	time_t now = time(NULL);

	while (d && (e = readdir(d))) {
		char dir[300], sock[320];
		struct stat st, ss;

		if (strncmp(e->d_name, QMP_PREFIX, strlen(QMP_PREFIX)) ||
		    strlen(e->d_name) != strlen(QMP_PREFIX) + 6)
			continue;
		snprintf(dir, sizeof(dir), QMP_TMP "/%s", e->d_name);
		snprintf(sock, sizeof(sock), "%s/qmp", dir);
		if (lstat(dir, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid() || now - st.st_mtime < QMP_STALE_S ||
		    (!lstat(sock, &ss) && !S_ISSOCK(ss.st_mode)) ||
		    qmp_listening(sock))
			continue;
		unlink(sock);
		rmdir(dir); /* anything else in it: kept, and the dir */
	}
	if (d)
		closedir(d);
}

bool qb_qmp_dir_make(char *sock, size_t len)
{
	char dir[] = QMP_TMP "/" QMP_PREFIX "XXXXXX";

	qmp_dirs_sweep();
	if (!mkdtemp(dir))
		return false;
	snprintf(sock, len, "%s/qmp", dir);
	return true;
}

void qb_qmp_dir_remove(const char *sock)
{
	char dir[320];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", sock);
	slash = strrchr(dir, '/');
	if (!slash)
		return;
	*slash = '\0';
	unlink(sock);
	rmdir(dir);
}
