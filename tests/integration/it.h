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
/* Run argv and send sig after_ms after path first holds written blocks
 * (so a slow child, under valgrind, is signalled mid-work too). */
int it_run_signal_written(struct it_result *r, char *const argv[], int sig,
			  const char *path, unsigned after_ms);
void it_result_dispose(struct it_result *r);
/* A child started now and finished later, several at once if need be. */
struct it_child {
	pid_t pid;
	char name[200], out[600], err[600];
};
/* argv with exactly envp (NULL: the suite's), its output into files. */
void it_child_start(struct it_child *c, char *const argv[], char *const envp[]);
/* Wait for it (killed after the suite's deadline): its exit code, as
 * it_run's. */
int it_child_finish(struct it_result *r, struct it_child *c);
/* fn(arg) in this process, as provbench's main runs a command, with
 * exactly env's PROVBENCH_* variables (NULL-terminated "NAME=value", as
 * an it_env's vars; others of env set too): its return value (the exit
 * code) in r->status, what it printed in r->out and r->err. The suite's
 * variables and stop signals' handlers are as they were after. */
void it_inproc(struct it_result *r, char *const env[], int (*fn)(void *),
	       void *arg);
/* it_inproc's fn for `provbench run`: args a struct pb_run_args. */
int it_inproc_run(void *args);

/* The vCenter simulator fixture (tests/vcsim), one process per test. */
struct vcsim {
	pid_t pid;
	int in_fd; /* closing it stops the simulator */
	char url[256];
	char thumbprint[128];
	/* its TMPDIR, where its datastores' files are: its own */
	char tmp[600];
};

int vcsim_start(struct vcsim *v, const char *const *flags);
void vcsim_stop(struct vcsim *v);
struct it_env;
/* The environment a lab would set for this fixture, its state in state. */
void it_vcsim_env(struct it_env *e, const struct vcsim *v, const char *state);
/* A fixture's own page (/provbench-stats, /provbench-expire?after=N) as
 * JSON; NULL if none. */
json_t *it_vcsim_get(const struct vcsim *v, const char *path);
/* How many calls of op (all SOAP calls: NULL) the fixture answered. */
long it_soap_calls(const struct vcsim *v, const char *op);
/* A VM's disks as the server lists them, "key:file;..." (allocated). */
char *it_vm_disk_keys(const struct vcsim *v, const char *name);
/* A VM's power state (24 bytes) and Tools (32) as the server says. */
void it_vm_power(const struct vcsim *v, const char *name, char *power,
		 char *tools);
int it_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *it_dir(void);
const char *it_bin(const char *name);
/* Exec argv (with envp, or this environment), under valgrind when
 * PROVBENCH_IT_VALGRIND is set (`make test-valgrind`). */
void it_exec(char *const argv[], char *const envp[]) __attribute__((noreturn));
bool it_under_valgrind(void);
/* The same binary without sanitizers, for runs under valgrind. */
const char *it_plain_bin(const char *name);
bool it_is_root(void);
/* `make check`, the fast loop: the cases inside valgrind are skipped
 * (PROVBENCH_IT_FAST); `make test` runs them. */
bool it_fast(void);
/* How much slower than the reference machine this one is, as the tier
 * measured it (PROVBENCH_IT_SLOWER, run-all.sh's probe; 1 at least), and
 * seconds scaled by it: a short stall_s, or a bound on how soon something
 * is seen, that a starved TCG guest would miss on a machine half as fast
 * (issue 58). */
double it_slower(void);
unsigned it_scaled(double seconds);
#define IT_SKIP_IF_FAST()                                                      \
	do {                                                                   \
		if (it_fast())                                                 \
			PB_SKIP("valgrind: make test runs it, make check "     \
				"does not");                                   \
	} while (0)

/* ---- lab.c: shared by the end-to-end harness tests ---- */

/* Every signal that stops a run, and the exit code a stopped run gives
 * (the shell's 128 + the signal): the per-signal tests' table. */
