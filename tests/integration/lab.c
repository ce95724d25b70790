/*
 * lab.c - helpers the end-to-end harness tests share: an environment
 * built up variable by variable, files written and counted, `provbench
 * run` in the background, the journal watched, run.json read back.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "it.h"
#include "unit.h"

void it_env_add(struct it_env *e, const char *name, const char *val)
{
	snprintf(e->buf[e->n], sizeof(e->buf[e->n]), "%s=%s", name, val);
	e->vars[e->n] = e->buf[e->n];
	e->vars[++e->n] = NULL;
}

int it_pb(struct it_result *r, struct it_env *e, const char *a1, const char *a2,
	  const char *a3, const char *a4)
{
	char *argv[] = {(char *)it_bin("provbench"),
			(char *)a1,
			(char *)a2,
			(char *)a3,
			(char *)a4,
			NULL};

	return it_run_env(r, argv, e->vars, 0, 0);
}

int it_pbn(struct it_result *r, struct it_env *e, const char *const *args)
{
	char *argv[16] = {(char *)it_bin("provbench")};
	size_t i;

	for (i = 0; args[i] && i + 2 < 16; i++)
		argv[i + 1] = (char *)args[i];
	return it_run_env(r, argv, e->vars, 0, 0);
}

void it_write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs(text, fp);
	fclose(fp);
}

int it_count(const char *path, const char *needle)
{
	char *text = pb_slurp_file(path, NULL), *p;
	int n = 0;

	for (p = text; p && (p = strstr(p, needle)); p++)
		n++;
	free(text);
	return n;
}

json_t *it_load_run_json(const char *results)
{
	char *dir = it_newest_dir(results), path[800];

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/run.json", dir);
	free(dir);
	return json_load_file(path, 0, NULL);
}

/* `provbench run -o results prof` in the background, output discarded. */
const struct it_signal it_stop_signals[] = {
	{SIGINT, "SIGINT", 130},
	{SIGTERM, "SIGTERM", 143},
	{SIGHUP, "SIGHUP", 129},
	{SIGQUIT, "SIGQUIT", 131},
};
const size_t it_nstop_signals =
	sizeof(it_stop_signals) / sizeof(it_stop_signals[0]);

pid_t it_spawn_run_to(struct it_env *e, const char *results, const char *prof,
		      int out_fd)
{
	char *argv[] = {(char *)it_bin("provbench"),
			(char *)"run",
			(char *)"-o",
			(char *)results,
			(char *)prof,
			NULL};
	pid_t pid = fork();

	if (pid == 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
		it_exec(argv, e->vars);
	}
	return pid;
}

/* Where a spawned run's output goes. */
static void spawned_out(char *out, size_t len, pid_t pid)
{
	snprintf(out, len, "%s/.spawned.%ld", it_dir(), (long)pid);
}

static pid_t spawn_run(struct it_env *e, const char *results, const char *prof,
		       bool checked)
{
	char *argv[] = {(char *)it_bin("provbench"),
			(char *)"run",
			(char *)"-o",
			(char *)results,
			(char *)prof,
			NULL};
	pid_t pid = fork();

	if (pid == 0) {
		char out[700];

		/* kept, for it_wait_stopped to show when the run ends
		 * before it stops */
		spawned_out(out, sizeof(out), getpid());
		freopen(out, "w", stdout);
		dup2(1, 2);
		if (checked)
			it_exec(argv, e->vars);
		execve(argv[0], argv, e->vars);
		_exit(127);
	}
	return pid;
}

pid_t it_spawn_run(struct it_env *e, const char *results, const char *prof)
{
	return spawn_run(e, results, prof, true);
}

pid_t it_spawn_run_to_kill(struct it_env *e, const char *results,
			   const char *prof)
{
	return spawn_run(e, results, prof, false);
}

/* Wait until the journal shows a created, not yet destroyed disk. */
bool it_wait_created(const char *journal, unsigned ms)
{
	unsigned waited;

	for (waited = 0; waited < ms; waited += 20) {
		if (it_count(journal, "\"op\":\"created\"") >
		    it_count(journal, "\"op\":\"destroyed\""))
			return true;
		usleep(20000);
	}
	return false;
}

bool it_wait_journal(const char *journal, const char *needle, int n,
		     unsigned ms)
{
	unsigned waited;

	for (waited = 0; waited < ms; waited += 20) {
		if (it_count(journal, needle) >= n)
			return true;
		usleep(20000);
	}
	return false;
}

char *it_newest_dir(const char *results)
{
	char cmd[800], path[700];
	FILE *fp;

	snprintf(cmd, sizeof(cmd),
		 "ls -d '%s'/*/ 2>/dev/null | grep -v '/latest[-a-z]*/$' | "
		 "tail -1",
		 results);
	fp = popen(cmd, "r");
	if (!fp || !fgets(path, sizeof(path), fp)) {
		if (fp)
			pclose(fp);
		return NULL;
	}
	pclose(fp);
	path[strcspn(path, "\n")] = '\0';
	return strdup(path);
}

