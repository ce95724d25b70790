/*
 * read.c - the reading floor: run.json, one item at a time through
 * runjson/, into groups by target, workload point and mode (each item's
 * passes read by passes.c), the model's head, its failures and retried
 * repetitions; and what the floors above ask of a model's groups (a
 * place's siblings, a group's status, its rates in the run's unit). No
 * statistic is taken here: that is the analysis floor's (model.c).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "read.h"

/* Within a run, a group is a target, a point (its index and its
 * description: the description alone could be shared, and was once cut)
 * and a mode. Two groups at the same place differ only in mode. */

/* Within a run, a group is a target, a point (its index and its
 * description: the description alone could be shared, and was once cut)
 * and a mode. Two groups at the same place differ only in mode. */
bool rp_same_place(const struct rp_group *g, long long target, long long point,
		   const char *w)
{
	return g->target == target && g->point == point &&
	       !strcmp(g->workload, w);
}

static bool same_group(const struct rp_group *g, long long target,
		       long long point, const char *w, enum pb_mode mode)
{
	return rp_same_place(g, target, point, w) && g->pmode == mode;
}

/* "nfs, bs=64K", "nfs", "bs=64K" or "" */
static char *where_text(const char *target, const char *w)
{
	size_t n = strlen(target) + strlen(w) + 3;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", target, *target && *w ? ", " : "", w);
	return s;
}

static struct rp_group *group_for(struct rp_model *m,
				  const struct rj_item *item)
{
	struct rp_group *g;
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], item->target, item->point,
			       item->workload, item->mode))
			return &m->g[i];
	if (pb_array_grow(&m->g, &m->gcap, m->ng, sizeof(*m->g)))
		return NULL;
	g = &m->g[m->ng];
	memset(g, 0, sizeof(*g));
	g->workload = strdup(item->workload);
	g->target_name = strdup(item->target_name);
	g->where = where_text(item->target_name, item->workload);
	m->ng++; /* disposed as it is, whatever failed */
	if (!g->workload || !g->target_name || !g->where)
		return NULL;
	g->target = item->target;
	g->doc = &m->cur->jd;
	g->point = item->point;
	g->pmode = item->mode;
	g->mode = pb_mode_name(item->mode);
	g->applied = "";
	g->qd_kept_min = NAN;
	g->alpha = m->seq.on ? m->seq.look_alpha : 0.05;
	return g;
}

/* The same point of this model in another mode. */
const struct rp_group *rp_sibling(const struct rp_model *m,
				  const struct rp_group *g, enum pb_mode mode)
{
	for (size_t i = 0; i < m->ng; i++)
		if (same_group(&m->g[i], g->target, g->point, g->workload,
			       mode))
			return &m->g[i];
	return NULL;
}

/*
 * Every per-item array of a group, one row each (n of them where the
 * group holds an array of arrays): grown together, room for one more item
 * doubling, and freed together. A new figure's array is a row here; its
 * element is a double unless the row says otherwise (figures.h's have
 * room for every rewrite pass of an item; spans are text and a length).
 */
#define ROW(member, size, n)                                                   \
	{                                                                      \
		offsetof(struct rp_group, member), size, n                     \
	}
