/*
 * suites.c - register a table of pb_suites with CUnit and run them; shared
 * by the unit and the integration runners. only is NULL (everything), a
 * suite name, or "suite:pattern" (a shell glob over that suite's case
 * names, for rerunning one test). Prints CUnit's run summary and exits
 * non-zero when anything failed.
 */
#include <CUnit/Basic.h>
#include <fnmatch.h>
#include <string.h>

#include "unit.h"

int pb_suites_run(const struct pb_suite *const *suites, const char *only)
{
	const struct pb_suite *const *s;
	const struct pb_case *c;
	const char *pattern = only ? strchr(only, ':') : NULL;
	size_t len = only ? (pattern ? (size_t)(pattern - only) : strlen(only))
			  : 0;
	CU_pSuite cs;
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (s = suites; *s; s++) {
		if (only && (strlen((*s)->name) != len ||
			     strncmp(only, (*s)->name, len)))
			continue;
		cs = CU_add_suite((*s)->name, (*s)->init, (*s)->cleanup);
		if (!cs)
			goto fail;
		for (c = (*s)->cases; c->name; c++) {
			if (pattern && fnmatch(pattern + 1, c->name, 0))
				continue;
			if (!CU_add_test(cs, c->name, c->fn))
				goto fail;
		}
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
fail:
	CU_cleanup_registry();
	return 2;
}
