/*
 * json.c - report --json: the summary model, for scripts.
 */
#include <math.h>

#include "columns.h"
#include "draw.h"
#include "findings.h"
#include "fleet.h"
#include "json.h"
#include "model.h"
#include "penalty.h"
#include "words.h"

/* {"median" or "value": v, "lo": lo, "hi": hi}, null where there is none */
static json_t *figure_json(const char *name, double v, double lo, double hi)
{
	return json_pack("{s:o,s:o,s:o}", name, rp_jnum(v), "lo", rp_jnum(lo),
			 "hi", rp_jnum(hi));
}

/* g's finding against the baseline, whose significance is said: the
 * JSON reads the findings' judgement, never makes its own */
static const struct rp_finding *vs_base(const struct rp_findings *fs,
					const struct rp_group *g)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->f[i].kind == RP_F_VS_BASELINE && fs->f[i].g == g)
			return &fs->f[i];
	return NULL;
}

/* the reclaims and the first write after them (issue 40), or null */
static json_t *rewarm_json(const struct rp_group *g)
{
	json_t *o;

	if (!g->nreclaim)
		return json_null();
	o = json_pack("{s:I,s:I,s:o,s:o,s:o,s:I}", "reclaims",
		      (json_int_t)g->nreclaim, "done",
		      (json_int_t)g->nreclaim_done, "method",
		      g->reclaim_method ? json_string(g->reclaim_method)
					: json_null(),
		      "reclaimed_bytes", rp_jnum(g->reclaim_back_med),
		      "reclaim_s", rp_jnum(g->reclaim_s_med), "reps",
		      (json_int_t)g->nlr2);
	if (!o)
		return json_null();
	json_object_set_new(
		o, "penalty_frac",
		figure_json("value", g->rewarm, g->rewarm_lo, g->rewarm_hi));
	json_object_set_new(o, "vs_first_frac",
			    figure_json("value", g->rewarm_vs_first,
					g->rewarm_vs_first_lo,
					g->rewarm_vs_first_hi));
	return o;
}

/* the tail at an offered rate (issue 55), or null: each quantile's
 * medians (ms; stalls a count) on the first write and its rewrite, and
 * the difference with its interval, the baseline's own taken out where
 * less_baseline says so */
static json_t *tail_json(const struct rp_group *g)
{
	static const char *const names[RP_TL__COUNT] = {
		[RP_TL_P50] = "p50_ms",
		[RP_TL_P99] = "p99_ms",
		[RP_TL_P999] = "p99_9_ms",
		[RP_TL_STALLS] = "stalls"};
	const struct rp_tail *t = &g->tail;
	json_t *o, *first, *later, *d;
	size_t k;

	if (!t->n && !t->unheld)
		return json_null();
	first = json_object();
	later = json_object();
	d = json_object();
	for (k = 0; k < RP_TL__COUNT; k++) {
		json_object_set_new(first, names[k],
				    rp_jnum(t->n ? t->first_med[k] : NAN));
		json_object_set_new(later, names[k],
				    rp_jnum(t->n ? t->later_med[k] : NAN));
		json_object_set_new(
			d, names[k],
			figure_json("value", t->d[k], t->lo[k], t->hi[k]));
	}
	o = json_pack("{s:o,s:o,s:I,s:I,s:o,s:o,s:o,s:o,s:b}", "rate_iops",
		      rp_jnum(t->rate_iops), "stall_us", rp_jnum(t->stall_us),
		      "reps", (json_int_t)t->n, "unheld", (json_int_t)t->unheld,
		      "unheld_achieved_min_iops",
		      rp_jnum(t->unheld ? t->achieved_min : NAN), "first_write",
		      first, "rewrite", later, "difference", d, "less_baseline",
		      t->less_base);
	/* the sweep's headroom, on each of its points alike */
	if (o && t->room.nrates)
		json_object_set_new(o, "headroom",
				    json_pack("{s:f,s:I,s:f,s:f,s:f,s:f}",
					      "p999_target_ms",
					      t->room.target_ms, "rates",
					      (json_int_t)t->room.nrates,
					      "rate_lo_iops", t->room.rate_lo,
					      "rate_hi_iops", t->room.rate_hi,
					      "first_write_iops", t->room.first,
					      "rewrite_iops", t->room.later));
	else if (o)
		json_object_set_new(o, "headroom", json_null());
	return o ? o : json_null();
}