#define DBL(member)	ROW(member, sizeof(double), 1)
#define DBLS(member, n) ROW(member[0], sizeof(double), n)
static const struct {
	size_t off, size, n;
} per_item[] = {
	DBL(first),
	DBL(rewrite),
	DBL(read),
	DBL(fsync),
	DBL(prov),
	DBL(steady),
	/* a later write's has room for every later pass of an item */
	ROW(fig[0], RP_MAX_REWRITES * sizeof(double), RP_FIG__COUNT),
	DBLS(conv, RP_MAX_REWRITES),
	DBL(mkfs),
	DBL(cmd),
	DBL(reclaim_back),
	DBL(reclaim_s),
	DBL(lr),
	DBL(lr_rep),
	DBL(lr_within),
	DBL(lr_within_df),
	DBL(lr2),
	DBL(d21),
	DBL(span_target),
	DBL(rw_spread),
	DBL(stripe_vs_pass),
	DBL(ref_target),
	ROW(span, sizeof(const char *), 1),
	ROW(span_len, sizeof(uint32_t), 1),
	ROW(ref_span, sizeof(const char *), 1),
	ROW(ref_span_len, sizeof(uint32_t), 1),
	DBLS(dev.first, RP_DEV__COUNT),
	DBLS(dev.later, RP_DEV__COUNT),
	DBLS(hostdev.first, RP_DEV__COUNT),
	DBLS(hostdev.later, RP_DEV__COUNT),
	DBLS(tail.first, RP_TL__COUNT),
	DBLS(tail.later, RP_TL__COUNT),
	DBL(ext.alloc),
	DBL(ext.conv),
	DBL(hostext.alloc),
	DBL(hostext.conv),
	DBLS(srv.first, RP_SV__COUNT),
	DBLS(srv.later, RP_SV__COUNT),
};
#undef DBLS
#undef DBL
#undef ROW

/* the k-th array of per_item's row i in g */
static void **per_item_array(struct rp_group *g, size_t i, size_t k)
{
	return (void **)((char *)g + per_item[i].off) + k;
}

static enum pb_error group_grow(struct rp_group *g)
{
	size_t cap, i, k;
	void *q;

	if (g->nreps < g->cap)
		return PB_OK;
	cap = g->cap ? g->cap * 2 : 16;
	for (i = 0; i < sizeof(per_item) / sizeof(per_item[0]); i++)
		for (k = 0; k < per_item[i].n; k++) {
			if (!(q = realloc(*per_item_array(g, i, k),
					  cap * per_item[i].size)))
				return PB_ERR_NOMEM;
			*per_item_array(g, i, k) = q;
		}
	g->cap = cap;
	return PB_OK;
}

const char *rp_group_status(const struct rp_group *g)
{
	if (g->nok)
		return g->nfailed ? "partial" : "ok";
	if (g->nskipped && !g->nfailed)
		return "skipped";
	return "failed";
}

size_t rp_across(const struct rp_model *m, const struct rp_group *g,
		 const struct rp_group **out, size_t max)
{
	size_t i, n = 0;

	/* groups are sorted by target: out comes in target order */
	for (i = 0; i < m->ng && n < max; i++) {
		const struct rp_group *h = &m->g[i];

		if (h->point == g->point && h->pmode == g->pmode &&
		    !strcmp(h->workload, g->workload))
			out[n++] = h;
	}
	return n;
}

const struct rp_group *rp_model_find(const struct rp_model *m,
				     const char *target, const char *workload,
				     const char *mode)
{
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (!strcmp(m->g[i].target_name, target) &&
		    !strcmp(m->g[i].workload, workload) &&
		    !strcmp(m->g[i].mode, mode))
			return &m->g[i];
	return NULL;
}

/* An item that did not measure (or that stalled once), kept for the
 * page's list: step and error as they say. */
static enum pb_error add_item_to(struct rp_failure **list, size_t *n,
				 size_t *cap, const struct rj_item *item,
				 const char *step, const char *error)
{
	struct rp_failure *f;

	if (pb_array_grow(list, cap, *n, sizeof(**list)))
		return PB_ERR_NOMEM;
	f = &(*list)[*n];
	f->mode = item->mode;
	f->rep = item->rep;
	f->point = item->point;
	f->status = item->status;
	f->target_name = strdup(item->target_name);
	f->workload = strdup(item->workload);
	f->step = strdup(step);
	f->error = strdup(error);
	(*n)++;
	return f->target_name && f->workload && f->step && f->error
		       ? PB_OK
		       : PB_ERR_NOMEM;
}

static enum pb_error add_failure(struct rp_model *m, const struct rj_item *item)
{
	return add_item_to(&m->fail, &m->nfail, &m->failcap, item, item->step,
			   item->error);
}

