/*
 * test_jlite.c - the report's JSON reader: values, escapes, raw spans
 * expanded on demand, positioned errors, and every truncation of a
 * document refused without a crash (this suite also runs under ASan).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jlite.h"
#include "runjson.h"
#include "unit.h"

static const char doc_text[] =
	"{\"tool\": \"provbench\", \"n\": -1.5e3, \"ok\": true, \"no\": "
	"false,\n"
	" \"nil\": null, \"esc\": \"a\\\"b\\\\c\\n\\u00e9\\u20ac\",\n"
	" \"series\": [{\"t_s\": 0.5, \"bytes\": 10}, {\"t_s\": 1, \"bytes\": "
	"20, \"s\": \"]}\"}],\n"
	" \"list\": [1, 2, 3], \"empty\": {}, \"none\": []}\n";

static const char *write_tmp(const char *text, size_t len)
{
	static char path[64];
	FILE *fp;
	int fd;

	strcpy(path, "/tmp/pb-jlite-XXXXXX");
	fd = mkstemp(path);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fp) {
		fwrite(text, 1, len, fp);
		fclose(fp);
	}
	return path;
}

static void values_and_raw_spans(void)
{
	static const char *const raw[] = {"series", NULL};
	const char *path = write_tmp(doc_text, strlen(doc_text));
	char err[PB_ERRBUF_SIZE] = "";
	struct jl_doc d;
	struct jl *s, *it;
	long long sum = 0;

	CU_ASSERT_EQUAL_FATAL(jl_load(&d, path, raw, NULL, err), PB_OK);
	CU_ASSERT_STRING_EQUAL(jl_str(&d, jl_get(d.root, "tool")), "provbench");
	CU_ASSERT_DOUBLE_EQUAL(jl_num(jl_get(d.root, "n")), -1500, 0);
	CU_ASSERT_EQUAL(jl_get(d.root, "ok")->type, JL_TRUE);
	CU_ASSERT_EQUAL(jl_get(d.root, "no")->type, JL_FALSE);
	CU_ASSERT_EQUAL(jl_get(d.root, "nil")->type, JL_NULL);
	CU_ASSERT(isnan(jl_num(jl_get(d.root, "tool"))));
	CU_ASSERT_STRING_EQUAL(jl_str(&d, jl_get(d.root, "esc")),
			       "a\"b\\c\n\xc3\xa9\xe2\x82\xac");
	CU_ASSERT_EQUAL(jl_get(d.root, "list")->n, 3);
	CU_ASSERT_EQUAL(jl_get(d.root, "empty")->n, 0);
	CU_ASSERT_EQUAL(jl_get(d.root, "none")->type, JL_ARR);
	CU_ASSERT_PTR_NULL(jl_get(d.root, "missing"));
	/* the series waits, unparsed, brackets inside strings and all */
	s = jl_get(d.root, "series");
	CU_ASSERT_EQUAL_FATAL(s->type, JL_RAW);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jl_expand(&d, s));
	CU_ASSERT_EQUAL(s->type, JL_ARR);
	CU_ASSERT_EQUAL(s->n, 2);
	jl_foreach(s, it) sum += jl_int(jl_get(it, "bytes"));
	CU_ASSERT_EQUAL(sum, 30);
	/* siblings after the expanded span are still reachable */
	CU_ASSERT_PTR_NOT_NULL(jl_get(d.root, "none"));
	jl_free(&d);
	unlink(path);
}

/*
 * A long raw span (past the 16 bytes the skip looks at once): escaped
 * quotes and backslashes, brackets inside strings at every offset, and
 * the span ends where its own bracket closes.
 */