/* the group's figures that are columns of their own, each as summary.csv
 * names it (columns.c's json_form says how) */
static void column_members(json_t *o, const struct rp_model *m,
			   const struct rp_group *g)
{
	const struct rp_column *c;
	double v[3];

	for (c = rp_columns; c->csv; c++) {
		if (c->json_form == RP_JSON_NONE || !c->get)
			continue;
		c->get(v, m, g);
		json_object_set_new(
			o, c->csv,
			c->json_form == RP_JSON_NUMBER
				? rp_jnum(v[0])
				: figure_json(c->json_form == RP_JSON_MEDIAN
						      ? "median"
						      : "value",
					      v[0], v[1], v[2]));
	}
}

/* A precision-form mode's stop as run.json has it; one still open, the
 * rule a look would stop it by after its repetitions so far (the
 * harness's own, rp_group_look: scripts and the validator ask the rule
 * here rather than keep a copy of it); null in a fixed-count run */
static json_t *stop_json(const struct rp_model *m, const struct rp_group *g)
{
	enum rj_stop rule = g->stop;

	if (!m->seq.on)
		return json_null();
	if (rule == RJ_STOP_OPEN)
		rule = rp_group_look(m, g, g->nreps);
	return json_string(rj_stop_name(rule));
}

static json_t *group_json(const struct rp_model *m,
			  const struct rp_findings *fs,
			  const struct rp_group *g)
{
	const struct rp_finding *vb = vs_base(fs, g);
	char st[160];
	json_t *o;

	rp_steady_text(st, sizeof(st), g);
	o = json_pack("{s:s,s:I,s:s,s:s,s:s,s:s,s:{s:I,s:I,s:I,s:I},s:s}",
		      "target", g->target_name, "point", (json_int_t)g->point,
		      "workload", g->workload, "mode", g->mode, "applied_mode",
		      g->applied, "status", rp_group_status(g), "reps",
		      "planned", (json_int_t)g->nreps, "ok", (json_int_t)g->nok,
		      "failed", (json_int_t)g->nfailed, "skipped",
		      (json_int_t)g->nskipped, "error", g->first_error);
	if (!o)
		return NULL;
	column_members(o, m, g);
	json_object_set_new(o, "first_vs_baseline",
			    json_pack("{s:o,s:o,s:o,s:b}", "value",
				      rp_jnum(g->first_vs_base), "lo",
				      rp_jnum(g->first_vs_base_lo), "hi",
				      rp_jnum(g->first_vs_base_hi),
				      "within_noise",
				      vb && vb->sig == RP_SIG_NOISE));
	json_object_set_new(o, "rewrite_vs_baseline",
			    json_pack("{s:o,s:o,s:o,s:b}", "value",
				      rp_jnum(g->rewrite_vs_base), "lo",
				      rp_jnum(g->rewrite_vs_base_lo), "hi",
				      rp_jnum(g->rewrite_vs_base_hi),
				      "within_noise",
				      vb && vb->sig2 == RP_SIG_NOISE));
	json_object_set_new(
		o, "steady_state",
		json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:s}", "settled",
			  (json_int_t)g->nsettled, "never",
			  (json_int_t)g->nnever, "too_short",
			  (json_int_t)g->nshort, "too_noisy",
			  (json_int_t)g->nnoisy, "window",
			  (json_int_t)(g->steady_window ? g->steady_window
							: RP_STEADY_WINDOW),
			  "median_bytes",
			  rp_jnum(g->nsettled ? g->steady_med : NAN), "text",
			  st));
	json_object_set_new(
		o, "warmup_across_passes",
		json_pack("{s:I,s:I,s:o,s:i,s:o,s:o}", "passes",
			  (json_int_t)g->pts_n, "first_pass",
			  (json_int_t)g->pts_from, "steady_from_pass",
			  g->pts_pass >= 0 ? json_integer(g->pts_pass)
					   : json_null(),
			  "window", (int)g->pts_window, "first_mib_s",
			  rp_jnum(g->pts_firstv), "last_mib_s",
			  rp_jnum(g->pts_lastv)));
	/* never paying back is a word, not a negative number */
	json_object_set_new(o, "breakeven_vs_lazy_bytes",
			    g->be_lazy < 0 ? json_string("never")
					   : rp_jnum(g->be_lazy));
	json_object_set_new(o, "breakeven_vs_thin_bytes",
			    g->be_thin < 0 ? json_string("never")
					   : rp_jnum(g->be_thin));
	json_object_set_new(o, "rewrite_spread", rp_jnum(g->rw_spread_med));
	json_object_set_new(
		o, "penalty_method",
		json_string(g->penalty_paired ? "stripe pairs" : "passes"));
	json_object_set_new(o, "stop_rule", stop_json(m, g));
	json_object_set_new(o, "rewarm", rewarm_json(g));
	json_object_set_new(o, "tail", tail_json(g));
	json_object_set_new(o, "colour", json_string(rp_mode_colour(g->pmode)));
	return o;
}

