/*
 * report.c - from run.json alone (so an old run's report can be rebuilt):
 * load the model (model.c), find the run to compare with, and write every
 * format (csv.c, text.c, html.c, json.c; fleet.c for targets at once).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "csv.h"
#include "findings.h"
#include "html.h"
#include "json.h"
#include "analysis.h"
#include "gate.h"
#include "model.h"
#include "report.h"
#include "text.h"

static enum pb_error write_out(const char *dir, const char *name,
			       const struct pb_buf *b, char *errbuf)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return pb_write_atomic(path, b->data ? b->data : "", b->len, errbuf);
}

/* a candidate of rp_find_previous: its start and directory name */
struct prev_run {
	char at[64];
	char name[256];
};

static int prev_newest_first(const void *a, const void *b)
{
	const struct prev_run *x = a, *y = b;

	return -strcmp(x->at, y->at);
}

/* Did the run in path finish uninterrupted? Its results are streamed
 * through: "finished" is written after them. */
static bool finished_whole(const char *path)
{
	char ebuf[PB_ERRBUF_SIZE];
	struct rj_reader rd;
	struct rj_item it;
	bool more = true, ok;

	if (rj_reader_open(&rd, path, ebuf))
		return false;
	while (more && !rj_reader_next(&rd, &it, &more, ebuf))
		;
	ok = rd.finished && !rd.interrupted;
	rj_reader_dispose(&rd);
	return ok;
}

enum pb_error rp_find_previous(char *out, size_t len, const char *root,
			       const char *profile, const char *before,
			       const char *skip, char *errbuf)
{
	char path[PATH_MAX], ebuf[PB_ERRBUF_SIZE];
	struct prev_run *c = NULL;
	size_t n = 0, cap = 0, i;
	DIR *d = opendir(root);
	struct dirent *e;
	enum pb_error err = PB_OK;

	out[0] = '\0';
	if (!d)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", root,
			       strerror(errno));
	/* the candidates from their heads alone (profile, start) ... */
	while ((e = readdir(d))) {
		struct rj_reader rd;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "latest") ||
		    (skip && !strcmp(e->d_name, skip)) ||
		    strlen(e->d_name) >= sizeof(c->name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/run.json", root, e->d_name);
		if (access(path, R_OK) || rj_reader_open(&rd, path, ebuf))
			continue;
		if (!strcmp(rd.profile_name, profile) &&
		    (!before || strcmp(rd.started_at, before) < 0)) {
			if (pb_array_grow(&c, &cap, n, sizeof(*c))) {
				rj_reader_dispose(&rd);
				err = pb_fail(errbuf, PB_ERR_NOMEM,
					      "out of memory");
				break;
			}
			snprintf(c[n].at, sizeof(c[n].at), "%s", rd.started_at);
			snprintf(c[n].name, sizeof(c[n].name), "%s", e->d_name);
			n++;
		}
		rj_reader_dispose(&rd);
	}
	closedir(d);
	/* ... then newest first, the first that finished whole: one run's
	 * results read, not every run's in the root */
	if (!err && n > 1)
		qsort(c, n, sizeof(*c), prev_newest_first);
	for (i = 0; !err && i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, c[i].name);
		if (finished_whole(path)) {
			snprintf(out, len, "%s", path);
			break;
		}
	}
	free(c);
	return err;
}

/* --compare previous: the run before this one beside it, in prev (and
 * *compare NULL, said, when there is none) */
static enum pb_error previous_run(const struct rp_opts *o,
				  const struct rp_model *m, char *prev,
				  size_t len, const char **compare,
				  char *errbuf)
{
	char real[PATH_MAX], *sl;
	enum pb_error err = PB_OK;

	prev[0] = '\0';
	/* the run's own directory, a "latest" link resolved */
	if (!realpath(o->results_dir, real))
		err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", o->results_dir,
			      strerror(errno));
	sl = err ? NULL : strrchr(real, '/');
	if (sl) {
		*sl = '\0';
		err = rp_find_previous(prev, len, *real ? real : "/",
				       m->profile_name, m->started_at, sl + 1,
				       errbuf);
	}
	*compare = !err && prev[0] ? prev : NULL;
	if (!err && !*compare && !o->quiet)
		fprintf(stderr,
			"provbench: report: no earlier complete run of %s "
			"beside %s: nothing to compare\n",
			m->profile_name, o->results_dir);
	return err;
}

enum pb_error rp_generate(const struct rp_opts *o, bool *reg, char *errbuf)
{
	struct rp_model m, old;
	struct pb_buf csv = PB_BUF_INIT(1u << 30), sum = PB_BUF_INIT(1u << 26),
		      txt = PB_BUF_INIT(1u << 26), html = PB_BUF_INIT(1u << 30),
		      term = PB_BUF_INIT(1u << 26), why = PB_BUF_INIT(1u << 20),
		      noise = PB_BUF_INIT(1u << 20),
		      fleet = PB_BUF_INIT(1u << 26);
	struct rp_findings fs = {0};
	struct rp_rules rules = {.gate_pct = o->max_regression};
	struct rp_csv_rows rows = {0};
	struct rp_item_sink sink;
	const char *dir = o->out_dir ? o->out_dir : o->results_dir;
	const char *compare = o->compare_dir;
	char prev[PATH_MAX], differ[1024] = "";
	bool have_old = false;
	enum pb_error err;

