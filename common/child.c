/*
 * child.c - child processes, one way for the whole project: the runner's
 * mkfs and command passes, the qemu backend's qemu-img and qemu. Spawn
 * with pipes, read what comes back (stdout to the caller, the tail of
 * stderr kept for its last line), and one convention for how it ended:
 * its exit code, or 128 + the signal that killed it, as a shell says.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static void child_exec(const struct pb_child_spec *sp, int out[2], int err[2],
		       pid_t parent)
{
	int fd = open("/dev/null", O_RDWR);
	const char *const *e;

	if (sp->flags & PB_CHILD_OWN_GROUP)
		/* a terminal's ^C reaches the parent, which stops the child
		 * (and all it started) itself, in order */
		setpgid(0, 0);
	if (sp->flags & PB_CHILD_DIE_WITH_US) {
		/* it dies with its parent, even a SIGKILLed one; a parent
		 * gone before the prctl took effect is caught by the check */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
	}
	if (fd >= 0)
		dup2(fd, 0);
	dup2(sp->flags & PB_CHILD_NO_STDOUT ? fd : out[1], 1);
	dup2(sp->flags & PB_CHILD_MERGE_ERR ? out[1] : err[1], 2);
	closefrom(3);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (sp->cwd && chdir(sp->cwd)) {
		dprintf(2, "%s: %s\n", sp->cwd, strerror(errno));
		_exit(126);
	}
	for (e = sp->env; e && *e; e++)
		putenv((char *)*e);
	execvp(sp->argv[0], sp->argv);
	dprintf(2, "%s: %s\n", sp->argv[0], strerror(errno));
	_exit(127);
}

enum pb_error pb_child_start(struct pb_child *c, const struct pb_child_spec *sp,
			     char *errbuf)
{
	int out[2] = {-1, -1}, err[2] = {-1, -1};
	pid_t parent = getpid();

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->out = c->err = -1;
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		goto fail;
	c->pid = fork();
	if (c->pid < 0)
		goto fail;
	if (c->pid == 0)
		child_exec(sp, out, err, parent);
	if (sp->flags & PB_CHILD_OWN_GROUP)
		setpgid(c->pid, c->pid); /* both sides: no race */
	c->group = (sp->flags & PB_CHILD_OWN_GROUP) != 0;
	close(out[1]);
	close(err[1]);
	c->out = out[0];
	c->err = err[0];
	return PB_OK;
fail:
	pb_fail(errbuf, PB_ERR_CHILD, "%s: cannot start: %s", sp->argv[0],
		strerror(errno));
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	c->pid = -1;
	return PB_ERR_CHILD;
}

bool pb_child_open(const struct pb_child *c)
{
	return c->out >= 0 || c->err >= 0;
}

ssize_t pb_child_read(struct pb_child *c, int timeout_ms, char *chunk,
		      size_t len)
{
	struct pollfd pf[2] = {{.fd = c->out, .events = POLLIN},
			       {.fd = c->err, .events = POLLIN}};
	ssize_t n;
	int i;

	if (!pb_child_open(c) || poll(pf, 2, timeout_ms) <= 0)
		return 0;
	for (i = 0; i < 2; i++) {
		int *fd = i ? &c->err : &c->out;

		if (*fd < 0 || !pf[i].revents)
			continue;
		n = read(*fd, chunk, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(*fd);
			*fd = -1;
		} else if (i == 1) {
			pb_tail_add(c->errtail, &c->errlen,
				    sizeof(c->errtail) - 1, chunk, (size_t)n);
		} else {
			return n; /* stdout's bytes are the caller's */
		}
	}
	return 0;
}

const char *pb_child_last_line(struct pb_child *c)
{
	char *nl;

	c->errtail[c->errlen] = '\0';
	while (c->errlen && (c->errtail[c->errlen - 1] == '\n' ||
			     c->errtail[c->errlen - 1] == '\r'))
		c->errtail[--c->errlen] = '\0';
	nl = strrchr(c->errtail, '\n');
	return nl ? nl + 1 : c->errtail;
}

void pb_child_kill(struct pb_child *c)
{
	pb_child_signal(c, SIGKILL);
}

void pb_child_signal(struct pb_child *c, int sig)
{
	if (c->pid > 0)
		kill(c->group ? -c->pid : c->pid, sig);
}

int pb_child_finish(struct pb_child *c)
{
	int st = 0, rc = -1;

	if (c->pid > 0) {
		while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
			;
		rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (c->out >= 0)
		close(c->out);
	if (c->err >= 0)
		close(c->err);
	c->out = c->err = -1;
	c->pid = -1;
	return rc;
}

int pb_child_run(const struct pb_child_spec *sp, struct pb_buf *out, char *msg,
		 size_t msglen, char *errbuf)
{
	struct pb_child c;
	char chunk[4096];
	bool killed = false;
	ssize_t n;
	int rc;

	msg[0] = '\0';
	if (pb_child_start(&c, sp, errbuf))
		return -1;
	while (pb_child_open(&c)) {
		n = pb_child_read(&c, sp->tick || sp->stop ? 250 : -1, chunk,
				  sizeof(chunk));
		if (n > 0 && out)
			pb_buf_add(out, chunk, (size_t)n);
		if (sp->tick)
			sp->tick(sp->tick_arg);
		if (sp->stop && !killed && sp->stop(sp->stop_arg)) {
			pb_child_kill(&c);
			killed = true;
		}
	}
	rc = pb_child_finish(&c);
	snprintf(msg, msglen, "%s", pb_child_last_line(&c));
	return rc;
}
