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

/* one entry of a suite's table: the function, named as itself */
/* (clang-format would spread each over four lines) */
/* clang-format off */
#define PB_CASE(f) {#f, f}
#define PB_CASES_END {NULL, NULL}
/* clang-format on */

/*
 * The running case cannot run here (no root, no schema): it is reported
 * as skipped, by name and with why, and counted as skipped, never as
 * passed. Return right after; PB_SKIP does.
 */
void pb_skip(const char *why);
#define PB_SKIP(why)                                                           \
	do {                                                                   \
		pb_skip(why);                                                  \
		return;                                                        \
	} while (0)

/*
 * Run the suites (only: a suite, "suite:glob[,glob...]", or NULL for
 * all). Prints
 * CUnit's summary, then the skipped cases and one line for run-all.sh:
 * "provbench-tests: N passed, N failed, N skipped".
 */
int pb_suites_run(const struct pb_suite *const *suites, const char *only);

#endif