	*reg = false;
	memset(&old, 0, sizeof(old));
	/* report.csv's rows as the model loads: the items are not kept */
	err = rp_csv_rows_start(&rows, &csv, &sink);
	if (!err)
		err = o->results_dirs
			      ? rp_model_load_many(&m, o->results_dirs,
						   o->nresults, o->force,
						   o->baseline, &sink, errbuf)
			      : rp_model_load(&m, o->results_dir, o->baseline,
					      &sink, errbuf);
	if (!err && m.merge_note[0])
		fprintf(stderr,
			"provbench: report: WARNING: merging runs that differ: "
			"%s\n",
			m.merge_note);
	if (!err && compare && !strcmp(compare, RP_COMPARE_PREVIOUS))
		err = previous_run(o, &m, prev, sizeof(prev), &compare, errbuf);
	if (!err && compare) {
		/* judged against the same mode as this run */
		err = rp_model_load(&old, compare,
				    o->baseline ? o->baseline : m.baseline,
				    NULL, errbuf);
		have_old = !err;
	}
	if (have_old) {
		err = rp_compare_check(differ, sizeof(differ), &m, &old,
				       compare, o->force, errbuf);
		if (err)
			goto out;
		if (differ[0])
			fprintf(stderr,
				"provbench: report: WARNING: comparing runs "
				"that differ: %s\n",
				differ);
		snprintf(m.compare_note, sizeof(m.compare_note), "%s", differ);
	}
	if (!err && !m.ng)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s/run.json: no results yet", o->results_dir);
	if (err)
		goto out;
	/* every conclusion, once: each format lays them out */
	rp_model_warmup(&m, &o->pts);
	if (have_old)
		m.compare_run = old.run;
	err = rp_findings_build(&fs, &m, have_old ? &old : NULL, &rules);
	if (err) {
		pb_fail(errbuf, err, "report: out of memory");
		goto out;
	}
	if (!err)
		err = rp_summary_csv(&m, &fs, &sum);
	if (!err && m.fleet.nrow)
		err = rp_fleet_csv(&m, &fleet);
	if (!err) {
		/* summary.txt keeps everything; the terminal what fits */
		struct rp_text_opts all = {.wide = true, .all = true},
				    to = {.width = o->wide ? 0 : o->width,
					  .wide = o->wide,
					  .all = o->all,
					  .color = o->color};

		rp_text_table(&m, &fs, &all, &txt);
		rp_text_table(&m, &fs, &to, &term);
		err = rp_write_html(&m, have_old ? &old : NULL, &fs, &html);
	}
	/* made only now: a refused report leaves nothing behind */
	if (!err && o->out_dir && mkdir(o->out_dir, 0755) && errno != EEXIST)
		err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", o->out_dir,
			      strerror(errno));
	if (!err)
		err = write_out(dir, "report.csv", &csv, errbuf);
	if (!err)
		err = write_out(dir, "summary.csv", &sum, errbuf);
	if (!err && fleet.len)
		err = write_out(dir, "fleet.csv", &fleet, errbuf);
	if (!err)
		err = write_out(dir, "summary.txt", &txt, errbuf);
	if (!err)
		err = write_out(dir, "report.html", &html, errbuf);
	if (err)
		goto out; /* write_out's message names the file */
	if (o->json) {
		json_t *j = rp_model_json(&m, &fs);

		if (!j || json_dumpf(j, stdout,
				     JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					     JSON_REAL_PRECISION(8)))
			err = pb_fail(errbuf, PB_ERR_NOMEM,
				      "report --json: out of memory");
		else
			fputc('\n', stdout);
		json_decref(j);
		if (err)
			goto out;
	} else if (!o->quiet) {
		fputs(term.data, stdout);
	}
	/* the gate: a fall past the limit beyond noise fails; a figure it
	 * cannot tell yet is said with the repetitions that would, and is
	 * not a fall */
	if (have_old && o->max_regression >= 0) {
		*reg = rp_gate(&m, &fs, &why, &noise) == RP_GATE_FELL;
		if (noise.len)
			fprintf(stderr,
				"provbench: report: cannot tell yet against "
				"%g%%, not regressions: %s\n",
				o->max_regression, noise.data);
		if (*reg)
			pb_fail(errbuf, PB_ERR_REGRESSED,
				"regression past %g%%, beyond noise: %s",
				o->max_regression, why.data);
	}
out:
	rp_csv_rows_dispose(&rows);
	pb_buf_dispose(&csv);
	pb_buf_dispose(&sum);
	pb_buf_dispose(&txt);
	pb_buf_dispose(&term);
	pb_buf_dispose(&html);
	pb_buf_dispose(&why);
	pb_buf_dispose(&noise);
	pb_buf_dispose(&fleet);
	rp_findings_dispose(&fs);
	rp_model_dispose(&m);
	rp_model_dispose(&old); /* zeroed, or loaded */
	return err;
}
