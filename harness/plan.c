/*
 * plan.c - a profile's plan: its items in order (repetitions, targets,
 * points, modes; shuffled by seed; in waves at once; a target's host
 * twin just before it), and what narrows it first: --modes, --targets
 * and a scheduler's shard of the targets.
 */
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

/*
 * With concurrency N > 1 a repetition is a list of waves: one (point,
 * mode) cell on a chunk of up to N targets (in the profile's order), all
 * started together, so what runs at once is one workload on one mode and
 * the wave's sum is a fleet's figure, never a pool of modes. The waves of
 * a repetition are shuffled (not the targets within one).
 */
static enum pb_error plan_waves(struct pb_plan *plan,
				const struct pb_profile *p, uint64_t *s)
{
	size_t cell = (size_t)p->nmodes * p->npoints;
	size_t nchunks = (p->ntargets + p->concurrency - 1) / p->concurrency;
	size_t units = cell * nchunks, r, u, i, n = 0;
	unsigned wave = 0, t;
	size_t *order = calloc(units ? units : 1, sizeof(*order));

	if (!order)
		return PB_ERR_NOMEM;
	for (r = 0; r < p->repetitions; r++) {
		for (u = 0; u < units; u++)
			order[u] = u;
		for (i = units; p->shuffle && i > 1; i--) {
			size_t j = (size_t)(pb_splitmix64(s) % i),
			       x = order[i - 1];

			order[i - 1] = order[j];
			order[j] = x;
		}
		for (u = 0; u < units; u++) {
			size_t c = order[u] % cell, k = order[u] / cell;

			wave++;
			for (t = (unsigned)(k * p->concurrency);
			     t < p->ntargets &&
			     t < (unsigned)((k + 1) * p->concurrency);
			     t++)
				plan->items[n++] = (struct pb_plan_item){
					.rep = (unsigned)r + 1,
					.target = t,
					.point = (unsigned)(c / p->nmodes),
					.mode = p->modes[c % p->nmodes],
					.wave = wave,
				};
		}
	}
	free(order);
	return PB_OK;
}

/* host_baseline: each item's twin on the host, just before it (the same
 * order, shuffled or not, so host and guest see the same conditions) */
static enum pb_error plan_twins(struct pb_plan *plan,
				const struct pb_profile *p, char *errbuf)
{
	unsigned guests = p->ntargets - p->ntwins;
	struct pb_plan_item *two = calloc(2 * plan->n, sizeof(*two));
	size_t i;

	if (!two)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	for (i = 0; i < plan->n; i++) {
		two[2 * i] = plan->items[i];
		two[2 * i].target += guests;
		two[2 * i + 1] = plan->items[i];
	}
	free(plan->items);
	plan->items = two;
	plan->n *= 2;
	for (i = 0; i < plan->n; i++)
		plan->items[i].wave = (unsigned)i + 1;
	return PB_OK;
}

enum pb_error pb_plan_build(struct pb_plan *plan, const struct pb_profile *p,
			    char *errbuf)
{
	size_t cell = (size_t)p->nmodes * p->npoints;
	size_t per = cell * (p->ntargets - p->ntwins), r, k, i;
	uint64_t s;

	plan->n = per * p->repetitions;
	plan->items = calloc(plan->n ? plan->n : 1, sizeof(*plan->items));
	if (!plan->items)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	plan->seed = p->seed_set ? p->seed : (uint64_t)pb_now_ns() >> 1;
	s = plan->seed;
	if (p->concurrency > 1 && p->ntargets > 1)
		return plan_waves(plan, p, &s)
			       ? pb_fail(errbuf, PB_ERR_NOMEM, "out of memory")
			       : PB_OK;
	for (r = 0; r < p->repetitions; r++) {
		struct pb_plan_item *it = &plan->items[r * per];

		for (k = 0; k < per; k++) {
			it[k].rep = (unsigned)r + 1;
			it[k].target = (unsigned)(k / cell);
			it[k].point = (unsigned)(k % cell / p->nmodes);
			it[k].mode = p->modes[k % p->nmodes];
		}
		/* within a repetition, a seeded Fisher-Yates shuffle: a fixed
		 * order biases results through caches and thermal state */
		for (i = per; p->shuffle && i > 1; i--) {
			size_t j = (size_t)(pb_splitmix64(&s) % i);
			struct pb_plan_item t = it[i - 1];

			it[i - 1] = it[j];
			it[j] = t;
		}
	}
	for (i = 0; i < plan->n; i++)
		plan->items[i].wave = (unsigned)i + 1;
	return p->ntwins ? plan_twins(plan, p, errbuf) : PB_OK;
}

void pb_plan_dispose(struct pb_plan *plan)
{
	free(plan->items);
	plan->items = NULL;
	plan->n = 0;
}

/* ---- what narrows it ---- */

/* --modes thin,eager: keep only those of the profile's modes. */
enum pb_error pb_plan_filter_modes(struct pb_profile *p, const char *list,
				   char *errbuf)
{
	enum pb_mode keep[PB_MODE__COUNT];
	unsigned n = 0, i;
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum pb_mode m;

		if (!pb_mode_parse(&m, tok)) {
			char hint[256];

			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--modes: unknown mode '%s' (%s)", tok,
				       pb_choices_hint(hint, sizeof(hint), tok,
						       strlen(tok),
						       pb_mode_names()));
		}
		for (i = 0; i < p->nmodes && p->modes[i] != m; i++)
			;
		if (i == p->nmodes)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--modes: '%s' is not in the profile",
				       tok);
		if (n < PB_MODE__COUNT)
			keep[n++] = m;
	}
	if (!n)
		return pb_fail(errbuf, PB_ERR_USAGE, "--modes: empty list");
	memcpy(p->modes, keep, n * sizeof(keep[0]));
	p->nmodes = n;
	return PB_OK;
}

