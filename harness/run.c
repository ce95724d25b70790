/*
 * run.c - what `provbench run`, `check` and `cleanup` do (their command
 * lines are harness/cli/cmd_*.c).
 *
 * A run: load the profile, build the plan, connect, take the target's
 * lock, clean what an earlier crashed run left, then per plan item journal
 * the disk, create it (timed), run the runner against it, collect its
 * JSON, destroy it, journal that. run.json is rewritten (atomically) after
 * every item, so an interrupted or crashed run keeps what it measured.
 *
 * With "concurrency" above 1 the plan's waves (one mode and workload point
 * on several targets) run in worker threads, one per VM of the wave, each
 * with its own error buffers; what they share (the journal, run.json, the
 * counters, stderr) is taken under the run's mutex. A signal reaches the
 * main thread (the workers block it) and the workers see the flag at their
 * next poll of the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness_int.h"
#include "report.h"
#include "runjson.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	/* no SA_RESTART: waits return and see the flag */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int pb_cli_fail(int err, const char *what, const char *why)
{
	pb_error_print("provbench", what, why);
	return pb_exit_code((enum pb_error)err);
}

/* -q: set once per command, read by pb_progress (backends' steps) */
static bool quiet_run;
/* the target a worker thread measures, named on its lines while several
 * run at once (NULL: one at a time, the item line names it) */
static _Thread_local const char *say_target;

static void vsay(bool quiet, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vsay(bool quiet, const char *fmt, va_list ap)
{
	char ts[32];

	if (quiet)
		return;
	pb_utc_format(ts, sizeof(ts), time(NULL), PB_TIME_CLOCK);
	/* one line at a time, whichever worker says it */
	flockfile(stderr);
	fprintf(stderr, "%s ", ts);
	if (say_target)
		fprintf(stderr, "[%s] ", say_target);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

static void say(bool quiet, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Progress: timestamped lines on stderr a log can keep (and a person can
 * read); stdout is for results. */
static void say(bool quiet, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(quiet, fmt, ap);
	va_end(ap);
}

void pb_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(quiet_run, fmt, ap);
	va_end(ap);
}

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

static int take_lock(const char *state, const char *key, char *errbuf)
{
	char path[1200];
	int fd = lock_file(path, sizeof(path), state, "lock", key, errbuf);

	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		pb_fail(errbuf, PB_ERR_INPUT,
			"another provbench run holds %s (lock %s)", key, path);
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- journal recovery ---- */

struct run_state;
static enum pb_error open_state(struct run_state *r, bool lock);

/*
 * Remove what the journal says a crashed run left on this target. Returns
 * how many disks were removed (or would be, for a dry run).
 */
static enum pb_error recover(const struct pb_backend_ops *ops,
			     struct pb_backend *b, struct pb_journal *j,
			     const char *state, const char *run_id,
			     bool dry_run, bool quiet, unsigned *count,
			     char *errbuf)
{
	char berr[PB_ERRBUF_SIZE];
	json_t *open_disks = NULL, *e;
	const char *target = ops->target_key(b);
	enum pb_error err, rc = PB_OK;
	size_t i;

	*count = 0;
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
			printf("would remove %s (%s)\n", file ? file : "?", id);
			(*count)++;
			continue;
		}
		berr[0] = '\0';
		err = ops->cleanup(b, e, mine, berr);
		if (!mine && err == PB_ERR_UNSAFE)
			continue; /* not this run's to touch */
		if (!mine && err == PB_ERR_NOTFOUND)
			say(quiet, "journal entry %s: %s", id, berr);
		if (err && err != PB_ERR_NOTFOUND) {
			pb_fail(errbuf, err, "cleanup of %s: %s", file, berr);
			rc = err;
			continue;
		}
		if (!err) {
			(*count)++;
			say(quiet, "removed leftover disk %s", file);
		}
		json_t *done = json_pack("{s:s,s:s,s:s}", "op", "destroyed",
					 "id", id, "by", "cleanup");

		err = pb_journal_append(j, done, errbuf);
		json_decref(done);
		if (err)
			rc = err;
	}
	json_decref(open_disks);
	return rc;
}

/* ---- results ---- */

/* A target as a run holds it: its own backend, and its lock (the first
 * target with the same key holds the lock for both: a datastore
 * comparison on one VM is one VM's run). */
struct run_target {
	struct pb_backend *b;
	int lock_fd;
};

#define PB_MAX_PLACES (2 * PB_MAX_TARGETS)

struct run_state {
	struct pb_profile *p;
	/* the places shared with other runs, held for the run */
	char place[PB_MAX_PLACES][256];
	int place_fd[PB_MAX_PLACES];
	/* the first target on each, and the place's index among its own */
	unsigned place_t[PB_MAX_PLACES], place_i[PB_MAX_PLACES];
	unsigned nplaces;
	json_t *shared; /* those another run was using at the start */
	struct pb_plan plan;
	const struct pb_backend_ops *ops;
	struct run_target t[PB_MAX_TARGETS];
	unsigned nt; /* opened so far */
	struct pb_journal j;
	char state[1024];
	char dir[1024];
	char run_json[1100];
	json_t *doc;			 /* run.json */
	char berr[PB_ERRBUF_SIZE];	 /* the main thread's backend op's */
	char tmsg[PB_ERRBUF_SIZE + 128]; /* target_msg's */
	bool quiet;
	bool tty; /* a live progress line: one item at a time on a tty */
	/* the journal, run.json, the counters, while workers run */
	pthread_mutex_t mu;
	bool interrupted;
	unsigned failed;
	unsigned measured;
	uint64_t t0;	 /* the run's start, for elapsed and ETA */
	bool json_saved; /* run.json as it is now is on disk */
	char errbuf[PB_ERRBUF_SIZE];
};

/*
 * A wave's start line: each worker's first item waits here with its disk
 * made, until every worker of the wave is ready, so the runners start
 * together however long each disk took (eager zeroes, others do not) and
 * the passes overlap (HCIBench prepares every VM before its workload too).
 * A worker whose item failed before it arrives without waiting.
 */
struct run_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned expected, arrived;
};

