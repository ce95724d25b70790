/*
 * test_report.c - `provbench report` on a checked-in results directory
 * with known numbers (tests/data/golden), on broken ones, against an older
 * run, and rendered by a real browser (Debian's chromium, headless).
 */
#include <stdbool.h>
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

/* dir's summary.txt, every column and finding as they are (allocated:
 * it_result_dispose frees it as an output) */
static char *summary_of(const char *dir)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	return pb_slurp_file(path, NULL);
}

/*
 * The terminal's summary fits (issue 53): report's stdout on a pipe has
 * no line over 100 columns and no colour; --wide has summary.txt's
 * table (wider); --all lists more findings than the default's 7 of the
 * matrix run; on a terminal (script(1)'s pty) headings are coloured,
 * and never with NO_COLOR set.
 */
static void terminal_fits_100_columns(void)
{
	static const char *const run = "tests/data/runjson/demo-like.json";
	struct it_result r;
	char out[600];
	const char *p;
	int longest = 0, n;

	snprintf(out, sizeof(out), "%s/term-out", it_dir());
	CU_ASSERT_EQUAL(
		it_sh("mkdir -p '%s' && cp %s '%s/run.json'", out, run, out),
		0);
	CU_ASSERT_EQUAL(report(&r, out, NULL, NULL, NULL, NULL, NULL, NULL), 0);
	for (p = r.out; p && *p;) {
		const char *e = strchr(p, '\n');
		int w = e ? (int)(e - p) : (int)strlen(p);

		longest = w > longest ? w : longest;
		p = e ? e + 1 : p + w;
	}
	CU_ASSERT(longest > 60 && longest <= 100);
	CU_ASSERT_PTR_NULL(strchr(r.out, '\033'));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "penalty [95%]"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(report(&r, "--wide", out, NULL, NULL, NULL, NULL, NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "first/base"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "within a pass"));
	it_result_dispose(&r);
	/* --all: every finding, at least as many as the default's 7 */
	CU_ASSERT_EQUAL(it_sh("a=$('%s' report --all '%s' | sed -n "
			      "'/^findings:/,$p' | grep -c '^  [^ ]'); "
			      "b=$('%s' report '%s' | sed -n '/^findings:/,$p' "
			      "| grep -c '^  [^ (]'); test \"$a\" -ge \"$b\" "
			      "&& test \"$b\" -le 7",
			      it_bin("provbench"), out, it_bin("provbench"),
			      out),
			0);
	/* colour on a terminal, none with NO_COLOR */
	n = it_sh("TERM=xterm script -qec \"'%s' report '%s'\" /dev/null | "
		  "grep -q \"$(printf '\\033')\"",
		  it_bin("provbench"), out);
	CU_ASSERT_EQUAL(n, 0);
	n = it_sh("TERM=xterm NO_COLOR=1 script -qec \"'%s' report '%s'\" "
		  "/dev/null | grep -q \"$(printf '\\033')\"",
		  it_bin("provbench"), out);
	CU_ASSERT_NOT_EQUAL(n, 0);
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
	/* the run's columns first, so nights concatenate; the failed
	 * item is a row of its own, with its step and reason */
	CU_ASSERT_EQUAL(strncmp(got,
				"run_id,started_at,profile,backend,accel,"
				"target,vm,datastore,mode,applied_mode,status,"
				"step,",
				90),
			0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(got, "20261129T000000Z-golden,2026-11-29T00:00:00Z,"
			    "golden,vsphere,,,<script>alert(1)</script>,,"
			    "thin,"
			    "thin,ok,,,3,0,,rewrite,2,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, ",thin,,failed,,create thin disk: "
					   "InsufficientStorageSpace,3,0,,,,"));
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

/* provbench with any number of arguments (NULL-terminated) */
static int pbv(struct it_result *r, const char *const *args)
{
	char *argv[16] = {(char *)it_bin("provbench")};
	size_t i;

	for (i = 0; args[i] && i + 2 < 16; i++)
		argv[i + 1] = (char *)args[i];
	return it_run(r, argv, 0, 0);
}

/* dir/run.json: the golden run with the Python lines edits applied to
 * it (as d); 0 when written. */
/* Another run like the golden one (its own id: a run is never compared
 * with itself), with edits. */
static int golden_variant(const char *dir, const char *edits)
{
	return it_sh("mkdir -p '%s' && python3 -c \"import json\n"
		     "d = json.load(open('tests/data/golden/run.json'))\n"
		     "d['run'] = d['run'] + '-variant'\n"
		     "%s\n"
		     "json.dump(d, open('%s/run.json', 'w'))\"",
		     dir, edits, dir);
}

/* The generated golden directories (tests/data/reports, history). */
static void variants(char *out, size_t len)
{
	static bool made;

	snprintf(out, len, "%s/var", it_dir());
	if (!made)
		CU_ASSERT_EQUAL(it_sh("python3 tests/data/reports/"
				      "make-variants.py '%s'",
				      out),
				0);
	made = true;
}

static void history(char *out, size_t len)
{
	static bool made;

	snprintf(out, len, "%s/history", it_dir());
	if (!made)
		CU_ASSERT_EQUAL(it_sh("python3 tests/data/history/"
				      "make-history.py "
				      "tests/data/golden/run.json '%s' 30",
				      out),
				0);
	made = true;
}

/*
 * A matrix run whose plan was shuffled: rows and colours in the profile's
 * modes order, the verdict in words from the numbers, the header with
 * version and commit.
 */
static void matrix_order_and_verdict(void)
{
	char var[600], out[700], path[800], *html;
	struct it_result r;

	variants(var, sizeof(var));
	snprintf(out, sizeof(out), "%s/matrix-out", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-o", out, var, NULL, NULL, NULL, NULL), 2);
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/matrix", var);
	CU_ASSERT_EQUAL(report(&r, "-q", "-o", out, path, NULL, NULL, NULL), 0);
	it_result_dispose(&r);
	/* point, then thin, lazy, eager, rdm: never the plan's order */
	CU_ASSERT_EQUAL(
		it_sh("python3 -c \"import csv,sys\n"
		      "r = list(csv.DictReader(open('%s/summary.csv')))\n"
		      "got = [(x['point'], x['mode']) for x in r]\n"
		      "want = [(p, m) for p in '01' for m in "
		      "('thin','lazy','eager','rdm')]\n"
		      "sys.exit(got != want)\"",
		      out),
		0);
	snprintf(path, sizeof(path), "%s/report.html", out);
	html = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	/* the answer first, a clause per point: what each mode's first
	 * write costs, and eager's provisioning */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2>Answer</h2>"));
	CU_ASSERT(strstr(html, "<h2>Answer</h2>") <
		  strstr(html, "<h2>Summary</h2>"));
	CU_ASSERT_EQUAL(it_sh("grep -Eq 'bs=64K: thin: first write takes "
			      "[0-9]+%% longer than rewrite' '%s'",
			      path),
			0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(html, "bs=64K: eager and rdm show no first-write "
			     "penalty beyond noise"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "not repaid within this disk"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "not paid back within the disk"));
	/* what was measured heads the page */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr><th>measured</th>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "0.2.0 (commit 0123456789ab)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "2026-11-30T02:52:10Z"));
	/* thin's colour is thin's in every report */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(html, "<span class=sw style=\"background:#E69F00\">"
			     "</span>thin (bs=64K)"));
	/* each point named once under its modes in the bar chart */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<title>bs=1M</title>bs=1M"));
	free(html);
}

/* A mode that failed everywhere: listed with its step and reason, in the
 * page and both CSVs. */
static void failed_mode_listed(void)
{
	char var[600], out[700], path[800], *html;
	struct it_result r;

	variants(var, sizeof(var));
	snprintf(out, sizeof(out), "%s/failed-out", it_dir());
	snprintf(path, sizeof(path), "%s/failed-mode", var);
	CU_ASSERT_EQUAL(report(&r, "-q", "-o", out, path, NULL, NULL, NULL), 0);
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/report.html", out);
	html = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2>Failed and skipped</h2>"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(html, "<td class=bad>failed</td><td>run</td><td>"
			     "watchdog: the guest runner gave no sign of life "
			     "for 120 s</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "lazy: not measured (failed: "
					    "watchdog:"));
	/* rdm skipped: eager is the baseline, said */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "eager, which has nothing left"));
	free(html);
	CU_ASSERT_EQUAL(
		it_sh("python3 -c \"import csv,sys\n"
		      "s = {x['mode']: x for x in csv.DictReader("
		      "open('%s/summary.csv'))}\n"
		      "r = [x for x in csv.DictReader(open('%s/report.csv'))"
		      " if x['mode'] == 'lazy']\n"
		      "ok = s['lazy']['status'] == 'failed' and "
		      "'watchdog' in s['lazy']['error'] and "
		      "s['rdm']['status'] == 'skipped' and "
		      "s['thin']['status'] == 'ok' and len(r) == 3 and "
		      "all(x['status'] == 'failed' and x['step'] == 'run' "
		      "and 'watchdog' in x['error'] and x['pass'] == '' "
		      "for x in r)\n"
		      "sys.exit(not ok)\"",
		      out, out),
		0);
}

