/*
 * lock.c - a run and the others: one run per target (a lock file per
 * target key in the state directory, flock'd for the run), and the places
 * targets share (datastores, LUNs, host filesystems), held shared so
 * another run on one is seen and warned of, or with "exclusive" refused;
 * and disks the server shows there that no run of this machine made,
 * another controller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "run_int.h"

/* ---- the lock: one run per target ---- */

/* The lock file of key in the state directory, state/KIND-<hash>, open;
 * -1 with the message in errbuf. path gets its name. */
static int lock_file(char *path, size_t len, const char *state,
		     const char *kind, const char *key, char *errbuf)
{
	unsigned long h = 5381;
	const char *p;
	int fd;

	for (p = key; *p; p++)
		h = h * 33 + (unsigned char)*p;
	snprintf(path, len, "%s/%s-%08lx", state, kind, h & 0xffffffff);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		pb_fail(errbuf, PB_ERR_IO, "lock %s: %s", path,
			strerror(errno));
	return fd;
}

/*
 * The target's lock, with who holds it written in it ("pid 4242, run of
 * nightly, since 2026-12-03T02:30:00Z on lab-ctl1"), so a refusal can say
 * whose run is in the way: the lock is the flock, the text only says.
 */
static int take_lock(const char *state, const char *key, const char *who,
		     char *errbuf)
{
	char path[1200], holder[512] = "", ts[32], host[256] = "";
	ssize_t n;
	int fd = lock_file(path, sizeof(path), state, "lock", key, errbuf);

	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		pb_fail(errbuf, PB_ERR_INPUT,
			"another provbench run holds %s: %s (lock %s)", key,
			*holder ? holder : "who, it does not say", path);
		close(fd);
		return -1;
	}
	gethostname(host, sizeof(host) - 1);
	n = snprintf(holder, sizeof(holder), "pid %ld, %s, since %s on %s\n",
		     (long)getpid(), who,
		     pb_utc_format(ts, sizeof(ts), time(NULL), PB_TIME_ISO),
		     host);
	/* what it says is a courtesy: the flock is the lock, so a failed
	 * write leaves the run as it is */
	if (!ftruncate(fd, 0) && pwrite(fd, holder, (size_t)n, 0) != n)
		(void)ftruncate(fd, 0);
	return fd;
}

/* The state directory, each target's lock (unless only looking), the
 * journal: what run and cleanup both need before touching anything. */
enum pb_error run_state_open(struct run_state *r, bool lock)
{
	enum pb_error err = pb_state_dir(r->state, sizeof(r->state), r->errbuf);
	unsigned t;

	for (t = 0; !err && lock && t < r->nt; t++) {
		if (run_same_key(r, t) != t)
			continue;
		char who[300];

		snprintf(who, sizeof(who), "%s of %s",
			 r->cleanup ? "cleanup" : "run",
			 r->p && r->p->name ? r->p->name : "?");
		r->t[t].lock_fd = take_lock(
			r->state, r->t[t].b->ops->target_key(r->t[t].b), who,
			r->errbuf);
		if (r->t[t].lock_fd < 0)
			err = PB_ERR_INPUT;
	}
	if (!err)
		err = pb_journal_open(&r->j, r->state, r->errbuf);
	return err;
}

/*
 * The places the targets share with other runs (datastores, LUNs, host
 * filesystems): each held with a shared lock for the run, so another run
 * using one is seen (its shared lock makes our exclusive try fail) and
 * warned of, once per place; with "exclusive" the run holds them alone and
 * refuses when it cannot. Only runs under this state directory, on this
 * machine, are seen: a controller elsewhere is not.
 */
enum pb_error run_places_lock(struct run_state *r, char *errbuf)
{
	char path[1200];
	unsigned t, i, k;
	const char *key;