json_t *rp_model_json(const struct rp_model *m, const struct rp_findings *fs)
{
	json_t *doc, *groups = json_array(), *headline = json_array(),
		     *findings = json_array(), *fails = json_array();
	char text[2048];
	size_t i;

	for (i = 0; groups && i < m->ng; i++)
		json_array_append_new(groups, group_json(m, fs, &m->g[i]));
	for (i = 0; fails && i < m->nfail; i++) {
		const struct rp_failure *f = &m->fail[i];

		json_array_append_new(
			fails,
			json_pack("{s:s,s:s,s:I,s:I,s:s,s:s,s:s,s:s}", "target",
				  f->target_name, "mode", pb_mode_name(f->mode),
				  "rep", (json_int_t)f->rep, "point",
				  (json_int_t)f->point, "workload", f->workload,
				  "status", rj_status_name(f->status), "step",
				  f->step, "error", f->error));
	}
	/* the headline's words, then every finding as data */
	for (i = 0; i < fs->n; i++) {
		if (i < fs->nheadline) {
			rp_finding_text(text, sizeof(text), m, &fs->f[i]);
			json_array_append_new(headline, json_string(text));
		}
		json_array_append_new(findings, rp_finding_json(m, &fs->f[i]));
	}
	doc = json_pack(
		"{s:i,s:s,s:{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:b},"
		"s:{s:s,s:b,s:s},s:o,s:o,s:o,s:o}",
		"format", RP_JSON_FORMAT, "tool", "provbench-report", "run",
		"id", m->run, "profile", m->profile_name, "started_at",
		m->started_at, "updated_at", m->updated_at ? m->updated_at : "",
		"version", m->version, "commit", m->commit, "backend",
		m->backend, "accel", m->accel, "vm", m->vm, "datastore",
		m->datastore, "finished", m->finished, "interrupted",
		m->interrupted, "baseline", "mode", m->baseline, "have_figures",
		m->have_baseline, "note", m->base_note, "groups", groups,
		"headline", headline, "findings", findings, "failures", fails);
	if (doc)
		json_object_set_new(
			doc, "rules",
			json_pack("{s:{s:i,s:f,s:f},s:o}",
				  "warmup_across_passes", "window",
				  (int)m->pts.window, "range", m->pts.range,
				  "slope", m->pts.slope, "max_regression_pct",
				  rp_jnum(fs->rules.gate_pct < 0
						  ? NAN
						  : fs->rules.gate_pct)));
	if (doc && fs->nchanges)
		json_object_set_new(
			doc, "compared_with",
			json_pack("{s:s,s:I,s:I}", "run",
				  m->compare_run ? m->compare_run : "",
				  "changes", (json_int_t)fs->nchanges,
				  "regressions", (json_int_t)fs->nregressed));
	if (doc && m->fleet.nrow)
		json_object_set_new(doc, "at_once", rp_fleet_json(m));
	return doc;
}

