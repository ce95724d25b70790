/*
 * answer.c - the saying floor: the answer's lines (which modes write
 * slower on first write beyond noise and by how much, which show nothing
 * beyond noise, eager's provisioning, what the run's scope is) and the
 * run's one line of what was measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "model.h"
#include "words.h"
#include "words_int.h"

/* "thin", "thin and lazy", "thin, lazy and eager"; a set over several
 * places (a matrix's points) names each one's: "thin (bs=64K) and thin
 * (bs=1M)", never "thin and thin" */
void rp_set_names(char *out, size_t len, const struct rp_finding *f)
{
	char l[320];
	bool where = false;
	size_t i;

	out[0] = '\0';
	for (i = 1; i < f->nset; i++)
		where |= strcmp(f->set[i]->where, f->set[0]->where) != 0;
	for (i = 0; i < f->nset; i++) {
		rp_group_label(l, sizeof(l), f->set[i], where);
		pb_cat(out, len, "%s%s",
		       !i		  ? ""
		       : i + 1 == f->nset ? " and "
					  : ", ",
		       l);
	}
}

/* "bs=64K: " before a headline clause when the place has a name */
static void place_prefix(char *out, size_t len, const struct rp_group *g)
{
	out[0] = '\0';
	if (g && *g->where)
		snprintf(out, len, "%s: ", g->where);
}

/* ---- the headline ---- */

/* what a local run measured: the analog, never ESXi's zeroing */
static void scope(char *out, size_t len, const struct rp_finding *f)
{
	const char *fs = f->metric && *f->metric ? f->metric : "the host's",
		   *sfx = f->metric && *f->metric ? "" : " filesystem";

	if (!strcmp(f->detail, "qemu raw"))
		snprintf(out, len,
			 "what this measured is the local analog, not ESXi: "
			 "thin's first write pays %s%s filling a sparse disk "
			 "file's holes, lazy's %s%s converting unwritten "
			 "extents; VMFS zeroing its 1 MiB blocks, VAAI and the "
			 "array are not in these figures",
			 fs, sfx, fs, sfx);
	else if (!strcmp(f->detail, "qemu"))
		snprintf(out, len,
			 "what this measured is the local analog, not ESXi: "
			 "thin's first write pays qcow2 allocating clusters "
			 "and %s%s filling the disk file's holes, lazy's %s%s "
			 "converting unwritten extents; VMFS zeroing its 1 "
			 "MiB blocks, VAAI and the array are not in these "
			 "figures",
			 fs, sfx, fs, sfx);
	else
		snprintf(out, len,
			 "what this measured is the host's own filesystem, "
			 "not ESXi: thin's first write pays %s%s filling a "
			 "sparse file's holes, lazy's %s%s converting "
			 "unwritten extents; VMFS zeroing its 1 MiB blocks, "
			 "VAAI and the array are not in these figures",
			 fs, sfx, fs, sfx);
}

