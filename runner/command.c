/*
 * command.c - command passes: a shell command from the profile, run in
 * the mount point of the fresh filesystem (or / on a raw target), timed
 * wall-clock, its exit status and the tail of its output kept. The seeds'
 * experiments as users ran them: copying a big file, `dd ... && sync`, an
 * apt-get upgrade.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_int.h"

#define TAIL_BYTES 2048u

enum pb_error runner_command_run(struct runner_pass_result *r, const char *cmd,
				 const char *stop_file, const char *cwd,
				 const char *device)
{
	char tail[TAIL_BYTES + 1], chunk[4096], mnt[PATH_MAX + 24],
		dev[PATH_MAX + 24];
	char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	const char *env[3] = {mnt, device ? dev : NULL, NULL};
	/* its own group, so an interrupt stops all it started; output and
	 * errors in one stream, as a terminal would show them */
	struct pb_child_spec sp = {.argv = argv,
				   .cwd = cwd,
				   .env = env,
				   .flags = PB_CHILD_OWN_GROUP |
					    PB_CHILD_MERGE_ERR};
	struct pb_child c;
	/* while it runs, the device under it: at rest, or stuck */
	struct runner_wait wait =
		RUNNER_WAIT_INIT("command", device ? device : cwd);
	size_t tlen = 0;
	uint64_t t0;
	bool killed = false;
	ssize_t n;

	r->exit_status = -1;
	snprintf(mnt, sizeof(mnt), "PROVBENCH_MOUNT=%s", cwd);
	if (device)
		snprintf(dev, sizeof(dev), "PROVBENCH_DEVICE=%s", device);
	t0 = pb_now_ns();
	if (pb_child_start(&c, &sp, r->error))
		return PB_ERR_CHILD;
	while (pb_child_open(&c)) {
		runner_stop_file_poll(stop_file, pb_now_ns());
		if (runner_stop_requested() && !killed) {
			pb_child_kill(&c);
			killed = true;
		}
		n = pb_child_read(&c, 100, chunk, sizeof(chunk));
		if (n > 0)
			pb_tail_add(tail, &tlen, TAIL_BYTES, chunk, (size_t)n);
		runner_wait_tick(&wait);
	}
	runner_wait_done(&wait);
	r->exit_status = pb_child_finish(&c);
	r->ns = pb_now_ns() - t0;
	tail[tlen] = '\0';
	free(r->output);
	r->output = strdup(tail);
	if (killed)
		return pb_fail(r->error, PB_ERR_INTERRUPTED, "command stopped");
	if (r->exit_status) {
		/* the last line of its output says most */
		char *end = tail + tlen, *line;

		while (end > tail && end[-1] == '\n')
			*--end = '\0';
		line = strrchr(tail, '\n');
		return pb_fail(r->error, PB_ERR_CHILD, "command exited %d%s%s",
			       r->exit_status, tlen ? ": " : "",
			       line ? line + 1 : tail);
	}
	r->complete = true;
	return PB_OK;
}
