/*
 * CUnit.h - the part of CUnit's assertion API the portable unit tests use,
 * for their Windows build (tests/unit/win/): Debian has no CUnit for
 * mingw-w64, and these few macros are all the suites need. A failed
 * assertion is counted and printed as CUnit prints it; a _FATAL one ends
 * the case (longjmp, as CUnit does). The runner is win/suites.c.
 */
#ifndef PB_WIN_CUNIT_H
#define PB_WIN_CUNIT_H

#include <setjmp.h>
#include <stdbool.h>
#include <string.h>

/* record one assertion; false when it failed (fatal ones jump out) */
bool pbw_assert(bool ok, const char *what, const char *file, int line,
		bool fatal);

#define CU_ASSERT(v)	   pbw_assert(!!(v), #v, __FILE__, __LINE__, false)
#define CU_ASSERT_FATAL(v) pbw_assert(!!(v), #v, __FILE__, __LINE__, true)
#define CU_ASSERT_TRUE(v)  CU_ASSERT(v)
#define CU_ASSERT_FALSE(v)                                                     \
	pbw_assert(!(v), "!(" #v ")", __FILE__, __LINE__, false)
#define CU_ASSERT_EQUAL(a, b)                                                  \
	pbw_assert((a) == (b), #a " == " #b, __FILE__, __LINE__, false)
#define CU_ASSERT_EQUAL_FATAL(a, b)                                            \
	pbw_assert((a) == (b), #a " == " #b, __FILE__, __LINE__, true)
#define CU_ASSERT_NOT_EQUAL(a, b)                                              \
	pbw_assert((a) != (b), #a " != " #b, __FILE__, __LINE__, false)
#define CU_ASSERT_PTR_NULL(p)                                                  \
	pbw_assert((p) == NULL, #p " == NULL", __FILE__, __LINE__, false)
#define CU_ASSERT_PTR_NOT_NULL(p)                                              \
	pbw_assert((p) != NULL, #p " != NULL", __FILE__, __LINE__, false)
#define CU_ASSERT_PTR_NOT_NULL_FATAL(p)                                        \
	pbw_assert((p) != NULL, #p " != NULL", __FILE__, __LINE__, true)
#define CU_ASSERT_STRING_EQUAL(a, b)                                           \
	pbw_assert(!strcmp((a), (b)), #a " == " #b, __FILE__, __LINE__, false)
#define CU_ASSERT_STRING_NOT_EQUAL(a, b)                                       \
	pbw_assert(strcmp((a), (b)) != 0, #a " != " #b, __FILE__, __LINE__,    \
		   false)
#define CU_FAIL(msg)	   pbw_assert(false, msg, __FILE__, __LINE__, false)
#define CU_FAIL_FATAL(msg) pbw_assert(false, msg, __FILE__, __LINE__, true)

#endif