static void long_raw_spans(void)
{
	static const char *const raw[] = {"series", NULL};
	struct pb_buf b = PB_BUF_INIT(1 << 20);
	char err[PB_ERRBUF_SIZE] = "";
	struct jl_doc d;
	struct jl *sr;
	const char *path;
	int i;

	pb_buf_addstr(&b, "{\"series\": [");
	for (i = 0; i < 40; i++)
		pb_buf_printf(
			&b,
			"%s{\"t_s\": %d.25, \"note\": \"%.*s]\\\"}[\\\\\", "
			"\"bytes\": %d}",
			i ? ", " : "", i, i % 17, "aaaaaaaaaaaaaaaaa", i);
	pb_buf_addstr(&b, "], \"after\": 7}");
	CU_ASSERT_FATAL(!pb_buf_error(&b));
	path = write_tmp(b.data, b.len);
	CU_ASSERT_EQUAL_FATAL(jl_load(&d, path, raw, NULL, err), PB_OK);
	CU_ASSERT_DOUBLE_EQUAL(jl_num(jl_get(d.root, "after")), 7, 0);
	sr = jl_get(d.root, "series");
	CU_ASSERT_EQUAL_FATAL(sr->type, JL_RAW);
	CU_ASSERT_PTR_NOT_NULL_FATAL(jl_expand(&d, sr));
	CU_ASSERT_EQUAL(sr->n, 40);
	{
		struct jl *it;
		double sum = 0;

		jl_foreach(sr, it) sum += jl_num(jl_get(it, "bytes"));
		CU_ASSERT_DOUBLE_EQUAL(sum, 39 * 40 / 2, 0);
	}
	jl_free(&d);
	unlink(path);
	pb_buf_dispose(&b);
}

/* Numbers read exactly as strtod reads them, on the fast path (up to 15
 * digits, no exponent) and off it. */
static void numbers_as_strtod(void)
{
	static const char *const nums[] = {
		"0",
		"-0",
		"0.1",
		"123.4567890",
		"2155.8",
		"1e5",
		"-1.5e3",
		"9007199254740993",
		"12345678901234567",
		"3.14159265358979",
		"0.0000000000000000000001",
		"-0.000001234",
		"18446744073709551615",
		"1073741824",
		"0.30000000000000004",
		"999999999999999.9",
	};
	char doc[256], err[PB_ERRBUF_SIZE] = "";
	struct jl_doc d;
	size_t i;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		const char *path;

		snprintf(doc, sizeof(doc), "{\"v\": %s}", nums[i]);
		path = write_tmp(doc, strlen(doc));
		CU_ASSERT_EQUAL_FATAL(jl_load(&d, path, NULL, NULL, err),
				      PB_OK);
		if (jl_num(jl_get(d.root, "v")) != strtod(nums[i], NULL)) {
			fprintf(stderr, "\n  %s read as %.17g", nums[i],
				jl_num(jl_get(d.root, "v")));
			CU_FAIL(nums[i]);
		}
		jl_free(&d);
		unlink(path);
	}
}

/*
 * 100,000 numbers as the runner writes them (%.10g) and as people type
 * them (up to 19 digits, a point anywhere, exponents): the fast path must
 * agree with strtod bit for bit, and hand the rest to it.
 */
