/*
 * test_output.c - the runner's JSON document: every field present, typed,
 * and consistent, from a real run on a small scratch file.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "unit.h"

static json_t *run_small(bool verify)
{
	char dir[] = "/tmp/pb-out-XXXXXX", target[64], out[64],
	     err[PB_ERRBUF_SIZE] = "";
	struct runner_opts o;
	json_error_t jerr;
	json_t *doc;

	runner_opts_init(&o);
	if (!mkdtemp(dir))
		return NULL;
	snprintf(target, sizeof(target), "%s/t.img", dir);
	snprintf(out, sizeof(out), "%s/o.json", dir);
	o.target = target;
	o.size = 4 << 20;
	o.bs = 64 << 10;
	o.qd = 4;
	o.quiet = true;
	o.verify = verify;
	o.output = out;
	o.interval_ms = 10;
	CU_ASSERT_EQUAL(runner_run(&o, err), PB_OK);
	doc = json_load_file(out, 0, &jerr);
	unlink(out);
	unlink(target);
	rmdir(dir);
	return doc;
}

static void fields_present_and_consistent(void)
{
	json_t *doc = run_small(true), *p, *lat, *s;
	size_t i, j;
	json_int_t sum;
	double prev;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(doc, "tool")),
			       "provbench-runner");
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(doc, "version")), PB_VERSION);
	CU_ASSERT(json_is_string(json_object_get(doc, "engine")));
	CU_ASSERT(json_is_false(json_object_get(doc, "interrupted")));
	p = json_object_get(doc, "target");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "kind")),
			       "file");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "size_bytes")),
			4 << 20);
	CU_ASSERT(json_is_string(json_object_get(p, "path")));
	CU_ASSERT_PTR_NOT_NULL(json_object_get(p, "identity"));
	p = json_object_get(doc, "passes");
	CU_ASSERT_EQUAL_FATAL(json_array_size(p), 2);
	json_array_foreach(p, i, s)
	{
		json_t *pass = s, *series, *pt;
		static const char *const keys[] = {
			"name",	  "pattern", "bs",	"qd",
			"direct", "bytes",   "seconds", "mib_per_s",
			"iops",	  "lat_us",  "series"};

		for (j = 0; j < sizeof(keys) / sizeof(keys[0]); j++)
			if (!json_object_get(pass, keys[j]))
				CU_FAIL(keys[j]);
		CU_ASSERT_EQUAL(
			json_integer_value(json_object_get(pass, "bytes")),
			4 << 20);
		CU_ASSERT(json_real_value(json_object_get(pass, "mib_per_s")) >
			  0);
		lat = json_object_get(pass, "lat_us");
		prev = 0;
		for (j = 0; j < 5; j++) {
			static const char *const pk[] = {"p50", "p90", "p99",
							 "p999", "max"};
			double v = json_real_value(json_object_get(lat, pk[j]));

			CU_ASSERT(v >= prev);
			prev = v;
		}
		series = json_object_get(pass, "series");
		CU_ASSERT(json_array_size(series) >= 1);
		sum = 0;
		json_array_foreach(series, j, pt) sum +=
			json_integer_value(json_object_get(pt, "bytes"));
		CU_ASSERT_EQUAL(sum, 4 << 20);
	}
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
				       json_array_get(p, 0), "name")),
			       "first-write");
	p = json_object_get(doc, "verify");
	CU_ASSERT(json_is_true(json_object_get(p, "done")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "mismatches")),
			0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "chunks")),
			(4 << 20) / 4096);
	CU_ASSERT_EQUAL(
		json_integer_value(json_object_get(p, "expected_generation")),
		2);
	json_decref(doc);
}

static void verify_null_when_not_asked(void)
{
	json_t *doc = run_small(false);

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT(json_is_null(json_object_get(doc, "verify")));
	json_decref(doc);
}

static const struct pb_case cases[] = {
	PB_CASE(fields_present_and_consistent),
	PB_CASE(verify_null_when_not_asked),
	PB_CASES_END,
};

const struct pb_suite suite_output = {"output", NULL, NULL, cases};
