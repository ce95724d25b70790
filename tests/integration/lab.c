/*
 * lab.c - helpers the end-to-end harness tests share: an environment
 * built up variable by variable, files written and counted, `provbench
 * run` in the background, the journal watched, run.json read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	char cmd[800], path[700];
	FILE *fp;

	snprintf(cmd, sizeof(cmd),
		 "ls -d '%s'/*/run.json 2>/dev/null | tail -1", results);
	fp = popen(cmd, "r");
	if (!fp || !fgets(path, sizeof(path), fp)) {
		if (fp)
			pclose(fp);
		return NULL;
	}
	pclose(fp);
	path[strcspn(path, "\n")] = '\0';
	return json_load_file(path, 0, NULL);
}

/* `provbench run -o results prof` in the background, output discarded. */
pid_t it_spawn_run(struct it_env *e, const char *results, const char *prof)
{
	char *argv[] = {(char *)it_bin("provbench"),
			(char *)"run",
			(char *)"-o",
			(char *)results,
			(char *)prof,
			NULL};
	pid_t pid = fork();

	if (pid == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		it_exec(argv, e->vars);
	}
	return pid;
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

	snprintf(cmd, sizeof(cmd), "ls -d '%s'/*/ 2>/dev/null | tail -1",
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
