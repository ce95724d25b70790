/*
 * csv.c - report.csv (a row per repetition x mode x pass, written while
 * the model loads) and summary.csv (a row per workload point x mode).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "csv.h"
#include "draw.h"
#include "findings.h"
#include "fleet.h"
#include "model.h"
#include "words.h"

static enum pb_error csv_num(struct pb_buf *b, double v, int decimals)
{
	if (isnan(v))
		return PB_OK; /* empty field: not measured */
	return pb_buf_printf(b, "%.*f", decimals, v);
}

static const char *tri(struct jl *rb, const char *k)
{
	struct jl *v = jl_get(rb, k);

	return !v		     ? ""
	       : v->type == JL_TRUE  ? "true"
	       : v->type == JL_FALSE ? "false"
				     : "";
}

/* A number field as the runner wrote it: exact, and no printf per value. */
static enum pb_error raw_num(struct pb_buf *b, struct jl *n, bool comma)
{
	enum pb_error err = PB_OK;

	if (n && n->type == JL_NUM)
		err = pb_buf_add(b, n->s, n->slen);
	return err || !comma ? err : pb_buf_add(b, ",", 1);
}

/* The fields that start every row of both files: which run, where (the
 * row's target). */
static void run_fields(const struct rp_model *m, struct pb_buf *b,
		       long long target)
{
	const struct rp_target_info *t = &m->tinfo[target];
	const struct rj_reader *rd = t->rd;
	const char *f[] = {rd->run,	rd->started_at, rd->profile_name,
			   rd->backend, rd->accel,	t->name,
			   t->vm,	t->datastore};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (i)
			pb_buf_add(b, ",", 1);
		rp_csv_field(b, f[i]);
	}
}

#define CSV_RUN_COLUMNS                                                        \
	"run_id,started_at,profile,backend,accel,target,vm,datastore,"

/* report.csv's header */
static enum pb_error csv_start(struct pb_buf *b)
{
	pb_buf_addstr(b, CSV_RUN_COLUMNS
		      "mode,applied_mode,status,step,error,rep,point,"
		      "workload,pass,pass_index,pattern,bs,qd,bytes,seconds,"
		      "mib_per_s,iops,lat_p50_us,lat_p99_us,lat_p999_us,"
		      "qd_achieved,provision_s,thin_provisioned,"
		      "eagerly_scrub\r\n");
	return pb_buf_error(b);
}

/* A whole number and its comma, empty when absent (< 0); no printf: a
 * report of 10,000 repetitions writes this a million times. */
static void whole_field(struct pb_buf *b, long long v)
{
	char t[24], *p = t + sizeof(t);

	*--p = ',';
	if (v >= 0)
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) > 0);
	pb_buf_add(b, p, (size_t)(t + sizeof(t) - p));
}

/* report.csv's rows for one item: one per pass, or one with the pass
 * fields empty for an item that ran none (failed, skipped), so every item
 * is in the file with its status and error. */
static enum pb_error csv_item(const struct rp_model *m, struct pb_buf *b,
			      const struct pb_buf *prefix,
			      const struct rj_item *item)
{
	/* the number columns in order */
	static const enum rj_pass_key nums[] = {RJ_P_BS,	RJ_P_QD,
						RJ_P_BYTES,	RJ_P_SECONDS,
						RJ_P_MIB_PER_S, RJ_P_IOPS};
	static const enum rj_lat_key lats[] = {RJ_L_P50, RJ_L_P99, RJ_L_P999};
	struct jl *rb = item->readback, *p;
	const char *mode = pb_mode_name(item->mode);
	struct rj_pass ps;
	size_t k, rows = 0;

	/* pb_buf errors are sticky: checked once, at the end */
	for (p = item->passes ? item->passes->first : NULL;; p = p->next) {
		bool empty = !p;

		if (empty && rows)
			break;
		memset(&ps, 0, sizeof(ps));
		if (!empty)
			rj_pass_read(m->cur, &ps, p);
		rows++;
		pb_buf_add(b, prefix->data, prefix->len);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, mode);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, item->applied);
		pb_buf_add(b, ",", 1);
		pb_buf_addstr(b, rj_status_name(item->status));
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, item->step);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, item->error);
		pb_buf_add(b, ",", 1);
		whole_field(b, item->rep);
		whole_field(b, item->point);
		rp_csv_field(b, item->workload);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, empty ? "" : ps.name);
		pb_buf_add(b, ",", 1);
		raw_num(b, ps.k[RJ_P_INDEX], true);
		rp_csv_field(b, jl_str(&m->cur->jd, ps.k[RJ_P_PATTERN]));
		pb_buf_add(b, ",", 1);
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
			raw_num(b, ps.k[nums[k]], true);
		for (k = 0; k < sizeof(lats) / sizeof(lats[0]); k++)
			raw_num(b, ps.lat[lats[k]], true);
		raw_num(b, ps.k[RJ_P_QD_ACHIEVED], true);
		raw_num(b, jl_get(item->disk, RJ_K_PROVISION_S), true);
		pb_buf_addstr(b, tri(rb, "thin_provisioned"));
		pb_buf_add(b, ",", 1);
		pb_buf_addstr(b, tri(rb, "eagerly_scrub"));
		pb_buf_add(b, "\r\n", 2);
		if (empty)
			break;
	}
	return pb_buf_error(b);
}

