/*
 * test_common.c - sizes, the capped buffer, the JSON writer and the
 * error enum.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "unit.h"

static const struct {
	const char *in;
	uint64_t want;
} good_sizes[] = {
	{"0", 0},
	{"512", 512},
	{"4K", 4096},
	{"4k", 4096},
	{"4KiB", 4096},
	{"4kib", 4096},
	{"1M", 1048576},
	{"1MiB", 1048576},
	{"8G", 8ull << 30},
	{"8GiB", 8ull << 30},
	{"2T", 2ull << 40},
	{"2TiB", 2ull << 40},
	/* spaces around a size are no part of it, as between its parts */
	{" 4K", 4096},
	{"64MB ", 64ull << 20},
	{"  8 G  ", 8ull << 30},
	{"1P", 1ull << 50},
	{"4KB", 4096},
	{"1MB", 1048576},
	{"8GB", 8ull << 30},
	{"512B", 512},
	{"512 MiB", 512ull << 20},
	{"18446744073709551615", UINT64_MAX},
	{"16383P", 16383ull << 50},
	/* decimals, when the bytes come out whole */
	{"1.5G", 3ull << 29},
	{"0.5K", 512},
	{"2.25MiB", 2359296},
	{"1.5GB", 3ull << 29},
	{"0.5KB", 512},
};

static const char *const bad_sizes[] = {
	"",
	"-1",
	"-4K",
	"K",
	"4X",
	"4KiBs",
	"0x10",
	"4 K B",
	" ",
	"16384P",
	"99999999999999999999",
	"4Gi",
	"+4K",
	/* a fraction of a byte, bytes with decimals, a point alone */
	"1.3K",
	"0.5",
	"1.5B",
	"1.G",
	".5G",
	"1.0000000001G",
	"16383.9P",
};

/* One rule, as vSphere and govc size disks: KB..PB are binary, and a
 * note says so. */
static const struct {
	const char *in;
	uint64_t want;
	bool si_read_binary;
} disk_sizes[] = {
	{"8GB", 8ull << 30, true},   {"8G", 8ull << 30, false},
	{"8GiB", 8ull << 30, false}, {"1.5TB", 3ull << 39, true},
	{"100", 100, false},	     {"512kb", 512ull << 10, true},
};

