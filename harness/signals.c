/*
 * signals.c - the signals that stop a run: each sets run_stop to its
 * number, which every wait polls (the main thread takes them; workers
 * block them), so a run stops in order, its guest stopped and its disk
 * destroyed, whatever asked: ^C (SIGINT), a service manager (SIGTERM),
 * an ssh session that dropped (SIGHUP), ^\ (SIGQUIT). A closed stdout
 * (`provbench run ... | head`) is not one of them: SIGPIPE is ignored, and
 * what could not be printed is not printed. A signal already ignored when
 * provbench starts (nohup's SIGHUP) stays ignored.
 */
#include <signal.h>
#include <string.h>

#include "run_int.h"

volatile sig_atomic_t run_stop;

static const int stopping[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSTOPPING (sizeof(stopping) / sizeof(stopping[0]))

static void on_signal(int sig)
{
	/* the first one is the one the run says stopped it */
	if (!run_stop)
		run_stop = sig;
}

void run_signals_catch(void)
{
	struct sigaction sa;
	size_t i;

	/* no SA_RESTART: waits return and see the flag; a command that
	 * runs again in one process (the in-process tests) starts clear */
	run_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSTOPPING; i++) {
		struct sigaction was;

		/* a signal ignored when we started stays ignored, as a
		 * shell's trap leaves it: `nohup provbench run` is asked
		 * to outlive its ssh session, and a background job's ^C
		 * was never meant for it */
		if (!sigaction(stopping[i], NULL, &was) &&
		    was.sa_handler == SIG_IGN)
			continue;
		sigaction(stopping[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
}

void run_signals_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NSTOPPING; i++)
		sigaddset(set, stopping[i]);
}

const char *run_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	default:
		return "a signal";
	}
}
