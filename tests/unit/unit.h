/*
 * unit.h - the CUnit layout shared by every test file (after fio's
 * unittests/): each file exports one suite, a table of named cases.
 */
#ifndef PB_UNIT_H
#define PB_UNIT_H

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <string.h>

#include "common.h"

/*
 * CUnit's string assertions strcmp what they are given, so a NULL (a JSON
 * member that was not there, a line not found) crashed the whole suite
 * and lost every later case's result with it. Here a NULL fails its
 * assertion, in its case, printed as any failed assertion is.
 */
static inline bool pb_str_eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static inline bool pb_str_ne(const char *a, const char *b)
{
	return a && b && strcmp(a, b);
}

#undef CU_ASSERT_STRING_EQUAL
#undef CU_ASSERT_STRING_EQUAL_FATAL
#undef CU_ASSERT_STRING_NOT_EQUAL
/* clang-format off */
#ifdef PB_WIN_CUNIT_H /* the Windows build's own few macros */
#define CU_ASSERT_STRING_EQUAL(a, b) \
	pbw_assert(pb_str_eq((a), (b)), #a " == " #b, __FILE__, __LINE__, false)
#define CU_ASSERT_STRING_EQUAL_FATAL(a, b) \
	pbw_assert(pb_str_eq((a), (b)), #a " == " #b, __FILE__, __LINE__, true)
#define CU_ASSERT_STRING_NOT_EQUAL(a, b) \
	pbw_assert(pb_str_ne((a), (b)), #a " != " #b, __FILE__, __LINE__, false)
#else
#define CU_ASSERT_STRING_EQUAL(a, b) \
	{ CU_assertImplementation(pb_str_eq((a), (b)), __LINE__, \
		"CU_ASSERT_STRING_EQUAL(" #a "," #b ")", __FILE__, "", \
		CU_FALSE); }
#define CU_ASSERT_STRING_EQUAL_FATAL(a, b) \
	{ CU_assertImplementation(pb_str_eq((a), (b)), __LINE__, \
		"CU_ASSERT_STRING_EQUAL_FATAL(" #a "," #b ")", __FILE__, "", \
		CU_TRUE); }
#define CU_ASSERT_STRING_NOT_EQUAL(a, b) \
	{ CU_assertImplementation(pb_str_ne((a), (b)), __LINE__, \
		"CU_ASSERT_STRING_NOT_EQUAL(" #a "," #b ")", __FILE__, "", \
		CU_FALSE); }
#endif
/* clang-format on */

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

/* A new directory /tmp/pb-NAME-?????? of this case's (mkdtemp) into
 * out; false when none could be made. */
bool pb_tmpdir(char *out, size_t len, const char *name);

/*
 * Run the suites (only: a suite, "suite:glob[,glob...]", or NULL for
 * all). Prints
 * CUnit's summary, then the skipped cases and one line for run-all.sh:
 * "provbench-tests: N passed, N failed, N skipped".
 */
int pb_suites_run(const struct pb_suite *const *suites, const char *only);

#endif
