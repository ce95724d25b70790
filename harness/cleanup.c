/*
 * cleanup.c - `provbench cleanup`: remove what the journal says crashed
 * runs left on a profile's targets (a results directory names its profile
 * and its run), and nothing the journal does not name.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "run_int.h"
#include "runjson.h"

/*
 * cleanup: remove what the
 * journal says crashed runs left on the profile's target (a results
 * directory names its profile and run).
 */
int pb_cleanup(const char *arg, bool dry, const char *modes,
	       const char *targets)
{
	struct pb_profile p;
	struct run_state r = {.p = &p, .j = {.fd = -1}};
	struct rj_reader rd = {0};
	char run_id[256] = "", name[1200];
	unsigned n[2] = {0, 0};
	enum pb_error err;
	struct stat st;
	int rc;

	memset(&p, 0, sizeof(p));
	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		/* a results directory: its run.json names the run and holds
		 * the profile it ran, so this works from any directory and
		 * whatever became of the profile's file since */
		err = rj_reader_open(&rd, arg, r.errbuf);
		/* the run id is matched against the journal's: a cut one
		 * could match another run */
		if (!err && (size_t)snprintf(run_id, sizeof(run_id), "%s",
					     rd.run) >= sizeof(run_id))
			err = pb_fail(r.errbuf, PB_ERR_INPUT,
				      "%s: run id too long", rd.path);
		if (!err && !rd.profile)
			err = pb_fail(r.errbuf, PB_ERR_INPUT,
				      "%s: holds no profile", rd.path);
		if (err) {
			rc = pb_cli_fail(err, "cleanup", r.errbuf);
			goto out;
		}
		snprintf(name, sizeof(name), "%s: profile", rd.path);
		rc = run_profile_open(
			&r,
			pb_profile_load_json(&p, name, rd.profile, r.errbuf),
			modes, targets);
	} else {
		rc = run_profile_load(&r, arg, modes, targets);
	}
	if (rc)
		goto out;
	/* a dry run takes the lock too: a live run's disks are not
	 * leftovers, and a dry run says what cleanup would do */
	r.cleanup = true;
	err = run_state_open(&r, true);
	if (!err)
		err = run_recover_all(&r, run_id[0] ? run_id : NULL, dry, false,
				      n);
	if (err)
		rc = pb_cli_fail(err, "cleanup", r.errbuf);
	else if (n[1])
		printf("cleanup: %u disk(s) %s, %u change(s) to a target %s\n",
		       n[0], dry ? "would be removed" : "removed", n[1],
		       dry ? "would be undone" : "undone");
	else
		printf("cleanup: %u disk(s) %s\n", n[0],
		       dry ? "would be removed" : "removed");
out:
	rj_reader_dispose(&rd);
	run_dispose(&r);
	return rc;
}
