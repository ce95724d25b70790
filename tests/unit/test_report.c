/*
 * test_report.c - the report's statistics against hand-computed values,
 * CSV quoting, HTML escaping, and the model read from run.json.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "draw.h"
#include "csv.h"
#include "findings.h"
#include "json.h"
#include "analysis.h"
#include "compare.h"
#include "model.h"
#include "words.h"
#include "unit.h"

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void medians(void)
{
	double a[] = {3, 1, 2}, b[] = {4, 1, 3, 2}, c[] = {7};

	CU_ASSERT_DOUBLE_EQUAL(rp_median(a, 3), 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rp_median(b, 4), 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rp_median(c, 1), 7, 1e-12);
	CU_ASSERT(isnan(rp_median(a, 0)));
	/* the input is not reordered */
	CU_ASSERT_DOUBLE_EQUAL(a[0], 3, 0);
}

static void median_interval(void)
{
	double v[] = {10, 20, 30, 40, 50}, same[] = {5, 5, 5, 5};
	double lo, hi, lo2, hi2;

	rp_median_ci(&lo, &hi, v, 5);
	CU_ASSERT(lo >= 10 && lo <= 30);
	CU_ASSERT(hi >= 30 && hi <= 50);
	CU_ASSERT(lo < hi);
	rp_median_ci(&lo2, &hi2, v, 5);
	CU_ASSERT_DOUBLE_EQUAL(lo, lo2, 0); /* fixed seed: reproducible */
	CU_ASSERT_DOUBLE_EQUAL(hi, hi2, 0);
	rp_median_ci(&lo, &hi, same, 4);
	CU_ASSERT_DOUBLE_EQUAL(lo, 5, 0);
	CU_ASSERT_DOUBLE_EQUAL(hi, 5, 0);
	{
		/* many values: the order-statistic interval brackets the
		 * median by about 0.98 sqrt(n) ranks either side */
		static double many[1000];
		unsigned i;

		for (i = 0; i < 1000; i++)
			many[i] = (double)((i * 7919) % 1000);
		rp_median_ci(&lo, &hi, many, 1000);
		CU_ASSERT_DOUBLE_EQUAL(lo, 469, 0);
		CU_ASSERT_DOUBLE_EQUAL(hi, 531, 0);
	}
	rp_median_ci(&lo, &hi, v, 1);
	CU_ASSERT_DOUBLE_EQUAL(lo, 10, 0);
	CU_ASSERT_DOUBLE_EQUAL(hi, 10, 0);
}

/* Student's t at known quantiles (tables: 12.706, 4.303, 2.776, 2.228,
 * 1.960 as df grows) */
static void t_critical(void)
{
	static const struct {
		double df, t;
	} cases[] = {
		{1, 12.7062}, {2, 4.3027},	{4, 2.7764},
		{10, 2.2281}, {3.4848, 2.9460}, {1e6, 1.9600},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CU_ASSERT_DOUBLE_EQUAL(rp_t_critical(0.05, cases[i].df),
				       cases[i].t, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(rp_t_critical(0.01, 4), 4.6041, 1e-3);
	CU_ASSERT(isnan(rp_t_critical(0.05, 0)));
	CU_ASSERT(isnan(rp_t_critical(0, 4)));
}

/* a standard normal deviate (Box-Muller), from rand_r */
static double normal(unsigned *seed)
{
	double u = (rand_r(seed) + 1.0) / (RAND_MAX + 2.0),
	       v = (rand_r(seed) + 1.0) / (RAND_MAX + 2.0);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * The mean difference's interval holds the truth as often as it says: of
 * 4000 draws of 3 and of 5 values around a known mean (against 5 values
 * of a baseline with a spread of its own), 95% intervals hold it 92.5 to
 * 97% of the time (binomial sd 0.34%; Welch's degrees of freedom are an
 * approximation that holds 93.3% at 3 values here, 94.7% at 5, where a
 * z interval on 3 values holds ~88%). By hand: {1, 2, 3} has mean 2, sd
 * 1, t(2) 4.3027: [-0.484, 4.484].
 */
static void mean_diff_interval(void)
{
	double a[3] = {1, 2, 3}, d, lo, hi;
	unsigned seed = 11;
	size_t sizes[] = {3, 5};

	rp_mean_diff_ci(&d, &lo, &hi, a, 3, NULL, 0, 0.05);
	CU_ASSERT_DOUBLE_EQUAL(d, 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(lo, 2 - 4.3027 / sqrt(3), 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(hi, 2 + 4.3027 / sqrt(3), 1e-3);
	rp_mean_diff_ci(&d, &lo, &hi, a, 1, NULL, 0, 0.05);
	CU_ASSERT(d == 1 && isnan(lo) && isnan(hi));
	for (size_t s = 0; s < 2; s++) {
		size_t n = sizes[s], held = 0, k, i;

		for (k = 0; k < 4000; k++) {
			double x[5], b[5];

			for (i = 0; i < n; i++)
				x[i] = 0.3 + 0.2 * normal(&seed);
			for (i = 0; i < 5; i++)
				b[i] = 0.1 + 0.05 * normal(&seed);
			rp_mean_diff_ci(&d, &lo, &hi, x, n, b, 5, 0.05);
			held += lo <= 0.2 && 0.2 <= hi;
		}
		CU_ASSERT(held >= 3700 && held <= 3880);
		if (!(held >= 3700 && held <= 3880))
			fprintf(stderr, "\n  %zu values: %zu of 4000 held\n", n,
				held);
	}
}

/* Hand-computed series of 0.5 s intervals (12.5 MiB each at 25 MiB/s). */
static void steady_state_knee(void)
{
	uint64_t bytes[40], before = 7;
	double mib[40];
	unsigned i;

	/* a knee: 10 intervals at 25 MiB/s, then 20 at 50; settled after
	 * the first 10 intervals' bytes, whatever the window */
	for (i = 0; i < 30; i++) {
		mib[i] = i < 10 ? 25 : 50;
		bytes[i] = (uint64_t)(mib[i] * 0.5 * 1048576);
	}
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 30, 50, 3),
			RP_STEADY_SETTLED);
	CU_ASSERT_EQUAL(before, 10 * 12.5 * 1048576);
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 30, 50, 1),
			RP_STEADY_SETTLED);
	CU_ASSERT_EQUAL(before, 10 * 12.5 * 1048576);
	/* never reaching the rewrite rate: the whole pass, never settled */
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 30, 80, 3),
			RP_STEADY_NEVER);
	CU_ASSERT_EQUAL(before, (10 * 12.5 + 20 * 25) * 1048576);
	/* settling, then a stall at the end: not steady after all */
	mib[29] = mib[28] = mib[27] = 5;
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 30, 50, 3),
			RP_STEADY_NEVER);
}