/*
 * Where the first write's time went, as report.html tabulates the
 * attribution findings: the device's and the server's rows with their
 * ratio and interval, a file's extents counted (hand-made run.json's).
 */
static void attribution_table(void)
{
	char out[700], path[800], *html;
	const char *const src[] = {"server", "extents"};
	struct it_result r;

	for (unsigned k = 0; k < 2; k++) {
		snprintf(out, sizeof(out), "%s/attr-%s", it_dir(), src[k]);
		CU_ASSERT_EQUAL_FATAL(
			it_sh("mkdir -p '%s' && cp tests/data/runjson/%s.json "
			      "'%s/run.json'",
			      out, src[k], out),
			0);
		CU_ASSERT_EQUAL(
			report(&r, "-q", out, NULL, NULL, NULL, NULL, NULL), 0);
		it_result_dispose(&r);
		snprintf(path, sizeof(path), "%s/report.html", out);
		html = pb_slurp_file(path, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(html);
		CU_ASSERT_PTR_NOT_NULL(
			strstr(html, "<h2>Where the first write's time "
				     "went</h2>"));
		if (!k) {
			CU_ASSERT_PTR_NOT_NULL(strstr(
				html, "<tr><td>thin</td><td>server: LUN "
				      "device</td><td>10.20 ms a write</td>"
				      "<td>4.20 ms</td><td>2.43x [2.35-2.51]"
				      "</td><td>beyond noise</td></tr>"));
		} else {
			CU_ASSERT_PTR_NOT_NULL(strstr(
				html, "<tr><td>lazy</td><td>file</td><td>0 B "
				      "allocated, 1 GiB converted</td><td>0 B "
				      "changed</td><td>-</td><td>counted</td>"
				      "</tr>"));
		}
		free(html);
	}
}

/* Every CSV through Python's csv module: rectangular, documented, no
 * sentinels; two nights' summary.csv concatenate into one table. */
static void csv_round_trip(void)
{
	char var[600], hist[600], out[700];
	struct it_result r;

	variants(var, sizeof(var));
	history(hist, sizeof(hist));
	snprintf(out, sizeof(out), "%s/csv-out", it_dir());
	CU_ASSERT_EQUAL(it_sh("mkdir -p '%s'", out), 0);
	CU_ASSERT_EQUAL(
		pbv(&r, (const char *[]){"trend", "-q", "-o", out, hist, NULL}),
		0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		it_sh("v='%s'; for d in matrix failed-mode; do "
		      "'%s' report -q -o \"$v/$d-csv\" \"$v/$d\" || exit 1; "
		      "done && { cat \"$v/matrix-csv/summary.csv\"; tail -n +2 "
		      "\"$v/failed-mode-csv/summary.csv\"; } > \"$v/both.csv\"",
		      var, it_bin("provbench")),
		0);
	CU_ASSERT_EQUAL(it_sh("python3 tests/data/reports/check-csv.py "
			      "docs/reports.md '%s'/matrix-csv/summary.csv "
			      "'%s'/matrix-csv/report.csv "
			      "'%s'/failed-mode-csv/report.csv "
			      "'%s'/failed-mode-csv/summary.csv "
			      "'%s'/both.csv '%s/trend.csv' >&2",
			      var, var, var, var, var, out),
			0);
	/* the concatenation holds both nights' rows */
	CU_ASSERT_EQUAL(it_sh("test $(python3 -c \"import csv; print(len("
			      "list(csv.reader(open('%s/both.csv')))))\") "
			      "-eq 13",
			      var),
			0);
}

/* report --json: the page's numbers, versioned, null where none. */
static void report_json(void)
{
	char var[600], path[700], out[800];
	struct it_result r;

	variants(var, sizeof(var));
	snprintf(path, sizeof(path), "%s/matrix", var);
	snprintf(out, sizeof(out), "%s/json-out", it_dir());
	CU_ASSERT_EQUAL(report(&r, "--json", "-o", out, path, NULL, NULL, NULL),
			0);
	{
		char jp[700];

		snprintf(jp, sizeof(jp), "%s/report.json", it_dir());
		it_write_file(jp, r.out ? r.out : "");
	}
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		it_sh("python3 -c \"import csv,json,sys\n"
		      "j = json.load(open('%s/report.json'))\n"
		      "s = list(csv.DictReader(open('%s/summary.csv')))\n"
		      "g = j['groups']\n"
		      "ok = j['format'] == 2 and len(g) == 8 and "
		      "j['run']['commit'] == '0123456789ab' and "
		      "all(abs(a['first_mib_s']['median'] - "
		      "float(b['first_mib_s'])) < 0.001 and a['mode'] == "
		      "b['mode'] and a['read_mib_s'] is None for a, b in "
		      "zip(g, s)) and len(j['headline']) >= 4 and "
		      "all(f['rule'] and f['text'] for f in j['findings']) "
		      "and j['rules']['warmup_across_passes']['window'] == 3\n"
		      "sys.exit(not ok)\"",
		      it_dir(), out),
		0);
	/* every figure the JSON has under a summary.csv column's name is
	 * that column's figure (one table writes both), these at least */
	CU_ASSERT_EQUAL(
		it_sh("python3 -c \"import csv,json,sys\n"
		      "g = json.load(open('%s/report.json'))['groups']\n"
		      "s = list(csv.DictReader(open('%s/summary.csv')))\n"
		      "want = {'first_mib_s', 'rewrite_mib_s', 'read_mib_s', "
		      "'warmup_penalty_frac', 'provision_s', 'p99_first_us', "
		      "'p99_rewrite_us', 'qd_kept_min', 'mkfs_s', "
		      "'command_s', 'fsync_write_mib_s', 'p50_first_us', "
		      "'p50_rewrite_us'}\n"
		      "def fig(v):\n"
		      "  if isinstance(v, dict):\n"
		      "    return v.get('median', v.get('value', 'n'))\n"
		      "  return 'n' if isinstance(v, str) else v\n"
		      "seen, bad = set(), []\n"
		      "for a, b in zip(g, s):\n"
		      "  for k in b:\n"
		      "    v = fig(a.get(k, 'n'))\n"
		      "    if v == 'n':\n"
		      "      continue\n"
		      "    seen.add(k)\n"
		      "    if (v is None) != (b[k] == '') or (v is not None "
		      "and abs(v - float(b[k])) > 1e-3 * max(1, abs(v))):\n"
		      "      bad.append((k, v, b[k]))\n"
		      "if bad or not want <= seen:\n"
		      "  print(bad, want - seen)\n"
		      "  sys.exit(1)\"",
		      it_dir(), out),
		0);
}