void rp_say_headline(char *out, size_t len, const struct rp_model *m,
		     const struct rp_finding *f)
{
	char names[1024], pre[512], a[32], b[32], sz[32];
	size_t i;

	rp_set_names(names, sizeof(names), f);
	place_prefix(pre, sizeof(pre), f->g);
	switch (f->kind) {
	case RP_F_H_PARTIAL:
		snprintf(out, len, "%s",
			 f->n == 1 ? "INTERRUPTED: the run was stopped before "
				     "its plan ended"
			 : f->n == 2 ? "UNFINISHED: run.json does not say the "
				       "run ended (it is still going, or it "
				       "crashed)"
				     : "INCOMPLETE");
		if (f->x > 0)
			pb_cat(out, len, "%s %.0f item%s failed (listed below)",
			       f->n ? ";" : ":", f->x, f->x == 1 ? "" : "s");
		pb_cat(out, len, "; what follows is what it measured");
		return;
	case RP_F_H_SLOWER:
	case RP_F_H_FASTER:
		rp_pct_text(a, sizeof(a), fabs(f->v));
		rp_pct_text(b, sizeof(b), fabs(f->v2));
		if (f->kind == RP_F_H_FASTER) {
			char t[32];

			snprintf(t, sizeof(t), "%s", a);
			snprintf(a, sizeof(a), "%s", b);
			snprintf(b, sizeof(b), "%s", t);
		}
		if (!strcmp(a, b))
			snprintf(out, len,
				 "%s%s: first write takes %s %s than rewrite",
				 pre, names, a,
				 f->kind == RP_F_H_SLOWER ? "longer"
							  : "less time");
		else
			snprintf(out, len,
				 "%s%s: first write takes %.*s-%s %s than "
				 "rewrite",
				 pre, names, (int)(strlen(a) - 1), a, b,
				 f->kind == RP_F_H_SLOWER ? "longer"
							  : "less time");
		return;
	case RP_F_H_FLAT:
		snprintf(out, len, "%s%s show%s no first-write penalty %s", pre,
			 names, f->nset == 1 ? "s" : "",
			 f->metric ? "of 5% or more" : "beyond noise");
		if (!isnan(f->x))
			pb_cat(out, len, " (to within \u00b1%.0f%%)",
			       round(f->x * 100) + 0.0);
		return;
	case RP_F_H_FEW:
		snprintf(out, len,
			 "%s%s, so no interval and no verdict on noise: "
			 "first-write penalty ",
			 pre,
			 rp_reps_few(a, sizeof(a),
				     f->nset ? f->set[0]->nok : 1));
		for (i = 0; i < f->nset; i++) {
			char l[320];

			rp_group_label(l, sizeof(l), f->set[i], false);
			rp_pct_text(a, sizeof(a), f->set[i]->penalty);
			pb_cat(out, len, "%s%s %s", i ? ", " : "", l, a);
		}
		return;
	case RP_F_H_BREAKEVEN:
		snprintf(out, len, "%seager's %.2f s of provisioning ", pre,
			 f->v);
		if (!(f->v > f->v2))
			pb_cat(out, len,
			       "takes no longer than %s's: nothing "
			       "to repay",
			       names);
		else if (f->sig == RP_SIG_FEW)
			pb_cat(out, len,
			       "against %s's: %s, too few to tell whether it "
			       "is repaid",
			       names,
			       rp_reps_few(a, sizeof(a), f->g ? f->g->nok : 1));
		else if (f->sig == RP_SIG_NOISE)
			pb_cat(out, len,
			       "cannot be weighed against %s's: their first "
			       "writes are within noise of each other",
			       names);
		else if (f->x < 0)
			pb_cat(out, len,
			       "is never repaid against %s: its first write is "
			       "no faster",
			       names);
		else if (!isnan(f->hi) && f->x > f->hi)
			pb_cat(out, len,
			       "is not repaid within this disk against %s",
			       names);
		else
			pb_cat(out, len,
			       "is repaid against %s after %s of new blocks",
			       names,
			       pb_size_format(sz, sizeof(sz), rp_u64(f->x)));
		return;
	case RP_F_H_INCONCLUSIVE:
		snprintf(out, len,
			 "%sinconclusive: with %zu repetition%s the penalty "
			 "intervals are up to \u00b1%.0f%% wide; about %.0f "
			 "repetitions would tell a 10%% difference",
			 pre, f->n, f->n == 1 ? "" : "s",
			 round(f->v * 100) + 0.0, f->x);
		return;
	case RP_F_H_NONE:
		snprintf(out, len, "%snothing was measured", pre);
		return;
	case RP_F_H_SCOPE:
		scope(out, len, f);
		return;
	default:
		break;
	}
	(void)m;
}

/* A size as a profile writes it: "1G", "64K", "4096" */
static const char *compact(char *buf, size_t len, unsigned long long v)
{
	static const char unit[] = "KMGT";
	int k = -1;

	while (v && !(v % 1024) && k < 3) {
		v /= 1024;
		k++;
	}
	if (k < 0)
		snprintf(buf, len, "%llu", v);
	else
		snprintf(buf, len, "%llu%c", v, unit[k]);
	return buf;
}