/* A flat series at the rewrite rate is steady from its first byte. */
static void steady_state_flat(void)
{
	uint64_t bytes[25], before = 7;
	double mib[25];
	unsigned i;

	for (i = 0; i < 25; i++) {
		mib[i] = 48 + (i % 3); /* 48..50: within 10% of 50 */
		bytes[i] = (uint64_t)(mib[i] * 0.5 * 1048576);
	}
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 25, 50, 3),
			RP_STEADY_SETTLED);
	CU_ASSERT_EQUAL(before, 0);
}

/*
 * How finely settling can be told, from a reference (a rewrite) of 40
 * equal intervals around 50 MiB/s. By hand: flat within 10%, 3 points;
 * 4 at 40 then 4 at 60, over and over: 3 points can all be 40 (20% off)
 * but any 6 hold at least two 60s (46.7 at worst), so 6; 8 at 35 then 8
 * at 65: 6 can all be 35, and 12 is past a quarter of the reference (10),
 * so too noisy (0). A short reference cannot be judged: the window asked.
 */
static void steady_state_noisy_reference(void)
{
	uint64_t bytes[40];
	double mib[40];
	unsigned i;

	for (i = 0; i < 40; i++) {
		bytes[i] = 12 * 1048576;
		mib[i] = 48 + (i % 3);
	}
	CU_ASSERT_EQUAL(rp_steady_window(bytes, mib, 40, 50, 3), 3);
	for (i = 0; i < 40; i++)
		mib[i] = (i / 4) % 2 ? 60 : 40;
	CU_ASSERT_EQUAL(rp_steady_window(bytes, mib, 40, 50, 3), 6);
	for (i = 0; i < 40; i++)
		mib[i] = (i / 8) % 2 ? 65 : 35;
	CU_ASSERT_EQUAL(rp_steady_window(bytes, mib, 40, 50, 3), 0);
	/* 60 intervals: 12 is within a quarter, and any 12 hold 4 or
	 * more of each (45 to 55, the band's edges): told over 12 */
	{
		uint64_t b60[60];
		double m60[60];

		for (i = 0; i < 60; i++) {
			b60[i] = 12 * 1048576;
			m60[i] = (i / 8) % 2 ? 65 : 35;
		}
		CU_ASSERT_EQUAL(rp_steady_window(b60, m60, 60, 50, 3), 12);
	}
	/* a slow start of its own (the first tenth) does not count */
	for (i = 0; i < 40; i++)
		mib[i] = i < 3 ? 20 : 50;
	CU_ASSERT_EQUAL(rp_steady_window(bytes, mib, 40, 50, 3), 3);
	/* nor can a reference that is too short be judged */
	CU_ASSERT_EQUAL(rp_steady_window(bytes, mib, 19, 50, 3), 3);
}

/* Fewer than 20 intervals: too short to tell, never a number. */
static void steady_state_too_short(void)
{
	uint64_t bytes[19], before = 7;
	double mib[19];
	unsigned i;

	for (i = 0; i < 19; i++) {
		mib[i] = 50;
		bytes[i] = 25 * 1048576;
	}
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 19, 50, 3),
			RP_STEADY_TOO_SHORT);
	CU_ASSERT_EQUAL(before, 7); /* untouched */
	CU_ASSERT_EQUAL(rp_steady_after(&before, bytes, mib, 0, 50, 3),
			RP_STEADY_TOO_SHORT);
}

/*
 * The aggregate of targets at once, by hand: A runs 0-4 s at 10 MiB/s
 * (1 s intervals), B 1-5 s at 20 MiB/s but 40 MiB/s in its second second;
 * the window is 1-4 s: A writes 30 MiB in it, B 20 + 40 + 20 = 80 MiB,
 * (30 + 80) / 3 s = 36.67 MiB/s; an interval cut by the window counts by
 * the part inside it.
 */
static void aggregate_window(void)
{
	const double M = 1048576.0;
	double ta[4] = {1, 2, 3, 4}, ba[4] = {10 * M, 10 * M, 10 * M, 10 * M};
	double bb[4] = {20 * M, 40 * M, 20 * M, 20 * M};
	struct rp_agg_pass p[3] = {
		{.start_s = 100,
		 .seconds = 4,
		 .bytes = 40 * M,
		 .t_s = ta,
		 .ibytes = ba,
		 .n = 4},
		{.start_s = 101,
		 .seconds = 4,
		 .bytes = 100 * M,
		 .t_s = ta,
		 .ibytes = bb,
		 .n = 4},
		{.start_s = 100.5,
		 .seconds = 4,
		 .bytes = 40 * M,
		 .t_s = ta,
		 .ibytes = ba,
		 .n = 4},
	};
	double mib, w;

	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 2), RP_AGG_OK);
	CU_ASSERT_DOUBLE_EQUAL(w, 3.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(mib, 110.0 / 3.0, 1e-9);
	/* with C (0.5-4.5 s) the window is still 1-4 s, C's own 0.5-3.5 s:
	 * 5 + 10 + 10 + 5 MiB */
	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 3), RP_AGG_OK);
	CU_ASSERT_DOUBLE_EQUAL(mib, (30.0 + 80.0 + 30.0) / 3.0, 1e-9);
	/* no series: bytes taken as written evenly */
	p[0].n = p[1].n = 0;
	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 2), RP_AGG_OK);
	CU_ASSERT_DOUBLE_EQUAL(mib, (30.0 + 75.0) / 3.0, 1e-9);
}

/* Passes that did not overlap have no aggregate; a window shorter than
 * two of a pass's intervals is too short to tell. */