/* the sink's: a run's targets' leading fields, made once each */
static enum pb_error rows_run(void *arg, const struct rp_model *m, size_t first,
			      size_t n)
{
	struct rp_csv_rows *c = arg;
	struct pb_buf *p;
	size_t t;

	p = realloc(c->prefix, (first + n) * sizeof(*p));
	if (!p)
		return PB_ERR_NOMEM;
	c->prefix = p;
	for (t = c->nprefix; t < first + n; t++) {
		c->prefix[t] = (struct pb_buf)PB_BUF_INIT(4096);
		c->nprefix = t + 1;
		run_fields(m, &c->prefix[t], (long long)t);
		if (pb_buf_error(&c->prefix[t]))
			return PB_ERR_NOMEM;
	}
	return PB_OK;
}

static enum pb_error rows_item(void *arg, const struct rp_model *m,
			       const struct rj_item *item)
{
	struct rp_csv_rows *c = arg;

	if (item->target < 0 || (size_t)item->target >= c->nprefix)
		return PB_ERR_INTERNAL;
	return csv_item(m, c->out, &c->prefix[item->target], item);
}

enum pb_error rp_csv_rows_start(struct rp_csv_rows *c, struct pb_buf *out,
				struct rp_item_sink *sink)
{
	*c = (struct rp_csv_rows){.out = out};
	*sink = (struct rp_item_sink){
		.run = rows_run, .item = rows_item, .arg = c};
	return csv_start(out);
}

void rp_csv_rows_dispose(struct rp_csv_rows *c)
{
	size_t t;

	for (t = 0; c && t < c->nprefix; t++)
		pb_buf_dispose(&c->prefix[t]);
	if (c)
		free(c->prefix);
}

/* summary.csv's note: the group's own findings that a number column
 * cannot say (a mode made as another, a break-even that is not a number,
 * the warm-up across passes), and the within-pass settling. */
static void summary_note(char *out, size_t len, const struct rp_model *m,
			 const struct rp_findings *fs, const struct rp_group *g)
{
	char st[160], t[2048];
	size_t i;

	out[0] = '\0';
	for (i = fs->nheadline; i < fs->n; i++) {
		const struct rp_finding *f = &fs->f[i];

		if (f->g != g ||
		    (f->kind != RP_F_APPLIED_AS && f->kind != RP_F_BREAKEVEN &&
		     f->kind != RP_F_WARMUP && f->kind != RP_F_QD_KEPT &&
		     f->kind != RP_F_UNRAMPED))
			continue;
		rp_finding_text(t, sizeof(t), m, f);
		rp_list_add(out, len, "%s", t);
	}
	if (rp_steady_told(g)) {
		rp_steady_text(st, sizeof(st), g);
		rp_list_add(out, len, "within a pass: %s", st);
	}
	if (g->pmode == m->base_mode && m->base_note[0])
		rp_list_add(out, len, "%s", m->base_note);
	if (g->penalty_paired)
		rp_list_add(out, len,
			    "penalty from stripe pairs (%zu or more per rep)",
			    g->pairs_min);
	if (m->seq.on) {
		rp_stop_say(st, sizeof(st), g->stop, g->stop_after, &m->seq);
		rp_list_add(out, len, "stopped: %s", st);
	}
	if (!m->have_baseline)
		rp_list_add(out, len, "no baseline figures: ratios empty");
}

/* a column's fields: the figure, and its interval's ends when it has
 * them */
