/*
 * fuzz_args.c - libFuzzer target: provbench-runner's command line (one
 * argument per line of the input) and the size parser on every argument.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define MAXARGS 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[MAXARGS + 2], *p, *nl;
	struct runner_opts o;
	enum runner_action act;
	char err[PB_ERRBUF_SIZE];
	uint64_t v;
	int argc = 1;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argv[0] = "provbench-runner";
	for (p = text; argc <= MAXARGS && p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		argv[argc++] = p;
		pb_size_parse(&v, p, err);
	}
	argv[argc] = NULL;
	runner_opts_init(&o);
	runner_opts_parse(&o, &act, argc, argv, err);
	free(text);
	return 0;
}