/*
 * What a worker holds of its own while others run theirs: the items of
 * one VM in a wave (in plan order), the backend op's message, the
 * message of what stops the run, its progress line.
 */
struct run_worker {
	struct run_state *r;
	struct run_gate *gate; /* NULL: one worker, no one to wait for */
	bool at_gate;	       /* its first item passed it */
	pthread_t th;
	unsigned key; /* same_key() of its targets */
	size_t items[PB_MAX_TARGETS];
	unsigned n;
	char berr[PB_ERRBUF_SIZE];
	char errbuf[PB_ERRBUF_SIZE];
	bool progress_shown;
	uint64_t next_log;
	enum pb_error err;
};

/*
 * The error buffer for the next backend op, emptied: reset in this one
 * place, before each op (curl's Curl_reset_fail), so what an op leaves is
 * that op's first failure. Each thread has its own (r->berr, w->berr).
 */
static char *reset_fail(char *berr)
{
	berr[0] = '\0';
	return berr;
}

/* A backend's message, the target named when there are several. */
static const char *target_msg(struct run_state *r, unsigned t, const char *msg)
{
	if (r->p->ntargets < 2)
		return msg;
	snprintf(r->tmsg, sizeof(r->tmsg), "target %s: %s",
		 r->p->targets[t].name, msg);
	return r->tmsg;
}

/* The first target before t with target t's key, or t itself. */
static unsigned same_key(const struct run_state *r, unsigned t)
{
	const char *key = r->ops->target_key(r->t[t].b);
	unsigned k;

	for (k = 0; k < t && strcmp(r->ops->target_key(r->t[k].b), key); k++)
		;
	return k;
}

/* The state directory, each target's lock (unless only looking), the
 * journal: what run and cleanup both need before touching anything. */
static enum pb_error open_state(struct run_state *r, bool lock)
{
	enum pb_error err = pb_state_dir(r->state, sizeof(r->state), r->errbuf);
	unsigned t;

