/*
 * suites.c - register a table of pb_suites with CUnit and run them; shared
 * by the unit and the integration runners. only is NULL (everything), a
 * suite name, or "suite:pattern" (a shell glob over that suite's case
 * names, for rerunning one test). Prints CUnit's run summary and exits
 * non-zero when anything failed.
 */
#include <CUnit/Basic.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "unit.h"

#define MAX_SKIPS 256

static struct {
	char name[128];
	char why[160];
} skips[MAX_SKIPS];
static unsigned nskips;

bool pb_tmpdir(char *out, size_t len, const char *name)
{
	int n = snprintf(out, len, "/tmp/pb-%s-", name);

	/* mkdtemp's template ends in six X's it replaces */
	if (n < 0 || (size_t)n + 7 > len)
		return false;
	memset(out + n, 'X', 6);
	out[n + 6] = '\0';
	return mkdtemp(out) != NULL;
}

void pb_skip(const char *why)
{
	CU_pTest t = CU_get_current_test();
	CU_pSuite s = CU_get_current_suite();

	if (nskips == MAX_SKIPS)
		return;
	snprintf(skips[nskips].name, sizeof(skips[nskips].name), "%s:%s",
		 s ? s->pName : "?", t ? t->pName : "?");
	snprintf(skips[nskips].why, sizeof(skips[nskips].why), "%s", why);
	nskips++;
	fprintf(stderr, "(skipped: %s) ", why);
}

/*
 * Each case's wall time, printed after its name when it took a second or
 * more, with the CPU it and the processes it waited for took ("Test:
 * name ...(12.3 s, 4.1 s CPU) passed"): where a suite's time goes, and
 * whether a case computes or waits, read from any log without a profiler
 * (a tier on two cores is bound by the CPU its cases take).
 */
static struct timespec case_t0;
static double case_cpu0;

/* user and system seconds of this process and its reaped children */
static double cpu_seconds(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
			kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
			kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) /
		       1e6;
}

static void case_setup(void)
{
	clock_gettime(CLOCK_MONOTONIC, &case_t0);
	case_cpu0 = cpu_seconds();
}

static void case_teardown(void)
{
	struct timespec t;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &t);
	s = (double)(t.tv_sec - case_t0.tv_sec) +
	    (double)(t.tv_nsec - case_t0.tv_nsec) / 1e9;
	if (s >= 1.0) {
		printf("(%.1f s, %.1f s CPU) ", s, cpu_seconds() - case_cpu0);
		fflush(stdout);
	}
}

/* Does name match one of globs, a comma-separated list ("a*,b")? */
static bool any_glob(const char *globs, const char *name)
{
	char one[256];
	const char *p = globs, *comma;
	size_t n;

	for (;;) {
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		if (!fnmatch(one, name, 0))
			return true;
		if (!comma)
			return false;
		p = comma + 1;
	}
}

int pb_suites_run(const struct pb_suite *const *suites, const char *only)
{
	const struct pb_suite *const *s;
	const struct pb_case *c;
	const char *pattern = only ? strchr(only, ':') : NULL;
	size_t len =
		only ? (pattern ? (size_t)(pattern - only) : strlen(only)) : 0;
	CU_pSuite cs;
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (s = suites; *s; s++) {
		if (only && (strlen((*s)->name) != len ||
			     strncmp(only, (*s)->name, len)))
			continue;
		cs = CU_add_suite_with_setup_and_teardown(
			(*s)->name, (*s)->init, (*s)->cleanup, case_setup,
			case_teardown);
		if (!cs)
			goto fail;
		for (c = (*s)->cases; c->name; c++) {
			if (pattern && !any_glob(pattern + 1, c->name))
				continue;
			if (!CU_add_test(cs, c->name, c->fn))
				goto fail;
		}
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	{
		const CU_RunSummary *rs = CU_get_run_summary();
		unsigned ran = rs->nTestsRun, bad = rs->nTestsFailed, i;

		/* a skipped case passed no assertion of its own: it is
		 * counted as skipped, not passed */
		for (i = 0; i < nskips; i++)
			printf("SKIPPED %s: %s\n", skips[i].name, skips[i].why);
		printf("provbench-tests: %u passed, %u failed, %u skipped\n",
		       ran - bad - (nskips < ran - bad ? nskips : ran - bad),
		       bad + rs->nSuitesFailed, nskips);
	}
	CU_cleanup_registry();
	return failed ? 1 : 0;
fail:
	CU_cleanup_registry();
	return 2;
}
