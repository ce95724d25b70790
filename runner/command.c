/*
 * command.c - command passes: a shell command from the profile, run in
 * the mount point of the fresh filesystem (or / on a raw target), timed
 * wall-clock, its exit status and the tail of its output kept. The seeds'
 * experiments as users ran them: copying a big file, `dd ... && sync`, an
 * apt-get upgrade.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner_int.h"

#define TAIL_BYTES 2048u

/* Keep the last TAIL_BYTES of what came. */
static void tail_add(char *tail, size_t *len, const char *s, size_t n)
{
	if (n >= TAIL_BYTES) {
		memcpy(tail, s + n - TAIL_BYTES, TAIL_BYTES);
		*len = TAIL_BYTES;
		return;
	}
	if (*len + n > TAIL_BYTES) {
		size_t drop = *len + n - TAIL_BYTES;

		memmove(tail, tail + drop, *len - drop);
		*len -= drop;
	}
	memcpy(tail + *len, s, n);
	*len += n;
}

enum pb_error runner_command_run(struct runner_pass_result *r, const char *cmd,
				 const char *cwd, const char *device)
{
	char tail[TAIL_BYTES + 1], chunk[4096];
	size_t tlen = 0;
	int pfd[2], st = 0;
	uint64_t t0;
	pid_t pid;
	bool killed = false;

	r->exit_status = -1;
	if (pipe2(pfd, O_CLOEXEC))
		return pb_fail(r->error, PB_ERR_IO, "pipe: %s",
			       strerror(errno));
	t0 = pb_now_ns();
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return pb_fail(r->error, PB_ERR_IO, "fork: %s",
			       strerror(errno));
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		/* its own group, so an interrupt stops all it started */
		setpgid(0, 0);
		dup2(nul, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (chdir(cwd))
			_exit(126);
		setenv("PROVBENCH_MOUNT", cwd, 1);
		if (device)
			setenv("PROVBENCH_DEVICE", device, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid); /* both sides: no race with the child's own */
	close(pfd[1]);
	for (;;) {
		struct pollfd pf = {.fd = pfd[0], .events = POLLIN};
		int pr = poll(&pf, 1, 100);
		ssize_t n;

		if (runner_stop_requested() && !killed) {
			kill(-pid, SIGKILL);
			killed = true;
		}
		if (pr <= 0)
			continue;
		n = read(pfd[0], chunk, sizeof(chunk));
		if (n <= 0)
			break;
		tail_add(tail, &tlen, chunk, (size_t)n);
	}
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->ns = pb_now_ns() - t0;
	tail[tlen] = '\0';
	free(r->output);
	r->output = strdup(tail);
	r->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (killed)
		return pb_fail(r->error, PB_ERR_INTERRUPTED, "command stopped");
	if (r->exit_status) {
		/* the last line of its output says most */
		char *end = tail + tlen, *line;

		while (end > tail && end[-1] == '\n')
			*--end = '\0';
		line = strrchr(tail, '\n');
		return pb_fail(r->error, PB_ERR_FAULT, "command exited %d%s%s",
			       r->exit_status, tlen ? ": " : "",
			       line ? line + 1 : tail);
	}
	r->complete = true;
	return PB_OK;
}