/* Runs beside each other: "previous" is the newest earlier complete run
 * of the same profile; an interrupted one is passed over; "latest" is
 * followed to the run it names. */
static void compare_previous(void)
{
	char root[600], lone[700];
	struct it_result r;

	snprintf(root, sizeof(root), "%s/nightly", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		it_sh("python3 -c \"import json, os\n"
		      "d = json.load(open('tests/data/golden/run.json'))\n"
		      "for day, intr in (('01', False), ('02', True), "
		      "('03', False)):\n"
		      "  d['run'] = '202610%%sT023000Z-golden' %% day\n"
		      "  d['started_at'] = '2026-10-%%sT02:30:00Z' %% day\n"
		      "  d['finished'] = True; d['interrupted'] = intr\n"
		      "  os.makedirs('%s/' + d['run'])\n"
		      "  json.dump(d, open('%s/' + d['run'] + '/run.json', "
		      "'w'))\n\" && ln -s 20261003T023000Z-golden "
		      "'%s/latest'",
		      root, root, root),
		0);
	snprintf(lone, sizeof(lone), "%s/latest", root);
	CU_ASSERT_EQUAL(report(&r, "--compare", "previous", "--max-regression",
			       "10", lone, NULL, NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "compared with 20261001T023000Z-golden:"));
	/* both values shown, not only the change */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "thin first-write: 55.0 -> 55.0 MiB/s"));
	it_result_dispose(&r);
	/* the first night has nothing before it: said, not an error */
	snprintf(lone, sizeof(lone), "%s/20261001T023000Z-golden", root);
	CU_ASSERT_EQUAL(report(&r, "--compare", "previous", "--max-regression",
			       "10", lone, NULL, NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "nothing to compare"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "compared with"));
	it_result_dispose(&r);
}

