/*
 * inproc.c - a provbench command run inside the suite's own process, as
 * provbench's main runs it: for the cases that run a command many times
 * (a fault at every step) and must see a backend the suite adds itself.
 * What the command sees is what a process of its own would: exactly the
 * given PROVBENCH_* variables, the suite's signal handlers undone; what
 * the suite had is put back after.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "harness_int.h"
#include "it.h"

extern char **environ;

#define IP_MAX_VARS 64

/* The variables a command changes, and what they were before it. */
struct ip_env {
	char *name[IP_MAX_VARS], *was[IP_MAX_VARS];
	size_t n;
};

/* Remember name's value (once) in saved. */
static void ip_env_save(struct ip_env *saved, const char *name, size_t len)
{
	const char *v;
	size_t i;

	for (i = 0; i < saved->n; i++)
		if (strlen(saved->name[i]) == len &&
		    !strncmp(saved->name[i], name, len))
			return;
	if (saved->n == IP_MAX_VARS) {
		/* a variable left as it was would be the suite's, not the
		 * case's: no command runs so */
		fprintf(stderr, "\nit_inproc: more than %d variables\n",
			IP_MAX_VARS);
		abort();
	}
	saved->name[saved->n] = strndup(name, len);
	v = getenv(saved->name[saved->n]);
	saved->was[saved->n] = v ? strdup(v) : NULL;
	saved->n++;
}

/* The suite's PROVBENCH_* variables unset, env's ("NAME=value") set. */
static void ip_env_enter(struct ip_env *saved, char *const env[])
{
	size_t i;

	memset(saved, 0, sizeof(*saved));
	for (i = 0; environ[i]; i++)
		if (!strncmp(environ[i], "PROVBENCH_", 10))
			ip_env_save(saved, environ[i],
				    strcspn(environ[i], "="));
	for (i = 0; env && env[i]; i++)
		ip_env_save(saved, env[i], strcspn(env[i], "="));
	for (i = 0; i < saved->n; i++)
		unsetenv(saved->name[i]);
	for (i = 0; env && env[i]; i++) {
		char *name = strndup(env[i], strcspn(env[i], "="));

		setenv(name, env[i] + strlen(name) + 1, 1);
		free(name);
	}
}

static void ip_env_leave(struct ip_env *saved)
{
	size_t i;

	for (i = 0; i < saved->n; i++) {
		if (saved->was[i])
			setenv(saved->name[i], saved->was[i], 1);
		else
			unsetenv(saved->name[i]);
		free(saved->name[i]);
		free(saved->was[i]);
	}
	saved->n = 0;
}

void it_inproc(struct it_result *r, char *const env[], int (*fn)(void *),
	       void *arg)
{
	char out[600], err[600];
	int so, se, fo, fe;
	struct sigaction old[8];
	struct ip_env saved;
	size_t i;

	/* the process's own files: a case's forked parts run commands at
	 * once */
	snprintf(out, sizeof(out), "%s/.ip-out.%ld", it_dir(), (long)getpid());
	snprintf(err, sizeof(err), "%s/.ip-err.%ld", it_dir(), (long)getpid());
	memset(r, 0, sizeof(*r));
	ip_env_enter(&saved, env);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fo, 1);
	dup2(fe, 2);
	/* the command catches the stop signals for itself, as a run does:
	 * the suite's handlers are put back */
	for (i = 0; i < it_nstop_signals; i++)
		sigaction(it_stop_signals[i].sig, NULL, &old[i]);
	r->status = fn(arg);
	for (i = 0; i < it_nstop_signals; i++)
		sigaction(it_stop_signals[i].sig, &old[i], NULL);
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
	unlink(out);
	unlink(err);
	ip_env_leave(&saved);
}

int it_inproc_run(void *args)
{
	return pb_run(args);
}
