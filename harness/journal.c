/*
 * journal.c - the record of every disk provbench makes (docs/DESIGN.md).
 *
 * One JSON object per line in STATE_DIR/journal.jsonl, appended and
 * fsynced: "intent" before a disk is created (with the exact name it will
 * have), "created" once the backend knows its identity, "started" when a
 * guest process writing it starts (cleanup stops it first), "destroyed"
 * after it is gone. A crashed run leaves intents without "destroyed"; cleanup
 * removes exactly those disks and never anything the journal does not name.
 * An intent with a "change" is a change to the target a backend's prepare
 * made (a VM shut down for a power cycle), closed by "done": cleanup
 * undoes an open one through the same backend op.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness_int.h"

#define JOURNAL_NAME "journal.jsonl"

/* mkdir -p path, each directory it makes 0700 */
static int mkdir_p(const char *path)
{
	char p[1024];
	size_t i;

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (i = 1; p[i]; i++) {
		if (p[i] != '/')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0700) && errno != EEXIST)
			return -1;
		p[i] = '/';
	}
	return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

enum pb_error pb_state_dir(char *out, size_t len, char *errbuf)
{
	const char *env = getenv("PROVBENCH_STATE_DIR"), *home;
	const char *xdg = getenv("XDG_STATE_HOME");
	struct stat st;
	int e = 0;

	if (env && *env) {
		snprintf(out, len, "%s", env);
	} else if (geteuid() == 0) {
		snprintf(out, len, "/var/lib/provbench");
	} else if (xdg && *xdg == '/') {
		snprintf(out, len, "%s/provbench", xdg);
	} else {
		/* the XDG default; a fresh account may have no ~/.local */
		home = getenv("HOME");
		if (!home || !*home) {
			struct passwd *pw = getpwuid(geteuid());

			home = pw ? pw->pw_dir : "/tmp";
		}
		snprintf(out, len, "%s/.local/state/provbench", home);
	}
	/* unusable is the caller's setup to fix: exit 2, naming it */
	if (mkdir_p(out) || stat(out, &st))
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	else if (access(out, W_OK | X_OK))
		e = errno;
	if (e)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "state directory %s: %s (set "
			       "PROVBENCH_STATE_DIR to one provbench may "
			       "write)",
			       out, strerror(e));
	return PB_OK;
}

enum pb_error pb_journal_open(struct pb_journal *j, const char *dir,
			      char *errbuf)
{
	snprintf(j->path, sizeof(j->path), "%s/%s", dir, JOURNAL_NAME);
	j->fd = open(j->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (j->fd < 0)
		return pb_fail(errbuf, PB_ERR_IO, "journal %s: %s", j->path,
			       strerror(errno));
	return PB_OK;
}

void pb_journal_close(struct pb_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
}

enum pb_error pb_journal_append(struct pb_journal *j, json_t *entry,
				char *errbuf)
{
	char *line = json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
	size_t len, done = 0;
	ssize_t w;
	enum pb_error err = PB_OK;

	if (!line)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	len = strlen(line);
	line[len++] = '\n'; /* json_dumps left room: we overwrite the NUL */
	/* one write() of the whole line: O_APPEND keeps lines whole */
	while (done < len) {
		w = write(j->fd, line + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = pb_fail(errbuf, PB_ERR_IO, "journal %s: %s",
				      j->path, strerror(errno ? errno : EIO));
			break;
		}
		done += (size_t)w;
	}
	/* the record must be on disk before the disk it names exists */
	if (!err && fsync(j->fd))
		err = pb_fail(errbuf, PB_ERR_IO, "journal %s: fsync: %s",
			      j->path, strerror(errno));
	free(line);
	return err;
}

enum pb_error pb_journal_open_disks(json_t **out, const char *dir, char *errbuf)
{
	char path[1100], *text, *line, *save = NULL;
	json_t *open_by_id = json_object(), *e, *arr;
	const char *id, *op;
	size_t lineno = 0;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, JOURNAL_NAME);
	text = pb_slurp_file(path, NULL);
	if (!text && errno != ENOENT) {
		json_decref(open_by_id);
		return pb_fail(errbuf, PB_ERR_IO, "journal %s: %s", path,
			       strerror(errno));
	}
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		/* a line torn by a crash mid-write is skipped, and said so */
		e = json_loads(line, 0, NULL);
		id = json_string_value(json_object_get(e, "id"));
		op = json_string_value(json_object_get(e, "op"));
		if (!e || !id || !op) {
			fprintf(stderr,
				"provbench: journal %s:%zu: unreadable line "
				"skipped\n",
				path, lineno);
			json_decref(e);
			continue;
		}
		if (!strcmp(op, "intent"))
			json_object_set(open_by_id, id, e);
		else if ((!strcmp(op, "created") || !strcmp(op, "started")) &&
			 json_object_get(open_by_id, id))
			json_object_update(json_object_get(open_by_id, id), e);
		else if (!strcmp(op, "destroyed") || !strcmp(op, "done"))
			json_object_del(open_by_id, id);
		json_decref(e);
	}
	free(text);
	arr = json_array();
	json_object_foreach(open_by_id, id, e) json_array_append(arr, e);
	json_decref(open_by_id);
	*out = arr;
	return arr ? PB_OK : PB_ERR_NOMEM;
}