struct it_signal {
	int sig;
	const char *name;
	int rc;
};
extern const struct it_signal it_stop_signals[];
extern const size_t it_nstop_signals;

/* A path in the scratch directory, in the caller's own array. */
#define SCRATCH(var, name)                                                     \
	char var[600];                                                         \
	snprintf(var, sizeof(var), "%s/%s", it_dir(), name)

/* An environment for a child: exactly these variables. */
struct it_env {
	char *vars[16];
	char buf[16][700];
	int n;
};

void it_env_add(struct it_env *e, const char *name, const char *val);
/* provbench A1 [A2 [A3 [A4]]] (NULL ends them) with exactly e's variables;
 * its exit code. */
int it_pb(struct it_result *r, struct it_env *e, const char *a1, const char *a2,
	  const char *a3, const char *a4);
/* The same with any number of arguments, NULL-terminated. */
int it_pbn(struct it_result *r, struct it_env *e, const char *const *args);
void it_write_file(const char *path, const char *text);
/* How many times needle occurs in the file (0 if unreadable). */
int it_count(const char *path, const char *needle);
/* The first screen of a report page at 1366x768 in headless Chromium
 * (issue 53): the answer and the penalty chart on it, at most 7 findings
 * unfolded, every chart with a text alternative (check-layout.py says
 * what is not), and its picture in shot (kept in build/screens/ for a
 * person to look at). 0 when it passes. */
int it_first_screen(const char *page, const char *shot);
/* The newest RESULTS/<run>/run.json, parsed; NULL if none. */
json_t *it_load_run_json(const char *results);
/* `provbench run -o results prof` in the background, its output kept in
 * the scratch directory for it_wait_stopped to show. */
pid_t it_spawn_run(struct it_env *e, const char *results, const char *prof);
/* The same for a run the case will SIGKILL: never inside valgrind, which
 * could check nothing there (nobody reads its report unless the run
 * never stops, and a killed process has no exit code to carry it); an
 * ASan build still dies at its first error, which the case sees as a run
 * that never got where it was sent. */
pid_t it_spawn_run_to_kill(struct it_env *e, const char *results,
			   const char *prof);
/* The same, its stdout and stderr on out_fd (a pipe nobody reads). */
pid_t it_spawn_run_to(struct it_env *e, const char *results, const char *prof,
		      int out_fd);
/* Wait until the journal shows a created, not yet destroyed disk. */
bool it_wait_created(const char *journal, unsigned ms);
/* Wait until needle occurs n times or more in the journal. */
bool it_wait_journal(const char *journal, const char *needle, int n,
		     unsigned ms);
/* Two targets at once, "first" and "second" in two directories. */
struct it_two {
	const char *name, *backend, *prof, *res, *d1, *d2;
	const char *disk_size, *modes, *workload; /* modes: "\"thin\"" */
	unsigned nmodes, reps;
};
/*
 * Write that profile (concurrency 2), check it and run it: the plan
 * names both, the verdict compares the modes across them and says the
 * wave's sum; in run.json each target describes its own directory, each
 * result is in a wave of one mode on both with its disk in its target's
 * directory, summary.csv has a row per target and mode. The run's output
 * stays in r (the caller disposes); run.json returned (or NULL).
 */
json_t *it_two_targets(struct it_result *r, struct it_env *e,
		       const struct it_two *t);
/* Wait (up to ms) until pid has stopped itself (SIGSTOP at
 * PROVBENCH_STOP_AT): true, or false if it ended or never did, saying
 * how it ended and the end of its output (a spawned run's). */
bool it_wait_stopped(pid_t pid, unsigned ms);
/* A loop device over file (losetup), its path into dev; false if none. */
bool it_losetup(char *dev, size_t len, const char *file);
/* The newest RESULTS/<run>/ directory (allocated), or NULL. */
char *it_newest_dir(const char *results);

#endif