/* A place named in the environment: an object's "name", or a string. */
static void env_name(char *out, size_t len, json_t *env, const char *key)
{
	json_t *v = json_object_get(env, key);

	if (json_is_object(v))
		v = json_object_get(v, "name");
	snprintf(out, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

/* The number of the model's run being read. */
static size_t run_index(const struct rp_model *m)
{
	return m->cur == &m->rd ? 0 : (size_t)(m->cur - m->more) + 1;
}

/* One result item: its group's counts and values; then the sink's. */
static enum pb_error load_item(struct rp_model *m, const struct rj_item *item,
			       const struct rp_item_sink *sink)
{
	struct rp_group *g;
	enum pb_error err;

	g = group_for(m, item);
	if (!g || group_grow(g))
		return PB_ERR_NOMEM;
	g->nreps++;
	err = sink && sink->item ? sink->item(sink->arg, m, item) : PB_OK;
	if (!err && item->status != RJ_STATUS_OK)
		err = add_failure(m, item);
	if (!err && *item->retried)
		err = add_item_to(&m->retry, &m->nretry, &m->retrycap, item,
				  item->retried_diagnostics, item->retried);
	if (item->status == RJ_STATUS_SKIPPED) {
		g->nskipped++;
		if (!g->first_error[0])
			snprintf(g->first_error, sizeof(g->first_error), "%s",
				 item->error);
	} else if (item->status != RJ_STATUS_OK || !item->runner) {
		g->nfailed++;
		m->failed_items++;
		if (!g->first_error[0])
			snprintf(g->first_error, sizeof(g->first_error),
				 "%s: %s", rj_status_name(item->status),
				 item->error);
	} else {
		g->nok++;
		rp_item_read(m, g, item);
		if (!err)
			err = rp_fleet_add(&m->fleet, m->cur, run_index(m),
					   item, g->workload);
	}
	return err;
}

/* The i-th run of the model: the first, or one merged with it. */
static struct rj_reader *run_reader(struct rp_model *m, size_t i)
{
	return i ? &m->more[i - 1] : &m->rd;
}

/* Is name already a target's, before target n? */
static bool name_taken(const struct rp_model *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m->tinfo[i].name, name))
			return true;
	return false;
}

/*
 * A run's targets as the report names them: the head's "targets", or (a
 * run before them) one, the run's environment. Merged with other runs,
 * each target stays its own, never pooled with another run's: one without
 * a name is named by its run's id, a name already taken gets "@run id".
 */
static enum pb_error load_targets(struct rp_model *m, struct rj_reader *rd,
				  size_t *base)
{
	size_t n = json_array_size(rd->targets), k = n ? n : 1, i;
	void *q = realloc(m->tinfo, (m->ntinfo + k) * sizeof(*m->tinfo));

	if (!q)
		return PB_ERR_NOMEM;
	m->tinfo = q;
	*base = m->ntinfo;
	for (i = 0; i < k; i++) {
		struct rp_target_info *t = &m->tinfo[m->ntinfo];
		json_t *env =
			n ? json_object_get(json_array_get(rd->targets, i),
					    RJ_K_ENVIRONMENT)
			  : rd->environment;
		const char *name = rj_target_name(rd, (long long)i);

		memset(t, 0, sizeof(*t));
		t->rd = rd;
		if (m->nmore && !*name)
			snprintf(t->name, sizeof(t->name), "%s", rd->run);
		else if (name_taken(m, m->ntinfo, name))
			snprintf(t->name, sizeof(t->name), "%s@%s", name,
				 rd->run);
		else
			snprintf(t->name, sizeof(t->name), "%s", name);
		t->places = n ? json_object_get(json_array_get(rd->targets, i),
						RJ_K_PLACES)
			      : NULL;
		t->host_of = rj_target_host_of(rd, (long long)i);
		if (t->host_of >= 0)
			t->host_of += (long long)*base;
		env_name(t->vm, sizeof(t->vm), env, "vm");
		env_name(t->datastore, sizeof(t->datastore), env, "datastore");
		m->ntinfo++;
	}
	return PB_OK;
}

