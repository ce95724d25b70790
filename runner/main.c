/*
 * main.c - provbench-runner's entry point: parse, run, map the outcome to
 * the exit codes of DESIGN.md (0 done, 1 failed, 2 usage/refused,
 * 130 interrupted).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

static void on_signal(int sig)
{
	(void)sig;
	runner_request_stop();
}

int main(int argc, char **argv)
{
	struct runner_opts opts = RUNNER_OPTS_INIT;
	enum runner_action action;
	char errbuf[PB_ERRBUF_SIZE] = "";
	struct sigaction sa;
	enum pb_error err;

	err = runner_opts_parse(&opts, &action, argc, argv, errbuf);
	if (err) {
		pb_report("provbench-runner", NULL, errbuf);
		return pb_exit_code(err);
	}
	if (action == RUNNER_ACTION_HELP) {
		fputs(runner_usage(), stdout);
		return PB_EXIT_OK;
	}
	if (action == RUNNER_ACTION_VERSION) {
		printf("provbench-runner %s\n", PB_VERSION);
		return PB_EXIT_OK;
	}

	/* no SA_RESTART: a blocked wait returns EINTR and sees the flag */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	err = runner_run(&opts, errbuf);
	if (err)
		pb_report("provbench-runner", NULL,
			  errbuf[0] ? errbuf : pb_strerror(err));
	return pb_exit_code(err);
}
