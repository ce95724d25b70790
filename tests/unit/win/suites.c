/*
 * suites.c - the Windows build's runner of pb_suites (tests/unit/win/):
 * what tests/unit/suites.c does with CUnit, over the CUnit.h stand-in
 * beside it. Prints each case as CUnit's verbose mode does and ends with
 * the line tests/run-all.sh counts: "provbench-tests: P passed, F failed,
 * S skipped". A skipped case is counted as skipped, never as passed.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"

static jmp_buf out;
static unsigned case_failures, asserts, asserts_failed;
static bool skipped_now;
static char skip_names[64][128];
static char skip_whys[64][160];
static unsigned nskips;
static const char *suite_now, *case_now;

bool pbw_assert(bool ok, const char *what, const char *file, int line,
		bool fatal)
{
	asserts++;
	if (ok)
		return true;
	asserts_failed++;
	case_failures++;
	printf("\n    %u. %s:%d  - %s", case_failures, file, line, what);
	if (fatal)
		longjmp(out, 1);
	return false;
}

void pb_skip(const char *why)
{
	if (nskips < 64) {
		snprintf(skip_names[nskips], sizeof(skip_names[nskips]),
			 "%s:%s", suite_now, case_now);
		snprintf(skip_whys[nskips], sizeof(skip_whys[nskips]), "%s",
			 why);
		nskips++;
	}
	skipped_now = true;
	printf("(skipped: %s) ", why);
}

/* one case; a fatal assertion jumps back here (its own frame: nothing of
 * the caller's is live across the longjmp) */
static void run_case(void (*fn)(void))
{
	if (!setjmp(out))
		fn();
}

int pb_suites_run(const struct pb_suite *const *suites, const char *only)
{
	const char *pattern = only ? strchr(only, ':') : NULL;
	size_t len =
		only ? (pattern ? (size_t)(pattern - only) : strlen(only)) : 0;
	unsigned ran = 0, bad = 0, skipped = 0, i;
	const struct pb_suite *const *s;
	const struct pb_case *c;

	for (s = suites; *s; s++) {
		if (only && (strlen((*s)->name) != len ||
			     strncmp(only, (*s)->name, len)))
			continue;
		printf("Suite: %s\n", (*s)->name);
		if ((*s)->init && (*s)->init()) {
			printf("  suite setup failed\n");
			bad++;
			continue;
		}
		for (c = (*s)->cases; c->name; c++) {
			/* a plain prefix: no fnmatch in the C runtime */
			if (pattern && pattern[1] &&
			    strncmp(c->name, pattern + 1,
				    strcspn(pattern + 1, "*")))
				continue;
			suite_now = (*s)->name;
			case_now = c->name;
			case_failures = 0;
			skipped_now = false;
			printf("  Test: %s ...", c->name);
			fflush(stdout);
			run_case(c->fn);
			ran++;
			if (case_failures) {
				bad++;
				printf("\nFAILED\n");
			} else {
				skipped += skipped_now;
				printf("passed\n");
			}
		}
		if ((*s)->cleanup)
			(*s)->cleanup();
	}
	printf("\n  asserts %u, failed %u\n", asserts, asserts_failed);
	for (i = 0; i < nskips; i++)
		printf("SKIPPED %s: %s\n", skip_names[i], skip_whys[i]);
	printf("provbench-tests: %u passed, %u failed, %u skipped\n",
	       ran - bad - skipped, bad, skipped);
	return bad ? 1 : 0;
}