/* Every item of one run into the model. */
/*
 * A precision-form run's design (resolved's "adaptive"), from the first
 * run: a merge is of runs whose profiles agree. Absent: a fixed count.
 */
static void read_seq(struct rp_model *m)
{
	json_t *a = json_object_get(m->rd.resolved, RJ_K_ADAPTIVE);
	json_t *th = json_object_get(a, RJ_K_THRESHOLD_PCT);
	double la = json_number_value(json_object_get(a, RJ_K_LOOK_ALPHA));

	m->seq = (struct rp_seq){.threshold = NAN};
	if (!json_is_object(a) || !(la > 0) || !(la < 1))
		return;
	m->seq.on = true;
	m->seq.look_alpha = la;
	m->seq.min =
		(unsigned)json_integer_value(json_object_get(a, RJ_K_MIN_REPS));
	m->seq.max = (unsigned)json_integer_value(
		json_object_get(m->rd.resolved, "repetitions"));
	m->seq.precision =
		json_number_value(json_object_get(a, RJ_K_PRECISION_PCT)) / 100;
	if (json_is_number(th))
		m->seq.threshold = json_number_value(th) / 100;
}

/* Where a run's modes stopped, onto their groups (its targets from
 * base on); a record naming no group of the run is left alone. */
static void apply_stops(struct rp_model *m, const struct rj_reader *rd,
			size_t base)
{
	struct rj_stop_rec st;

	for (size_t i = 0; i < json_array_size(rd->stops); i++) {
		if (!rj_stop_read(rd, i, &st))
			continue; /* a rule this build does not know */
		for (size_t k = 0; k < m->ng; k++) {
			struct rp_group *g = &m->g[k];

			if (g->target == (long long)(base + st.target) &&
			    g->point == (long long)st.point &&
			    g->pmode == st.mode) {
				g->stop = st.rule;
				g->stop_after = st.after;
			}
		}
	}
}

static enum pb_error load_run(struct rp_model *m, struct rj_reader *rd,
			      const struct rp_item_sink *sink, char *errbuf)
{
	struct rj_item item;
	enum pb_error err;
	bool more = true;
	size_t base = 0;
	long long n;

	err = load_targets(m, rd, &base);
	n = (long long)(m->ntinfo - base);
	m->cur = rd;
	if (!err && sink && sink->run)
		err = sink->run(sink->arg, m, base, m->ntinfo - base);
	while (!err) {
		err = rj_reader_next(rd, &item, &more, errbuf);
		if (!err && more && item.target >= n)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "%s: results[%zu]: target %lld: not in "
				      "\"targets\"",
				      rd->path, item.index, item.target);
		if (err || !more)
			break;
		item.target += (long long)base;
		item.target_name = m->tinfo[item.target].name;
		err = load_item(m, &item, sink);
		if (err)
			pb_fail(errbuf, err, "%s: results[%zu]: %s", rd->path,
				item.index, pb_strerror(err));
	}
	if (!err)
		apply_stops(m, rd, base);
	if (err == PB_ERR_NOMEM && !errbuf[0])
		pb_fail(errbuf, err, "out of memory");
	return err;
}

/*
 * The head of the model from its first run, then every run's items into
 * groups (each run's targets its own). m->rd (and m->more, nmore of
 * them) are open; a run's items are handed to sink on the way.
 */