/* A TCG run is not compared with a vSphere run without a word. */
static void compare_refuses(void)
{
	char other[600], out[700];
	struct it_result r;

	snprintf(other, sizeof(other), "%s/tcg-run", it_dir());
	snprintf(out, sizeof(out), "%s/refuse-out", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		golden_variant(other,
			       "d['environment']['backend'] = 'qemu'\n"
			       "d['environment']['accelerator'] = 'tcg'\n"
			       "d['profile']['disk_size'] = '4G'"),
		0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--compare", "tests/data/golden",
			       other, NULL, NULL),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "will not compare with"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "backend qemu, then vsphere"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "accelerator tcg, then none"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "disk_size differs"));
	CU_ASSERT_EQUAL(it_sh("test -e '%s/report.html'", out), 1);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--force", "--compare",
			       "tests/data/golden", other, NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "WARNING: comparing runs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "WARNING: the runs differ"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		it_sh("grep -q 'These runs differ' '%s/report.html'", out), 0);
}

/* 30 nights: ordered by time, the one regression marked, the failed night
 * and the server upgrade annotated. */
static void trend_history(void)
{
	char hist[600], out[700];
	struct it_result r;

	history(hist, sizeof(hist));
	snprintf(out, sizeof(out), "%s/trend-out", it_dir());
	CU_ASSERT_EQUAL(
		pbv(&r, (const char *[]){"trend", "-o", out, hist, NULL}), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "30 runs, 60 rows, 1 regression"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		it_sh("python3 -c \"import csv,sys\n"
		      "r = list(csv.DictReader(open('%s/trend.csv')))\n"
		      "by = {}\n"
		      "[by.setdefault(x['mode'], []).append(x) for x in r]\n"
		      "order = all([x['started_at'] for x in v] == "
		      "sorted(x['started_at'] for x in v) for v in "
		      "by.values())\n"
		      "reg = [(x['run_id'][:8], x['mode']) for x in r if "
		      "x['regressed'] == 'true']\n"
		      "env = [(x['run_id'][:8], x['environment_change']) for "
		      "x in r if x['environment_change']]\n"
		      "bad = {x['run_id'][:8] for x in r if x['run_status'] "
		      "!= 'complete'}\n"
		      "ok = len(r) == 60 and order and reg == [('20261025', "
		      "'thin')] and set(env) == {('20261020', 'server build "
		      "21560480 -> 22617221')} and bad == {'20261012'}\n"
		      "print(reg, env, bad, file=sys.stderr) if not ok else "
		      "0\n"
		      "sys.exit(not ok)\"",
		      out),
		0);
	CU_ASSERT_EQUAL(it_sh("test $(grep -o 'class=regressed' "
			      "'%s/trend.html' | wc -l) -eq 1 && grep -q "
			      "'<td>20261012T023000Z-golden</td><td "
			      "class=bad>failed</td>' '%s/trend.html'",
			      out, out),
			0);
	/* a path that holds no run is one clear line, exit 2 */
	CU_ASSERT_EQUAL(pbv(&r, (const char *[]){"trend", "-o", out,
						 "/nonexistent-runs", NULL}),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "provbench: trend: "
					     "/nonexistent-runs: neither"));
	it_result_dispose(&r);
}

/*
 * A root as runs leave it: "latest" and "latest-attempt" link to the
 * newest runs, and a run may be named twice on the command line. Each run
 * counts once (by its id), so the last night's change is against the
 * night before it, not against itself (0.00).
 */
static void trend_links_counted_once(void)
{
	char hist[600], root[700], out[700];
	struct it_result r;

	history(hist, sizeof(hist));
	snprintf(root, sizeof(root), "%s/linked-history", it_dir());
	snprintf(out, sizeof(out), "%s/linked-out", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		it_sh("rm -rf '%s' && cp -a '%s' '%s' && cd '%s' && "
		      "last=$(ls | sort | tail -n 1) && "
		      "ln -s \"$last\" latest && ln -s \"$last\" "
		      "latest-attempt",
		      root, hist, root, root),
		0);
	CU_ASSERT_EQUAL(
		pbv(&r, (const char *[]){"trend", "-o", out, root, NULL}), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "30 runs, 60 rows"));
	it_result_dispose(&r);
	/* the newest night's change is the one the plain root gives */
	CU_ASSERT_EQUAL(it_sh("'%s' trend -q -o '%s/plain' '%s' && cd '%s' && "
			      "tail -n 2 plain/trend.csv | cut -d, -f1,26,27 "
			      "> a && tail -n 2 trend.csv | cut -d, -f1,26,27 "
			      "> b && cmp a b && ! grep -q ',0.00' b",
			      it_bin("provbench"), out, hist, out),
			0);
	/* a run named twice, and a root with its own run, are one run */
	CU_ASSERT_EQUAL(
		pbv(&r, (const char *[]){"trend", "-o", out, root, root, NULL}),
		0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "30 runs, 60 rows"));
	it_result_dispose(&r);
}

/* A run compared with itself is refused in one line: nothing it could
 * say would be news. The same run reached through a link is itself. */