/* Keep the targets keep[] says, in their order; a guest and its host twin
 * go together (the twin is its baseline). */
static void keep_targets(struct pb_profile *p, bool *keep)
{
	unsigned i, k = 0, n = 0;

	for (i = p->ntargets - p->ntwins; i < p->ntargets; i++) {
		unsigned g = p->targets[i].twin_of;

		keep[i] = keep[g] = keep[i] || keep[g];
	}
	for (i = 0; i < p->ntargets; i++) {
		if (keep[i]) {
			p->targets[k] = p->targets[i];
			/* the guests keep their order, so a twin's guest is
			 * the n-th kept */
			if (p->targets[k].twin)
				p->targets[k].twin_of = n++;
			k++;
			continue;
		}
		free(p->targets[i].name);
		pb_profile_target_dispose(p, &p->targets[i]);
	}
	p->ntwins = n;
	p->ntargets = k;
}

/*
 * --targets a,b: keep only those of the profile's targets, in the
 * profile's order: a controller's share of a fleet (the others run the
 * rest from the same profile; `report -o DIR RUN...` merges them).
 */
enum pb_error pb_plan_filter_targets(struct pb_profile *p, const char *list,
				     char *errbuf)
{
	bool keep[PB_MAX_TARGETS] = {false};
	char buf[4096], names[1024] = "", *tok, *save = NULL;
	unsigned i, n = 0;
	size_t len = 0;

	for (i = 0; i < p->ntargets; i++)
		len += (size_t)snprintf(
			names + len,
			len < sizeof(names) ? sizeof(names) - len : 0, "%s%s",
			i ? ", " : "", p->targets[i].name);
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < p->ntargets && strcmp(p->targets[i].name, tok);
		     i++)
			;
		if (i == p->ntargets && !*names)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--targets: '%s': the profile has no "
				       "targets",
				       tok);
		if (i == p->ntargets)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "--targets: '%s' is not a target of the "
				       "profile (%s)",
				       tok, names);
		keep[i] = true;
		n++;
	}
	if (!n)
		return pb_fail(errbuf, PB_ERR_USAGE, "--targets: empty list");
	keep_targets(p, keep);
	return PB_OK;
}

/* FNV-1a: a target's place in the shards, whatever order the profile
 * lists it in */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int by_hash(const void *a, const void *b, void *arg)
{
	const struct pb_profile *p = arg;
	const char *na = p->targets[*(const unsigned *)a].name,
		   *nb = p->targets[*(const unsigned *)b].name;
	uint64_t ha = name_hash(na), hb = name_hash(nb);

	return ha < hb ? -1 : ha > hb ? 1 : strcmp(na, nb);
}

/*
 * --shard I/N: the targets sorted by a hash of their names, dealt round
 * the N shards (balanced to one target, disjoint, and the same share for
 * a target wherever the profile lists it); this run keeps the I-th.
 */
void pb_plan_filter_shard(struct pb_profile *p, unsigned shard,
			  unsigned nshards)
{
	bool keep[PB_MAX_TARGETS] = {false};
	unsigned order[PB_MAX_TARGETS], guests = p->ntargets - p->ntwins, i;

	for (i = 0; i < guests; i++)
		order[i] = i;
	qsort_r(order, guests, sizeof(order[0]), by_hash, p);
	for (i = 0; i < guests; i++)
		keep[order[i]] = i % nshards == shard;
	keep_targets(p, keep);
	p->shard = shard;
	p->nshards = nshards;
	snprintf(p->shard_tag, sizeof(p->shard_tag), "-s%uof%u", shard,
		 nshards);
}

/* --shard I/N, else a scheduler's: Kubernetes' Indexed Job
 * (JOB_COMPLETION_INDEX, with --shard-count: a Job does not say its
 * completions), a Slurm job array (SLURM_ARRAY_TASK_ID from
 * SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT); *n 0: no shards */
enum pb_error pb_plan_shard_resolve(unsigned *i, unsigned *n, const char *spec,
				    const char *count, char *errbuf)
{
	const char *k8s = getenv("JOB_COMPLETION_INDEX");
	const char *sid = getenv("SLURM_ARRAY_TASK_ID");
	const char *scount = getenv("SLURM_ARRAY_TASK_COUNT");
	const char *smin = getenv("SLURM_ARRAY_TASK_MIN");
	char text[64], *end;
	unsigned long a, b;
	const char *what = "--shard";

	*i = *n = 0;
	if (!spec && k8s) {
		if (!count)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "JOB_COMPLETION_INDEX is set: give "
				       "--shard-count N, the Job's "
				       "completions");
		snprintf(text, sizeof(text), "%s/%s", k8s, count);
		what = "JOB_COMPLETION_INDEX";
		spec = text;
	} else if (!spec && sid && scount) {
		unsigned long id = strtoul(sid, &end, 10);

		snprintf(text, sizeof(text), "%lu/%s",
			 id - (smin ? strtoul(smin, NULL, 10) : 0), scount);
		what = "SLURM_ARRAY_TASK_ID";
		spec = text;
	}
	if (!spec)
		return PB_OK;
	a = strtoul(spec, &end, 10);
	if (end == spec || *end != '/' || !end[1])
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: '%s': give I/N, the I-th (from 0) of N "
			       "shares",
			       what, spec);
	b = strtoul(end + 1, &end, 10);
	if (*end || b < 1 || b > PB_MAX_TARGETS || a >= b)
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "%s: '%s': I must be 0 to N - 1, N 1 to %d",
			       what, spec, PB_MAX_TARGETS);
	*i = (unsigned)a;
	*n = (unsigned)b;
	return PB_OK;
}
