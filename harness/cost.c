/*
 * cost.c - a plan's cost, computed once from the profile and the plan,
 * for check's plan and run's first line.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cost.h"
#include "run_int.h"
#include "runjson.h"

/* a guess's rate, said as one: a first run's gives the real one */
#define GUESS_MIB_S 100.0

/* an item's writing passes at an offered rate: their bytes, and the
 * schedule's seconds for them */
static uint64_t item_sched(const struct runner_opts *w, double *s)
{
	uint64_t b = 0;
	unsigned k;

	*s = 0;
	if (!w->rate_iops || !w->bs)
		return 0;
	for (k = 0; k < w->npasses; k++)
		if (runner_pass_writes(w->passes[k])) {
			b += w->size;
			*s += (double)(w->size / w->bs) / w->rate_iops;
		}
	return b;
}

static uint64_t item_bytes(const struct runner_opts *w)
{
	uint64_t b = 0, stripes;
	unsigned k;

	for (k = 0; k < w->npasses; k++) {
		if (!runner_pass_writes(w->passes[k]))
			continue;
		b += w->size;
		stripes = w->pair_stripe ? w->size / w->pair_stripe : 0;
		if (w->passes[k] == RUNNER_PASS_FIRST_WRITE && stripes > 1)
			b += (stripes - 1) * w->pair_stripe;
	}
	return b;
}

void pb_plan_cost(struct pb_plan_cost *c, const struct pb_profile *p,
		  const struct pb_plan *plan)
{
	uint64_t disk = 0;
	unsigned k, at_once;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->adaptive = p->adaptive;
	c->expect_share = NAN;
	for (i = 0; i < plan->n; i++) {
		const struct pb_plan_item *it = &plan->items[i];
		uint64_t b = item_bytes(&p->points[it->point]);
		uint64_t z = it->mode == PB_MODE_EAGER
				     ? p->point_disk[it->point]
				     : 0;

		double ss;
		uint64_t sb = item_sched(&p->points[it->point], &ss);

		c->passes += b;
		c->zeros += z;
		c->sched_bytes += sb;
		c->sched_s += ss;
		if (it->rep <= p->min_repetitions) {
			c->min_sched_bytes += sb;
			c->min_sched_s += ss;
		}
		c->per_target[it->target] += b + z;
		if (pb_mode_is_raw_mapping(it->mode))
			c->per_target_raw[it->target] += b;
		if (it->rep <= p->min_repetitions) {
			c->min_passes += b;
			c->min_zeros += z;
		}
	}
	for (k = 0; k < p->npoints; k++)
		disk = p->point_disk[k] > disk ? p->point_disk[k] : disk;
	at_once = p->concurrency > 1 && p->ntargets > 1
			  ? (p->concurrency < p->ntargets ? p->concurrency
							  : p->ntargets)
			  : 1;
	c->peak = disk * at_once;
}

/* "under a minute", "about 14 minutes", "about 3.2 hours" */
static void say_duration(char *out, size_t len, double s)
{
	if (s < 60)
		snprintf(out, len, "under a minute");
	else if (s < 90 * 60)
		snprintf(out, len, "about %.0f minutes", s / 60);
	else
		snprintf(out, len, "about %.1f hours", s / 3600);
}

/* "2026-12-04T05:33:10Z" as seconds; -1 unless one */
static double iso_seconds(const char *s)
{
	struct tm tm = {0};
	const char *end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);

	return end && !*end ? (double)timegm(&tm) : -1;
}

/* One finished run's passes' data over its time (bytes, seconds), and
 * of a precision-form run the share of its plan it ran (*share, else
 * NaN); false unless it is of this profile and backend, finished and
 * wrote */
