/*
 * results.c - a run's results directory: named after the run (its id in
 * the journal), run.json started with what every target is and rewritten
 * atomically after each item, and the results root's "latest" link.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run_int.h"
#include "stats.h"

/*
 * Can results go under parent? Said before anything runs (issue 56: a
 * plain file given to -o went unnoticed until a run's end): a directory
 * this user may write, or one that mkdir can make in a writable one.
 */
enum pb_error run_results_root_check(const char *parent, char *errbuf)
{
	char up[4096], *sl;
	struct stat st;

	if (!stat(parent, &st)) {
		if (!S_ISDIR(st.st_mode))
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "-o %s: not a directory (results go "
				       "in a directory of their own under it)",
				       parent);
		if (access(parent, W_OK | X_OK))
			return pb_fail(errbuf, PB_ERR_INPUT, "-o %s: %s",
				       parent, strerror(errno));
		return PB_OK;
	}
	if (errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_INPUT, "-o %s: %s", parent,
			       strerror(errno));
	/* made by the run: where it would be made must take it */
	snprintf(up, sizeof(up), "%s", parent);
	while ((sl = strrchr(up, '/')) && sl[1] == '\0' && sl != up)
		*sl = '\0';
	sl = strrchr(up, '/');
	if (!sl)
		snprintf(up, sizeof(up), ".");
	else if (sl == up)
		up[1] = '\0';
	else
		*sl = '\0';
	if (stat(up, &st) || access(up, W_OK | X_OK))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "-o %s: cannot be made: %s: %s", parent, up,
			       strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "-o %s: cannot be made: %s: not a directory",
			       parent, up);
	return PB_OK;
}

enum pb_error run_results_save(struct run_state *r, char *errbuf)
{
	enum pb_error err =
		rj_doc_save(r->doc, r->run_json, r->interrupted, errbuf);

	r->json_saved = !err;
	return err;
}

/*
 * The results directory, parent/<UTC time>-<profile>[-N]: its name is the
 * run's id in the journal, so one that does not fit is an error, never a
 * silent cut that could name another run.
 */
static enum pb_error results_dir(struct run_state *r, const char *parent)
{
	char ts[32];
	int i, n;

	pb_utc_format(ts, sizeof(ts), time(NULL), PB_TIME_COMPACT);
	if (mkdir(parent, 0755) && errno != EEXIST)
		return pb_fail(r->errbuf, PB_ERR_IO, "%s: %s", parent,
			       strerror(errno));
	/* two runs of a profile in the same second get their own */
	for (i = 1;; i++) {
		n = i == 1 ? snprintf(r->dir, sizeof(r->dir), "%s/%s-%s%s",
				      parent, ts, r->p->name, r->p->shard_tag)
			   : snprintf(r->dir, sizeof(r->dir), "%s/%s-%s%s-%d",
				      parent, ts, r->p->name, r->p->shard_tag,
				      i);
		if (n < 0 || (size_t)n + sizeof("/run.json") > sizeof(r->dir))
			return pb_fail(r->errbuf, PB_ERR_INPUT,
				       "%s: results directory: path too long",
				       parent);
		if (!mkdir(r->dir, 0755))
			break;
		if (errno != EEXIST || i > 99)
			return pb_fail(r->errbuf, PB_ERR_IO, "%s: %s", r->dir,
				       strerror(errno));
	}
	snprintf(r->run_json, sizeof(r->run_json), "%s/run.json", r->dir);
	return PB_OK;
}

/* What ran, resolved, for run.json's readers (runjson.h's RJ_K_RESOLVED):
 * the modes as --modes left them, the baseline the profile named, the
 * units, repetitions and description; the points' own are rj_doc_new's */
static json_t *resolved(const struct pb_profile *p)
{
	json_t *modes = json_array(), *o;
	unsigned i;

	for (i = 0; modes && i < p->nmodes; i++)
		json_array_append_new(modes,
				      json_string(pb_mode_name(p->modes[i])));
	o = json_pack("{s:o,s:o,s:s,s:I,s:s}", "modes", modes, "baseline",
		      p->has_baseline ? json_string(pb_mode_name(p->baseline))
				      : json_null(),
		      "units", p->units ? p->units : "MiB", "repetitions",
		      (json_int_t)p->repetitions, "description",
		      p->description ? p->description : "");
	if (o && p->p999_target_ms > 0)
		json_object_set_new(o, RJ_K_P999_TARGET_MS,
				    json_real(p->p999_target_ms));
	/* the precision form: its question, and the level every look's
	 * interval is taken at (the report takes them at it again) */
	if (o && p->adaptive)
		json_object_set_new(
			o, RJ_K_ADAPTIVE,
			json_pack("{s:I,s:f,s:o,s:f}", RJ_K_MIN_REPS,
				  (json_int_t)p->min_repetitions,
				  RJ_K_PRECISION_PCT, p->precision_pct,
				  RJ_K_THRESHOLD_PCT,
				  p->threshold_set ? json_real(p->threshold_pct)
						   : json_null(),
				  RJ_K_LOOK_ALPHA,
				  rp_seq_look_alpha(p->min_repetitions,
						    p->repetitions, 0.05)));
	return o;
}

