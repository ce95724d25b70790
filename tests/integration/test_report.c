/*
 * test_report.c - `provbench report` on a checked-in results directory
 * with known numbers (tests/data/golden), on broken ones, against an older
 * run, and rendered by a real browser (Debian's chromium, headless).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "it.h"
#include "unit.h"

static int report(struct it_result *r, const char *a1, const char *a2,
		  const char *a3, const char *a4, const char *a5,
		  const char *a6, const char *a7)
{
	char *argv[] = {(char *)it_bin("provbench"),
			(char *)"report",
			(char *)a1,
			(char *)a2,
			(char *)a3,
			(char *)a4,
			(char *)a5,
			(char *)a6,
			(char *)a7,
			NULL};

	return it_run(r, argv, 0, 0);
}

static void golden_summary(void)
{
	char out[600], path[700], *got, *want, *html;
	struct it_result r;

	snprintf(out, sizeof(out), "%s/golden-report", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-q", "-o", out, "tests/data/golden", NULL,
			       NULL, NULL),
			0);
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/summary.csv", out);
	got = pb_slurp_file(path, NULL);
	want = pb_slurp_file("tests/data/golden/summary.csv.expected", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	free(want);

	snprintf(path, sizeof(path), "%s/report.html", out);
	html = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	/* the VM named <script> is text, never markup */
	CU_ASSERT_PTR_NULL(strstr(html, "<script"));
	CU_ASSERT_PTR_NULL(strstr(html, "<b>bold"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "&lt;script&gt;alert(1)"));
	/* the failed item is marked, not dropped */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "failed"));
	/* nothing is loaded from anywhere */
	CU_ASSERT_PTR_NULL(strstr(html, "src="));
	CU_ASSERT_PTR_NULL(strstr(html, "<link"));
	free(html);

	snprintf(path, sizeof(path), "%s/report.csv", out);
	got = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(
		strncmp(got, "profile,backend,accel,mode,rep,pass,", 36), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "golden,vsphere,,thin,3,rewrite,2"));
	free(got);
}