static void aggregate_no_overlap_short(void)
{
	const double M = 1048576.0;
	double ta[4] = {1, 2, 3, 4}, ba[4] = {10 * M, 10 * M, 10 * M, 10 * M};
	struct rp_agg_pass p[2] = {
		{.start_s = 0,
		 .seconds = 4,
		 .bytes = 40 * M,
		 .t_s = ta,
		 .ibytes = ba,
		 .n = 4},
		{.start_s = 4,
		 .seconds = 4,
		 .bytes = 40 * M,
		 .t_s = ta,
		 .ibytes = ba,
		 .n = 4},
	};
	double mib, w;

	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 2), RP_AGG_NO_OVERLAP);
	CU_ASSERT(isnan(mib));
	p[1].start_s = 2.5; /* 2.5-4 s: one whole interval of A's */
	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 2), RP_AGG_TOO_SHORT);
	CU_ASSERT_DOUBLE_EQUAL(w, 1.5, 1e-9);
	p[1].start_s = 2; /* 2-4 s: two */
	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 2), RP_AGG_OK);
	CU_ASSERT_DOUBLE_EQUAL(mib, 20.0, 1e-9);
	CU_ASSERT_EQUAL(rp_aggregate(&mib, &w, p, 0), RP_AGG_NO_OVERLAP);
}

