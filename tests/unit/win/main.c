/*
 * main.c - the Windows build of the unit tests (make unit-windows), run
 * under Wine by tests/run-all.sh: the suites of the code the Windows
 * runner shares with Linux's (sizes, the buffer, the JSON writer, errors,
 * the histogram, the permutation, the stamps, the option table, the disk
 * identity rules).
 */
#include "unit.h"

extern const struct pb_suite suite_common, suite_hist, suite_perm, suite_opts,
	suite_data, suite_identity;

static const struct pb_suite *const suites[] = {
	&suite_common, &suite_hist,	&suite_perm, &suite_opts,
	&suite_data,   &suite_identity, NULL,
};

int main(int argc, char **argv)
{
	return pb_suites_run(suites, argc > 1 ? argv[1] : NULL);
}
