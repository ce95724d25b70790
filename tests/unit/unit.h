/*
 * unit.h - the CUnit layout shared by every test file (after fio's
 * unittests/): each file exports one suite, a table of named cases.
 */
#ifndef PB_UNIT_H
#define PB_UNIT_H

#include <CUnit/CUnit.h>

#include "common.h"

struct pb_case {
	const char *name;
	void (*fn)(void);
};

struct pb_suite {
	const char *name;
	int (*init)(void);
	int (*cleanup)(void);
	const struct pb_case *cases;
};

#define PB_CASE(f)                                                             \
	{                                                                      \
#f, f                                                          \
	}
#define PB_CASES_END                                                           \
	{                                                                      \
		NULL, NULL                                                     \
	}

int pb_suites_run(const struct pb_suite *const *suites, const char *only);

#endif