json_t *it_two_targets(struct it_result *r, struct it_env *e,
		       const struct it_two *t)
{
	char text[4096], sum[700];
	json_t *doc, *item;
	size_t i;
	unsigned per[2] = {0, 0};
	const char *dirs[2] = {t->d1, t->d2};

	snprintf(text, sizeof(text),
		 "{\"name\": \"%s\", \"backend\": \"%s\",\n"
		 " \"disk_size\": \"%s\", \"modes\": [%s],\n"
		 " \"repetitions\": %u, \"timeout_s\": 100, "
		 "\"concurrency\": 2,\n"
		 " \"workload\": %s,\n"
		 " \"targets\": [{\"name\": \"first\", \"dir\": \"%s\"},\n"
		 "             {\"name\": \"second\", \"dir\": \"%s\"}]}\n",
		 t->name, t->backend, t->disk_size, t->modes, t->reps,
		 t->workload, t->d1, t->d2);
	it_write_file(t->prof, text);
	CU_ASSERT_EQUAL(it_pb(r, e, "check", t->prof, NULL, NULL), 0);
	snprintf(text, sizeof(text), "x 2 targets = %u disks",
		 2 * t->nmodes * t->reps);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out, text));
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "target second:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "at once: up to 2 targets"));
	it_result_dispose(r);
	CU_ASSERT_EQUAL(it_pb(r, e, "run", "-o", t->res, t->prof), 0);
	if (r->status)
		fprintf(stderr, "\n%s%s", r->out, r->err);
	/* the verdict puts each mode's penalty on both side by side, and the
	 * two ran at once: their sum is said (every finding is in
	 * summary.txt; the terminal shows the first few) */
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "targets at once (up to 2 per "
					      "wave)"));
	snprintf(sum, sizeof(sum), "%s/latest/summary.txt", t->res);
	CU_ASSERT(it_count(sum, "thin: first-write penalty ") > 0);
	CU_ASSERT(it_count(sum, " on first, ") > 0);
	CU_ASSERT(it_count(sum, " on second") > 0);
	doc = it_load_run_json(t->res);
	if (!doc) {
		CU_FAIL("no run.json");
		return NULL;
	}
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "targets")), 2);
	for (i = 0; i < 2; i++) {
		json_t *tg = json_array_get(json_object_get(doc, "targets"), i);
		const char *ds = json_string_value(json_object_get(
			json_object_get(tg, "environment"), "datastore"));

		/* each target describes its own place */
		CU_ASSERT(ds && !strcmp(ds, dirs[i]));
	}
	json_array_foreach(json_object_get(doc, "results"), i, item)
	{
		json_int_t k =
			json_integer_value(json_object_get(item, "target"));
		json_t *o =
			json_array_get(json_object_get(doc, "results"), i ^ 1);
		const char *file = json_string_value(
			json_object_get(json_object_get(item, "disk"), "file"));

		if (k != 0 && k != 1) {
			CU_FAIL("a result of no target");
			continue;
		}
		per[k]++;
		/* a wave: both targets, one mode, at once */
		CU_ASSERT_EQUAL(
			json_integer_value(json_object_get(o, "wave")),
			json_integer_value(json_object_get(item, "wave")));
		CU_ASSERT(json_equal(json_object_get(o, "mode"),
				     json_object_get(item, "mode")));
		CU_ASSERT_NOT_EQUAL(
			json_integer_value(json_object_get(o, "target")), k);
		/* its disk lived in its target's directory */
		CU_ASSERT(file && !strncmp(file, dirs[k], strlen(dirs[k])));
		CU_ASSERT_STRING_EQUAL(
			json_string_value(json_object_get(item, "status")),
			"ok");
	}
	CU_ASSERT_EQUAL(per[0], t->nmodes * t->reps);
	CU_ASSERT_EQUAL(per[1], t->nmodes * t->reps);
	/* summary.csv: a row per target x mode, each naming its target */
	snprintf(sum, sizeof(sum), "%s/latest/summary.csv", t->res);
	CU_ASSERT_EQUAL(it_count(sum, ",first,"), (int)t->nmodes);
	CU_ASSERT_EQUAL(it_count(sum, ",second,"), (int)t->nmodes);
	return doc;
}

/* Why a spawned run did not stop: how it ended, its output's end. */
static void spawned_say(pid_t pid, const siginfo_t *si, unsigned ms)
{
	char out[700], *text;
	size_t len;

	if (!si)
		fprintf(stderr, "\n  run %ld: not stopped after %u ms",
			(long)pid, ms);
	else if (si->si_code == CLD_EXITED)
		fprintf(stderr, "\n  run %ld: ended with %d before it stopped",
			(long)pid, si->si_status);
	else
		fprintf(stderr,
			"\n  run %ld: killed by signal %d before it "
			"stopped",
			(long)pid, si->si_status);
	spawned_out(out, sizeof(out), pid);
	text = pb_slurp_file(out, &len);
	if (text && len) {
		const char *from = text + (len > 2000 ? len - 2000 : 0);

		/* from a line's start */
		if (from > text && strchr(from, '\n'))
			from = strchr(from, '\n') + 1;
		fprintf(stderr, "; its last words:\n%s", from);
	}
	free(text);
}

bool it_wait_stopped(pid_t pid, unsigned ms)
{
	siginfo_t si;
	unsigned waited;

	for (waited = 0; waited < ms; waited += 20) {
		memset(&si, 0, sizeof(si));
		if (!waitid(P_PID, (id_t)pid, &si,
			    WSTOPPED | WEXITED | WNOHANG | WNOWAIT) &&
		    si.si_pid == pid) {
			if (si.si_code == CLD_STOPPED)
				return true;
			spawned_say(pid, &si, ms);
			return false;
		}
		usleep(20000);
	}
	spawned_say(pid, NULL, ms);
	return false;
}

bool it_losetup(char *dev, size_t len, const char *file)
{
	char cmd[800];
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s'", file);
	dev[0] = '\0';
	fp = popen(cmd, "r");
	if (!fp)
		return false;
	if (!fgets(dev, (int)len, fp))
		dev[0] = '\0';
	pclose(fp);
	dev[strcspn(dev, "\n")] = '\0';
	return dev[0] == '/';
}