enum pb_error run_results_start(struct run_state *r, const char *parent)
{
	char ts[32];
	json_error_t je;
	json_t *env = NULL;
	struct rj_target tg[PB_MAX_TARGETS];
	enum pb_error err = PB_OK;
	unsigned t;
	struct rj_head h = {
		.started_at = pb_utc_iso(ts, sizeof(ts)),
		.profile_path = r->p->path,
		.shuffled = r->p->shuffle,
		.seed = r->plan.seed,
		.items = r->plan.n,
		.concurrency = r->nt > 1 ? r->p->concurrency : 1,
		.shard = r->p->shard,
		.nshards = r->p->nshards,
		.points = (const char *const *)r->p->point_desc,
		.npoints = r->p->npoints,
		.resolved = resolved(r->p),
		.point_opts = r->p->points,
		.point_disk = r->p->point_disk,
		.environment = env,
		.backend = r->ops->name,
		.commit = pb_build_commit,
		.targets = tg,
		.ntargets = r->nt,
	};

	/* each target described; the first is also the run's environment,
	 * what a reader of one target reads */
	for (t = 0; t < r->nt; t++) {
		const char *key;
		unsigned i;

		tg[t] = (struct rj_target){
			.name = r->p->targets[t].name,
			.key = r->t[t].b->ops->target_key(r->t[t].b),
			.environment = json_object(),
			.places = json_array(),
			.is_twin = r->p->targets[t].twin,
			.twin_of = r->p->targets[t].twin_of,
		};
		for (i = 0; r->t[t].b->ops->shared_key &&
			    (key = r->t[t].b->ops->shared_key(r->t[t].b, i));
		     i++)
			json_array_append_new(tg[t].places, json_string(key));
		if (!err && (err = r->t[t].b->ops->describe(
				     r->t[t].b, tg[t].environment,
				     run_reset_fail(r->berr))))
			pb_fail(r->errbuf, err, "%s",
				run_target_msg(r, t, r->berr));
	}
	env = r->nt ? json_deep_copy(tg[0].environment) : json_object();
	if (env && json_array_size(r->shared))
		json_object_set(env, "shared_with_other_runs", r->shared);
	h.environment = env;
	if (!err)
		err = results_dir(r, parent);
	if (err) {
		json_decref(env);
		for (t = 0; t < r->nt; t++) {
			json_decref(tg[t].environment);
			json_decref(tg[t].places);
		}
		return err;
	}
	h.run = strrchr(r->dir, '/') + 1;
	h.profile = json_loads(r->p->text, 0, &je);
	r->doc = rj_doc_new(&h);
	if (!r->doc)
		return pb_fail(r->errbuf, PB_ERR_NOMEM, "out of memory");
	return run_results_save(r, r->errbuf);
}

/* parent/NAME -> base, replaced atomically; a failure is said and
 * changes nothing else */
static void link_to(const char *parent, const char *name, const char *base)
{
	char tmp[1300], link[1300];

	snprintf(link, sizeof(link), "%s/%s", parent, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.%ld", parent, name, (long)getpid());
	unlink(tmp);
	if (symlink(base, tmp) || rename(tmp, link)) {
		fprintf(stderr, "provbench: run: %s: cannot update: %s\n", link,
			strerror(errno));
		unlink(tmp);
	}
}

/*
 * parent/latest names the newest complete run (relative, so the root can
 * move), for `report --compare previous ROOT/latest` after a nightly run
 * and for whoever looks at the last result: an interrupted run, or one
 * with failed items, never takes its place. parent/latest-attempt names
 * the newest run whatever became of it.
 */
void run_results_latest(const struct run_state *r)
{
	char parent[1200];
	const char *base = strrchr(r->dir, '/') + 1;

	snprintf(parent, sizeof(parent), "%.*s", (int)(base - 1 - r->dir),
		 r->dir);
	link_to(parent, "latest-attempt", base);
	if (!r->interrupted && !r->failed)
		link_to(parent, "latest", base);
}
