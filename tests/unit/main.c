/*
 * main.c - the unit-test runner: every suite of tests/unit/. An optional
 * argument runs one suite by name.
 */
#include "unit.h"

extern const struct pb_suite suite_common, suite_hist, suite_perm, suite_opts,
	suite_data, suite_target, suite_output, suite_vsphere, suite_profile,
	suite_report, suite_findings, suite_jlite, suite_child, suite_cli,
	suite_identity, suite_stall, suite_seq;

static const struct pb_suite *const suites[] = {
	&suite_common,	&suite_hist,   &suite_perm,	&suite_opts,
	&suite_data,	&suite_target, &suite_output,	&suite_vsphere,
	&suite_profile, &suite_report, &suite_findings, &suite_jlite,
	&suite_child,	&suite_cli,    &suite_identity, &suite_stall,
	&suite_seq,	NULL,
};

int main(int argc, char **argv)
{
	return pb_suites_run(suites, argc > 1 ? argv[1] : NULL);
}
