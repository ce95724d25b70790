/*
 * compare.c - the analysis floor: whether two runs may be set side by
 * side (a comparison, the gate, a merge), and how they differ where they
 * must be alike. The gate's words are gate.c's.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "model.h"

/*
 * How two runs differ in what makes their figures comparable ("" when
 * they do not): for a comparison also the profile's name, for a merge
 * its modes (a merge's targets differ by design).
 */
void rp_runs_differ(char *out, size_t len, const struct rj_reader *m,
		    const struct rj_reader *old, bool compare)
{
	static const char *const keys[] = {"disk_size", "workload",   "matrix",
					   "command",	"filesystem", "modes"};
	size_t i, nkeys = sizeof(keys) / sizeof(keys[0]) - (compare ? 1 : 0);

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
	for (i = 0; i < nkeys; i++) {
		json_t *a = json_object_get(m->profile, keys[i]);
		json_t *b = json_object_get(old->profile, keys[i]);

		if (!(a == b || (a && b && json_equal(a, b))))
			rp_list_add(out, len, "the profile's %s differs",
				    keys[i]);
	}
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