/* Two modes' ratio: independent samples; overlapping means noise. */
static void ratio_interval(void)
{
	double a[3] = {100, 100, 100}, b[3] = {50, 50, 50};
	double c[4] = {90, 100, 110, 120}, lo, hi;

	rp_ratio_ci(&lo, &hi, a, 3, b, 3);
	CU_ASSERT_DOUBLE_EQUAL(lo, 2.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(hi, 2.0, 1e-12);
	rp_ratio_ci(&lo, &hi, c, 4, a, 3);
	CU_ASSERT(lo >= 0.9 - 1e-12 && hi <= 1.2 + 1e-12 && lo < 1 && hi > 1);
	CU_ASSERT_TRUE(rp_overlap(0.4, 0.5, 0.45, 0.6));
	CU_ASSERT_TRUE(rp_overlap(0.4, 0.5, 0.5, 0.6)); /* touching */
	CU_ASSERT_FALSE(rp_overlap(0.4, 0.5, 0.51, 0.6));
	CU_ASSERT_FALSE(rp_overlap(NAN, 0.5, 0.4, 0.6));
}

/* the brute-force percentile bootstrap of a median ratio, for checking */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double med_sorted(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void brute_ci(double *lo, double *hi, const double *a, const double *b,
		     size_t n)
{
	enum { K = 2000 };
	static double st[K];
	double *sa = malloc(n * sizeof(*sa)), *sb = malloc(n * sizeof(*sb));
	unsigned seed = 12345;

	for (size_t k = 0; k < K; k++) {
		for (size_t i = 0; i < n; i++) {
			size_t j = (size_t)rand_r(&seed) % n;

			sa[i] = a[j];
			sb[i] = b[(size_t)rand_r(&seed) % n];
		}
		st[k] = med_sorted(sa, n) / med_sorted(sb, n);
	}
	qsort(st, K, sizeof(*st), cmp_d);
	*lo = st[K / 40];
	*hi = st[K - K / 40 - 1];
	free(sa);
	free(sb);
}

/*
 * Above RP_BOOTSTRAP_MAX_N the ratio's interval comes from the delta
 * method: it agrees with a brute-force bootstrap of the same data within
 * a fifth of the interval's width.
 */
static void intervals_many_reps(void)
{
	enum { N = 400 };
	static double a[N], b[N];
	double lo, hi, blo, bhi, w;
	unsigned seed = 7;

	for (size_t i = 0; i < N; i++) {
		a[i] = 100 + 20 * (double)(rand_r(&seed) % 1000) / 1000.0;
		b[i] = 200 + 30 * (double)(rand_r(&seed) % 1000) / 1000.0;
	}
	rp_ratio_ci(&lo, &hi, a, N, b, N);
	brute_ci(&blo, &bhi, a, b, N);
	w = bhi - blo;
	CU_ASSERT(fabs(lo - blo) < w / 5 && fabs(hi - bhi) < w / 5);
	if (!(fabs(lo - blo) < w / 5 && fabs(hi - bhi) < w / 5))
		fprintf(stderr, "\n  ratio [%g, %g], bootstrap [%g, %g]\n", lo,
			hi, blo, bhi);
}

static void breakeven(void)
{
	/* eager: 120 s to provision, writes 100 MiB/s first time; lazy:
	 * 1 s, 50 MiB/s. Saved per MiB: 1/50 - 1/100 = 0.01 s; the 119 s
	 * are repaid after 11900 MiB. */
	CU_ASSERT_DOUBLE_EQUAL(rp_breakeven_bytes(120, 100, 1, 50),
			       11900.0 * 1048576, 1);
	CU_ASSERT_DOUBLE_EQUAL(rp_breakeven_bytes(120, 40, 1, 50), -1, 0);
	CU_ASSERT_DOUBLE_EQUAL(rp_breakeven_bytes(1, 100, 2, 50), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(rp_breakeven_bytes(10, 0, 1, 50), -1, 0);
}

static void csv_quoting(void)
{
	static const struct {
		const char *in, *out;
	} t[] = {
		{"plain", "plain"},
		{"a,b", "\"a,b\""},
		{"say \"hi\"", "\"say \"\"hi\"\"\""},
		{"two\nlines", "\"two\nlines\""},
		{"", ""},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pb_buf b = PB_BUF_INIT(1024);

		CU_ASSERT_EQUAL(rp_csv_field(&b, t[i].in), PB_OK);
		CU_ASSERT_STRING_EQUAL(b.data ? b.data : "", t[i].out);
		pb_buf_dispose(&b);
	}
}

static void html_escaping(void)
{
	struct pb_buf b = PB_BUF_INIT(1024);

	CU_ASSERT_EQUAL(rp_html_text(&b, "<script>alert('x')</script>&\""),
			PB_OK);
	CU_ASSERT_STRING_EQUAL(b.data, "&lt;script&gt;alert(&#39;x&#39;)&lt;"
				       "/script&gt;&amp;&quot;");
	pb_buf_dispose(&b);
}

/* One item with five rewrites and two reads: more values per item than
 * items, which the per-item arrays must hold. Its first write's p50 is
 * 4 and its rep (41, 42, 43), a later pass's its rate. */
/* clang-format off */
#define ITEM(rep)                                                              \
	"{\"rep\": " #rep ", \"mode\": \"thin\", \"status\": \"ok\", "         \
	"\"disk\": {\"provision_s\": 0.5}, \"runner\": {\"passes\": ["         \
	"{\"name\": \"first-write\", \"complete\": true, "                   \
	"\"mib_per_s\": 100, \"lat_us\": {\"p50\": 4" #rep ", \"p99\": 9}, " \
	"\"series\": [{\"bytes\": 1048576, \"mib_per_s\": 100}]},"            \
	PASS("rewrite", 200) "," PASS("rewrite", 210) ","                      \
	PASS("rewrite", 220) "," PASS("rewrite", 230) ","                      \
	PASS("rewrite", 240) "," PASS("read", 300) ","                         \
	PASS("read", 310) "]}}"
/* clang-format on */
#define PASS(name, mib)                                                        \
	"{\"name\": \"" name "\", \"complete\": true, \"mib_per_s\": " #mib    \
	", \"lat_us\": {\"p50\": " #mib ", \"p99\": 5}}"
#define HEAD "\"tool\": \"provbench\", \"run\": \"r\", \"environment\": {}"

/* text as run.json in a new directory /tmp/pb-NAME-??????, whose path
 * goes into dir (len bytes); run_dir_remove takes both away */
static void run_dir(char *dir, size_t len, const char *name, const char *text)
{
	char path[96];
	FILE *fp;

	CU_ASSERT_FATAL(pb_tmpdir(dir, len, name));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	fp = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs(text, fp);
	fclose(fp);
}

static void run_dir_remove(const char *dir)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/run.json", dir);
	unlink(path);
	rmdir(dir);
}

static void model_from(const char *text)
{
	char dir[64], err[PB_ERRBUF_SIZE] = "";
	struct pb_buf csv = PB_BUF_INIT(1 << 20);
	struct rp_csv_rows rows;
	struct rp_item_sink sink;
	struct rp_model m;
	const struct rp_group *g;

	run_dir(dir, sizeof(dir), "model", text);
	CU_ASSERT_EQUAL_FATAL(rp_csv_rows_start(&rows, &csv, &sink), PB_OK);
	CU_ASSERT_EQUAL_FATAL(rp_model_load(&m, dir, "rdm", &sink, err), PB_OK);
	g = rp_model_find(&m, "", "", "thin");
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->nreps, 3);
	CU_ASSERT_EQUAL(g->nok, 3);
	CU_ASSERT_DOUBLE_EQUAL(g->first_med, 100, 1e-9);
	/* each item's rewrites count as their median, reads likewise */
	CU_ASSERT_DOUBLE_EQUAL(g->rewrite_med, 220, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(g->read_med, 305, 1e-9);
	CU_ASSERT_EQUAL(g->max_rewrites, 5);
	CU_ASSERT_DOUBLE_EQUAL(g->conv_med[4], 240, 1e-9);
	CU_ASSERT_EQUAL(g->nfig[RP_FIG_P99_REWRITE], 15);
	/* figures.h's: every later pass's p50 pooled (reads are not
	 * writes), and the first writes' 41, 42 and 43 */
	CU_ASSERT_EQUAL(g->nfig[RP_FIG_P50_REWRITE], 15);
	CU_ASSERT_DOUBLE_EQUAL(g->fig_med[RP_FIG_P50_REWRITE], 220, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(g->fig_med[RP_FIG_P50_FIRST], 42, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(g->fig_med[RP_FIG_P99_FIRST], 9, 1e-9);
	CU_ASSERT_PTR_NOT_NULL(g->curve);
	/* a row per pass: 3 items x 8 passes, and the header */
	CU_ASSERT_EQUAL(count_lines(csv.data), 25);
	rp_model_dispose(&m);
	rp_csv_rows_dispose(&rows);
	pb_buf_dispose(&csv);
	run_dir_remove(dir);
}

static void model_many_passes_per_item(void)
{
	/* as provbench writes it: the results stream through once */
	model_from("{" HEAD ", \"results\": [" ITEM(1) "," ITEM(2) "," ITEM(
		3) "], \"finished\": true}");
	/* reordered by hand: results first, read in two passes */
	model_from("{\"results\": [" ITEM(1) "," ITEM(2) "," ITEM(3) "], " HEAD
								     "}");
}

/*
 * A precision-form run's design (resolved's "adaptive") is read wherever
 * the file has it: provbench writes it before the results, a file
 * written otherwise (by hand, or tests/validate's until 2026-12-06) was
 * read as a fixed count, its intervals at 95% instead of the look level.
 */
#define RESOLVED                                                               \
	"\"resolved\": {\"repetitions\": 10, \"adaptive\": "                   \
	"{\"min_repetitions\": 3, \"precision_pct\": 0, "                      \
	"\"threshold_pct\": 5, \"look_alpha\": 0.0119}}"

/* the design read from text, and report --json's stop_rule for thin */
static void seq_of(const char *text, const char *rule)
{
	char dir[64], err[PB_ERRBUF_SIZE] = "";
	struct rp_findings fs;
	struct rp_model m;
	json_t *doc, *g;
	size_t i;

	run_dir(dir, sizeof(dir), "seq", text);
	CU_ASSERT_EQUAL_FATAL(rp_model_load(&m, dir, "rdm", NULL, err), PB_OK);
	CU_ASSERT(m.seq.on);
	CU_ASSERT_DOUBLE_EQUAL(m.seq.look_alpha, 0.0119, 1e-12);
	CU_ASSERT_EQUAL(m.seq.min, 3);
	CU_ASSERT_EQUAL(m.seq.max, 10);
	CU_ASSERT_DOUBLE_EQUAL(m.seq.threshold, 0.05, 1e-12);
	CU_ASSERT_EQUAL_FATAL(rp_findings_build(&fs, &m, NULL, NULL), PB_OK);
	doc = rp_model_json(&m, &fs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "groups")), 1);
	json_array_foreach(json_object_get(doc, "groups"), i, g)
	{
		const char *got =
			json_string_value(json_object_get(g, "stop_rule"));

		CU_ASSERT_STRING_EQUAL(got ? got : "(null)", rule);
	}
	json_decref(doc);
	rp_findings_dispose(&fs);
	rp_model_dispose(&m);
	run_dir_remove(dir);
}

/* every member a reader needs before the results there, as provbench
 * writes them: only "resolved" after */
#define FULL_HEAD "\"format\": 1, \"profile\": {}, " HEAD

/* and report --json says the rule a look would stop an open mode by
 * (the harness's, which tests/validate reads): open before the least;
 * above 5% at the third, a penalty of 120% with no spread */
static void model_resolved_anywhere(void)
{
	seq_of("{" FULL_HEAD ", " RESOLVED ", \"results\": [" ITEM(1) "]}",
	       "open");
	seq_of("{" FULL_HEAD ", \"results\": [" ITEM(1) "," ITEM(2) "," ITEM(
		       3) "], " RESOLVED ", \"finished\": true}",
	       "above");
}

/*
 * run.json files (tests/data/runjson/, shaped as provbench writes them):
 * how many groups each makes and their first-write medians, or the error
 * a reader must give.
 */
static const struct {
	const char *file;
	const char *err; /* a substring of the error, or NULL */
	size_t ngroups;
	double first[2]; /* each group's first-write median, in order */
} runjson_cases[] = {
	/* two points alike in their first 64 bytes: two groups, never one
	 * pooled median (what a name cut at 64 bytes made) */
	{"long-points.json", NULL, 2, {102, 302}},
	/* a format-1 file from a matrix over passes, every point named
	 * "passes=false": still two groups, by the point's index */
	{"format1-same-names.json", NULL, 2, {102, 302}},
	{"format3.json",
	 "format 3 is newer than this provbench reads (1 to 2)",
	 0,
	 {0}},
	{"bad-status.json",
	 "results[1]: status \"done\": not a status",
	 0,
	 {0}},
	{"bad-mode.json",
	 "results[0]: mode \"thick\": not a provisioning mode",
	 0,
	 {0}},
	{"no-point.json", "results[0]: point: not a whole number", 0, {0}},
	{"missing.json", "missing.json/run.json", 0, {0}},
};

/* Every finding of m in its words, a line each (as the pages say them) */
static void findings_lines(const struct rp_model *m, struct pb_buf *b)
{
	struct rp_findings fs;
	char t[4096];
	size_t i;

	CU_ASSERT_EQUAL_FATAL(rp_findings_build(&fs, m, NULL, NULL), PB_OK);
	for (i = 0; i < fs.n; i++) {
		rp_finding_text(t, sizeof(t), m, &fs.f[i]);
		pb_buf_printf(b, "%s\n", t);
	}
	rp_findings_dispose(&fs);
}

/* tests/data/runjson/NAME against rdm, and two of its modes' groups (the
 * one workload point's) */
static void load_pair(struct rp_model *m, const char *name, const char *mode_a,
		      const struct rp_group **a, const char *mode_b,
		      const struct rp_group **b)
{
	char path[128], err[PB_ERRBUF_SIZE] = "";

	snprintf(path, sizeof(path), "tests/data/runjson/%s", name);
	CU_ASSERT_EQUAL_FATAL(rp_model_load(m, path, "rdm", NULL, err), PB_OK);
	*a = rp_model_find(m, "", m->g[0].workload, mode_a);
	*b = rp_model_find(m, "", m->g[0].workload, mode_b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*b);
}

/* rdm skipped (no root for a loop device): eager is the baseline, said,
 * and the ratios are there */
static void baseline_falls_back_to_eager(void)
{
	char err[PB_ERRBUF_SIZE] = "";
	struct rp_model m;
	const struct rp_group *thin;

	CU_ASSERT_EQUAL_FATAL(rp_model_load(&m,
					    "tests/data/runjson/"
					    "rdm-skipped.json",
					    "rdm", NULL, err),
			      PB_OK);
	CU_ASSERT_STRING_EQUAL(m.baseline, "eager");
	CU_ASSERT_PTR_NOT_NULL(strstr(m.base_note, "rdm has no figures"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m.base_note, "skipped"));
	CU_ASSERT_TRUE(m.have_baseline);
	thin = rp_model_find(&m, "", m.g[0].workload, "thin");
	CU_ASSERT_PTR_NOT_NULL_FATAL(thin);
	CU_ASSERT_DOUBLE_EQUAL(thin->first_vs_base, 0.5, 1e-9);
	/* thin's passes kept 3 of the 8 asked: said; eager's 7.9: not */
	{
		struct pb_buf f = PB_BUF_INIT(1 << 16);

		findings_lines(&m, &f);
		CU_ASSERT_PTR_NOT_NULL(f.data);
		CU_ASSERT_PTR_NOT_NULL(
			f.data && strstr(f.data, "thin: "
						 "a pass kept a queue depth of "
						 "3.0 of the 8 asked"));
		CU_ASSERT_PTR_NULL(f.data &&
				   strstr(f.data, "eager: a pass kept"));
		/* thin's passes left 50 ms out (ramp_s), said once; one
		 * eager pass was no longer than its ramp: said, by name */
		CU_ASSERT_PTR_NOT_NULL(f.data &&
				       strstr(f.data, "each pass's first 50 ms "
						      "are left out"));
		CU_ASSERT_PTR_NOT_NULL(f.data &&
				       strstr(f.data, "eager: 1 pass(es) "
						      "no longer than their "
						      "ramp"));
		CU_ASSERT_PTR_NOT_NULL(f.data && strstr(f.data, "\neager: "));
		pb_buf_dispose(&f);
	}
	rp_model_dispose(&m);
	/* with rdm measured, rdm stays the baseline: the golden run */
	CU_ASSERT_EQUAL_FATAL(
		rp_model_load(&m, "tests/data/golden", "rdm", NULL, err),
		PB_OK);
	CU_ASSERT_STRING_EQUAL(m.baseline, "rdm");
	CU_ASSERT_STRING_EQUAL(m.base_note, "");
	rp_model_dispose(&m);
}

/*
 * The baseline's two rewrites of one disk, by hand: 100/130 (30 over a
 * median of 115: 26%), 100/100 (0), 90/110 (20%): a median of 20% over 3
 * reps, said as the host's noise. thin's rewrites differ more (60/130)
 * but thin is not the baseline: not said of it. rdm-skipped.json has one
 * rewrite per disk: nothing to compare, nothing said.
 */
static void baseline_noise_said(void)
{
	char err[PB_ERRBUF_SIZE] = "";
	struct pb_buf f = PB_BUF_INIT(1 << 16);
	struct rp_model m;
	const struct rp_group *rdm, *thin;

	load_pair(&m, "noisy-baseline.json", "rdm", &rdm, "thin", &thin);
	CU_ASSERT_EQUAL(rdm->nrw_spread, 3);
	CU_ASSERT_DOUBLE_EQUAL(rdm->rw_spread_med, 0.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(thin->rw_spread_med, 4.0 / 102.0, 1e-9);
	findings_lines(&m, &f);
	CU_ASSERT_PTR_NOT_NULL(f.data &&
			       strstr(f.data, "noise: one disk's rewrites "
					      "differ by a median of 20% (3 "
					      "reps) for the baseline rdm, "
					      "with no first-write cost"));
	CU_ASSERT_PTR_NULL(f.data && strstr(f.data, "for the baseline thin"));
	pb_buf_dispose(&f);
	rp_model_dispose(&m);

	CU_ASSERT_EQUAL_FATAL(rp_model_load(&m,
					    "tests/data/runjson/"
					    "rdm-skipped.json",
					    "rdm", NULL, err),
			      PB_OK);
	CU_ASSERT_EQUAL(m.g[0].nrw_spread, 0);
	f = (struct pb_buf)PB_BUF_INIT(1 << 16);
	findings_lines(&m, &f);
	CU_ASSERT_PTR_NULL(f.data && strstr(f.data, "noise: one disk's"));
	pb_buf_dispose(&f);
	rp_model_dispose(&m);
}

/*
 * A first write in pairs (--pair-stripe): each rep's penalty is the time
 * its whole first-write pass took per byte (every fresh stripe, the
 * unpaired first one included: issue 52) over its rewritten stripes'
 * time per byte, and the group's is exp(mean log ratio) - 1, less the
 * baseline's own. The fixture's passes contradict its pairs on purpose
 * (rdm's first pass 20% under its rewrites, as a host that slowed
 * between passes makes it; lazy's passes level). By hand, the pass's
 * 12.8 s for 64 stripes against written_seconds for 63: rdm 12.6/12.348,
 * 12.6/12.726, 12.6/12.6; lazy 10.08/7.056, 10.08/7.56, 10.08/7.2576.
 * rdm's own: mean log 0.003418, sd 0.015364, t(2) 4.3027: 0.34% [-3.42,
 * 4.25%]. lazy's less rdm's: 0.320870, 37.83%, Welch's df 2.7556 (t
 * 3.3482: the same bisection in Python) gives [28.09, 48.32%]. The
 * passes' ratio (0.20, 0) is not it, nor the pairs' median penalties
 * (0.28, a share of the rate), nor the 60 pairs alone of rep 2 (12.0 s
 * of fresh stripes, where the pass took 12.6 s per 63 stripes).
 */
static void penalty_from_pairs(void)
{
	char err[PB_ERRBUF_SIZE] = "";
	struct pb_buf f = PB_BUF_INIT(1 << 16);
	struct rp_model m;
	const struct rp_group *rdm, *lazy;

	load_pair(&m, "paired.json", "rdm", &rdm, "lazy", &lazy);
	CU_ASSERT(rdm->penalty_paired && lazy->penalty_paired);
	CU_ASSERT_EQUAL(lazy->npaired, 3);
	CU_ASSERT_EQUAL(lazy->pairs_min, 60);
	CU_ASSERT_EQUAL(lazy->nlr, 3);
	CU_ASSERT(!rdm->penalty_less_base && lazy->penalty_less_base);
	CU_ASSERT_DOUBLE_EQUAL(rdm->penalty, 0.003423, 1e-5);
	CU_ASSERT_DOUBLE_EQUAL(rdm->penalty_lo, -0.034153, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(rdm->penalty_hi, 0.042461, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(lazy->penalty, 0.378326, 1e-5);
	CU_ASSERT_DOUBLE_EQUAL(lazy->penalty_lo, 0.280856, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(lazy->penalty_hi, 0.483213, 1e-4);
	CU_ASSERT(rdm->penalty_hi < lazy->penalty_lo);
	/* the passes' figures stay the passes' */
	CU_ASSERT_DOUBLE_EQUAL(rdm->first_med, 80, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(rdm->rewrite_med, 100, 1e-9);
	/* the drains of the pairs are not a depth the device waited for */
	CU_ASSERT_DOUBLE_EQUAL(lazy->qd_kept_min, 3.9, 1e-9);
	/*
	 * Steady state against each rep's rewritten stripes, not its
	 * streamed rewrites: rdm's fresh stripes (80) are 20% under its
	 * rewrite passes (100) but within 2% of its stripes (79.2-81.6),
	 * so every rep settles at once. lazy's stripes, by hand: rep 1's
	 * swing 100/185 in blocks of 8 (no window up to 15 holds them:
	 * too noisy), rep 2's 120/146.7 in pairs hold over 3, rep 3's are
	 * flat; its fresh 100 is 25-30% under them: never settled.
	 */
	CU_ASSERT_EQUAL(rdm->nsettled, 3);
	CU_ASSERT_DOUBLE_EQUAL(rdm->steady_med, 0, 1e-9);
	CU_ASSERT_EQUAL(lazy->nnoisy, 1);
	CU_ASSERT_EQUAL(lazy->nnever, 2);
	CU_ASSERT_EQUAL(lazy->nsettled, 0);
	{
		char st[160];

		rp_steady_text(st, sizeof(st), lazy);
		CU_ASSERT_STRING_EQUAL(st, "never settled (2 of 3 reps; 1 "
					   "too noisy to tell)");
		rp_steady_text(st, sizeof(st), rdm);
		CU_ASSERT_STRING_EQUAL(st, "3 of 3 settled, median 0 B");
	}
	/* the stripes' cost against a streamed pass: rdm's 79.2-81.6 of
	 * 100, median 0.80 */
	CU_ASSERT_DOUBLE_EQUAL(rdm->stripe_vs_pass_med, 0.80, 1e-6);
	findings_lines(&m, &f);
	CU_ASSERT_PTR_NOT_NULL(f.data &&
			       strstr(f.data,
				      "penalties from stripe pairs: each "
				      "rep's first write in 16 MiB stripes"));
	CU_ASSERT_PTR_NOT_NULL(f.data && strstr(f.data, "(60 pairs or more)"));
	CU_ASSERT_PTR_NOT_NULL(
		f.data && strstr(f.data, "(rdm's rewritten stripes ran at 80% "
					 "of its rewrite passes' rate)"));
	/* a baseline that warms up only between passes is not warned of */
	CU_ASSERT_PTR_NULL(f.data && strstr(f.data, "itself warms up"));
	pb_buf_dispose(&f);
	rp_model_dispose(&m);

	/* without pairs, the passes' ratio, as before */
	CU_ASSERT_EQUAL_FATAL(rp_model_load(&m,
					    "tests/data/runjson/"
					    "noisy-baseline.json",
					    "rdm", NULL, err),
			      PB_OK);
	CU_ASSERT(!m.g[0].penalty_paired);
	CU_ASSERT_EQUAL(m.g[0].npaired, 0);
	rp_model_dispose(&m);
}

/*
 * A mode whose rewrites beat the baseline's beyond noise is named, and
 * when the baseline's disks were loop devices over files (the qemu
 * backend's rdm), the loop's own path is said. By hand: rdm's rewrite
 * medians 81, 79, 80 -> 80; eager's 101, 100, 101.5 -> 101: 1.26x, its
 * interval above 1.
 */
static void rewrite_above_loop_baseline(void)
{
	struct pb_buf f = PB_BUF_INIT(1 << 16);
	struct rp_model m;
	const struct rp_group *rdm, *eager;

	load_pair(&m, "loop-baseline.json", "rdm", &rdm, "eager", &eager);
	CU_ASSERT_EQUAL(rdm->nloop, 3);
	CU_ASSERT_EQUAL(eager->nloop, 0);
	CU_ASSERT_DOUBLE_EQUAL(eager->rewrite_vs_base, 101.0 / 80.0, 1e-9);
	CU_ASSERT(eager->rewrite_vs_base_lo > 1.0);
	findings_lines(&m, &f);
	CU_ASSERT_PTR_NOT_NULL(
		f.data &&
		strstr(f.data, "rewrites 1.26x the baseline rdm's [1.23-1.28], "
			       "beyond noise: written blocks cost the "
			       "baseline's path more than this mode's, so "
			       "ratios to it flatter eager; rdm here is a "
			       "loop device over a file"));
	/* the baseline itself is never set against itself */
	CU_ASSERT_PTR_NULL(f.data && strstr(f.data, "flatter rdm"));
	pb_buf_dispose(&f);
	rp_model_dispose(&m);
}

/*
 * A rewrite that converges is not noise. By hand: thin's first rewrite
 * holds still at 80, its second at 100 (median 90); its first write is 40
 * for 10 intervals, then 80. Judged against its own 80, the first
 * rewrite holds over 3 intervals, so thin is told: 80 is 11% under 90,
 * never settled. (Judged against the median it would stray 11% and be
 * called too noisy.) rdm, flat at 100, settles at once.
 */
static void steady_state_converging_rewrite(void)
{
	struct rp_model m;
	const struct rp_group *rdm, *thin;
	char st[160];

	load_pair(&m, "converging.json", "rdm", &rdm, "thin", &thin);
	CU_ASSERT_DOUBLE_EQUAL(thin->rewrite_med, 90, 1e-9);
	CU_ASSERT_EQUAL(thin->nnoisy, 0);
	CU_ASSERT_EQUAL(thin->nnever, 3);
	CU_ASSERT_EQUAL(rdm->nsettled, 3);
	rp_steady_text(st, sizeof(st), thin);
	CU_ASSERT_STRING_EQUAL(st, "never settled (3 of 3 reps)");
	rp_model_dispose(&m);
}

/* 1, 2 or 5 times a power of ten, about n ticks: the charts' axes */
static void axis_steps(void)
{
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(140, 5), 20, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(250, 5), 50, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(0.9, 5), 0.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(7000, 6), 1000, 1e-9);
	/* nothing to scale: a step that ends the tick loop */
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(0, 5), 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(NAN, 5), 1, 0);
	/* a hand-edited rate of 1e308 once made the tick loop endless
	 * (fuzz-runjson; the input is in its corpus) */
	CU_ASSERT_DOUBLE_EQUAL(rp_nice_step(INFINITY, 5), 1, 0);
}

/* a group's status from its items' counts */
static void group_status(void)
{
	static const struct {
		size_t ok, failed, skipped;
		const char *want;
	} cases[] = {
		{3, 0, 0, "ok"},      {2, 1, 0, "partial"}, {0, 3, 0, "failed"},
		{0, 0, 3, "skipped"}, {0, 1, 2, "failed"},  {2, 0, 1, "ok"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rp_group g = {.nok = cases[i].ok,
				     .nfailed = cases[i].failed,
				     .nskipped = cases[i].skipped};

		CU_ASSERT_STRING_EQUAL(rp_group_status(&g), cases[i].want);
	}
}

/*
 * The verdict on the golden run, whose numbers are known (its
 * summary.csv.expected): thin's first writes 50, 55, 60 MiB/s against
 * rewrites of 190, 200, 200; rdm's 100, 110, 120 against 205, 220, 220.
 * By hand: rdm's own penalty exp(mean log(205/100, 220/110, 220/120))
 * - 1 = 95.9%, t(2) over its sd 0.0587: [69.3, 126.6%]; thin's less
 * rdm's, exp(0.6043) - 1 = 83.0%, Welch: [58.6, 111.2%].
 */
static void verdict_golden(void)
{
	char err[PB_ERRBUF_SIZE] = "";
	struct pb_buf v = PB_BUF_INIT(1 << 16);
	struct rp_model m;

	CU_ASSERT_EQUAL_FATAL(
		rp_model_load(&m, "tests/data/golden", "rdm", NULL, err),
		PB_OK);
	findings_lines(&m, &v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v.data);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.data,
				      "rdm: first write takes 96% longer than "
				      "rewrite [69-127%]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v.data,
				      "thin: first write takes 83% longer than "
				      "rewrite [59-111%], less what rdm's own "
				      "shows\n"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(v.data, "thin against rdm: first write 0.50x "
			       "[0.42-0.60], rewrite 0.91x [0.86-0.98]\n"));
	/* their intervals do not overlap: not called within noise */
	CU_ASSERT_PTR_NULL(strstr(v.data, "within noise of each other"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v.data, "1 item failed"));
	pb_buf_dispose(&v);
	rp_model_dispose(&m);
}

static void model_runjson_files(void)
{
	for (size_t i = 0; i < sizeof(runjson_cases) / sizeof(runjson_cases[0]);
	     i++) {
		char path[256], err[PB_ERRBUF_SIZE] = "";
		struct rp_model m;
		enum pb_error rc;
		bool ok;

		snprintf(path, sizeof(path), "tests/data/runjson/%s",
			 runjson_cases[i].file);
		rc = rp_model_load(&m, path, "rdm", NULL, err);
		if (runjson_cases[i].err) {
			ok = rc == PB_ERR_INPUT || rc == PB_ERR_IO;
			ok = ok && strstr(err, runjson_cases[i].err);
		} else {
			ok = rc == PB_OK && m.ng == runjson_cases[i].ngroups;
			for (size_t k = 0; ok && k < m.ng; k++)
				ok = fabs(m.g[k].first_med -
					  runjson_cases[i].first[k]) < 1e-9;
		}
		if (!ok) {
			fprintf(stderr, "\n  %s: %s", runjson_cases[i].file,
				err);
			CU_FAIL(runjson_cases[i].file);
		}
		if (rc == PB_OK)
			rp_model_dispose(&m);
	}
}

/* The format check on its own: the versions this build reads. */
static void runjson_format_versions(void)
{
	char err[PB_ERRBUF_SIZE] = "";

	CU_ASSERT_EQUAL(rj_format_check(1, "f", err), PB_OK);
	CU_ASSERT_EQUAL(rj_format_check(RJ_FORMAT, "f", err), PB_OK);
	CU_ASSERT_EQUAL(rj_format_check(RJ_FORMAT + 1, "f", err), PB_ERR_INPUT);
	err[0] = '\0';
	CU_ASSERT_EQUAL(rj_format_check(0, "f", err), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "format 0"));
}

/* What the writer writes, the reader reads back, field for field. */
static void runjson_round_trip(void)
{
	char dir[] = "/tmp/pb-rj-XXXXXX", path[64], err[PB_ERRBUF_SIZE] = "";
	const char *points[] = {"bs=4K", "bs=1M"};
	struct rj_head h = {.started_at = "2026-12-01T00:00:00Z",
			    .profile_path = "p.json",
			    .run = "20261201T000000Z-p",
			    .seed = 7,
			    .items = 2,
			    .points = points,
			    .npoints = 2,
			    .backend = "qemu"};
	struct rj_result res = {.rep = 2,
				.mode = PB_MODE_EAGER,
				.point = 1,
				.workload = points[1],
				.status = RJ_STATUS_SKIPPED,
				.error = "rdm skipped: why",
				.disk = {.id = "d1", .provision_s = 1.5}};
	struct rj_reader rd;
	struct rj_item it;
	json_t *doc = rj_doc_new(&h);
	bool more;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	CU_ASSERT_PTR_NOT_NULL(rj_doc_add_result(doc, &res));
	rj_doc_finish(doc);
	CU_ASSERT_EQUAL_FATAL(rj_doc_save(doc, path, false, err), PB_OK);
	json_decref(doc);
	CU_ASSERT_EQUAL_FATAL(rj_reader_open(&rd, dir, err), PB_OK);
	CU_ASSERT_EQUAL(rd.format, RJ_FORMAT);
	CU_ASSERT_STRING_EQUAL(rd.run, "20261201T000000Z-p");
	CU_ASSERT_STRING_EQUAL(rd.backend, "qemu");
	CU_ASSERT_EQUAL(rj_reader_next(&rd, &it, &more, err), PB_OK);
	CU_ASSERT(more);
	CU_ASSERT_EQUAL(it.rep, 2);
	CU_ASSERT_EQUAL(it.point, 1);
	CU_ASSERT_EQUAL(it.mode, PB_MODE_EAGER);
	CU_ASSERT_EQUAL(it.status, RJ_STATUS_SKIPPED);
	CU_ASSERT_STRING_EQUAL(it.workload, "bs=1M");
	CU_ASSERT_STRING_EQUAL(it.error, "rdm skipped: why");
	CU_ASSERT_DOUBLE_EQUAL(it.provision_s, 1.5, 0);
	CU_ASSERT_PTR_NULL(it.runner);
	CU_ASSERT_EQUAL(rj_reader_next(&rd, &it, &more, err), PB_OK);
	CU_ASSERT(!more);
	CU_ASSERT(rd.finished);
	CU_ASSERT(!rd.interrupted);
	rj_reader_dispose(&rd);
	unlink(path);
	rmdir(dir);
}

static const struct pb_case cases[] = {
	PB_CASE(medians),
	PB_CASE(median_interval),
	PB_CASE(t_critical),
	PB_CASE(mean_diff_interval),
	PB_CASE(baseline_falls_back_to_eager),
	PB_CASE(baseline_noise_said),
	PB_CASE(penalty_from_pairs),
	PB_CASE(rewrite_above_loop_baseline),
	PB_CASE(steady_state_knee),
	PB_CASE(steady_state_flat),
	PB_CASE(steady_state_too_short),
	PB_CASE(steady_state_noisy_reference),
	PB_CASE(steady_state_converging_rewrite),
	PB_CASE(ratio_interval),
	PB_CASE(breakeven),
	PB_CASE(aggregate_window),
	PB_CASE(aggregate_no_overlap_short),
	PB_CASE(csv_quoting),
	PB_CASE(html_escaping),
	PB_CASE(model_many_passes_per_item),
	PB_CASE(model_resolved_anywhere),
	PB_CASE(model_runjson_files),
	PB_CASE(runjson_format_versions),
	PB_CASE(runjson_round_trip),
	PB_CASE(axis_steps),
	PB_CASE(intervals_many_reps),
	PB_CASE(group_status),
	PB_CASE(verdict_golden),
	PB_CASES_END,
};

const struct pb_suite suite_report = {"report", NULL, NULL, cases};