static bool run_rate(const char *dir, const struct pb_profile *p, double *bytes,
		     double *seconds, double *share)
{
	struct rj_reader rd;
	struct rj_item it;
	struct rj_pass ps;
	struct jl *pass;
	char errbuf[PB_ERRBUF_SIZE];
	enum pb_error err = rj_reader_open(&rd, dir, errbuf);
	bool more = !err, ok = false;
	size_t items = 0;

	*bytes = 0;
	*share = NAN;
	if (err)
		return false;
	if (strcmp(rd.profile_name, p->name) ||
	    strcmp(rd.backend, p->backend->name))
		goto out;
	while (!err && more) {
		err = rj_reader_next(&rd, &it, &more, errbuf);
		items += !err && more;
		if (err || !more || !it.runner)
			continue;
		jl_foreach(it.passes, pass)
		{
			rj_pass_read(&rd, &ps, pass);
			if (ps.kind >= 0 && runner_pass_writes(ps.kind))
				*bytes += jl_num(ps.k[RJ_P_BYTES]) > 0
						  ? jl_num(ps.k[RJ_P_BYTES])
						  : 0;
		}
	}
	*seconds = iso_seconds(rd.updated_at) - iso_seconds(rd.started_at);
	ok = !err && rd.finished && !rd.interrupted && *bytes > 0 &&
	     *seconds > 0 && iso_seconds(rd.started_at) > 0;
	if (ok && rd.plan_items > 0 &&
	    json_object_get(rd.resolved, RJ_K_ADAPTIVE))
		*share = (double)items / (double)rd.plan_items;
out:
	rj_reader_dispose(&rd);
	return ok;
}

static int newest_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/*
 * The rate of the newest finished run of this profile on this backend
 * under root ("<UTC time>-<name>[-shard][-N]"): its passes' data over
 * its time, boots, provisioning and eager's zeros included. The ten
 * newest of its name are tried.
 */
