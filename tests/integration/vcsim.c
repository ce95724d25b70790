/*
 * vcsim.c - start and stop the vCenter simulator fixture: it prints
 * "URL THUMBPRINT" on its first line and serves until its stdin closes.
 * The password it accepts is "secret", passed in its environment.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "it.h"

int vcsim_start(struct vcsim *v, const char *const *flags)
{
	int in[2], out[2];
	char *argv[16], line[512];
	FILE *fp;
	int n = 0;

	memset(v, 0, sizeof(*v));
	v->pid = -1;
	if (pipe(in) || pipe(out))
		return -1;
	argv[n++] = (char *)it_bin("vcsim");
	while (flags && *flags && n < 15)
		argv[n++] = (char *)*flags++;
	argv[n] = NULL;
	v->pid = fork();
	if (v->pid == 0) {
		char log[600];
		int fd;

		/* its log (TLS handshake noise included) goes to a file */
		snprintf(log, sizeof(log), "%s/vcsim.log", it_dir());
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0)
			dup2(fd, 2);
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		setenv("VCSIM_USERNAME", "user", 1);
		setenv("VCSIM_PASSWORD", "secret", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	v->in_fd = in[1];
	fp = fdopen(out[0], "r");
	if (!fp || !fgets(line, sizeof(line), fp) ||
	    sscanf(line, "%255s %127s", v->url, v->thumbprint) != 2) {
		if (fp)
			fclose(fp);
		vcsim_stop(v);
		return -1;
	}
	fclose(fp);
	return 0;
}

void vcsim_stop(struct vcsim *v)
{
	int st;

	if (v->pid <= 0)
		return;
	close(v->in_fd);
	/* it exits when stdin closes; a hung one is killed */
	for (int i = 0; i < 200; i++) {
		if (waitpid(v->pid, &st, WNOHANG) == v->pid) {
			v->pid = -1;
			return;
		}
		usleep(10000);
	}
	kill(v->pid, SIGKILL);
	waitpid(v->pid, &st, 0);
	v->pid = -1;
}