static void csv_column(struct pb_buf *b, const struct rp_model *m,
		       const struct rp_group *g, const struct rp_column *c)
{
	double v[3];

	c->get(v, m, g);
	pb_buf_add(b, ",", 1);
	csv_num(b, v[0], c->csv_decimals);
	if (c->csv_lo) {
		pb_buf_add(b, ",", 1);
		csv_num(b, v[1], c->csv_decimals);
		pb_buf_add(b, ",", 1);
		csv_num(b, v[2], c->csv_decimals);
	}
}

static void csv_header(struct pb_buf *b, bool after_note)
{
	const struct rp_column *c;

	for (c = rp_columns; c->csv; c++) {
		if (!(c->show & RP_COL_CSV) ||
		    !(c->show & RP_COL_AFTER_NOTE) != !after_note)
			continue;
		/* the baseline's name before the ratios to it */
		if (!strcmp(c->csv, "first_vs_baseline"))
			pb_buf_addstr(b, ",baseline");
		pb_buf_printf(b, ",%s", c->csv);
		if (c->csv_lo)
			pb_buf_printf(b, ",%s,%s", c->csv_lo, c->csv_hi);
	}
}

enum pb_error rp_summary_csv(const struct rp_model *m,
			     const struct rp_findings *fs, struct pb_buf *b)
{
	const struct rp_column *c;
	size_t i;

	pb_buf_addstr(b, CSV_RUN_COLUMNS
		      "point,workload,mode,applied_mode,status,reps,reps_ok,"
		      "reps_failed,reps_skipped,error");
	csv_header(b, false);
	pb_buf_addstr(b, ",note");
	csv_header(b, true);
	pb_buf_addstr(b, "\r\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		char note[4096];

		run_fields(m, b, g->target);
		if (g->point >= 0)
			pb_buf_printf(b, ",%lld,", g->point);
		else
			pb_buf_addstr(b, ",,");
		rp_csv_field(b, g->workload);
		pb_buf_printf(b, ",%s,", g->mode);
		rp_csv_field(b, g->applied);
		pb_buf_printf(b, ",%s,%zu,%zu,%zu,%zu,", rp_group_status(g),
			      g->nreps, g->nok, g->nfailed, g->nskipped);
		rp_csv_field(b, g->first_error);
		for (c = rp_columns; c->csv; c++) {
			if (!(c->show & RP_COL_CSV) ||
			    (c->show & RP_COL_AFTER_NOTE))
				continue;
			if (!strcmp(c->csv, "first_vs_baseline")) {
				pb_buf_add(b, ",", 1);
				rp_csv_field(b, m->have_baseline ? m->baseline
								 : "");
			}
			csv_column(b, m, g, c);
		}
		summary_note(note, sizeof(note), m, fs, g);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, note);
		for (c = rp_columns; c->csv; c++)
			if ((c->show & RP_COL_CSV) &&
			    (c->show & RP_COL_AFTER_NOTE))
				csv_column(b, m, g, c);
		pb_buf_addstr(b, "\r\n");
	}
	return pb_buf_error(b);
}

enum pb_error rp_fleet_csv(const struct rp_model *m, struct pb_buf *b)
{
	const struct rp_fleet *f = &m->fleet;
	size_t i;

	pb_buf_addstr(b, "run_id,profile,workload,mode,pass,pass_index,waves,"
			 "targets,aggregate_mib_s,aggregate_lo_mib_s,"
			 "aggregate_hi_mib_s,window_s,target_min_mib_s,"
			 "target_max_mib_s,spread_frac,waves_too_short,"
			 "waves_not_overlapping,waves_untimed,clock\r\n");
	for (i = 0; i < f->nrow; i++) {
		const struct rp_fleet_row *r = &f->row[i];
		const double v[] = {r->agg_med,	   r->agg_lo, r->agg_hi,
				    r->window_med, r->tmin,   r->tmax,
				    r->spread_med};

		rp_csv_field(b, m->run);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, m->profile_name);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, r->workload);
		pb_buf_printf(b, ",%s,", pb_mode_name(r->mode));
		rp_csv_field(b, r->name);
		pb_buf_printf(b, ",%lld,%zu,%u", r->index, r->nwaves,
			      r->ntargets);
		/* empty where the data gives no figure */
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			if (isnan(v[k]))
				pb_buf_add(b, ",", 1);
			else
				pb_buf_printf(b, ",%.*f", k == 6 ? 4 : 3, v[k]);
		pb_buf_printf(b, ",%zu,%zu,%zu,", r->nshort, r->nnone,
			      r->nuntimed);
		rp_csv_field(b, rp_fleet_clock_note(f));
		pb_buf_addstr(b, "\r\n");
	}
	return pb_buf_error(b);
}