static void compare_self_refused(void)
{
	char out[600], link[600];
	struct it_result r;

	snprintf(out, sizeof(out), "%s/self-out", it_dir());
	snprintf(link, sizeof(link), "%s/golden-link", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("ln -sfn \"$(realpath "
				    "tests/data/golden)\" '%s'",
				    link),
			      0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "-c", "tests/data/golden",
			       "tests/data/golden", NULL, NULL),
			2);
	CU_ASSERT_STRING_EQUAL(r.err, "provbench: report: --compare: "
				      "tests/data/golden is the run itself "
				      "(20261129T000000Z-golden): compare "
				      "it with another run\n");
	CU_ASSERT_EQUAL(it_sh("test -e '%s/report.html'", out), 1);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "-c", link, "tests/data/golden",
			       NULL, NULL),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "is the run itself"));
	it_result_dispose(&r);
	/* the export's gate judges as the report's */
	CU_ASSERT_EQUAL(pbv(&r, (const char *[]){"export", "-f", "junit", "-c",
						 "tests/data/golden",
						 "tests/data/golden", NULL}),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "provbench: export: --compare: "
					     "tests/data/golden is the run "
					     "itself"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "<testsuite"));
	it_result_dispose(&r);
}

/* What run.json says is text in every page, never markup: the accelerator
 * and the start time included (the trend prints both). */
static void hostile_values_escaped(void)
{
	char dir[600];
	struct it_result r;

	snprintf(dir, sizeof(dir), "%s/hostile/run1", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		golden_variant(
			dir, "d['environment']['accelerator'] = '<i>tcg</i>'\n"
			     "d['started_at'] = '<u>2026</u>'\n"
			     "d['profile']['name'] = '<em>p</em>'"),
		0);
	CU_ASSERT_EQUAL(report(&r, "-q", dir, NULL, NULL, NULL, NULL, NULL), 0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		pbv(&r, (const char *[]){"trend", "-q", "-o", dir, dir, NULL}),
		0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("cd '%s' && ! grep -E -q '<(i|u|em|b|script)>' "
			      "report.html trend.html && grep -q "
			      "'&lt;i&gt;tcg' report.html && grep -q "
			      "'&lt;u&gt;2026' trend.html",
			      dir),
			0);
}

/*
 * The same run with thin's first writes 40% slower: a regression. 20%
 * slower is not one with these three repetitions: 50-60 MiB/s spread
 * 0.091 in logs on each side leave a 99% interval of -43 to +13%.
 */
