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
/* The same with exactly the environment envp. */
int it_run_env(struct it_result *r, char *const argv[], char *const envp[],
	       int sig, unsigned sig_after_ms);
void it_result_dispose(struct it_result *r);

/* The vCenter simulator fixture (tests/vcsim), one process per test. */
struct vcsim {
	pid_t pid;
	int in_fd; /* closing it stops the simulator */
	char url[256];
	char thumbprint[128];
};

int vcsim_start(struct vcsim *v, const char *const *flags);
void vcsim_stop(struct vcsim *v);
int it_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *it_dir(void);
const char *it_bin(const char *name);
bool it_is_root(void);

#endif
