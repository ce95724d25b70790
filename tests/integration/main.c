/*
 * main.c - the integration-test runner: suites that run the built
 * binaries on real files, loop devices and filesystems. The first argument
 * is the build directory holding the binaries.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "it.h"
#include "unit.h"

extern const struct pb_suite suite_runner_it, suite_vsphere_it,
	suite_harness_it, suite_report_it, suite_qemu_it, suite_install_it,
	suite_host_it, suite_labs_it, suite_sched_it;

static const struct pb_suite *const suites[] = {
	&suite_runner_it,  &suite_vsphere_it,
	&suite_harness_it, &suite_host_it,
	&suite_labs_it,	   &suite_report_it,
	&suite_qemu_it,	   &suite_install_it,
	&suite_sched_it,   NULL};

#define IT_DEADLINE_MS 120000u

static const char *build_dir = "build";
static char scratch[] = "/tmp/pb-it-XXXXXX";

const char *it_dir(void)
{
	return scratch;
}

const char *it_bin(const char *name)
{
	static char path[4][512];
	static unsigned k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", build_dir, name);
	return path[k];
}

const char *it_plain_bin(const char *name)
{
	static char path[4][512];
	static unsigned k;
	size_t n = strlen(build_dir);

	/* valgrind cannot run an ASan binary: the plain one beside it */
	k = (k + 1) % 4;
	if (n > 5 && !strcmp(build_dir + n - 5, "/asan"))
		snprintf(path[k], sizeof(path[k]), "%.*s/%s", (int)(n - 5),
			 build_dir, name);
	else
		snprintf(path[k], sizeof(path[k]), "%s/%s", build_dir, name);
	return path[k];
}

bool it_is_root(void)
{
	return geteuid() == 0;
}

int it_sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

bool it_fast(void)
{
	const char *v = getenv("PROVBENCH_IT_FAST");

	return v && *v && strcmp(v, "0");
}

double it_slower(void)
{
	const char *v = getenv("PROVBENCH_IT_SLOWER");
	double f = v ? strtod(v, NULL) : 1;

	return f >= 1 && f < 100 ? f : 1;
}

unsigned it_scaled(double seconds)
{
	return (unsigned)ceil(seconds * it_slower());
}

bool it_under_valgrind(void)
{
	const char *v = getenv("PROVBENCH_IT_VALGRIND");

	return v && *v && strcmp(v, "0");
}

/*
 * Exec argv; under PROVBENCH_IT_VALGRIND, provbench and the runner run
 * inside valgrind memcheck: a leak (definite or indirect) or a memory
 * error exits 99, which no test expects, so the test that ran it fails.
 */
void it_exec(char *const argv[], char *const envp[])
{
	const char *base = strrchr(argv[0], '/');
	char *vg[64];
	size_t n = 0, i;

	base = base ? base + 1 : argv[0];
	if (it_under_valgrind() &&
	    (!strcmp(base, "provbench") || !strcmp(base, "provbench-runner"))) {
		vg[n++] = "/usr/bin/valgrind";
		vg[n++] = "-q";
		vg[n++] = "--leak-check=full";
		vg[n++] = "--errors-for-leak-kinds=definite,indirect";
		vg[n++] = "--error-exitcode=99";
		/* no gdbserver FIFOs in /tmp: a case that kills its
		 * process would leave them (33 after a day's runs) */
		vg[n++] = "--vgdb=no";
		/* inlined functions' frames are not named in a trace (a
		 * frame's file and line still are): reading them was a
		 * seventh of each start, 0.09 of 0.64 CPU-s for provbench,
		 * whose libraries (libcurl's, libxml2's) load ~40 objects */
		vg[n++] = "--read-inline-info=no";
	}
	for (i = 0; argv[i] && n < 63; i++)
		vg[n++] = argv[i];
	vg[n] = NULL;
	if (envp)
		execve(vg[0], vg, envp);
	else
		execv(vg[0], vg);
	_exit(127);
}

int it_run(struct it_result *r, char *const argv[], int sig,
	   unsigned sig_after_ms)
{
	return it_run_env(r, argv, NULL, sig, sig_after_ms);
}

/* Wait until path holds written blocks (the child is doing its work, at
 * whatever speed: valgrind is ~50x slower), or the deadline passes. */
static void wait_written(const char *path, pid_t pid)
{
	struct timespec tick = {0, 10 * 1000000};
	struct stat st;
	unsigned waited;

	for (waited = 0; waited < IT_DEADLINE_MS / 2; waited += 10) {
		if (!stat(path, &st) && st.st_blocks > 0)
			return;
		siginfo_t si = {0};

		if (!waitid(P_PID, (id_t)pid, &si,
			    WEXITED | WNOHANG | WNOWAIT) &&
		    si.si_pid == pid)
			return; /* ended already: the caller sees why */
		nanosleep(&tick, NULL);
	}
}

static int run_env(struct it_result *r, char *const argv[], char *const envp[],
		   int sig, unsigned sig_after_ms, const char *ready);

int it_run_env(struct it_result *r, char *const argv[], char *const envp[],
	       int sig, unsigned sig_after_ms)
{
	return run_env(r, argv, envp, sig, sig_after_ms, NULL);
}

