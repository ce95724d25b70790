/*
 * csv.c - report.csv (a row per repetition x mode x pass, written while
 * the model loads) and summary.csv (a row per workload point x mode).
 */
#include <math.h>
#include <string.h>

#include "report_int.h"

enum pb_error rp_csv_field(struct pb_buf *b, const char *s)
{
	const char *p;
	enum pb_error err;

	/* RFC 4180: quote when needed, double the quotes inside */
	if (!strpbrk(s, ",\"\r\n"))
		return pb_buf_addstr(b, s);
	err = pb_buf_addstr(b, "\"");
	for (p = s; !err && *p; p++)
		err = *p == '"' ? pb_buf_addstr(b, "\"\"")
				: pb_buf_add(b, p, 1);
	return err ? err : pb_buf_addstr(b, "\"");
}

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
void rp_csv_run_fields(const struct rp_model *m, struct pb_buf *b,
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

/* report.csv's header, and the fields that start every row of each
 * target. */
enum pb_error rp_csv_start(struct pb_buf *b)
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
enum pb_error rp_csv_item(struct rp_model *m, struct pb_buf *b,
			      const struct rj_item *item)
{
	const struct pb_buf *prefix = &m->tinfo[item->target].prefix;
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

/* A break-even in words when it is not a number of bytes. */
static const char *breakeven_note(double be)
{
	return isnan(be) ? "" : be < 0 ? "never" : "";
}

/* summary.csv's note: what a number column leaves empty, said. */
static void summary_note(char *out, size_t len, const struct rp_model *m,
			 const struct rp_group *g)
{
	char st[160];

	out[0] = '\0';
	rp_steady_text(st, sizeof(st), g);
	if (*st)
		rp_list_add(out, len, "steady state: %s", st);
	if (*breakeven_note(g->be_lazy))
		rp_list_add(out, len, "break-even vs lazy: %s",
			 breakeven_note(g->be_lazy));
	if (*breakeven_note(g->be_thin))
		rp_list_add(out, len, "break-even vs thin: %s",
			 breakeven_note(g->be_thin));
	if (g->mismatch)
		rp_list_add(out, len, "applied as %s, not as requested",
			 g->applied);
	if (g->pmode == m->base_mode && m->base_note[0])
		rp_list_add(out, len, "%s", m->base_note);
	if (g->penalty_paired)
		rp_list_add(out, len,
			 "penalty from stripe pairs (%zu or more per rep)",
			 g->pairs_min);
	if (!m->have_baseline)
		rp_list_add(out, len, "no baseline figures: ratios empty");
}

/* summary.csv's "baseline" column stands before the tenth number */
#define BASELINE_COL 10

enum pb_error rp_summary_csv(const struct rp_model *m, struct pb_buf *b)
{
	size_t i, k;

	pb_buf_addstr(b, CSV_RUN_COLUMNS
		      "point,workload,mode,applied_mode,status,reps,reps_ok,"
		      "reps_failed,reps_skipped,error,"
		      "first_mib_s,first_lo_mib_s,first_hi_mib_s,"
		      "rewrite_mib_s,rewrite_lo_mib_s,rewrite_hi_mib_s,"
		      "read_mib_s,warmup_penalty_frac,warmup_penalty_lo_frac,"
		      "warmup_penalty_hi_frac,baseline,first_vs_baseline,"
		      "first_vs_baseline_lo,first_vs_baseline_hi,"
		      "rewrite_vs_baseline,rewrite_vs_baseline_lo,"
		      "rewrite_vs_baseline_hi,steady_after_bytes,"
		      "steady_settled_reps,steady_reps,provision_s,"
		      "breakeven_vs_lazy_bytes,breakeven_vs_thin_bytes,"
		      "p99_first_us,p99_rewrite_us,qd_kept_min,mkfs_s,"
		      "command_s,note\r\n");
	for (i = 0; i < m->ng; i++) {
		const struct rp_group *g = &m->g[i];
		/* the number columns in order, each with its decimals; a
		 * NaN is an empty field, said in the note */
		const struct {
			double v;
			int d;
		} nums[] = {
			{g->first_med, 3},
			{g->first_lo, 3},
			{g->first_hi, 3},
			{g->rewrite_med, 3},
			{g->rewrite_lo, 3},
			{g->rewrite_hi, 3},
			{g->read_med, 3},
			{g->penalty, 4},
			{g->penalty_lo, 4},
			{g->penalty_hi, 4},
			/* the baseline's name goes here (BASELINE_COL) */
			{g->first_vs_base, 4},
			{g->first_vs_base_lo, 4},
			{g->first_vs_base_hi, 4},
			{g->rewrite_vs_base, 4},
			{g->rewrite_vs_base_lo, 4},
			{g->rewrite_vs_base_hi, 4},
			{g->steady_med, 0},
			{(double)g->nsettled, 0},
			{(double)(g->nsettled + g->nnever + g->nshort +
				  g->nnoisy),
			 0},
			{g->prov_med, 3},
			{g->be_lazy < 0 ? NAN : g->be_lazy, 0},
			{g->be_thin < 0 ? NAN : g->be_thin, 0},
			{g->p99_first_med, 0},
			{g->p99_rewrite_med, 0},
			{g->qd_kept_min, 2},
			{g->mkfs_med, 3},
			{g->cmd_med, 3},
		};
		char note[1024];

		rp_csv_run_fields(m, b, g->target);
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
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
			if (k == BASELINE_COL) {
				pb_buf_add(b, ",", 1);
				rp_csv_field(b, m->have_baseline ? m->baseline
								 : "");
			}
			pb_buf_add(b, ",", 1);
			csv_num(b, nums[k].v, nums[k].d);
		}
		summary_note(note, sizeof(note), m, g);
		pb_buf_add(b, ",", 1);
		rp_csv_field(b, note);
		pb_buf_addstr(b, "\r\n");
	}
	return pb_buf_error(b);
}