static void last_rate(struct pb_plan_cost *c, const struct pb_profile *p,
		      const char *root)
{
	DIR *d = root ? opendir(root) : NULL;
	struct dirent *e;
	char *names[512], path[1200];
	size_t n = 0, i, nl = strlen(p->name);
	double bytes, seconds, share;

	while (d && (e = readdir(d)) && n < sizeof(names) / sizeof(names[0])) {
		const char *dash = strchr(e->d_name, '-');

		/* the time is the name's first part: no dash in it */
		if (dash && !strncmp(dash + 1, p->name, nl) &&
		    (!dash[1 + nl] || dash[1 + nl] == '-') &&
		    (names[n] = strdup(e->d_name)))
			n++;
	}
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), newest_first);
	for (i = 0; i < n && i < 10 && !c->rate_from[0]; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		if (run_rate(path, p, &bytes, &seconds, &share)) {
			c->mib_s = bytes / seconds / 1048576.0;
			c->expect_share = c->adaptive ? share : NAN;
			snprintf(c->rate_from, sizeof(c->rate_from), "%s",
				 path);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
}

void pb_plan_cost_rate(struct pb_plan_cost *c, const struct pb_profile *p,
		       const char *results)
{
	c->mib_s = GUESS_MIB_S;
	c->rate_from[0] = '\0';
	last_rate(c, p, results);
}

/* the seconds passes and zeros take at c's rate: a measured rate is of
 * the passes' data, everything else in its time; the guess is of every
 * byte */
static double seconds_of(const struct pb_plan_cost *c, double passes,
			 double zeros, double sched_bytes, double sched_s)
{
	return (passes - sched_bytes + (c->rate_from[0] ? 0 : zeros)) /
		       (c->mib_s * 1048576.0) +
	       sched_s;
}

double pb_plan_cost_seconds(const struct pb_plan_cost *c)
{
	return seconds_of(c, (double)c->passes, (double)c->zeros,
			  (double)c->sched_bytes, c->sched_s);
}

bool pb_plan_cost_asks(const struct pb_plan_cost *c, const struct pb_profile *p)
{
	return p->confirm_above && pb_plan_cost_shared(c, p) > p->confirm_above;
}

/*
 * The precision form's cost, both ends: the least (every mode stopped at
 * min_repetitions) and the most (every mode to repetitions), and what
 * the last finished run of it ran (its share of its most, at this plan).
 */
static void adaptive_line(char *out, size_t len, const struct pb_plan_cost *c)
{
	char a[32], b[32], d[64], e[64];

	say_duration(d, sizeof(d),
		     seconds_of(c, (double)c->min_passes, (double)c->min_zeros,
				(double)c->min_sched_bytes, c->min_sched_s));
	say_duration(e, sizeof(e), pb_plan_cost_seconds(c));
	snprintf(out, len, "data to write: %s by the passes at the least",
		 pb_size_format(a, sizeof(a), c->min_passes));
	if (c->zeros)
		pb_cat(out, len, ", %s of eager's zeros",
		       pb_size_format(a, sizeof(a), c->min_zeros));
	pb_cat(out, len, " (%s), %s at the most", d,
	       pb_size_format(b, sizeof(b), c->passes));
	if (c->zeros)
		pb_cat(out, len, ", %s of eager's zeros",
		       pb_size_format(a, sizeof(a), c->zeros));
	pb_cat(out, len, " (%s) at %.*f MiB/s", e, c->mib_s < 10 ? 1 : 0,
	       c->mib_s);
	if (!isnan(c->expect_share)) {
		say_duration(d, sizeof(d),
			     c->expect_share * pb_plan_cost_seconds(c));
		pb_cat(out, len,
		       "; expected %s (%s): the last finished run of it "
		       "ran %.0f%% of its most",
		       pb_size_format(
			       a, sizeof(a),
			       (uint64_t)(c->expect_share * (double)c->passes)),
		       d, c->expect_share * 100);
	}
}

/* the cost's first sentence, from a cost computed once */
void pb_plan_cost_line(char *out, size_t len, const struct pb_plan_cost *c)
{
	char a[32], b[32], d[64], z[96] = "";

	if (c->adaptive) {
		adaptive_line(out, len, c);
		return;
	}

	say_duration(d, sizeof(d), pb_plan_cost_seconds(c));
	if (c->zeros)
		snprintf(z, sizeof(z), ", %s of eager's zeros at provisioning",
			 pb_size_format(b, sizeof(b), c->zeros));
	snprintf(out, len,
		 "data to write: %s by the passes%s; %s at %.*f MiB/s%s",
		 pb_size_format(a, sizeof(a), c->passes), z, d,
		 c->mib_s < 10 ? 1 : 0, c->mib_s,
		 c->sched_s > 0 ? ", passes at an offered rate on its "
				  "schedule"
				: "");
}

/* where the rate comes from, said after the cost */
void pb_plan_rate_said(char *out, size_t len, const struct pb_plan_cost *c)
{
	if (c->rate_from[0])
		snprintf(out, len,
			 "the last finished run's rate, %s: its passes' data "
			 "over its time",
			 c->rate_from);
	else
		snprintf(out, len,
			 "a guess: no finished run of this profile in the "
			 "results directory; a first run's gives the real "
			 "rate");
}

/* target k's place: "datastore ds1", "dir /var/tmp" (its backend's place
 * row and value), or with raw the raw mappings' ("lun naa.6...", its
 * rdm row); false for a backend without one */
static bool target_place(char *out, size_t len, const struct pb_profile *p,
			 unsigned k, bool raw)
{
	const struct pb_backend_ops *be =
		p->targets[k].backend ? p->targets[k].backend : p->backend;
	const struct pb_option *d;
	unsigned flag = raw ? PB_OPT_F_RDM : PB_OPT_F_PLACE;

	for (d = be->options; d && d->name; d++) {
		const char *v;

		if (!(d->flags & flag) || d->type != PB_OPT_STR)
			continue;
		v = *(char *const *)((const char *)p->targets[k].bopts +
				     d->off);
		/* a backend's raw mode without its device writes a file
		 * where the disks go (qemu's analog) */
		if (raw && !(v && *v))
			return false;
		if (v && *v)
			snprintf(out, len, "%s %s", d->name, v);
		else
			snprintf(out, len, "%s (%s)", d->name,
				 d->place_default ? d->place_default : "unset");
		return true;
	}
	return false;
}

/* b more bytes at place here in the list */
static unsigned place_add(char (*place)[300], uint64_t *bytes, unsigned n,
			  const char *here, uint64_t b)
{
	unsigned j;

	for (j = 0; j < n && strcmp(place[j], here); j++)
		;
	if (j == n) {
		snprintf(place[n], sizeof(place[n]), "%s", here);
		bytes[n++] = 0;
	}
	bytes[j] += b;
	return n;
}

unsigned pb_plan_cost_place_list(const struct pb_plan_cost *c,
				 const struct pb_profile *p, char (*place)[300],
				 uint64_t *bytes)
{
	unsigned k, n = 0;

	for (k = 0; k < p->ntargets; k++) {
		uint64_t raw = c->per_target_raw[k];
		char here[300], lun[300];

		/* a raw mapping writes its LUN: counted there, where a
		 * backend names one (2 * PB_MAX_TARGETS places at most) */
		if (!raw || !target_place(lun, sizeof(lun), p, k, true))
			raw = 0;
		if (target_place(here, sizeof(here), p, k, false))
			n = place_add(place, bytes, n, here,
				      c->per_target[k] - raw);
		if (raw)
			n = place_add(place, bytes, n, lun, raw);
	}
	return n;
}

void pb_plan_cost_places(struct pb_buf *out, const struct pb_plan_cost *c,
			 const struct pb_profile *p)
{
	char place[PB_PLACES_MAX][300], a[32];
	uint64_t bytes[PB_PLACES_MAX];
	unsigned j, n = pb_plan_cost_place_list(c, p, place, bytes);

	for (j = 0; j < n; j++)
		pb_buf_printf(out, "%s%s %s",
			      j ? ", " : "per place: ", place[j],
			      pb_size_format(a, sizeof(a), bytes[j]));
}

uint64_t pb_plan_cost_shared(const struct pb_plan_cost *c,
			     const struct pb_profile *p)
{
	uint64_t b = 0;
	unsigned k;

	for (k = 0; k < p->ntargets; k++) {
		const struct pb_backend_ops *be =
			p->targets[k].backend ? p->targets[k].backend
					      : p->backend;

		if (be->caps & PB_CAP_SHARED_STORAGE)
			b += c->per_target[k];
	}
	return b;
}

/* a line from the terminal: yes or no */
static bool ask_yes(void)
{
	char line[64];

	if (!fgets(line, sizeof(line), stdin))
		return false;
	line[strcspn(line, "\n")] = '\0';
	return !strcasecmp(line, "y") || !strcasecmp(line, "yes");
}

enum pb_error pb_plan_confirm(const struct pb_profile *p,
			      const struct pb_plan *plan, bool yes,
			      char *errbuf)
{
	struct pb_plan_cost c;
	char a[32], b[32];
	uint64_t shared;

	pb_plan_cost(&c, p, plan);
	if (yes || !pb_plan_cost_asks(&c, p))
		return PB_OK;
	shared = pb_plan_cost_shared(&c, p);
	pb_size_format(a, sizeof(a), shared);
	pb_size_format(b, sizeof(b), p->confirm_above);
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return pb_fail(
			errbuf, PB_ERR_USAGE,
			"%s: the plan writes %s to shared storage, above "
			"confirm_above (%s), and there is no terminal "
			"to ask on: run --yes to go on unattended; "
			"nothing was created",
			p->path, a, b);
	fprintf(stderr,
		"provbench: the plan writes %s to shared storage, above "
		"confirm_above (%s). Go on? [y/N] ",
		a, b);
	fflush(stderr);
	if (ask_yes())
		return PB_OK;
	return pb_fail(errbuf, PB_ERR_USAGE,
		       "%s: not confirmed; nothing was created", p->path);
}

void run_plan_cost_line(char *out, size_t len, const struct pb_profile *p,
			const struct pb_plan *plan, const char *results)
{
	struct pb_plan_cost c;

	pb_plan_cost(&c, p, plan);
	pb_plan_cost_rate(&c, p, results);
	pb_plan_cost_line(out, len, &c);
}