static void size_parse_disk(void)
{
	char err[PB_ERRBUF_SIZE];
	uint64_t v;
	bool note;
	size_t i;

	for (i = 0; i < sizeof(disk_sizes) / sizeof(disk_sizes[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL_FATAL(
			pb_size_parse_noted(&v, disk_sizes[i].in, &note, err),
			PB_OK);
		CU_ASSERT_EQUAL(v, disk_sizes[i].want);
		CU_ASSERT_EQUAL(note, disk_sizes[i].si_read_binary);
	}
}

static void size_parse_table(void)
{
	char err[PB_ERRBUF_SIZE];
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(good_sizes) / sizeof(good_sizes[0]); i++) {
		err[0] = '\0';
		v = 1;
		CU_ASSERT_EQUAL_FATAL(pb_size_parse(&v, good_sizes[i].in, err),
				      PB_OK);
		CU_ASSERT_EQUAL(v, good_sizes[i].want);
	}
	for (i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(pb_size_parse(&v, bad_sizes[i], err),
				PB_ERR_INPUT);
		CU_ASSERT(strlen(err) > 0);
	}
}

/* The word a typo meant, and none for a word that is merely wrong. */
static void closest_words(void)
{
	static const char *const passes[] = {"first-write", "rewrite", "read",
					     "fsync-write", "command", NULL};
	static const struct {
		const char *word, *want;
	} cases[] = {
		{"rewite", "rewrite"},
		{"reead", "read"},
		{"frist-write", "first-write"},
		{"comand", "command"},
		{"fsync", NULL},
		{"thick", NULL},
		{"rewrite", NULL}, /* not a typo: no suggestion */
	};
	char hint[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = pb_closest(cases[i].word,
					     strlen(cases[i].word), passes);

		if (!(got == cases[i].want ||
		      (got && cases[i].want && !strcmp(got, cases[i].want))))
			CU_FAIL(cases[i].word);
	}
	CU_ASSERT_STRING_EQUAL(
		pb_choices_hint(hint, sizeof(hint), "eagr", 4, pb_mode_names()),
		"did you mean eager? one of thin, lazy, eager, rdm, rdmp");
	CU_ASSERT_STRING_EQUAL(
		pb_choices_join(hint, sizeof(hint), pb_mode_names()),
		"thin, lazy, eager, rdm or rdmp");
}

static void size_format(void)
{
	char b[32];

	CU_ASSERT_STRING_EQUAL(pb_size_format(b, sizeof(b), 0), "0 B");
	CU_ASSERT_STRING_EQUAL(pb_size_format(b, sizeof(b), 1023), "1023 B");
	CU_ASSERT_STRING_EQUAL(pb_size_format(b, sizeof(b), 4096), "4 KiB");
	CU_ASSERT_STRING_EQUAL(pb_size_format(b, sizeof(b), 3ull << 29),
			       "1.5 GiB");
}

static void buf_grows_and_caps(void)
{
	struct pb_buf b = PB_BUF_INIT(100);
	char big[200];
	size_t len;
	char *p;

	CU_ASSERT_EQUAL(pb_buf_addstr(&b, "hello"), PB_OK);
	CU_ASSERT_EQUAL(pb_buf_printf(&b, " %d-%s", 42, "x"), PB_OK);
	CU_ASSERT_STRING_EQUAL(b.data, "hello 42-x");
	CU_ASSERT_EQUAL(b.len, 10);
	memset(big, 'a', sizeof(big));
	/* over the cap: refused, the buffer unchanged, and the error sticks
	 * (a writer checks once at the end) until the buffer is reset */
	CU_ASSERT_EQUAL(pb_buf_add(&b, big, 91), PB_ERR_TOO_LARGE);
	CU_ASSERT_EQUAL(b.len, 10);
	CU_ASSERT_EQUAL(pb_buf_add(&b, "z", 1), PB_ERR_TOO_LARGE);
	CU_ASSERT_EQUAL(b.len, 10);
	CU_ASSERT_EQUAL(pb_buf_error(&b), PB_ERR_TOO_LARGE);
	pb_buf_reset(&b);
	CU_ASSERT_EQUAL(pb_buf_error(&b), PB_OK);
	CU_ASSERT_EQUAL(pb_buf_add(&b, big, 100), PB_OK);
	CU_ASSERT_EQUAL(b.len, 100);
	CU_ASSERT_EQUAL(pb_buf_add(&b, "z", 1), PB_ERR_TOO_LARGE);
	CU_ASSERT_EQUAL(pb_buf_printf(&b, "%s", "z"), PB_ERR_TOO_LARGE);
	p = pb_buf_steal(&b, &len);
	CU_ASSERT_EQUAL(len, 100);
	CU_ASSERT_EQUAL(p[100], '\0');
	CU_ASSERT_PTR_NULL(b.data);
	free(p);
	pb_buf_reset(&b);
	pb_buf_dispose(&b);
	pb_buf_dispose(NULL);
}

static void error_first_wins(void)
{
	char err[PB_ERRBUF_SIZE] = "";

	CU_ASSERT_EQUAL(pb_fail(err, PB_ERR_IO, "precise %d", 1), PB_ERR_IO);
	CU_ASSERT_EQUAL(pb_fail(err, PB_ERR_INTERNAL, "vague"),
			PB_ERR_INTERNAL);
	CU_ASSERT_STRING_EQUAL(err, "precise 1");
}

static void error_names_and_exits(void)
{
	int e;

	for (e = 0; e < PB_ERR__COUNT; e++) {
		CU_ASSERT_STRING_NOT_EQUAL(pb_strerror((enum pb_error)e),
					   "unknown error");
		if (e > 0)
			CU_ASSERT_STRING_NOT_EQUAL(
				pb_strerror((enum pb_error)e),
				pb_strerror((enum pb_error)(e - 1)));
	}
	CU_ASSERT_STRING_EQUAL(pb_strerror((enum pb_error)999),
			       "unknown error");
	CU_ASSERT_EQUAL(pb_exit_code(PB_OK), 0);
	CU_ASSERT_EQUAL(pb_exit_code(PB_ERR_IO), 1);
	CU_ASSERT_EQUAL(pb_exit_code(PB_ERR_USAGE), 2);
	CU_ASSERT_EQUAL(pb_exit_code(PB_ERR_UNSAFE), 2);
	CU_ASSERT_EQUAL(pb_exit_code(PB_ERR_LOGIN), 3);
	CU_ASSERT_EQUAL(pb_exit_code(PB_ERR_TLS), 3);
	CU_ASSERT_EQUAL(pb_exit_code(PB_ERR_INTERRUPTED), 130);
	/* stable values: these appear in results and must never move */
	CU_ASSERT_EQUAL(PB_ERR_UNSAFE, 5);
	CU_ASSERT_EQUAL(PB_ERR_INTERNAL, 16);
}

static void buf_wraps_words(void)
{
	struct pb_buf b = PB_BUF_INIT(4096);

	pb_buf_addstr(&b, "key       ");
	CU_ASSERT_EQUAL(
		pb_buf_add_wrapped(&b, "one two three four five", 10, 10, 24),
		PB_OK);
	CU_ASSERT_STRING_EQUAL(b.data, "key       one two three\n"
				       "          four five");
	pb_buf_dispose(&b);
}

/* the JSON writer: each value as jansson's JSON_REAL_PRECISION(10) and
 * JSON_INDENT(2) print it (checked against jansson 2.14 by hand) */
static const struct {
	double v;
	const char *want;
} jw_reals[] = {
	{3.0, "3.0"},
	{0.1, "0.1"},
	{1.22e-7, "1.22e-7"},
	{1e20, "1e20"},
	{123456789012.5, "1.23456789e11"},
	{-2.5, "-2.5"},
	{0.0, "0.0"},
	{1.0 / 3.0, "0.3333333333"},
	{NAN, "null"},
	{INFINITY, "null"},
};

static const struct {
	const char *in, *want;
} jw_strings[] = {
	{"plain", "\"plain\""},
	{"a\"b\\c", "\"a\\\"b\\\\c\""},
	{"tab\tnl\ncr\r", "\"tab\\tnl\\ncr\\r\""},
	{"\x01\x1f", "\"\\u0001\\u001f\""},
	{"/slash", "\"/slash\""},
	{"caf\xc3\xa9", "\"caf\xc3\xa9\""},
	/* not UTF-8: a lone continuation, a cut sequence, an overlong '/' */
	{"a\x80z", "\"a\\ufffdz\""},
	{"\xe2\x82", "\"\\ufffd\\ufffd\""},
	{"\xc0\xaf", "\"\\ufffd\\ufffd\""},
};

static void jsonw_values(void)
{
	size_t i;

	for (i = 0; i < sizeof(jw_reals) / sizeof(jw_reals[0]); i++) {
		struct pb_buf b = PB_BUF_INIT(256);
		struct pb_jw w;

		pb_jw_init(&w, &b);
		pb_jw_real(&w, NULL, jw_reals[i].v);
		CU_ASSERT_EQUAL(pb_jw_finish(&w), PB_OK);
		b.data[b.len - 1] = '\0'; /* the closing newline */
		if (strcmp(b.data, jw_reals[i].want))
			fprintf(stderr, "real %d: %s, want %s\n", (int)i,
				b.data, jw_reals[i].want);
		CU_ASSERT_STRING_EQUAL(b.data, jw_reals[i].want);
		pb_buf_dispose(&b);
	}
	for (i = 0; i < sizeof(jw_strings) / sizeof(jw_strings[0]); i++) {
		struct pb_buf b = PB_BUF_INIT(256);

		pb_jw_quoted(&b, jw_strings[i].in);
		CU_ASSERT_STRING_EQUAL(b.data, jw_strings[i].want);
		pb_buf_dispose(&b);
	}
}

static void jsonw_layout(void)
{
	struct pb_buf b = PB_BUF_INIT(4096);
	struct pb_jw w;

	pb_jw_init(&w, &b);
	pb_jw_obj_open(&w, NULL);
	pb_jw_str(&w, "tool", "x");
	pb_jw_str(&w, "note", NULL);
	pb_jw_arr_open(&w, "empty");
	pb_jw_arr_close(&w);
	pb_jw_obj_open(&w, "none");
	pb_jw_obj_close(&w);
	pb_jw_arr_open(&w, "passes");
	pb_jw_obj_open(&w, NULL);
	pb_jw_int(&w, "bytes", 8388608);
	pb_jw_bool(&w, "complete", true);
	pb_jw_obj_close(&w);
	pb_jw_int(&w, NULL, -1);
	pb_jw_arr_close(&w);
	pb_jw_obj_close(&w);
	CU_ASSERT_EQUAL(pb_jw_finish(&w), PB_OK);
	CU_ASSERT_STRING_EQUAL(b.data, "{\n"
				       "  \"tool\": \"x\",\n"
				       "  \"note\": null,\n"
				       "  \"empty\": [],\n"
				       "  \"none\": {},\n"
				       "  \"passes\": [\n"
				       "    {\n"
				       "      \"bytes\": 8388608,\n"
				       "      \"complete\": true\n"
				       "    },\n"
				       "    -1\n"
				       "  ]\n"
				       "}\n");
	pb_buf_dispose(&b);
}

static void jsonw_errors_stick(void)
{
	struct pb_buf b = PB_BUF_INIT(16);
	struct pb_jw w;
	unsigned i;

	/* left open */
	pb_jw_init(&w, &b);
	pb_jw_obj_open(&w, NULL);
	CU_ASSERT_EQUAL(pb_jw_finish(&w), PB_ERR_INTERNAL);
	/* closed more than opened */
	pb_buf_reset(&b);
	pb_jw_init(&w, &b);
	pb_jw_arr_close(&w);
	CU_ASSERT_EQUAL(pb_jw_finish(&w), PB_ERR_INTERNAL);
	/* too deep: refused, not written past the level table */
	pb_buf_reset(&b);
	pb_jw_init(&w, &b);
	for (i = 0; i < PB_JW_MAX_DEPTH + 2; i++)
		pb_jw_arr_open(&w, NULL);
	CU_ASSERT_EQUAL(pb_jw_finish(&w), PB_ERR_INTERNAL);
	/* the buffer's cap: its error comes back */
	pb_buf_reset(&b);
	pb_jw_init(&w, &b);
	pb_jw_str(&w, NULL, "longer than sixteen bytes");
	CU_ASSERT_EQUAL(pb_jw_finish(&w), PB_ERR_TOO_LARGE);
	pb_buf_dispose(&b);
}

static const struct pb_case cases[] = {
	PB_CASE(size_parse_table),	PB_CASE(size_parse_disk),
	PB_CASE(closest_words),		PB_CASE(size_format),
	PB_CASE(buf_grows_and_caps),	PB_CASE(buf_wraps_words),
	PB_CASE(jsonw_values),		PB_CASE(jsonw_layout),
	PB_CASE(jsonw_errors_stick),	PB_CASE(error_first_wins),
	PB_CASE(error_names_and_exits), PB_CASES_END,
};

const struct pb_suite suite_common = {"common", NULL, NULL, cases};