static void random_numbers_as_strtod(void)
{
	enum { N = 100000 };
	char err[PB_ERRBUF_SIZE] = "", num[64], *text = NULL;
	size_t len = 0, cap = (size_t)N * 40 + 16;
	unsigned int seed = 20261203;
	struct jl_doc d;
	struct jl *it;
	size_t i = 0, bad = 0;
	const char *path, *p;

	text = malloc(cap);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	text[len++] = '[';
	for (i = 0; i < N; i++) {
		int digits = 1 + rand_r(&seed) % 19, k, n = 0;
		int point = rand_r(&seed) % (digits + 1);

		if (i % 2 == 0) {
			double x = (double)rand_r(&seed) / RAND_MAX *
				   pow(10, rand_r(&seed) % 40 - 20);
			n = snprintf(num, sizeof(num), "%.10g", x);
		} else {
			if (rand_r(&seed) % 4 == 0)
				num[n++] = '-';
			for (k = 0; k < digits; k++) {
				if (k == point && k > 0)
					num[n++] = '.';
				num[n++] =
					(char)('0' +
					       (k == 0 && digits > 1
							? 1 + rand_r(&seed) % 9
							: rand_r(&seed) % 10));
			}
			if (rand_r(&seed) % 3 == 0)
				n += snprintf(num + n, sizeof(num) - (size_t)n,
					      "e%d", rand_r(&seed) % 50 - 25);
			num[n] = '\0';
		}
		len += (size_t)snprintf(text + len, cap - len, "%s%s",
					i ? "," : "", num);
	}
	text[len++] = ']';
	path = write_tmp(text, len);
	CU_ASSERT_EQUAL_FATAL(jl_load(&d, path, NULL, NULL, err), PB_OK);
	/* walk the numbers and the text side by side */
	p = text + 1;
	i = 0;
	jl_foreach(d.root, it)
	{
		char *end;
		double want = strtod(p, &end);

		if (memcmp(&want, &(double){jl_num(it)}, sizeof(want)) != 0 &&
		    bad++ < 5)
			fprintf(stderr, "\n  %.*s read as %.17g",
				(int)(end - p), p, jl_num(it));
		p = end + 1;
		i++;
	}
	CU_ASSERT_EQUAL(i, N);
	CU_ASSERT_EQUAL(bad, 0);
	jl_free(&d);
	unlink(path);
	free(text);
}

static void every_truncation_refused(void)
{
	static const char *const raw[] = {"series", NULL};
	char err[PB_ERRBUF_SIZE];
	struct jl_doc d;
	size_t n, len = strlen(doc_text);
	const char *path;

	for (n = 0; n + 1 < len; n++) {
		path = write_tmp(doc_text, n);
		err[0] = '\0';
		/* the document ends with "}\n": only whole ones parse */
		CU_ASSERT_EQUAL(jl_load(&d, path, raw, NULL, err),
				PB_ERR_INPUT);
		CU_ASSERT(strlen(err) > 0);
		jl_free(&d);
		unlink(path);
	}
}

static void errors_say_where(void)
{
	static const char bad[] = "{\"a\": 1,\n \"b\": tru}";
	const char *path = write_tmp(bad, strlen(bad));
	char err[PB_ERRBUF_SIZE] = "";
	struct jl_doc d;

	CU_ASSERT_EQUAL(jl_load(&d, path, NULL, NULL, err), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown literal"));
	jl_free(&d);
	unlink(path);
}

static const char stream_text[] =
	"{\"tool\": \"provbench\", \"results\": [\n"
	" {\"rep\": 1, \"mode\": \"thin\", \"series\": [1, [2], \"]\"]},\n"
	" {\"rep\": 2, \"mode\": \"la\\\"zy\"},\n"
	" {\"rep\": 3, \"mode\": \"eager\"}],\n"
	" \"finished\": true}\n";

/* Read the stream of doc: items one at a time, arena reset after each;
 * returns the sum of reps, or -1 on an error. */
static long stream_sum(struct jl_doc *d, bool complete_first)
{
	static const char *const item_raw[] = {"series", NULL};
	char err[PB_ERRBUF_SIZE] = "";
	struct jl_iter it;
	struct jl_mark mark;
	struct jl *item;
	long sum = 0;

	if (complete_first && jl_complete(d, err))
		return -1;
	if (jl_iter_start(d, &it, jl_get(d->root, "results"), err))
		return -1;
	for (;;) {
		jl_mark(d, &mark);
		if (jl_iter_next(d, &it, item_raw, &item, err))
			return -1;
		if (!item)
			break;
		sum += jl_int(jl_get(item, "rep"));
		/* strings decoded for an item go with it */
		CU_ASSERT(strlen(jl_str(d, jl_get(item, "mode"))) > 0);
		jl_reset(d, &mark);
	}
	return sum;
}

static void stream_items(void)
{
	const char *path = write_tmp(stream_text, strlen(stream_text));
	char err[PB_ERRBUF_SIZE] = "";
	struct jl_doc d;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		CU_ASSERT_EQUAL_FATAL(jl_load(&d, path, NULL, "results", err),
				      PB_OK);
		/* before the stream is read, what follows it is not there */
		if (!pass)
			CU_ASSERT_PTR_NULL(jl_get(d.root, "finished"));
		CU_ASSERT_EQUAL(stream_sum(&d, pass == 1), 6);
		/* after it, the rest of the document was parsed */
		CU_ASSERT_PTR_NOT_NULL(jl_get(d.root, "finished"));
		CU_ASSERT_EQUAL(jl_get(d.root, "finished")->type, JL_TRUE);
		CU_ASSERT_STRING_EQUAL(jl_str(&d, jl_get(d.root, "tool")),
				       "provbench");
		jl_free(&d);
	}
	unlink(path);
}