/* A workload key's value over the run's points, as the runner printed
 * it ("seq"), sizes compact ("1M"), or each point's where they differ
 * ("1M/64K": a matrix varied it). */
static const char *over_points(char *out, size_t len, const struct rp_model *m,
			       const char *key, bool size)
{
	size_t i, n = json_array_size(m->rd.points);
	char v[64], seen[1024] = "";

	out[0] = '\0';
	for (i = 0; i < (n ? n : 1); i++) {
		const char *t = json_string_value(json_object_get(
			json_object_get(rj_point_resolved(&m->rd, (long long)i),
					"workload"),
			key));

		if (!t)
			continue;
		if (size)
			compact(v, sizeof(v), strtoull(t, NULL, 10));
		else
			snprintf(v, sizeof(v), "%s", t);
		pb_cat(seen, sizeof(seen), "|");
		if (strstr(seen, v) && strstr(seen, v)[strlen(v)] == '|')
			continue; /* said already */
		pb_cat(seen, sizeof(seen), "%s|", v);
		pb_cat(out, len, "%s%s", *out ? "/" : "", v);
	}
	return out;
}

/* The run in one line, from what ran (run.json's resolved, or what an
 * older file's profile resolves to): never the profile's text. */
void rp_measured_text(char *out, size_t len, const struct rp_model *m)
{
	json_t *rs = m->rd.resolved;
	double disk = json_number_value(
		json_object_get(rj_point_resolved(&m->rd, 0), RJ_K_DISK_BYTES));
	json_int_t reps =
		json_integer_value(json_object_get(rs, "repetitions"));
	char a[256], b[256], *p, *save = NULL;

	out[0] = '\0';
	if (!rs)
		return;
	if (disk > 0)
		pb_cat(out, len, "%s disks",
		       compact(a, sizeof(a), (uint64_t)disk));
	if (strcmp(over_points(a, sizeof(a), m, "filesystem", false), "none") &&
	    *a) {
		pb_cat(out, len, ", a %s file on %s",
		       over_points(b, sizeof(b), m, "file_size", true), a);
	}
	over_points(a, sizeof(a), m, "passes", false);
	if (*a) {
		pb_cat(out, len, "%s", *out ? "; " : "");
		for (p = strtok_r(a, ",", &save); p;
		     p = strtok_r(NULL, ",", &save))
			pb_cat(out, len, "%s%s", save && p != a ? ", " : "", p);
	}
	pb_cat(out, len, "%s%s %s writes", *out ? "; " : "",
	       over_points(a, sizeof(a), m, "pattern", false),
	       over_points(b, sizeof(b), m, "bs", true));
	/* an offered rate (issue 55): the schedule, qd its cap */
	over_points(b, sizeof(b), m, "rate_iops", false);
	if (*b && strcmp(b, "0")) {
		bool poisson = !strcmp(
			over_points(a, sizeof(a), m, "poisson", false), "true");

		pb_cat(out, len, " at %s IOPS offered%s, qd %s at most", b,
		       poisson ? " (Poisson)" : "",
		       over_points(a, sizeof(a), m, "qd", false));
	} else
		pb_cat(out, len, " at qd %s",
		       over_points(a, sizeof(a), m, "qd", false));
	pb_cat(out, len, ", %s",
	       !strcmp(over_points(a, sizeof(a), m, "direct", false), "false")
		       ? "buffered"
		       : "direct");
	if (strcmp(over_points(a, sizeof(a), m, "pair_stripe", true), "0"))
		pb_cat(out, len, ", first write in %s stripe pairs", a);
	if (m->seq.on) {
		rp_seq_say(a, sizeof(a), &m->seq);
		pb_cat(out, len, "; %s", a);
	} else if (reps > 0) {
		pb_cat(out, len, "; %lld repetition%s", (long long)reps,
		       reps != 1 ? "s" : "");
	}
	if (m->nmore)
		pb_cat(out, len, " per run, %zu runs merged", m->nmore + 1);
	pb_cat(out, len, "; baseline %s",
	       m->have_baseline ? m->baseline : "none");
}