json_t *rp_fleet_json(const struct rp_model *m)
{
	const struct rp_fleet *f = &m->fleet;
	json_t *a = json_array();
	char agg[160];
	size_t i;

	for (i = 0; a && i < f->nrow; i++) {
		const struct rp_fleet_row *r = &f->row[i];
		json_t *o;

		rp_fleet_agg_text(agg, sizeof(agg), m, r);
		o = json_pack(
			"{s:s,s:s,s:s,s:I,s:I,s:i}", "workload", r->workload,
			"mode", pb_mode_name(r->mode), "pass", r->name,
			"pass_index", (json_int_t)r->index, "waves",
			(json_int_t)r->nwaves, "targets", (int)r->ntargets);
		if (!o)
			continue;
		json_object_set_new(o, "aggregate_mib_s",
				    figure_json("median", r->agg_med, r->agg_lo,
						r->agg_hi));
		json_object_set_new(o, "window_s", rp_jnum(r->window_med));
		json_object_set_new(o, "spread_frac", rp_jnum(r->spread_med));
		json_object_set_new(o, "text", json_string(agg));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *rp_finding_json(const struct rp_model *m, const struct rp_finding *f)
{
	char text[2048];
	json_t *o = json_object(), *set = json_array();
	size_t i;

	rp_finding_text(text, sizeof(text), m, f);
	json_object_set_new(o, "rule", json_string(rp_finding_rule(f)));
	json_object_set_new(o, "significance",
			    json_string(rp_sig_name(f->sig)));
	json_object_set_new(o, "warning", json_boolean(f->warning));
	if (f->g) {
		json_object_set_new(o, "mode", json_string(f->g->mode));
		json_object_set_new(o, "applied_mode",
				    json_string(f->g->applied));
		json_object_set_new(o, "target",
				    json_string(f->g->target_name));
		json_object_set_new(o, "workload", json_string(f->g->workload));
	}
	if (f->h)
		json_object_set_new(o, "other_mode", json_string(f->h->mode));
	for (i = 0; i < f->nset; i++)
		json_array_append_new(set, json_string(f->set[i]->mode));
	json_object_set_new(o, "modes", set);
	if (f->metric)
		json_object_set_new(o, "metric", json_string(f->metric));
	json_object_set_new(o, "value", rp_jnum(f->v));
	json_object_set_new(o, "lo", rp_jnum(f->lo));
	json_object_set_new(o, "hi", rp_jnum(f->hi));
	json_object_set_new(o, "value2", rp_jnum(f->v2));
	json_object_set_new(o, "lo2", rp_jnum(f->lo2));
	json_object_set_new(o, "hi2", rp_jnum(f->hi2));
	json_object_set_new(o, "x", rp_jnum(f->x));
	json_object_set_new(o, "rank",
			    json_string(rp_rank_name(rp_finding_rank(f))));
	if (f->kind == RP_F_CHANGE) {
		static const char *const gate[] = {
			[RP_GATE_NONE] = NULL,
			[RP_GATE_HELD] = "held",
			[RP_GATE_OPEN] = "cannot tell yet",
			[RP_GATE_FELL] = "fell",
		};

		json_object_set_new(o, "regressed", json_boolean(f->regressed));
		/* the gate's three verdicts, and the repetitions that would
		 * tell one it cannot yet */
		if (gate[f->gate]) {
			json_object_set_new(o, "gate",
					    json_string(gate[f->gate]));
			json_object_set_new(o, "gate_reps",
					    json_integer(f->gate_reps));
		}
	}
	json_object_set_new(o, "text", json_string(text));
	return o;
}
