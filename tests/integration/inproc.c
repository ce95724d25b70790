/*
 * inproc.c - a provbench command run inside the suite's own process, as
 * provbench's main runs it: for the cases that run a command many times
 * (a fault at every step) and must see a backend the suite adds itself.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "it.h"

void it_inproc(struct it_result *r, const char *state, int (*fn)(void *),
	       void *arg)
{
	SCRATCH(out, ".ip-out");
	SCRATCH(err, ".ip-err");
	int so, se, fo, fe;
	struct sigaction old;

	memset(r, 0, sizeof(*r));
	setenv("PROVBENCH_STATE_DIR", state, 1);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fo, 1);
	dup2(fe, 2);
	/* the command catches SIGINT for itself; the suite's is restored */
	sigaction(SIGINT, NULL, &old);
	r->status = fn(arg);
	sigaction(SIGINT, &old, NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	r->out = pb_slurp_file(out, NULL);
	r->err = pb_slurp_file(err, NULL);
	unsetenv("PROVBENCH_STATE_DIR");
}
