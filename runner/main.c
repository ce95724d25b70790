/*
 * main.c - provbench-runner's entry point: parse, run, map the outcome to
 * the exit codes of docs/DESIGN.md (0 done, 1 failed, 2 usage/refused,
 * 130 interrupted).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

/*
 * --log-file FILE: stderr goes there (appended), from the first message
 * on, a bad argument's included. In a guest nobody reads the runner's
 * stderr; the harness fetches this file to say why a run failed.
 */
static void log_file(int argc, char **argv)
{
	int i, fd;

	for (i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "--log-file"))
			continue;
		fd = open(argv[i + 1],
			  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		return;
	}
}

int main(int argc, char **argv)
{
	struct runner_opts opts;
	enum runner_action action;
	char errbuf[PB_ERRBUF_SIZE] = "";
	enum pb_error err;

	runner_opts_init(&opts);
	log_file(argc, argv);
	err = runner_opts_parse(&opts, &action, argc, argv, errbuf);
	if (err) {
		pb_error_print("provbench-runner", NULL, errbuf);
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

	runner_stop_handlers_install();

	err = runner_run(&opts, errbuf);
	if (err)
		pb_error_print("provbench-runner", NULL,
			       errbuf[0] ? errbuf : pb_strerror(err));
	return pb_exit_code(err);
}