static void compare_and_regression(void)
{
	char slow[600], out[600];
	struct it_result r;

	snprintf(slow, sizeof(slow), "%s/slower", it_dir());
	snprintf(out, sizeof(out), "%s/cmp-out", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		golden_variant(slow,
			       "for it in d['results']:\n"
			       "  if it['mode'] == 'thin' and it['runner']:\n"
			       "    p = it['runner']['passes'][0]; "
			       "p['mib_per_s'] *= 0.6\n"
			       "d['run'] = 'slower'"),
		0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--compare", "tests/data/golden",
			       "--max-regression", "10", slow),
			1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "thin first-write fell 40.0%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "compared with"));
	it_result_dispose(&r);
	/* the whole of it, lines as they are: summary.txt */
	r.out = summary_of(out);
	/* 33 vs 55 MiB/s: by hand, the means of the logs differ by
	 * log 0.6 = -0.511, Welch's se 0.0745 on 4 df, t 4.604: exp of
	 * -0.511 -+ 0.343 - 1 = -57.4 to -15.5%; and the comparison
	 * follows the answer */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "(-40.0%), beyond noise (99% interval -57.4 to "
			      "-15.5%): a regression past the 10% limit"));
	/* and against its own rewrites, the same fall: 0.28x -> 0.17x,
	 * with the answer's penalty then and now beside it (less rdm's
	 * 0.51x: 1 / 0.28 / 1.96 - 1 = 83%, 1 / 0.17 / 1.96 - 1 = 205%) */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "thin first-write against rewrite: 0.28x -> "
			      "0.17x (penalty 83% -> 205%) (-40.0%), beyond "
			      "noise"));
	CU_ASSERT(strstr(r.out, "answer:") < strstr(r.out, "compared with") &&
		  strstr(r.out, "compared with") < strstr(r.out, "medians"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(it_sh("grep -q 'beyond noise: a regression' "
			      "'%s/report.html'",
			      out),
			0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--compare", "tests/data/golden",
			       "--max-regression", "45", slow),
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
	CU_ASSERT_EQUAL(it_sh("test $(grep -Eo '<svg class=\"chart\" "
			      "(id=\"[a-z]+\" )?width=\"[1-9][0-9]*\" "
			      "height=\"[1-9][0-9]*\"' "
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

/*
 * The demo's page decides on its first screen (issue 53): report.html of
 * a demo-shaped run at 1366x768 has the answer and each mode's penalty
 * chart above 768 px, at most 7 findings unfolded, a text alternative on
 * every chart; its first screen is kept as build/screens/demo-first.png.
 */
static void first_screen_demo(void)
{
	char out[600], page[700], shot[700];

	snprintf(out, sizeof(out), "%s/first-demo", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("'%s' report -q -o '%s' "
				    "tests/data/runjson/demo-like.json",
				    it_bin("provbench"), out),
			      0);
	snprintf(page, sizeof(page), "%s/report.html", out);
	snprintf(shot, sizeof(shot), "%s/demo-first.png", it_bin("screens"));
	CU_ASSERT_EQUAL(it_first_screen(page, shot), 0);
}

/*
 * The pages as a reader sees them, measured in headless Chromium at 900
 * px and as printed: a copy of each with tests/data/reports/layout-check.js
 * added (the pages carry no script) is rendered, and check-layout.py reads
 * what it measured: no horizontal overflow, ticks and a legend on every
 * chart, no legend or label over another. For print the page's print rules
 * apply in a window 703 px wide, A4 inside the page's 12 mm margins at 96
 * px an inch; and Chromium's own --print-to-pdf makes A4 pages of it.
 */
static void pages_layout(void)
{
	char var[600], hist[600];
	const char *pages[4];
	char p0[800], p1[800], p2[800], p3[800];
	const int charts[4] = {3, 3, 3, 3};
	struct it_result r;
	int i;

	variants(var, sizeof(var));
	history(hist, sizeof(hist));
	CU_ASSERT_EQUAL_FATAL(
		it_sh("'%s' report -q -o '%s/lay-m' '%s/matrix' && '%s' "
		      "report -q -o '%s/lay-f' '%s/failed-mode' && '%s' "
		      "report -q -o '%s/lay-a' '%s/at-once'",
		      it_bin("provbench"), var, var, it_bin("provbench"), var,
		      var, it_bin("provbench"), var, var),
		0);
	CU_ASSERT_EQUAL_FATAL(pbv(&r, (const char *[]){"trend", "-q", "-o",
						       hist, hist, NULL}),
			      0);
	it_result_dispose(&r);
	snprintf(p0, sizeof(p0), "%s/lay-m/report.html", var);
	snprintf(p1, sizeof(p1), "%s/lay-f/report.html", var);
	snprintf(p2, sizeof(p2), "%s/trend.html", hist);
	pages[0] = p0;
	pages[1] = p1;
	pages[2] = p2;
	/* targets at once: its table too fits the column */
	snprintf(p3, sizeof(p3), "%s/lay-a/report.html", var);
	pages[3] = p3;
	for (i = 0; i < 8; i++) {
		const char *page = pages[i / 2];
		bool print = i % 2;
		int rc = it_sh(
			"{ sed 's#</body></html>##' '%s'; printf '<script>'; "
			"cat tests/data/reports/layout-check.js; printf "
			"'</script></body></html>'; } > '%s.check.html' && "
			"timeout 120 chromium --headless --no-sandbox "
			"--disable-gpu --hide-scrollbars --no-first-run "
			"--disable-background-networking "
			"--window-size=%d,2400 --virtual-time-budget=3000 "
			"--user-data-dir='%s/chr-lay' --dump-dom "
			"'file://%s.check.html%s' > '%s.dom' 2>/dev/null && "
			"python3 tests/data/reports/check-layout.py '%s.dom' "
			"%d %s >&2",
			page, page, print ? 703 : 900, it_dir(), page,
			print ? "#print" : "", page, page, charts[i / 2],
			print ? "print" : "");

		if (rc)
			fprintf(stderr, "\n  layout%s: %s\n",
				print ? " in print" : "", page);
		CU_ASSERT_EQUAL(rc, 0);
	}
	/* printed by Chromium itself: A4 pages (595 x 842 pt), not Letter */
	CU_ASSERT_EQUAL(
		it_sh("timeout 120 chromium --headless --no-sandbox "
		      "--disable-gpu --no-first-run "
		      "--disable-background-networking "
		      "--user-data-dir='%s/chr-pdf' --no-pdf-header-footer "
		      "--print-to-pdf='%s/page.pdf' 'file://%s' >/dev/null "
		      "2>&1 && n=$(grep -ac '/Type /Page\\b' '%s/page.pdf') "
		      "&& test \"$n\" -ge 1 && test $(grep -aEo '/MediaBox "
		      "\\[0 0 59[45][.0-9]* 84[12][.0-9]*\\]' '%s/page.pdf' "
		      "| wc -l) -eq \"$n\"",
		      it_dir(), it_dir(), p0, it_dir(), it_dir()),
		0);
}

/*
 * Targets: a datastore comparison within one run (per-target rows, the
 * same mode side by side, ranked only beyond noise), and runs from two
 * controllers merged into one report (refused when their profiles
 * differ, nothing written then).
 */
/*
 * Targets at once (concurrency 3): fleet.csv's aggregate per mode and pass
 * is what make-variants.py integrates on its own from the same series (the
 * bytes inside each wave's overlapping window); the page and --json carry
 * it; targets that shared a datastore or host while at once are named.
 */
static void at_once_aggregate(void)
{
	char var[600], in[700], out[700], path[800], exp[800], *text;
	struct it_result r;

	variants(var, sizeof(var));
	snprintf(in, sizeof(in), "%s/at-once", var);
	snprintf(out, sizeof(out), "%s/at-once-report", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-o", out, in, NULL, NULL, NULL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "targets at once (up to 3 per "
					     "wave)"));
	it_result_dispose(&r);
	r.out = summary_of(out);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "targets a, b shared vsphere https://vc/sdk "
			      "datastore ds-1 while measured at once"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "targets a, b, c shared vsphere https://vc/sdk "
			      "host host-1 while measured at once"));
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/fleet.csv", out);
	snprintf(exp, sizeof(exp), "%s/expected-fleet.json", in);
	CU_ASSERT_EQUAL(
		it_sh("python3 -c \"import csv,json,sys\n"
		      "rows = list(csv.DictReader(open('%s')))\n"
		      "want = json.load(open('%s'))\n"
		      "got = {'%%s %%s' %% (r['mode'], r['pass_index']): "
		      "float(r['aggregate_mib_s']) for r in rows}\n"
		      "ok = len(rows) == 6 and set(got) == set(want) "
		      "and all(abs(got[k] - want[k]) < 0.01 for k in "
		      "want)\n"
		      "ok = ok and all(r['targets'] == '3' and "
		      "r['waves'] == '2' for r in rows)\n"
		      "sys.exit(not ok)\"",
		      path, exp),
		0);
	snprintf(path, sizeof(path), "%s/report.html", out);
	text = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<h2>Targets at once</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "202.9 MiB/s [202.7-203.2]"));
	free(text);
	CU_ASSERT_EQUAL(report(&r, "--json", in, NULL, NULL, NULL, NULL, NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"at_once\""));
	it_result_dispose(&r);
	/* one at a time (the targets variant): no such table, no file */
	snprintf(in, sizeof(in), "%s/targets", var);
	snprintf(out, sizeof(out), "%s/targets-report-2", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-o", out, in, NULL, NULL, NULL, NULL), 0);
	CU_ASSERT_PTR_NULL(strstr(r.out, "targets at once"));
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/fleet.csv", out);
	CU_ASSERT_EQUAL(it_sh("test -e '%s'", path), 1);
}

static void targets_and_merge(void)
{
	char var[600], in[700], out[700], out2[700], a[700], b[700], o[700];
	char path[800], *text;
	struct it_result r;

	variants(var, sizeof(var));
	snprintf(in, sizeof(in), "%s/targets", var);
	snprintf(out, sizeof(out), "%s/targets-report", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-o", out, in, NULL, NULL, NULL, NULL), 0);
	it_result_dispose(&r);
	r.out = summary_of(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(
		r.out, "thin: first-write penalty 162% [158-165%] on nfs01, "
		       "61% [57-64%] on local; they differ beyond noise "
		       "(highest on nfs01, lowest on local)"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "eager: first-write penalty 0% [-1 to 1%] on "
			      "nfs01, 0% [0-0%] on local; within noise of each "
			      "other: not ranked"));
	/* the table names each row's target */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nthin (nfs01) "));
	it_result_dispose(&r);
	/* a row per target x mode, each with its target's VM and datastore */
	snprintf(path, sizeof(path), "%s/summary.csv", out);
	CU_ASSERT_EQUAL(it_sh("python3 -c \"import csv,sys\n"
			      "rows = list(csv.DictReader(open('%s')))\n"
			      "got = sorted((r['target'], r['datastore'], "
			      "r['mode']) for r in rows)\n"
			      "want = sorted((t, d, m) for t, d in "
			      "(('nfs01', 'nfs01'), ('local', 'vmfs-local')) "
			      "for m in ('thin', 'eager'))\n"
			      "sys.exit(got != want)\"",
			      path),
			0);
	snprintf(path, sizeof(path), "%s/report.html", out);
	text = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<h2>Across targets</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<th>nfs01</th><th>local</th>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "nfs01: vm-1, nfs01<br>"));
	free(text);

	/* two controllers' shares of one profile, as one report */
	snprintf(a, sizeof(a), "%s/shard-a", var);
	snprintf(b, sizeof(b), "%s/shard-b", var);
	snprintf(o, sizeof(o), "%s/shard-other", var);
	snprintf(out2, sizeof(out2), "%s/merged", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-q", "-o", out2, a, b, NULL, NULL), 0);
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/summary.csv", out2);
	CU_ASSERT_EQUAL(it_sh("python3 -c \"import csv,sys\n"
			      "rows = list(csv.DictReader(open('%s')))\n"
			      "got = sorted((r['run_id'][-7:], r['target'], "
			      "r['vm'], r['mode'], r['reps_ok']) for r in "
			      "rows)\n"
			      "want = sorted((s, v, v, m, '3') for s, v in "
			      "(('shard-a', 'vm-1'), ('shard-b', 'vm-2')) "
			      "for m in ('thin', 'eager'))\n"
			      "sys.exit(got != want)\"",
			      path),
			0);
	snprintf(path, sizeof(path), "%s/report.html", out2);
	text = pb_slurp_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Merged runs: "
					    "20261130T023000Z-fleet-shard-a, "
					    "20261130T023000Z-fleet-shard-b"));
	free(text);
	/* a run's own report stays its own: a merge needs -o */
	CU_ASSERT_EQUAL(report(&r, a, b, NULL, NULL, NULL, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "need -o DIR"));
	it_result_dispose(&r);
	/* another disk size is another experiment: refused, nothing made */
	snprintf(out2, sizeof(out2), "%s/merged-other", it_dir());
	CU_ASSERT_EQUAL(report(&r, "-o", out2, a, o, NULL, NULL, NULL), 2);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.err, "provbench: report: will not merge "
			      "20261130T023000Z-fleet-other with "
			      "20261130T023000Z-fleet-shard-a: the profile's "
			      "disk_size differs (--force merges anyway)"));
	it_result_dispose(&r);
	CU_ASSERT_NOT_EQUAL(it_sh("test -e '%s'", out2), 0);
	CU_ASSERT_EQUAL(report(&r, "--force", "-q", "-o", out2, a, o, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "WARNING: merging runs that "
					     "differ"));
	it_result_dispose(&r);
}