int it_run_signal_written(struct it_result *r, char *const argv[], int sig,
			  const char *path, unsigned after_ms)
{
	return run_env(r, argv, NULL, sig, after_ms, path);
}

void it_child_start(struct it_child *c, char *const argv[], char *const envp[])
{
	static unsigned n;
	int fo, fe;

	/* files of its own: a case may have several children at once */
	n++;
	snprintf(c->out, sizeof(c->out), "%s/.stdout.%u", scratch, n);
	snprintf(c->err, sizeof(c->err), "%s/.stderr.%u", scratch, n);
	snprintf(c->name, sizeof(c->name), "%s", argv[0]);
	fo = open(c->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(c->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	c->pid = fork();
	if (c->pid == 0) {
		dup2(fo, 1);
		dup2(fe, 2);
		it_exec(argv, envp);
	}
	close(fo);
	close(fe);
}

int it_child_finish(struct it_result *r, struct it_child *c)
{
	unsigned waited;
	int st = 0;

	memset(r, 0, sizeof(*r));
	/* a hung child fails its test instead of hanging the suite */
	for (waited = 0;; waited += 10) {
		struct timespec tick = {0, 10 * 1000000};

		if (waitpid(c->pid, &st, WNOHANG) == c->pid)
			break;
		if (waited >= IT_DEADLINE_MS) {
			fprintf(stderr, "\n%s: killed after %u ms\n", c->name,
				waited);
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &st, 0);
			break;
		}
		nanosleep(&tick, NULL);
	}
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = pb_slurp_file(c->out, NULL);
	r->err = pb_slurp_file(c->err, NULL);
	unlink(c->out);
	unlink(c->err);
	return r->status;
}

static int run_env(struct it_result *r, char *const argv[], char *const envp[],
		   int sig, unsigned sig_after_ms, const char *ready)
{
	struct it_child c;

	it_child_start(&c, argv, envp);
	if (sig && sig_after_ms) {
		struct timespec ts = {sig_after_ms / 1000,
				      (long)(sig_after_ms % 1000) * 1000000};

		if (ready)
			wait_written(ready, c.pid);
		nanosleep(&ts, NULL);
		kill(c.pid, sig);
	}
	return it_child_finish(r, &c);
}

void it_result_dispose(struct it_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

/*
 * The stopping signals at their defaults and unblocked, whatever the
 * suite inherited, for every process it starts: provbench keeps a signal
 * ignored at its start ignored (nohup's SIGHUP, a background job's
 * SIGINT), so a suite started in the background ran signal tests whose ^C
 * never arrived. A case that means a child to start with one ignored
 * (host_nohup_outlives_hangup) ignores it in that child.
 */
static void stop_signals_default(void)
{
	static const int stopping[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	sigset_t none;
	size_t i;

	for (i = 0; i < sizeof(stopping) / sizeof(stopping[0]); i++)
		signal(stopping[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int main(int argc, char **argv)
{
	int rc;

	if (argc > 1)
		build_dir = argv[1];
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 2;
	}
	/* what the programs under test make in "the" temporary directory
	 * (a runner's mount points, the simulator's datastores) is this
	 * run's own: other suites run at the same time */
	{
		char tmp[sizeof(scratch) + 8];

		snprintf(tmp, sizeof(tmp), "%s/tmp", scratch);
		if (mkdir(tmp, 0700) || setenv("TMPDIR", tmp, 1)) {
			perror(tmp);
			return 2;
		}
	}
	stop_signals_default();
	rc = pb_suites_run(suites, argc > 2 ? argv[2] : NULL);
	it_sh("rm -rf '%s'", scratch);
	return rc;
}

int it_first_screen(const char *page, const char *shot)
{
	int rc;

	/* the check on a copy (the page carries no script), the picture of
	 * the page itself */
	rc = it_sh("mkdir -p '%s' && { sed 's#</body></html>##' '%s'; "
		   "printf '<script>'; cat tests/data/reports/layout-check.js; "
		   "printf '</script></body></html>'; } > '%s.first.html' && "
		   "timeout 120 chromium --headless --no-sandbox --disable-gpu "
		   "--hide-scrollbars --no-first-run "
		   "--disable-background-networking --window-size=1366,768 "
		   "--virtual-time-budget=3000 --user-data-dir='%s/chr-first' "
		   "--dump-dom 'file://%s.first.html' > '%s.first.dom' "
		   "2>/dev/null && python3 tests/data/reports/check-layout.py "
		   "'%s.first.dom' 1 first 768 >&2",
		   it_bin("screens"), page, page, it_dir(), page, page, page);
	if (!rc)
		rc = it_sh("timeout 120 chromium --headless --no-sandbox "
			   "--disable-gpu --hide-scrollbars --no-first-run "
			   "--disable-background-networking "
			   "--window-size=1366,768 "
			   "--user-data-dir='%s/chr-shot' --screenshot='%s' "
			   "'file://%s' >/dev/null 2>&1 && test -s '%s'",
			   it_dir(), shot, page, shot);
	return rc;
}
