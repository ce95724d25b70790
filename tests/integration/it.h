/*
 * it.h - helpers for integration tests: run a built binary with its
 * output captured, read files back, run shell setup commands.
 */
#ifndef PB_IT_H
#define PB_IT_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

struct it_result {
	int status; /* exit code, or 128 + signal */
	char *out;  /* captured stdout, NUL-terminated */
	char *err;  /* captured stderr */
};

/* Run argv (NULL-terminated); sig_after_ms > 0 sends sig then. */
int it_run(struct it_result *r, char *const argv[], int sig,
	   unsigned sig_after_ms);
void it_result_dispose(struct it_result *r);
int it_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *it_dir(void);
const char *it_bin(const char *name);
bool it_is_root(void);

#endif