/*
 * export -f junit against an older run: a failure exactly where a first
 * write fell beyond noise (thin, 40% slower in every repetition), none
 * where the figures are the same; a limit the fall stays under fails
 * nothing; the file is valid against the schema CI servers read.
 */
static void export_junit_regression(void)
{
	char xml[600], cmd[1600];
	struct it_result r;
	static const struct {
		const char *limit;
		int failures;
	} cases[] = {{NULL, 1}, {"10", 1}, {"50", 0}};
	size_t i;

	snprintf(xml, sizeof(xml), "%s/regressed.xml", it_dir());
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = {(char *)it_bin("provbench"),
				"export",
				"-f",
				"junit",
				"-o",
				xml,
				"-c",
				"tests/data/runjson/demo-like.json",
				"tests/data/runjson/regressed.json",
				cases[i].limit ? "--max-regression" : NULL,
				(char *)cases[i].limit,
				NULL};

		CU_ASSERT_EQUAL(it_run(&r, argv, 0, 0), 0);
		if (r.status)
			fprintf(stderr, "\n%s", r.err);
		it_result_dispose(&r);
		snprintf(cmd, sizeof(cmd),
			 "xmllint --noout --schema tests/data/junit/junit.xsd "
			 "'%s' 2>/dev/null",
			 xml);
		CU_ASSERT_EQUAL(it_sh("%s", cmd), 0);
		CU_ASSERT_EQUAL(it_sh("test \"$(grep -c '<failure "
				      "type=\\\"regression' '%s')\" = %d",
				      xml, cases[i].failures),
				0);
		CU_ASSERT_EQUAL(it_sh("grep -q 'failures=\"%d\"' '%s'",
				      cases[i].failures, xml),
				0);
		if (cases[i].failures)
			CU_ASSERT_EQUAL(
				it_sh("grep -B1 '<failure type=\"regression' "
				      "'%s' | grep -q 'name=\"thin\"'",
				      xml),
				0);
	}
}

