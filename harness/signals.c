/*
 * signals.c - the signals that stop a run: each sets run_stop, which every
 * wait polls (the main thread takes them; workers block them), so a run
 * stops in order, its guest stopped and its disk destroyed.
 */
#include <signal.h>
#include <string.h>

#include "run_int.h"

volatile sig_atomic_t run_stop;

static void on_signal(int sig)
{
	(void)sig;
	run_stop = 1;
}

void run_signals_catch(void)
{
	struct sigaction sa;

	/* no SA_RESTART: waits return and see the flag; a command that
	 * runs again in one process (the in-process tests) starts clear */
	run_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