static void bad_results(void)
{
	char dir[600];
	struct it_result r;

	snprintf(dir, sizeof(dir), "%s/bad-results", it_dir());
	CU_ASSERT_EQUAL(it_sh("mkdir -p '%s'", dir), 0);
	CU_ASSERT_EQUAL(report(&r, dir, NULL, NULL, NULL, NULL, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "run.json"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("head -c 300 tests/data/golden/run.json > "
			      "'%s/run.json'",
			      dir),
			0);
	CU_ASSERT_EQUAL(report(&r, dir, NULL, NULL, NULL, NULL, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "run.json:"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("echo '{\"tool\": \"provbench\", \"results\": "
			      "[]}' > '%s/run.json'",
			      dir),
			0);
	CU_ASSERT_EQUAL(report(&r, dir, NULL, NULL, NULL, NULL, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no results"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("test -e '%s/report.html'", dir), 1);
}

/* The same run with thin's first writes 20% slower: a regression. */
static void compare_and_regression(void)
{
	char slow[600], out[600];
	struct it_result r;

	snprintf(slow, sizeof(slow), "%s/slower", it_dir());
	snprintf(out, sizeof(out), "%s/cmp-out", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		it_sh("mkdir -p '%s' && python3 -c \""
		      "import json; d = json.load(open("
		      "'tests/data/golden/run.json'))\n"
		      "for it in d['results']:\n"
		      "  if it['mode'] == 'thin' and it['runner']:\n"
		      "    p = it['runner']['passes'][0]; "
		      "p['mib_per_s'] *= 0.8\n"
		      "d['run'] = 'slower'\n"
		      "json.dump(d, open('%s/run.json', 'w'))\"",
		      slow, slow),
		0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--compare", "tests/data/golden",
			       "--max-regression", "10", slow),
			1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "thin first-write fell 20.0%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "compared with"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "-20.0%"));
	/* 44 vs 55 MiB/s with intervals 40-48 and 50-60: a real change */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "-20.0% (outside both intervals)"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("grep -q 'outside both intervals' "
			      "'%s/report.html'",
			      out),
			0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--compare", "tests/data/golden",
			       "--max-regression", "25", slow),
			0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(report(&r, "--max-regression", "5", slow, NULL, NULL,
			       NULL, NULL),
			2);
	it_result_dispose(&r);
}

/*
 * Headless Chromium renders the page: no request leaves the file (the
 * net log shows none), the charts are there with a size, and the
 * screenshot is not a blank page.
 */
static void renders_in_chromium(void)
{
	char out[600], html[700], blank[700];
	struct stat st, stb;
	const char *flags =
		"--headless --no-sandbox --disable-gpu --disable-quic "
		"--no-first-run --disable-background-networking "
		"--disable-component-update --disable-sync "
		"--window-size=1200,2400";

	snprintf(out, sizeof(out), "%s/golden-report", it_dir());
	snprintf(html, sizeof(html), "%s/report.html", out);
	snprintf(blank, sizeof(blank), "%s/blank.html", it_dir());
	CU_ASSERT_EQUAL_FATAL(stat(html, &st), 0);
	CU_ASSERT_EQUAL(it_sh("printf '<!DOCTYPE html><title>x</title>' > "
			      "'%s'",
			      blank),
			0);
	CU_ASSERT_EQUAL_FATAL(
		it_sh("timeout 120 chromium %s --user-data-dir='%s/chr1' "
		      "--log-net-log='%s/net.json' --screenshot='%s/shot.png' "
		      "'file://%s' >/dev/null 2>&1",
		      flags, it_dir(), it_dir(), it_dir(), html),
		0);
	CU_ASSERT_EQUAL(
		it_sh("timeout 120 chromium %s --user-data-dir='%s/chr2' "
		      "--log-net-log='%s/net-blank.json' "
		      "--screenshot='%s/blank.png' 'file://%s' "
		      ">/dev/null 2>&1",
		      flags, it_dir(), it_dir(), it_dir(), blank),
		0);
	CU_ASSERT_EQUAL(
		it_sh("timeout 120 chromium %s --user-data-dir='%s/chr3' "
		      "--dump-dom 'file://%s' > '%s/dom.html' "
		      "2>/dev/null",
		      flags, it_dir(), html, it_dir()),
		0);
	/*
	 * The page asked for nothing over the network. Chromium itself
	 * calls its update and account services whatever it shows: hosts a
	 * blank page also reaches, and those, are not the page's doing.
	 */
	CU_ASSERT_EQUAL(it_sh("test -s '%s/net.json'", it_dir()), 0);
	CU_ASSERT_EQUAL(
		it_sh("cd '%s' && hosts() { grep -Eo '\"url\":\"https?://"
		      "[^/\"]*' \"$1\" | sed 's/.*:\\/\\///' | sort -u; } "
		      "&& hosts net.json > h-page && hosts net-blank.json > "
		      "h-blank && printf '%%s\\n' clients2.google.com "
		      "update.googleapis.com accounts.google.com "
		      "redirector.gvt1.com edgedl.me.gvt1.com >> h-blank && "
		      "sort -u -o h-blank h-blank && test -z \"$(comm -23 "
		      "h-page h-blank)\"",
		      it_dir()),
		0);
	/* three charts, each with a size */
	CU_ASSERT_EQUAL(it_sh("test $(grep -o '<svg class=\"chart\" "
			      "width=\"[1-9][0-9]*\" height=\"[1-9][0-9]*\"' "
			      "'%s/dom.html' | wc -l) -ge 3",
			      it_dir()),
			0);
	/* a page with tables and charts compresses far worse than a
	 * blank one: the screenshot is not blank */
	{
		char shot[700], bpng[700];

		snprintf(shot, sizeof(shot), "%s/shot.png", it_dir());
		snprintf(bpng, sizeof(bpng), "%s/blank.png", it_dir());
		CU_ASSERT_EQUAL_FATAL(stat(shot, &st), 0);
		CU_ASSERT_EQUAL_FATAL(stat(bpng, &stb), 0);
		CU_ASSERT(st.st_size > 5 * stb.st_size);
	}
}

static const struct pb_case cases[] = {
	PB_CASE(golden_summary),
	PB_CASE(bad_results),
	PB_CASE(compare_and_regression),
	PB_CASE(renders_in_chromium),
	PB_CASES_END,
};

const struct pb_suite suite_report_it = {"report", NULL, NULL, cases};