/* src's first two repetitions as dir/run.json */
static int two_reps(const char *dir, const char *src)
{
	return it_sh(
		"mkdir -p '%s' && python3 -c \"import json\n"
		"d = json.load(open('%s'))\n"
		"d['results'] = [r for r in d['results'] if r['rep'] <= 2]\n"
		"d['profile']['repetitions'] = 2\n"
		"json.dump(d, open('%s/run.json', 'w'))\"",
		dir, src, dir);
}

/*
 * Two repetitions tell no noise (issue 36: an interval of two values is
 * their spread, and a gate on it alarmed on 8 of 20 nights alike): the
 * report, the gate, JUnit and OpenMetrics each say "too few to tell",
 * even of thin's first writes 40% slower in both.
 */
static void two_repetitions_tell_nothing(void)
{
	char then[600], now[600], out[600], path[700];
	struct it_result r;

	snprintf(then, sizeof(then), "%s/two-then", it_dir());
	snprintf(now, sizeof(now), "%s/two-now", it_dir());
	snprintf(out, sizeof(out), "%s/two-out", it_dir());
	CU_ASSERT_EQUAL_FATAL(
		two_reps(then, "tests/data/runjson/demo-like.json"), 0);
	CU_ASSERT_EQUAL_FATAL(
		two_reps(now, "tests/data/runjson/regressed.json"), 0);
	CU_ASSERT_EQUAL(report(&r, "-o", out, "--compare", then,
			       "--max-regression", "10", now),
			0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "2 repetitions, so no interval and no verdict "
			      "on noise: first-write penalty"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.out, "thin first-write: 149.0 -> 89.4 MiB/s "
			      "(-40.0%), 2 repetitions on a side: too few to "
			      "tell noise"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "too few repetitions on a side "
					     "to tell"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "beyond noise"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "regression past"));
	it_result_dispose(&r);
	snprintf(path, sizeof(path), "%s/two.xml", it_dir());
	{
		char *argv[] = {(char *)it_bin("provbench"),
				"export",
				"-f",
				"junit",
				"-o",
				path,
				"-c",
				then,
				"--max-regression",
				"10",
				now,
				NULL};

		CU_ASSERT_EQUAL(it_run(&r, argv, 0, 0), 0);
		it_result_dispose(&r);
	}
	CU_ASSERT_EQUAL(it_sh("grep -q 'failures=\"0\"' '%s' && ! grep -q "
			      "'<failure' '%s'",
			      path, path),
			0);
	CU_ASSERT_EQUAL(it_sh("grep -q '2 repetitions: no interval, too few "
			      "to tell noise' '%s'",
			      path),
			0);
	snprintf(path, sizeof(path), "%s/two.om", it_dir());
	{
		char *argv[] = {(char *)it_bin("provbench"),
				"export",
				"-f",
				"openmetrics",
				"-o",
				path,
				now,
				NULL};

		CU_ASSERT_EQUAL(it_run(&r, argv, 0, 0), 0);
		it_result_dispose(&r);
	}
	CU_ASSERT_EQUAL(it_sh("test \"$(grep -c 'mode=\"thin\".*"
			      "verdict=\"too_few_to_tell\"} 1 ' '%s')\" = 1 "
			      "&& ! grep -q 'penalty_ratio{.*stat=\"lower95' "
			      "'%s'",
			      path, path),
			0);
}

static const struct pb_case cases[] = {
	PB_CASE(export_junit_regression),
	PB_CASE(two_repetitions_tell_nothing),
	PB_CASE(golden_summary),
	PB_CASE(bad_results),
	PB_CASE(matrix_order_and_verdict),
	PB_CASE(failed_mode_listed),
	PB_CASE(attribution_table),
	PB_CASE(csv_round_trip),
	PB_CASE(report_json),
	PB_CASE(compare_previous),
	PB_CASE(compare_refuses),
	PB_CASE(trend_history),
	PB_CASE(trend_links_counted_once),
	PB_CASE(compare_self_refused),
	PB_CASE(hostile_values_escaped),
	PB_CASE(compare_and_regression),
	PB_CASE(terminal_fits_100_columns),
	PB_CASE(renders_in_chromium),
	PB_CASE(first_screen_demo),
	PB_CASE(pages_layout),
	PB_CASE(targets_and_merge),
	PB_CASE(at_once_aggregate),
	PB_CASES_END,
};

const struct pb_suite suite_report_it = {"report", NULL, NULL, cases};
