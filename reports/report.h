/*
 * report.h - the report generator's face, the top floor of reports/:
 * run.json in, CSV, a self-contained HTML page, a terminal table, a
 * run-to-run comparison, a trend and the exports out. What other folders
 * use of the floors below comes through it: the statistics (stats.h),
 * the penalty's one definition (penalty.h) and its words (phrase.h).
 */
#ifndef PB_REPORT_H
#define PB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "runjson.h"

#include "penalty.h"
#include "phrase.h"
#include "stats.h"

/* ---- the report ---- */

struct rp_opts {
	const char *results_dir; /* holds run.json */
	/* several runs merged into one report, results_dir the first;
	 * NULL: results_dir alone */
	const char *const *results_dirs;
	size_t nresults;
	const char *out_dir;	 /* NULL: results_dir */
	const char *compare_dir; /* an older results directory, or NULL */
	/* mode to compare against; NULL: the profile's "baseline", else
	 * rdm */
	const char *baseline;
	double max_regression; /* percent; < 0: no limit */
	bool quiet;	       /* no table on stdout */
	/* the table on stdout (issue 53): every column with its interval
	 * (wide), every finding (all), ANSI colour, wrapped at width
	 * columns (0: unwrapped); summary.txt has every column and finding,
	 * unwrapped, whatever these say */
	bool wide, all, color;
	unsigned width;
	bool json;	   /* the summary model on stdout, no table */
	bool force;	   /* compare runs that differ, warned */
	struct rp_pts pts; /* the warm-up rule across passes */
};

/* compare_dir's word for the newest earlier complete run of the same
 * profile beside results_dir */
#define RP_COMPARE_PREVIOUS "previous"

/*
 * The newest run in root, other than the one named skip, of this profile
 * that finished uninterrupted and started before `before` (ISO 8601 UTC,
 * so comparable as text; NULL: any time). out is "" when there is none.
 */
enum pb_error rp_find_previous(char *out, size_t len, const char *root,
			       const char *profile, const char *before,
			       const char *skip, char *errbuf);

/*
 * The precision form's look (issue 54): the run in dir read back after
 * round look, and for each mode not yet stopped whose question the
 * rounds so far answer, fn with its stop (after: look) and the stop in
 * words ("thin: above 5% after 3 repetitions"); a host twin's is left to
 * the caller (it follows its guest). With against (an older run of the
 * profile), the nightly gate's question too: a mode with a change the
 * gate cannot tell yet at gate_pct stays open until it can, or the most.
 * fn's error stops the look.
 */
struct rp_look {
	const char *dir;
	unsigned look;
	const char *against; /* NULL: no gate question */
	double gate_pct;
	/* set when against was not asked: the runs differ (what compare
	 * would refuse), said once by the caller */
	char gate_note[512];
};
typedef enum pb_error (*rp_stop_fn)(void *arg, const struct rj_stop_rec *st,
				    const char *said);
enum pb_error rp_run_look(struct rp_look *lk, rp_stop_fn fn, void *arg,
			  char *errbuf);

#define RP_OPTS_INIT                                                           \
	{                                                                      \
		.baseline = NULL, .max_regression = -1, .pts = RP_PTS_INIT,    \
		.width = 100                                                   \
	}

/*
 * Read run.json and write report.csv, summary.csv, summary.txt and
 * report.html (and print the table). *regressed is set when
 * --max-regression was exceeded against compare_dir.
 */
enum pb_error rp_generate(const struct rp_opts *o, bool *regressed,
			  char *errbuf);

/* ---- the trend over many runs ---- */

struct rp_trend_opts {
	const char *const *paths; /* runs' directories, or roots of them */
	size_t npaths;
	const char *out_dir;
	const char *baseline;
	double max_regression; /* percent: a fall beyond it is marked */
	bool quiet;
};

/*
 * trend.csv and trend.html in out_dir from every run found; *regressed
 * counts the figures that fell more than max_regression against the run of
 * their series before.
 */
enum pb_error rp_trend(const struct rp_trend_opts *o, unsigned *regressed,
		       char *errbuf);

/* ---- provbench export: the figures where labs keep theirs ---- */

enum rp_export_format {
	RP_EXPORT_OPENMETRICS,
	RP_EXPORT_INFLUX,
	RP_EXPORT_JUNIT,
	RP_EXPORT_FIO_JSON,
};

struct rp_export_opts {
	const char *const *dirs; /* results directories, each its own run */
	size_t ndirs;
	enum rp_export_format format;
	const char *compare_dir; /* junit: regressions against this run */
	double max_regression;	 /* percent; < 0: none (the gate's rule) */
	const char *baseline;	 /* NULL: the profile's, else rdm */
};

/* NULL-ended names, in enum order */
const char *const *rp_export_formats(void);
bool rp_export_format_parse(enum rp_export_format *out, const char *s);
/* The runs' figures in the format, appended to out. */
enum pb_error rp_export(struct pb_buf *out, const struct rp_export_opts *o,
			char *errbuf);

#endif
