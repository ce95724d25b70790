/*
 * compare.c - the analysis floor: whether two runs may be set side by
 * side (a comparison, the gate, a merge), and how they differ where they
 * must be alike. The gate's words are gate.c's.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "model.h"

/* Do two runs' points differ in one workload key (key NULL: in any key
 * but command and filesystem, said on their own)? */
static bool points_differ(const struct rj_reader *a, const struct rj_reader *b,
			  const char *key)
{
	size_t i;

	for (i = 0; i < json_array_size(a->points); i++) {
		json_t *x = json_object_get(rj_point_resolved(a, (long long)i),
					    "workload");
		json_t *y = json_object_get(rj_point_resolved(b, (long long)i),
					    "workload");
		const char *k;
		json_t *v;

		if (key && !json_equal(json_object_get(x, key),
				       json_object_get(y, key)))
			return true;
		if (key)
			continue;
		json_object_foreach(x, k, v)
		{
			if (strcmp(k, "command") && strcmp(k, "filesystem") &&
			    !json_equal(v, json_object_get(y, k)))
				return true;
		}
	}
	return false;
}

/*
 * How two runs differ in what makes their figures comparable ("" when
 * they do not), from what each ran, resolved (run.json's "resolved";
 * an older file's filled from its profile as it was read): for a
 * comparison also the profile's name, for a merge its modes (a merge's
 * targets differ by design).
 */
void rp_runs_differ(char *out, size_t len, const struct rj_reader *m,
		    const struct rj_reader *old, bool compare)
{
	bool points =
		json_array_size(m->points) == json_array_size(old->points);
	size_t i;

	out[0] = '\0';
	if (strcmp(m->backend, old->backend))
		rp_list_add(out, len, "backend %s, then %s", m->backend,
			    old->backend);
	if (strcmp(m->accel, old->accel))
		rp_list_add(out, len, "accelerator %s, then %s",
			    *m->accel ? m->accel : "none",
			    *old->accel ? old->accel : "none");
	if (compare && strcmp(m->profile_name, old->profile_name))
		rp_list_add(out, len, "profile %s, then %s", m->profile_name,
			    old->profile_name);
	for (i = 0; points && i < json_array_size(m->points); i++)
		points = json_equal(
			json_object_get(json_array_get(m->points, i),
					RJ_K_DESCRIPTION),
			json_object_get(json_array_get(old->points, i),
					RJ_K_DESCRIPTION));
	for (i = 0; points && i < json_array_size(m->points); i++)
		if (!json_equal(
			    json_object_get(rj_point_resolved(m, (long long)i),
					    RJ_K_DISK_BYTES),
			    json_object_get(
				    rj_point_resolved(old, (long long)i),
				    RJ_K_DISK_BYTES))) {
			rp_list_add(out, len,
				    "the profile's disk_size differs");
			break;
		}
	if (points && points_differ(m, old, NULL))
		rp_list_add(out, len, "the profile's workload differs");
	if (!points)
		rp_list_add(out, len, "the profile's matrix differs");
	if (points && points_differ(m, old, "command"))
		rp_list_add(out, len, "the profile's command differs");
	if (points && points_differ(m, old, "filesystem"))
		rp_list_add(out, len, "the profile's filesystem differs");
	if (!compare && !json_equal(json_object_get(m->resolved, "modes"),
				    json_object_get(old->resolved, "modes")))
		rp_list_add(out, len, "the profile's modes differ");
}

enum pb_error rp_compare_check(char *note, size_t len, const struct rp_model *m,
			       const struct rp_model *old, const char *old_dir,
			       bool force, char *errbuf)
{
	note[0] = '\0';
	/* a run against itself (a copy, a link, the same path) says
	 * nothing: every change would be zero, and read as "no change" */
	if (*m->run && !strcmp(m->run, old->run))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--compare: %s is the run itself (%s): compare "
			       "it with another run",
			       old_dir, m->run);
	rp_runs_differ(note, len, &m->rd, &old->rd, true);
	if (note[0] && !force)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "will not compare with %s: %s (--force "
			       "compares anyway)",
			       old->run, note);
	return PB_OK;
}