	for (t = 0; !err && lock && t < r->nt; t++) {
		if (same_key(r, t) != t)
			continue;
		r->t[t].lock_fd = take_lock(
			r->state, r->ops->target_key(r->t[t].b), r->errbuf);
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
static enum pb_error lock_places(struct run_state *r, char *errbuf)
{
	char path[1200];
	unsigned t, i, k;
	const char *key;

	for (t = 0; t < r->nt; t++)
		for (i = 0; r->ops->shared_key &&
			    (key = r->ops->shared_key(r->t[t].b, i));
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
static enum pb_error foreign_places(struct run_state *r, char *errbuf)
{
	json_t *open_disks = NULL;
	unsigned k;
	enum pb_error err = PB_OK;

	if (!r->ops->place_disks)
		return PB_OK;
	err = pb_journal_open_disks(&open_disks, r->state, errbuf);
	/* each place once, through the first target on it (lock_places') */
	for (k = 0; !err && k < r->nplaces; k++) {
		/* in full: r->place[] holds it cut to its size */
		const char *key = r->ops->shared_key(r->t[r->place_t[k]].b,
						     r->place_i[k]);
		json_t *files = json_array(), *f;
		char list[1024] = "", line[1600];
		size_t x, n = 0, len = 0;

		if (r->ops->place_disks(r->t[r->place_t[k]].b, r->place_i[k],
					files, reset_fail(r->berr))) {
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

static enum pb_error save(struct run_state *r, char *errbuf)
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
		n = i == 1 ? snprintf(r->dir, sizeof(r->dir), "%s/%s-%s",
				      parent, ts, r->p->name)
			   : snprintf(r->dir, sizeof(r->dir), "%s/%s-%s-%d",
				      parent, ts, r->p->name, i);
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

static enum pb_error start_results(struct run_state *r, const char *parent)
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
		.points = (const char *const *)r->p->point_desc,
		.npoints = r->p->npoints,
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
			.key = r->ops->target_key(r->t[t].b),
			.environment = json_object(),
			.places = json_array(),
		};
		for (i = 0; r->ops->shared_key &&
			    (key = r->ops->shared_key(r->t[t].b, i));
		     i++)
			json_array_append_new(tg[t].places, json_string(key));
		if (!err &&
		    (err = r->ops->describe(r->t[t].b, tg[t].environment,
					    reset_fail(r->berr))))
			pb_fail(r->errbuf, err, "%s",
				target_msg(r, t, r->berr));
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
	return save(r, r->errbuf);
}

/*
 * parent/latest names the newest run (relative, so the root can move), for
 * `report --compare previous ROOT/latest` after a nightly run. Replaced
 * atomically; a failure is said and changes nothing else.
 */
static void latest_link(const struct run_state *r)
{
	char tmp[1300], link[1300], parent[1200];
	const char *base = strrchr(r->dir, '/') + 1;

	snprintf(parent, sizeof(parent), "%.*s", (int)(base - 1 - r->dir),
		 r->dir);
	snprintf(link, sizeof(link), "%s/latest", parent);
	snprintf(tmp, sizeof(tmp), "%s/.latest.%ld", parent, (long)getpid());
	unlink(tmp);
	if (symlink(base, tmp) || rename(tmp, link)) {
		fprintf(stderr, "provbench: run: %s: cannot update: %s\n", link,
			strerror(errno));
		unlink(tmp);
	}
}

static void summarize(const struct run_state *r, const struct rj_result *res)
{
	json_t *passes = json_object_get(res->runner, RUNNER_K_PASSES), *pass;
	char line[512];
	size_t i, len;

	len = (size_t)snprintf(line, sizeof(line), "  provisioned in %.2f s",
			       res->disk.provision_s);
	json_array_foreach(passes, i, pass)
	{
		json_t *pen =
			json_object_get(json_object_get(pass, RUNNER_K_PAIRED),
					RUNNER_K_PENALTY);

		if (len >= sizeof(line))
			break;
		len += (size_t)snprintf(
			line + len, sizeof(line) - len, ", %s %.1f MiB/s",
			json_string_value(json_object_get(pass, RUNNER_K_NAME)),
			json_real_value(
				json_object_get(pass, RUNNER_K_MIB_PER_S)));
		/* a paired first write's own penalty: its stripes' rate
		 * alone is not to be set against the rewrites' */
		if (json_is_number(pen) && len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						" (penalty %.0f%% in pairs)",
						json_number_value(pen) * 100);
	}
	say(r->quiet, "%s", line);
}

/*
 * The runner's progress: a live line on a terminal, a timestamped line
 * every 30 s in a log.
 */
/*
 * PROVBENCH_STOP_AT=step: the harness stops itself (SIGSTOP) there, so a
 * test can kill it at exactly that step and prove that `provbench cleanup`
 * then leaves nothing behind. Steps, in order: journaled (the intent is on
 * disk, nothing made yet), created (the disk exists, not yet journaled as
 * such), attached (journaled as created), running (the runner reported
 * progress), destroying (the run is over, the disk not yet removed),
 * destroyed (removed, not yet journaled as such).
 */
static void stop_at(const char *step)
{
	const char *s = getenv("PROVBENCH_STOP_AT");

	if (s && !strcmp(s, step))
		raise(SIGSTOP);
}

static void show_progress(const struct pb_run_ctx *ctx, json_t *p)
{
	struct run_worker *w = ctx->arg;
	struct run_state *r = w->r;
	char done[32], total[32];
	uint64_t now = pb_now_ns();

	stop_at("running");
	if (r->quiet)
		return;

	pb_size_format(
		done, sizeof(done),
		(uint64_t)json_integer_value(json_object_get(p, "bytes")));
	pb_size_format(
		total, sizeof(total),
		(uint64_t)json_integer_value(json_object_get(p, "total")));
	if (r->tty) {
		fprintf(stderr,
			"\r  %s %lld/%lld: %s / %s, %.1f MiB/s, ETA %.0f "
			"s\033[K",
			json_string_value(json_object_get(p, "pass")),
			json_integer_value(json_object_get(p, "index")) + 1,
			json_integer_value(json_object_get(p, "passes")), done,
			total, json_real_value(json_object_get(p, "mib_per_s")),
			json_number_value(json_object_get(p, "eta_s")));
		w->progress_shown = true;
		return;
	}
	if (now < w->next_log)
		return;
	w->next_log = now + 30000000000ull;
	say(false, "  %s: %s / %s, %.1f MiB/s, ETA %.0f s",
	    json_string_value(json_object_get(p, "pass")), done, total,
	    json_real_value(json_object_get(p, "mib_per_s")),
	    json_number_value(json_object_get(p, "eta_s")));
}

/* Arrive at the wave's start line; wait for the others unless told not
 * to (a failed item), or a stop is asked for. Once per worker. */
static void gate_pass(struct run_worker *w, bool wait)
{
	struct run_gate *g = w->gate;

	if (!g || w->at_gate)
		return;
	w->at_gate = true;
	pthread_mutex_lock(&g->mu);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (wait && g->arrived < g->expected && !stop_flag) {
		struct timespec t;

		/* timed: a signal sets the flag without waking us */
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 200000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->cv, &g->mu, &t);
	}
	pthread_mutex_unlock(&g->mu);
}

/* A journal record, appended and fsynced, whichever worker writes it. */
static enum pb_error journal_add(struct run_state *r, json_t *e, char *errbuf)
{
	enum pb_error err;

	pthread_mutex_lock(&r->mu);
	err = pb_journal_append(&r->j, e, errbuf);
	pthread_mutex_unlock(&r->mu);
	return err;
}

/* A backend's addition to the disk's journal record ("started"). */
static enum pb_error journal_note(const struct pb_run_ctx *ctx, json_t *fields)
{
	struct run_worker *w = ctx->arg;
	json_t *e = json_deep_copy(fields);
	enum pb_error err;

	if (!e)
		return pb_fail(w->errbuf, PB_ERR_NOMEM, "out of memory");
	json_object_set_new(e, "op", json_string("started"));
	json_object_set_new(e, "id", json_string(ctx->disk_id));
	err = journal_add(w->r, e, w->errbuf);
	json_decref(e);
	return err;
}

/* 3h05m, 4m10s, 12s */
static void duration(char *out, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;

	if (s >= 3600)
		snprintf(out, len, "%lluh%02llum", (unsigned long long)s / 3600,
			 (unsigned long long)s / 60 % 60);
	else if (s >= 60)
		snprintf(out, len, "%llum%02llus", (unsigned long long)s / 60,
			 (unsigned long long)s % 60);
	else
		snprintf(out, len, "%llus", (unsigned long long)s);
}

/* why a create may take a while, said before the wait */
static const char *create_note(enum pb_mode m)
{
	switch (m) {
	case PB_MODE_EAGER:
		return " (zeroed in full before it is usable: the slow one)";
	case PB_MODE_RDM:
	case PB_MODE_RDMP:
		return " (mapping the LUN)";
	default:
		return "";
	}
}

/* One plan item: journal, create, run, collect, destroy, journal. */
static enum pb_error run_item(struct run_worker *wk, size_t idx)
{
	struct run_state *r = wk->r;
	const struct pb_plan_item *it = &r->plan.items[idx];
	const struct runner_opts *w = &r->p->points[it->point];
	struct pb_backend *b = r->t[it->target].b;
	const char *tname = r->p->targets[it->target].name;
	struct pb_disk d;
	struct pb_run_ctx ctx = {
		.stop = &stop_flag,
		.progress = show_progress,
		.arg = wk,
		.command = pb_workload_has_command(w) ? r->p->command : NULL,
		.journal = journal_note,
	};
	struct pb_buf args = PB_BUF_INIT(4096);
	char local[1200], ebuf[PB_ERRBUF_SIZE] = "";
	json_t *intent = json_object(), *runner = NULL;
	enum pb_error err, derr = PB_OK, jerr = PB_OK;
	const char *step = RJ_STEP_PLAN; /* where a failure happened */
	bool created = false;
	enum rj_status status = RJ_STATUS_OK;
	uint64_t t_start, t_run, t_wait, runner_ns = 0, destroy_ns = 0;
	uint64_t wait_ns;
	struct timespec now;
	int64_t started_unix;
	struct rj_result res;

	/* while targets run at once, each line names its own */
	say_target = r->p->concurrency > 1 && r->nt > 1 ? tname : NULL;
	memset(&d, 0, sizeof(d));
	d.size = r->p->point_disk[it->point];
	ctx.disk_id = d.id;
	t_start = pb_now_ns();
	clock_gettime(CLOCK_REALTIME, &now);
	started_unix = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	{
		/* the whole run's place: elapsed, and what is left at the
		 * pace so far (modes differ, so an estimate, said as one) */
		char el[32], eta[48] = "";

		duration(el, sizeof(el), t_start - r->t0);
		if (idx) {
			char left[32];

			duration(left, sizeof(left),
				 (t_start - r->t0) / idx * (r->plan.n - idx));
			snprintf(eta, sizeof(eta), ", about %s left", left);
		}
		/* a worker's lines name its target already */
		const char *tn = say_target ? "" : tname;

		say(r->quiet,
		    "[%zu/%zu] %s%srepetition %u, %s%s%s (%s elapsed%s)",
		    idx + 1, r->plan.n, tn, *tn ? ": " : "", it->rep,
		    pb_mode_name(it->mode),
		    *pb_point_desc(r->p, it->point) ? ", " : "",
		    pb_point_desc(r->p, it->point), el, eta);
	}
	/* the record exists, on disk, before the disk does */
	err = r->ops->plan_disk(b, it->mode, (unsigned)idx + 1, &d, intent,
				reset_fail(wk->berr));
	if (err)
		pb_fail(ebuf, err, "plan %s disk: %s", pb_mode_name(it->mode),
			wk->berr);
	json_object_set_new(intent, "op", json_string("intent"));
	/* the target is the harness's to write: cleanup compares it */
	json_object_set_new(intent, "target",
			    json_string(r->ops->target_key(b)));
	json_object_set_new(intent, "id", json_string(d.id));
	json_object_set_new(intent, "run",
			    json_string(strrchr(r->dir, '/') + 1));
	json_object_set_new(intent, "mode",
			    json_string(pb_mode_name(it->mode)));
	json_object_set_new(intent, "backend", json_string(r->ops->name));
	if (!err) {
		step = RJ_STEP_JOURNAL;
		err = journal_add(r, intent, ebuf);
		/* no journal, no disk: and none for the items after this */
		if (err)
			jerr = pb_fail(wk->errbuf, err, "%s", ebuf);
	}
	json_decref(intent);
	if (!err) {
		stop_at("journaled");
		say(r->quiet, "  creating %s disk%s", pb_mode_name(it->mode),
		    create_note(it->mode));
		step = RJ_STEP_CREATE;
		err = r->ops->create_disk(b, &d, reset_fail(wk->berr));
		created = err == PB_OK;
		if (err)
			pb_fail(ebuf, err, "create %s disk: %s",
				pb_mode_name(it->mode), wk->berr);
	}
	if (created) {
		json_t *c = json_pack("{s:s,s:s,s:s,s:O}", "op", "created",
				      "id", d.id, "uuid", d.uuid, "readback",
				      d.readback ? d.readback : json_null());

		stop_at("created");
		err = journal_add(r, c, ebuf);
		json_decref(c);
		stop_at("attached");
	}
	/* the wave starts its runners together; an item that failed
	 * before arrives without waiting, so the others go on */
	t_wait = pb_now_ns();
	gate_pass(wk, !err);
	wait_ns = pb_now_ns() - t_wait;
	if (!err && stop_flag)
		err = PB_ERR_INTERRUPTED;
	if (!err) {
		step = RJ_STEP_RUN;
		err = pb_workload_args(&args, w, r->plan.seed + idx);
	}
	if (!err) {
		snprintf(local, sizeof(local), "%s/runner-%zu.json", r->dir,
			 idx + 1);
		t_run = pb_now_ns();
		err = r->ops->run(b, &d, args.data, r->p->timeout_s, &ctx,
				  local, reset_fail(wk->berr));
		runner_ns = pb_now_ns() - t_run;
		if (err)
			pb_fail(ebuf, err, "%s", wk->berr);
		runner = json_load_file(local, 0, NULL);
		remove(local); /* its content lives on in run.json */
	}
	pb_buf_dispose(&args);
	/* the disk goes, whatever happened above */
	if (created) {
		uint64_t t_destroy = pb_now_ns();

		stop_at("destroying");
		derr = r->ops->destroy_disk(b, &d, reset_fail(wk->berr));
		destroy_ns = pb_now_ns() - t_destroy;
		if (!derr)
			stop_at("destroyed");
		if (derr) {
			/* the first failure is the one told; a destroy
			 * after a good run is the item's failure */
			if (!err) {
				step = RJ_STEP_DESTROY;
				pb_fail(ebuf, derr, "destroy %s: %s", d.file,
					wk->berr);
			} else {
				size_t n = strlen(ebuf);

				snprintf(ebuf + n, sizeof(ebuf) - n,
					 "; then destroy %s: %s", d.file,
					 wk->berr);
			}
		} else {
			json_t *x = json_pack("{s:s,s:s}", "op", "destroyed",
					      "id", d.id);

			derr = journal_add(r, x, ebuf);
			json_decref(x);
		}
	}
	pthread_mutex_lock(&r->mu);
	if (err == PB_ERR_INTERRUPTED || stop_flag) {
		status = RJ_STATUS_INTERRUPTED;
		r->interrupted = true;
	} else if (err == PB_ERR_UNSUPPORTED && !created && !derr) {
		/* the backend cannot make this mode here (rdm without
		 * root): said in the report, not a failure of the run */
		status = RJ_STATUS_SKIPPED;
	} else if (err || derr) {
		status = RJ_STATUS_FAILED;
		r->failed++;
	} else {
		r->measured++;
	}
	res = (struct rj_result){
		.target = it->target,
		.wave = it->wave,
		.rep = it->rep,
		.mode = it->mode,
		.point = it->point,
		.workload = pb_point_desc(r->p, it->point),
		.status = status,
		.error = ebuf,
		.step = step,
		.disk = {.id = d.id,
			 .file = d.file,
			 .uuid = d.uuid,
			 .provision_s = d.provision_s,
			 .provision_source = d.provision_source,
			 .provision_wall_s = d.provision_wall_s,
			 .readback = d.readback},
		/* where the time went: what is neither provisioning nor
		 * the runner is the harness's own overhead */
		.timing = {.total_s = (double)(pb_now_ns() - t_start) / 1e9,
			   .provision_s = d.provision_s,
			   .runner_s = (double)runner_ns / 1e9,
			   .destroy_s = (double)destroy_ns / 1e9,
			   .wave_wait_s = (double)wait_ns / 1e9,
			   .started_unix_ns = started_unix},
		.runner = runner,
	};
	err = rj_doc_add_result(r->doc, &res) ? PB_OK : PB_ERR_NOMEM;
	if (err)
		pb_fail(wk->errbuf, err, "run.json: out of memory");
	else
		err = save(r, wk->errbuf);
	pthread_mutex_unlock(&r->mu);
	json_decref(d.readback);
	if (wk->progress_shown) {
		fprintf(stderr, "\r\033[K");
		wk->progress_shown = false;
	}
	if (status == RJ_STATUS_OK)
		summarize(r, &res);
	else if (status == RJ_STATUS_FAILED && r->quiet)
		/* quiet keeps a cron mail empty unless something failed:
		 * then it says what, where and why, in one line */
		fprintf(stderr,
			"provbench: run: %s%s%s, repetition %u%s%s: %s\n",
			tname, *tname ? ": " : "", pb_mode_name(it->mode),
			it->rep, *pb_point_desc(r->p, it->point) ? ", " : "",
			pb_point_desc(r->p, it->point), ebuf);
	else
		say(r->quiet, "  %s: %s", rj_status_name(status), ebuf);
	/* a disk that could not be destroyed stops the run: the journal
	 * keeps it for cleanup, and nothing more is piled on the VM */
	return derr ? derr : jerr ? jerr : err;
}

/* A worker: its items in order, until one stops the run. */
static void *worker_main(void *arg)
{
	struct run_worker *w = arg;
	unsigned k;

	for (k = 0; !w->err && k < w->n && !stop_flag; k++)
		w->err = run_item(w, w->items[k]);
	say_target = NULL; /* the main thread's lines are the run's */
	return NULL;
}

/*
 * The plan, wave by wave: a wave's items at once, one worker thread per VM
 * in it (two targets on one VM run one after the other: their disks are
 * the one VM's), the next wave when all are done, so what runs together is
 * always one mode on one workload. A single worker runs in this thread.
 * The first error of a worker is the run's.
 */
static enum pb_error run_waves(struct run_state *r)
{
	struct run_worker *w = calloc(PB_MAX_TARGETS, sizeof(*w));
	struct run_gate gate;
	enum pb_error err = PB_OK;
	size_t i = 0, j, x;
	unsigned nw, k;
	sigset_t block, old;

	if (!w)
		return pb_fail(r->errbuf, PB_ERR_NOMEM, "out of memory");
	pthread_mutex_init(&gate.mu, NULL);
	pthread_cond_init(&gate.cv, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	while (!err && i < r->plan.n && !stop_flag) {
		for (j = i; j < r->plan.n &&
			    r->plan.items[j].wave == r->plan.items[i].wave;
		     j++)
			;
		for (x = i, nw = 0; x < j && x - i < PB_MAX_TARGETS; x++) {
			unsigned key = same_key(r, r->plan.items[x].target);

			for (k = 0; k < nw && w[k].key != key; k++)
				;
			if (k == nw) {
				memset(&w[k], 0, sizeof(w[k]));
				w[k].r = r;
				w[k].key = key;
				nw++;
			}
			w[k].items[w[k].n++] = x;
		}
		if (nw == 1) {
			worker_main(&w[0]);
		} else {
			bool started[PB_MAX_TARGETS] = {false};

			gate.expected = nw;
			gate.arrived = 0;
			for (k = 0; k < nw; k++)
				w[k].gate = &gate;

			/* the workers block the signals: the main thread
			 * takes them and sets the flag they poll */
			pthread_sigmask(SIG_BLOCK, &block, &old);
			for (k = 0; k < nw; k++)
				started[k] = !pthread_create(
					&w[k].th, NULL, worker_main, &w[k]);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			/* a worker without a thread runs after the others:
			 * they do not wait for it at the start line */
			pthread_mutex_lock(&gate.mu);
			for (k = 0; k < nw; k++)
				if (!started[k]) {
					gate.expected--;
					w[k].gate = NULL;
				}
			pthread_cond_broadcast(&gate.cv);
			pthread_mutex_unlock(&gate.mu);
			for (k = 0; k < nw; k++) {
				if (started[k])
					pthread_join(w[k].th, NULL);
				else /* no thread: its turn comes after */
					worker_main(&w[k]);
			}
		}
		for (k = 0; k < nw && !err; k++)
			if ((err = w[k].err))
				snprintf(r->errbuf, sizeof(r->errbuf), "%s",
					 w[k].errbuf);
		i = j;
		if (!err && r->p->cooldown_s && i < r->plan.n && !stop_flag)
			sleep(r->p->cooldown_s);
	}
	pthread_cond_destroy(&gate.cv);
	pthread_mutex_destroy(&gate.mu);
	free(w);
	return err;
}

/* --modes thin,eager: keep only those of the profile's modes. */
static enum pb_error filter_modes(struct pb_profile *p, const char *list,
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

/*
 * --targets a,b: keep only those of the profile's targets, in the
 * profile's order: a controller's share of a fleet (the others run the
 * rest from the same profile; `report -o DIR RUN...` merges them).
 */
static enum pb_error filter_targets(struct pb_profile *p, const char *list,
				    char *errbuf)
{
	bool keep[PB_MAX_TARGETS] = {false};
	char buf[4096], names[1024] = "", *tok, *save = NULL;
	unsigned i, n = 0, k = 0;
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
	for (i = 0; i < p->ntargets; i++) {
		if (keep[i]) {
			p->targets[k++] = p->targets[i];
			continue;
		}
		free(p->targets[i].name);
		pb_profile_target_dispose(p, &p->targets[i]);
	}
	p->ntargets = k;
	return PB_OK;
}

static void print_plan(const struct pb_profile *p, const struct pb_plan *plan)
{
	char sz[32], tot[32];
	uint64_t bytes = 0, small;
	size_t i;
	unsigned k, writes;

	for (i = 0; i < plan->n; i++) {
		const struct runner_opts *w = &p->points[plan->items[i].point];

		for (k = 0, writes = 0; k < w->npasses; k++)
			writes += runner_pass_writes(w->passes[k]);
		bytes += writes * w->size;
	}
	printf("plan: %u mode(s) x %u repetition(s) x %u workload point(s)%s",
	       p->nmodes, p->repetitions, p->npoints,
	       p->ntargets > 1 ? "" : " ");
	if (p->ntargets > 1)
		printf(" x %u targets ", p->ntargets);
	for (k = 0, small = p->disk_size; k < p->npoints; k++)
		small = p->point_disk[k] < small ? p->point_disk[k] : small;
	if (small < p->disk_size)
		snprintf(sz, sizeof(sz), "%s to ",
			 pb_size_format(tot, sizeof(tot), small));
	else
		sz[0] = '\0';
	printf("= %zu disks of %s%s, %s order (seed %llu)\n", plan->n, sz,
	       pb_size_format(tot, sizeof(tot), p->disk_size),
	       p->shuffle ? "shuffled" : "fixed",
	       (unsigned long long)plan->seed);
	if (p->concurrency > 1 && p->ntargets > 1)
		printf("at once: up to %u targets, each wave one mode and "
		       "workload point on them\n",
		       p->concurrency);
	if (p->disk_size_si)
		printf("note: disk_size is read as vSphere and govc read it: "
		       "GB means GiB, so %s (%llu bytes)\n",
		       pb_size_format(sz, sizeof(sz), p->disk_size),
		       (unsigned long long)p->disk_size);
	/* a rough guide at 100 MiB/s; eager provisioning comes on top */
	printf("data to write: %s; about %.0f minutes at 100 MiB/s, plus "
	       "provisioning\n",
	       pb_size_format(tot, sizeof(tot), bytes),
	       (double)bytes / (100.0 * 1048576.0) / 60.0);
	for (k = 0; p->ntargets > 1 && k < p->ntargets; k++)
		printf("%s%s%s", k ? ", " : "targets: ", p->targets[k].name,
		       k + 1 == p->ntargets ? "\n" : "");
	for (i = 0; i < plan->n && i < 40; i++)
		printf("  %3zu. %s%srepetition %u, %s%s%s\n", i + 1,
		       p->targets[plan->items[i].target].name,
		       *p->targets[plan->items[i].target].name ? ": " : "",
		       plan->items[i].rep, pb_mode_name(plan->items[i].mode),
		       *pb_point_desc(p, plan->items[i].point) ? ", " : "",
		       pb_point_desc(p, plan->items[i].point));
	if (plan->n > 40)
		printf("  ... %zu more\n", plan->n - 40);
}

/* ---- what check found: lines, or check --json's entries ---- */

struct pb_check_out {
	FILE *fp;	    /* lines, or */
	json_t *items;	    /* entries {name, level, detail[, target]} */
	const char *target; /* the target checked, when there are several */
};

static void check_vsay(struct pb_check_out *o, const char *level,
		       const char *name, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static void check_vsay(struct pb_check_out *o, const char *level,
		       const char *name, const char *fmt, va_list ap)
{
	char text[2048];

	if (!o)
		return;
	vsnprintf(text, sizeof(text), fmt, ap);
	if (o->items)
		json_array_append_new(o->items,
				      json_pack("{s:s,s:s,s:s,s:s?}", "name",
						name, "level", level, "detail",
						text, "target", o->target));
	else if (!strcmp(level, "warning"))
		fprintf(o->fp, "warning: %s\n", text);
	else
		fprintf(o->fp, "%s: %s\n", name, text);
}

void pb_check_say(struct pb_check_out *out, const char *name, const char *fmt,
		  ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vsay(out, "ok", name, fmt, ap);
	va_end(ap);
}

void pb_check_warn(struct pb_check_out *out, const char *name, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vsay(out, "warning", name, fmt, ap);
	va_end(ap);
}

/* The plan as check --json prints it: what print_plan says, as data. */
static json_t *plan_json(const struct pb_profile *p, const struct pb_plan *plan)
{
	json_t *items = json_array(), *modes = json_array();
	json_t *targets = json_array();
	uint64_t bytes = 0;
	size_t i;
	unsigned k, writes;

	for (i = 0; i < p->nmodes; i++)
		json_array_append_new(modes,
				      json_string(pb_mode_name(p->modes[i])));
	for (i = 0; i < plan->n; i++) {
		const struct runner_opts *w = &p->points[plan->items[i].point];

		for (k = 0, writes = 0; k < w->npasses; k++)
			writes += runner_pass_writes(w->passes[k]);
		bytes += writes * w->size;
		json_array_append_new(
			items,
			json_pack("{s:s,s:i,s:i,s:s,s:i,s:s}", "target",
				  p->targets[plan->items[i].target].name,
				  "wave", (int)plan->items[i].wave, "rep",
				  (int)plan->items[i].rep, "mode",
				  pb_mode_name(plan->items[i].mode), "point",
				  (int)plan->items[i].point, "workload",
				  pb_point_desc(p, plan->items[i].point)));
	}
	for (i = 0; i < p->ntargets; i++)
		json_array_append_new(targets, json_string(p->targets[i].name));
	return json_pack(
		"{s:o,s:i,s:o,s:i,s:i,s:I,s:b,s:I,s:I,s:o}", "targets", targets,
		"concurrency", p->ntargets > 1 ? (int)p->concurrency : 1,
		"modes", modes, "repetitions", (int)p->repetitions, "points",
		(int)p->npoints, "disk_size_bytes", (json_int_t)p->disk_size,
		"shuffled", p->shuffle, "seed", (json_int_t)plan->seed,
		"bytes_to_write", (json_int_t)bytes, "items", items);
}

/*
 * "concurrency" as this controller can keep it: above what the backend
 * can run at once without its guests competing (qemu: the host's cores),
 * lowered, said, and the plan made again for it (same seed), so what
 * run.json records and the report says is what ran.
 */
static enum pb_error limit_at_once(struct run_state *r)
{
	unsigned cap = PB_MAX_TARGETS, t, n;

	if (r->p->concurrency < 2 || r->nt < 2 || !r->ops->at_once)
		return PB_OK;
	for (t = 0; t < r->nt; t++) {
		n = r->ops->at_once(r->t[t].b);
		if (n && n < cap)
			cap = n;
	}
	if (r->p->concurrency <= cap)
		return PB_OK;
	fprintf(stderr,
		"provbench: %s: concurrency %u: this machine runs at most %u "
		"of its guests at once without them sharing a core; %u it "
		"is\n",
		r->p->path, r->p->concurrency, cap, cap);
	r->p->concurrency = cap;
	r->p->seed = r->plan.seed;
	r->p->seed_set = true;
	pb_plan_dispose(&r->plan);
	return pb_plan_build(&r->plan, r->p, r->errbuf);
}

/* Load, plan, connect and check: what run --dry-run and check share. */
/* Plan and open the backend for the profile r->p, loaded by the caller. */
static int open_profile(struct run_state *r, enum pb_error err,
			const char *modes, const char *targets)
{
	if (!err && modes)
		err = filter_modes(r->p, modes, r->errbuf);
	if (!err && targets)
		err = filter_targets(r->p, targets, r->errbuf);
	if (!err)
		err = pb_plan_build(&r->plan, r->p, r->errbuf);
	if (err)
		return pb_cli_fail(err, NULL, r->errbuf);
	r->ops = r->p->backend;
	for (r->nt = 0; r->nt < r->p->ntargets; r->nt++) {
		r->t[r->nt].lock_fd = -1;
		err = r->ops->open(&r->t[r->nt].b, r->p, r->nt, r->errbuf);
		if (err)
			return pb_cli_fail(err, r->p->path,
					   target_msg(r, r->nt, r->errbuf));
	}
	err = limit_at_once(r);
	return err ? pb_cli_fail(err, NULL, r->errbuf) : PB_EXIT_OK;
}

/* Every target's check; its findings under its name when there are
 * several. *why: the failure's message. */
static enum pb_error check_all(struct run_state *r, struct pb_check_out *out,
			       const char **why)
{
	enum pb_error err = PB_OK;
	unsigned t;

	for (t = 0; !err && t < r->nt; t++) {
		out->target = r->nt > 1 ? r->p->targets[t].name : NULL;
		if (out->target && !out->items)
			fprintf(out->fp, "target %s:\n", out->target);
		err = r->ops->check(r->t[t].b, &r->plan, out,
				    reset_fail(r->berr));
		if (err)
			*why = target_msg(r, t, r->berr);
	}
	return err;
}

/* What crashed runs left, on every target (each key once). */
static enum pb_error recover_all(struct run_state *r, const char *run_id,
				 bool dry, bool quiet, unsigned *count)
{
	enum pb_error err = PB_OK;
	unsigned t, n;

	*count = 0;
	for (t = 0; !err && t < r->nt; t++) {
		if (same_key(r, t) != t)
			continue;
		err = recover(r->ops, r->t[t].b, &r->j, r->state, run_id, dry,
			      quiet, &n, r->errbuf);
		*count += n;
	}
	return err;
}

static int check_profile(struct run_state *r, const char *path,
			 const char *modes, const char *targets)
{
	return open_profile(r, pb_profile_load(r->p, path, r->errbuf), modes,
			    targets);
}

static void run_dispose(struct run_state *r)
{
	unsigned t;

	for (t = 0; t < r->nt; t++) {
		if (r->t[t].b)
			r->ops->close(r->t[t].b);
		if (r->t[t].lock_fd >= 0)
			close(r->t[t].lock_fd);
	}
	pb_journal_close(&r->j);
	for (t = 0; t < r->nplaces; t++)
		close(r->place_fd[t]);
	json_decref(r->shared);
	json_decref(r->doc);
	pb_plan_dispose(&r->plan);
	pb_profile_dispose(r->p);
}

/* check --json: the plan and every finding, and the verdict, on stdout;
 * the exit code as without --json */
static int check_json(struct run_state *r, const char *profile)
{
	struct pb_check_out out = {stdout, json_array(), NULL};
	enum pb_error err = pb_profile_load(r->p, profile, r->errbuf);
	const char *why = r->errbuf;
	json_t *doc;
	char *text;

	if (!err && !(err = pb_plan_build(&r->plan, r->p, r->errbuf))) {
		r->ops = r->p->backend;
		for (r->nt = 0; !err && r->nt < r->p->ntargets; r->nt++) {
			r->t[r->nt].lock_fd = -1;
			err = r->ops->open(&r->t[r->nt].b, r->p, r->nt,
					   r->errbuf);
			if (err)
				why = target_msg(r, r->nt, r->errbuf);
		}
	}
	if (!err && (err = limit_at_once(r)))
		why = r->errbuf;
	if (!err)
		err = check_all(r, &out, &why);
	doc = json_pack("{s:i,s:s,s:s,s:s?,s:o?,s:o,s:s,s:s?}", "format", 1,
			"tool", "provbench", "profile", profile, "backend",
			r->ops ? r->ops->name : NULL, "plan",
			r->plan.n ? plan_json(r->p, &r->plan) : NULL, "checks",
			out.items, "verdict", err ? "failed" : "ok", "error",
			err ? why : NULL);
	text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
		   : NULL;
	json_decref(doc);
	if (!text)
		return pb_cli_fail(PB_ERR_NOMEM, "check", "out of memory");
	puts(text);
	free(text);
	/* the person reading stderr gets the usual line too */
	return err ? pb_cli_fail(err, "check", why) : PB_EXIT_OK;
}

int pb_check(const char *profile, bool json)
{
	struct pb_profile p;
	struct run_state r = {.p = &p, .j = {.fd = -1}};
	struct pb_check_out out = {stdout, NULL, NULL};
	const char *why = NULL;
	enum pb_error err;
	int rc;

	memset(&p, 0, sizeof(p));
	if (json) {
		rc = check_json(&r, profile);
		run_dispose(&r);
		return rc;
	}
	rc = check_profile(&r, profile, NULL, NULL);
	if (!rc) {
		print_plan(&p, &r.plan);
		err = check_all(&r, &out, &why);
		if (err)
			rc = pb_cli_fail(err, "check", why);
		else
			printf("check: ok, nothing was created\n");
	}
	run_dispose(&r);
	return rc;
}

int pb_run(const struct pb_run_args *a)
{
	struct pb_profile p;
	struct run_state r = {.p = &p, .j = {.fd = -1}};
	const char *parent = a->out_dir ? a->out_dir : "results";
	const char *why = NULL;
	unsigned leftovers = 0, t;
	enum pb_error err = PB_OK;
	int rc;

	memset(&p, 0, sizeof(p));
	r.quiet = a->quiet;
	quiet_run = a->quiet;
	/* a live line is one item's: not while several run at once */
	r.tty = isatty(STDERR_FILENO);
	pthread_mutex_init(&r.mu, NULL);
	catch_signals();
	rc = check_profile(&r, a->profile, a->modes, a->targets);
	if (rc)
		goto out;
	if (a->dry_run) {
		struct pb_check_out out = {stdout, NULL, NULL};

		print_plan(&p, &r.plan);
		err = check_all(&r, &out, &why);
		if (err)
			rc = pb_cli_fail(err, "check", why);
		else
			printf("dry run: ok, nothing was created\n");
		goto out;
	}
	/* what an earlier crashed run left goes first */
	err = open_state(&r, true);
	r.shared = json_array();
	if (!err)
		err = lock_places(&r, r.errbuf);
	if (!err)
		err = recover_all(&r, NULL, false, r.quiet, &leftovers);
	if (!err)
		err = foreign_places(&r, r.errbuf);
	/* prepared first: what it finds (the accelerator a probe boot
	 * chose, say) belongs in the environment run.json records */
	for (t = 0; !err && t < r.nt; t++) {
		err = r.ops->prepare(r.t[t].b, reset_fail(r.berr));
		if (err)
			pb_fail(r.errbuf, err, "%s", target_msg(&r, t, r.berr));
	}
	if (!err)
		err = start_results(&r, parent);
	if (!err)
		say(r.quiet, "results: %s", r.dir);
	r.t0 = pb_now_ns();
	if (p.concurrency > 1 && r.nt > 1)
		r.tty = false;
	if (!err)
		err = run_waves(&r);
	if (stop_flag)
		r.interrupted = true;
	if (r.doc) {
		rj_doc_finish(r.doc);
		if (save(&r, r.errbuf) && !err)
			err = PB_ERR_IO;
	}
	if (r.interrupted)
		rc = pb_cli_fail(PB_ERR_INTERRUPTED, "run",
				 "interrupted; partial results kept");
	else if (err)
		rc = pb_cli_fail(err, "run", r.errbuf);
	else if (r.failed) {
		char what[1300];

		/* partial (exit 4) when something was measured; failed when
		 * nothing was */
		snprintf(what, sizeof(what),
			 "%u of %zu item(s) failed%s; see %s", r.failed,
			 r.plan.n, r.measured ? ", the rest measured" : "",
			 r.json_saved ? r.run_json : "the messages above");
		rc = pb_cli_fail(r.measured ? PB_ERR_INCOMPLETE : PB_ERR_IO,
				 "run", what);
	}
	if (r.json_saved &&
	    json_array_size(json_object_get(r.doc, RJ_K_RESULTS))) {
		/* the report is rebuilt from run.json alone, also later */
		struct rp_opts ro = RP_OPTS_INIT;
		char rerr[PB_ERRBUF_SIZE] = "";
		bool reg;

		ro.results_dir = r.dir;
		ro.quiet = r.quiet;
		if (rp_generate(&ro, &reg, rerr)) {
			pb_error_print("provbench", "report", rerr);
			/* the measurements are kept; the run still failed */
			if (!rc)
				rc = PB_EXIT_FAILED;
		} else if (!r.quiet) {
			printf("report: %s/report.html, report.csv, "
			       "summary.csv\n",
			       r.dir);
		}
	}
	if (r.json_saved)
		latest_link(&r);
	/* the results' paths are the command's output (stdout); a file
	 * that failed to be written is never named as written */
	if (r.json_saved && !r.quiet)
		printf("run.json: %s\n", r.run_json);
out:
	run_dispose(&r);
	pthread_mutex_destroy(&r.mu);
	return rc;
}

/*
 * cleanup: remove what the
 * journal says crashed runs left on the profile's target (a results
 * directory names its profile and run).
 */
int pb_cleanup(const char *arg, bool dry)
{
	struct pb_profile p;
	struct run_state r = {.p = &p, .j = {.fd = -1}};
	struct rj_reader rd = {0};
	char run_id[256] = "", name[1200];
	unsigned n = 0;
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
		rc = open_profile(
			&r,
			pb_profile_load_json(&p, name, rd.profile, r.errbuf),
			NULL, NULL);
	} else {
		rc = check_profile(&r, arg, NULL, NULL);
	}
	if (rc)
		goto out;
	/* a dry run takes the lock too: a live run's disks are not
	 * leftovers, and a dry run says what cleanup would do */
	err = open_state(&r, true);
	if (!err)
		err = recover_all(&r, run_id[0] ? run_id : NULL, dry, false,
				  &n);
	if (err)
		rc = pb_cli_fail(err, "cleanup", r.errbuf);
	else
		printf("cleanup: %u disk(s) %s\n", n,
		       dry ? "would be removed" : "removed");
out:
	rj_reader_dispose(&rd);
	run_dispose(&r);
	return rc;
}