	for (t = 0; t < r->nt; t++)
		for (i = 0; r->t[t].b->ops->shared_key &&
			    (key = r->t[t].b->ops->shared_key(r->t[t].b, i));
		     i++) {
			int fd;

			/* each place once: two fds of one file conflict */
			for (k = 0; k < r->nplaces && strcmp(r->place[k], key);
			     k++)
				;
			if (k < r->nplaces || r->nplaces == PB_MAX_PLACES)
				continue;
			fd = lock_file(path, sizeof(path), r->state, "place",
				       key, errbuf);
			if (fd < 0)
				return PB_ERR_IO;
			r->place_fd[r->nplaces] = fd;
			r->place_t[r->nplaces] = t;
			r->place_i[r->nplaces] = i;
			snprintf(r->place[r->nplaces], sizeof(r->place[0]),
				 "%s", key);
			r->nplaces++;
			if (!flock(fd, LOCK_EX | LOCK_NB)) {
				/* alone; others may share it from now on,
				 * unless this run keeps it to itself */
				if (!r->p->exclusive)
					flock(fd, LOCK_SH | LOCK_NB);
				continue;
			}
			if (r->p->exclusive)
				return pb_fail(errbuf, PB_ERR_INPUT,
					       "another provbench run uses %s "
					       "(\"exclusive\": true refuses "
					       "to share it)",
					       key);
			if (flock(fd, LOCK_SH | LOCK_NB))
				return pb_fail(errbuf, PB_ERR_INPUT,
					       "another provbench run holds %s "
					       "exclusively (its profile says "
					       "\"exclusive\": true)",
					       key);
			json_array_append_new(r->shared, json_string(key));
			/* said even when quiet: the figures are not this
			 * run's alone */
			fprintf(stderr,
				"provbench: run: warning: another provbench "
				"run is using %s: the two interfere, the "
				"figures include its load\n",
				key);
		}
	return PB_OK;
}

/* Is file one the journal names as not yet destroyed (this machine's)? */
static bool journaled(json_t *open_disks, const char *file)
{
	json_t *e;
	size_t i;

	json_array_foreach(open_disks, i, e)
	{
		const char *f = json_string_value(json_object_get(e, "file"));

		if (f && !strcmp(f, file))
			return true;
	}
	return false;
}

/*
 * The places as the server shows them: provbench disks on a target's
 * datastore that this machine's journal does not name are another
 * controller's run at work (or what one left: its cleanup removes them).
 * Warned of like a run here, recorded, refused with "exclusive". Looked at
 * once, after this machine's leftovers went; a search the server refuses
 * is said and changes nothing.
 */
enum pb_error run_places_foreign(struct run_state *r, char *errbuf)
{
	json_t *open_disks = NULL;
	unsigned k;
	enum pb_error err = PB_OK;

	err = pb_journal_open_disks(&open_disks, r->state, errbuf);
	/* each place once, through the first target on it (lock_places') */
	for (k = 0; !err && k < r->nplaces; k++) {
		/* in full: r->place[] holds it cut to its size */
		struct pb_backend *b = r->t[r->place_t[k]].b;
		const char *key;
		json_t *files = json_array(), *f;
		char list[1024] = "", line[1600];
		size_t x, n = 0, len = 0;

		if (!b->ops->place_disks) {
			json_decref(files);
			continue;
		}
		key = b->ops->shared_key(b, r->place_i[k]);
		if (b->ops->place_disks(b, r->place_i[k], files,
					run_reset_fail(r->berr))) {
			fprintf(stderr,
				"provbench: run: warning: %s: cannot look for "
				"other runs' disks: %s\n",
				key, r->berr);
			json_decref(files);
			continue;
		}
		json_array_foreach(files, x, f)
		{
			if (journaled(open_disks, json_string_value(f)))
				continue;
			if (len < sizeof(list))
				len += (size_t)snprintf(
					list + len, sizeof(list) - len, "%s%s",
					n ? ", " : "", json_string_value(f));
			n++;
		}
		json_decref(files);
		if (!n)
			continue;
		snprintf(line, sizeof(line),
			 "%s (the server shows %zu provbench disk%s no run of "
			 "this machine made: %s)",
			 key, n, n == 1 ? "" : "s", list);
		if (r->p->exclusive) {
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "another provbench run uses %s; "
				      "\"exclusive\": true refuses to share it",
				      line);
			break;
		}
		json_array_append_new(r->shared, json_string(line));
		fprintf(stderr,
			"provbench: run: warning: another provbench run, from "
			"another machine, is using %s: the two interfere, the "
			"figures include its load (or it left them: its "
			"cleanup "
			"removes them)\n",
			line);
	}
	json_decref(open_disks);
	return err;
}