/* An empty stream: what follows it is read all the same (a run.json
 * with no results yet still says whether it finished, and its stops). */
static void stream_empty(void)
{
	static const char text[] = "{\"results\": [ ], \"finished\": true}";
	const char *path = write_tmp(text, strlen(text));
	char err[PB_ERRBUF_SIZE] = "";
	struct jl_doc d;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		CU_ASSERT_EQUAL_FATAL(jl_load(&d, path, NULL, "results", err),
				      PB_OK);
		CU_ASSERT_EQUAL(stream_sum(&d, pass == 1), 0);
		CU_ASSERT_PTR_NOT_NULL(jl_get(d.root, "finished"));
		jl_free(&d);
	}
	unlink(path);
}

static void stream_truncations_refused(void)
{
	char err[PB_ERRBUF_SIZE];
	struct jl_doc d;
	size_t n, len = strlen(stream_text);
	const char *path;

	for (n = 0; n + 1 < len; n++) {
		path = write_tmp(stream_text, n);
		err[0] = '\0';
		/* refused at load, or while streaming */
		if (!jl_load(&d, path, NULL, "results", err)) {
			CU_ASSERT_EQUAL(stream_sum(&d, n & 1), -1);
		}
		jl_free(&d);
		unlink(path);
	}
}

/* A run.json whose format is wrong is refused by name, and the reader
 * holds nothing after (under ASan, a leak of its document fails this). */
static void reader_bad_formats_refused(void)
{
	static const struct {
		const char *format, *msg;
	} bad[] = {
		{"\"2\"", "format: not a number"},
		{"99", "format 99 is newer than this provbench"},
		{"-1", "format -1 is not a run.json format"},
	};
	char text[256], err[PB_ERRBUF_SIZE];
	const char *path;
	struct rj_reader rd;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"format\": %s, \"tool\": \"provbench\", "
			 "\"run\": \"r\", \"environment\": {}, "
			 "\"profile\": {}, \"results\": []}\n",
			 bad[i].format);
		path = write_tmp(text, strlen(text));
		err[0] = '\0';
		CU_ASSERT_EQUAL(rj_reader_open(&rd, path, err), PB_ERR_INPUT);
		if (!strstr(err, bad[i].msg)) {
			fprintf(stderr, "\n  format %s: %s", bad[i].format,
				err);
			CU_FAIL(bad[i].format);
		}
		unlink(path);
	}
}

static const struct pb_case cases[] = {
	PB_CASE(reader_bad_formats_refused),
	PB_CASE(values_and_raw_spans),
	PB_CASE(every_truncation_refused),
	PB_CASE(errors_say_where),
	PB_CASE(stream_items),
	PB_CASE(stream_empty),
	PB_CASE(stream_truncations_refused),
	PB_CASE(long_raw_spans),
	PB_CASE(numbers_as_strtod),
	PB_CASE(random_numbers_as_strtod),
	PB_CASES_END,
};

const struct pb_suite suite_jlite = {"jlite", NULL, NULL, cases};