enum pb_error rp_read_runs(struct rp_model *m, const char *baseline,
			   const struct rp_item_sink *sink, char *errbuf)
{
	enum pb_error err = PB_OK;
	const char *units;
	size_t i;

	m->env = m->rd.environment;
	m->profile = m->rd.profile;
	/* the baseline asked on the command line, else the profile's (seed
	 * 001 compares with a physical RDM), else rdm: what ran, resolved */
	if (!baseline)
		baseline = json_string_value(
			json_object_get(m->rd.resolved, "baseline"));
	m->baseline = baseline ? baseline : pb_mode_name(PB_MODE_RDM);
	m->have_base_mode = pb_mode_parse(&m->base_mode, m->baseline);
	/* "units": "MB" prints rates as the field notes do (10^6 bytes a
	 * second); the figures underneath stay MiB/s */
	units = json_string_value(json_object_get(m->rd.resolved, "units"));
	if (units && !strcmp(units, "MB")) {
		m->rate_unit = "MB/s";
		m->rate_per_mib = 1.048576;
	} else {
		m->rate_unit = "MiB/s";
		m->rate_per_mib = 1.0;
	}
	read_seq(m);
	m->p999_target_ms = json_number_value(
		json_object_get(m->rd.resolved, RJ_K_P999_TARGET_MS));
	m->run = m->rd.run;
	m->profile_name = m->rd.profile_name;
	m->backend = m->rd.backend;
	m->accel = m->rd.accel;
	m->version = m->rd.version;
	m->commit = m->rd.commit;
	m->started_at = m->rd.started_at;
	env_name(m->vm, sizeof(m->vm), m->env, "vm");
	env_name(m->datastore, sizeof(m->datastore), m->env, "datastore");
	for (i = 0; !err && i <= m->nmore; i++)
		err = load_run(m, run_reader(m, i), sink, errbuf);
	if (err)
		return err;
	/* finished and uninterrupted only if every merged run was */
	m->updated_at = m->rd.updated_at;
	m->finished = true;
	for (i = 0; i <= m->nmore; i++) {
		m->finished &= run_reader(m, i)->finished;
		m->interrupted |= run_reader(m, i)->interrupted;
	}
	return PB_OK;
}

double rp_rate(const struct rp_model *m, double mib_per_s)
{
	return mib_per_s * (m->rate_per_mib > 0 ? m->rate_per_mib : 1.0);
}

const char *rp_later_name(const struct rp_model *m)
{
	return m->later_set && m->later == RUNNER_PASS_RECREATE ? "recreate"
								: "rewrite";
}

void rp_later_words(char *text, size_t len, const struct rp_model *m)
{
	char *p = text;

	if (!m->later_set || m->later != RUNNER_PASS_RECREATE)
		return;
	/* "rewrite" and "recreate" are one letter apart in length */
	while ((p = strstr(p, "rewrite")) && strlen(text) + 1 < len) {
		memmove(p + 8, p + 7, strlen(p + 7) + 1);
		memcpy(p, "recreate", 8);
		p += 8;
	}
}

void rp_model_dispose(struct rp_model *m)
{
	size_t i, k;

	free(m->tinfo);
	for (i = 0; m->more && i < m->nmore; i++)
		rj_reader_dispose(&m->more[i]);
	free(m->more);
	for (i = 0; m->g && i < m->ng; i++) {
		struct rp_group *g = &m->g[i];

		for (k = 0; k < sizeof(per_item) / sizeof(per_item[0]); k++)
			for (size_t j = 0; j < per_item[k].n; j++)
				free(*per_item_array(g, k, j));
		free(g->workload);
		free(g->target_name);
		free(g->where);
		free(g->applied_why);
	}
	free(m->g);
	for (i = 0; m->fail && i < m->nfail; i++) {
		free(m->fail[i].workload);
		free(m->fail[i].target_name);
		free(m->fail[i].step);
		free(m->fail[i].error);
	}
	free(m->fail);
	for (i = 0; m->retry && i < m->nretry; i++) {
		free(m->retry[i].workload);
		free(m->retry[i].target_name);
		free(m->retry[i].step);
		free(m->retry[i].error);
	}
	free(m->retry);
	free(m->command);
	rp_fleet_dispose(&m->fleet);
	rj_reader_dispose(&m->rd);
	memset(m, 0, sizeof(*m));
}

/* One more item of a "; "-separated list in out (cut at len). */
void rp_list_add(char *out, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(out, len);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(out + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	if (n < len)
		vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
}