/*
 * Remove what the journal says a crashed run left on this target. Returns
 * how many disks were removed (or would be, for a dry run).
 */
enum pb_error pb_journal_recover(const struct pb_backend_ops *ops,
				 struct pb_backend *b, struct pb_journal *j,
				 const char *state, const char *run_id,
				 bool dry_run, bool quiet, unsigned count[2],
				 char *errbuf)
{
	char berr[PB_ERRBUF_SIZE];
	json_t *open_disks = NULL, *e;
	const char *target = ops->target_key(b);
	enum pb_error err, rc = PB_OK;
	size_t i;

	count[0] = count[1] = 0;
	err = pb_journal_open_disks(&open_disks, state, errbuf);
	if (err)
		return err;
	json_array_foreach(open_disks, i, e)
	{
		const char *t = json_string_value(json_object_get(e, "target"));
		const char *id = json_string_value(json_object_get(e, "id"));
		const char *file =
			json_string_value(json_object_get(e, "file"));
		const char *rid = json_string_value(json_object_get(e, "run"));
		const char *be =
			json_string_value(json_object_get(e, "backend"));
		const char *kind =
			json_string_value(json_object_get(e, "change"));
		bool mine = t && !strcmp(t, target);

		/* another target of this backend: a backend that can tells
		 * whether it is gone (a VM deleted since), leaving it alone
		 * else */
		if (!mine &&
		    (dry_run || run_id || !be || strcmp(be, ops->name) ||
		     !(ops->caps & PB_CAP_CLEANUP_GONE)))
			continue;
		if (run_id && (!rid || strcmp(rid, run_id)))
			continue;
		if (dry_run) {
			if (kind)
				printf("would undo %s (%s)\n", kind, id);
			else
				printf("would remove %s (%s)\n",
				       file ? file : "?", id);
			count[kind != NULL]++;
			continue;
		}
		berr[0] = '\0';
		err = ops->cleanup(b, e, mine, berr);
		if (!mine && err == PB_ERR_UNSAFE)
			continue; /* not this run's to touch */
		if (!mine && err == PB_ERR_NOTFOUND && !quiet)
			pb_progress("journal entry %s: %s", id, berr);
		if (err && err != PB_ERR_NOTFOUND) {
			pb_fail(errbuf, err, "cleanup of %s: %s",
				file   ? file
				: kind ? kind
				       : id,
				berr);
			rc = err;
			continue;
		}
		if (!err) {
			count[kind != NULL]++;
			if (!quiet && kind)
				pb_progress("%s", berr);
			else if (!quiet)
				pb_progress("removed leftover disk %s", file);
		}
		json_t *done = json_pack("{s:s,s:s,s:s}", "op",
					 kind ? "done" : "destroyed", "id", id,
					 "by", "cleanup");

		err = pb_journal_append(j, done, errbuf);
		json_decref(done);
		if (err)
			rc = err;
	}
	json_decref(open_disks);
	return rc;
}
