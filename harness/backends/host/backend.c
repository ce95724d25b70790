/*
 * backend.c - the host backend's ops: open and close, the check (what a
 * run needs, creating nothing), the description run.json records, and the
 * run: provbench-runner as a child of the harness against the disk's
 * file or device, its progress read from its progress file, a stop asked
 * for with SIGINT (the runner writes what it measured and exits 130),
 * and a watchdog past timeout_s. The disks are disks.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "hb.h"
#include "runner.h"

/* ---- open / close ---- */

/* the profile's, else the runner beside provbench (a build tree, or
 * PREFIX/bin), else the static one shipped in PREFIX/lib/provbench */
static void find_runner(struct hb *b)
{
	if (b->o->runner)
		snprintf(b->runner, sizeof(b->runner), "%s", b->o->runner);
	else if (!pb_data_path(b->runner, sizeof(b->runner),
			       "provbench-runner"))
		pb_data_path(b->runner, sizeof(b->runner),
			     "provbench-runner-static");
}

static bool fs_workload(const struct pb_profile *p)
{
	unsigned i;

	for (i = 0; i < p->npoints; i++)
		if (p->points[i].filesystem != RUNNER_FS_NONE)
			return true;
	return false;
}

static enum pb_error hb_open(struct pb_backend **out,
			     const struct pb_profile *p, unsigned target,
			     char *errbuf)
{
	struct hb *b = calloc(1, sizeof(*b));
	enum pb_error err = PB_OK;

	*out = NULL;
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->p = p;
	b->o = p->targets[target].bopts;
	b->loop = (struct pb_loop)PB_LOOP_INIT;
	b->root = geteuid() == 0;
	b->fs_workload = fs_workload(p);
	err = pb_local_open(&b->loc, "host", b->o->dir, b->o->device, errbuf);
	if (err)
		goto out;
	pb_local_shard(&b->loc, p);
	find_runner(b);
out:
	if (err) {
		free(b);
		return err;
	}
	b->base.ops = &host_backend;
	*out = &b->base;
	return PB_OK;
}

static void hb_close(struct pb_backend *be)
{
	struct hb *b = hb_of(be);

	if (!b)
		return;
	pb_loop_close(&b->loop);
	free(b);
}

static const char *hb_target_key(struct pb_backend *be)
{
	return hb_of(be)->loc.key;
}

static const char *hb_shared_key(struct pb_backend *be, unsigned i)
{
	struct hb *b = hb_of(be);

	return i < 2 && b->loc.shared[i][0] ? b->loc.shared[i] : NULL;
}

/* Runners at once without sharing a core. */
static unsigned hb_at_once(struct pb_backend *be)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	(void)be;
	return cores > 0 ? (unsigned)cores : 1;
}

/* ---- check ---- */

/* The runner's version line: that it runs at all, and which it is. */
static enum pb_error runner_version(struct hb *b, char *errbuf)
{
	char *argv[] = {b->runner, "--version", NULL};
	struct pb_child_spec sp = {.argv = argv};
	struct pb_buf out = PB_BUF_INIT(4096);
	char msg[PB_ERRBUF_SIZE] = "";
	int rc;

	if (b->runner_version[0])
		return PB_OK;
	if (access(b->runner, X_OK))
		return pb_fail(errbuf, PB_ERR_NOTFOUND,
			       "%s: %s (set host.runner, or %s)", b->runner,
			       strerror(errno),
			       pb_in_source_tree() ? "build it with `make`"
						   : "reinstall provbench");
	rc = pb_child_run(&sp, &out, msg, sizeof(msg), errbuf);
	if (rc < 0) {
		pb_buf_dispose(&out);
		return PB_ERR_CHILD;
	}
	if (rc) {
		pb_buf_dispose(&out);
		return pb_fail(errbuf, PB_ERR_CHILD,
			       "%s --version: exit %d: %s", b->runner, rc, msg);
	}
	snprintf(b->runner_version, sizeof(b->runner_version), "%s",
		 out.data ? out.data : "?");
	b->runner_version[strcspn(b->runner_version, "\n")] = '\0';
	pb_buf_dispose(&out);
	return PB_OK;
}

static bool any_direct(const struct pb_profile *p)
{
	unsigned i;

	for (i = 0; i < p->npoints; i++)
		if (!p->points[i].buffered)
			return true;
	return false;
}

static enum pb_error hb_check(struct pb_backend *be, const struct pb_plan *plan,
			      struct pb_check_out *out, char *errbuf)
{
	struct hb *b = hb_of(be);
	struct statvfs sv;
	uint64_t need = b->p->disk_size, avail;
	enum pb_error err;
	bool rdm = false;
	size_t i;

	for (i = 0; i < plan->n; i++)
		rdm |= plan->items[i].mode == PB_MODE_RDM;
	err = runner_version(b, errbuf);
	if (!err && access(b->loc.dir, W_OK))
		err = pb_fail(errbuf, PB_ERR_INPUT, "host.dir %s: %s",
			      b->loc.dir, strerror(errno));
	if (!err && any_direct(b->p))
		err = pb_local_check_direct(b->loc.dir, "host.dir",
					    "the runner's direct I/O "
					    "(workload.direct)",
					    errbuf);
	if (!err && !statvfs(b->loc.dir, &sv)) {
		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		char fb[32], nb[32];

		if (avail < need)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "host.dir %s: %s free, a disk needs %s",
				      b->loc.dir,
				      pb_size_format(fb, sizeof(fb), avail),
				      pb_size_format(nb, sizeof(nb), need));
	}
	if (!err && b->fs_workload && !b->root)
		err = pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			      "workload.filesystem: the runner makes a "
			      "filesystem on a block device; the host backend "
			      "gives it a loop device over each disk file, "
			      "which needs root");
	if (!err && rdm && b->o->device) {
		char why[PB_ERRBUF_SIZE] = "";

		err = runner_device_check(b->o->device, b->p->disk_size, why);
		if (err)
			pb_fail(errbuf, err, "host.device: %s", why);
	}
	if (err || !out)
		return err;
	pb_check_say(out, "runner", "%s (%s)", b->runner, b->runner_version);
	pb_check_say(out, "disks", "%s (%s)", b->loc.dir,
		     pb_local_fs_name(b->loc.dir));
	if (rdm && hb_skip_rdm(b))
		pb_check_warn(out, "rdm",
			      "skipped (a loop device needs root; or name a "
			      "device in host.device)");
	else if (rdm)
		pb_check_say(out, "rdm", "%s",
			     b->o->device
				     ? b->o->device
				     : "a loop device over a written file");
	return PB_OK;
}

/* ---- describe, prepare ---- */

static enum pb_error hb_describe(struct pb_backend *be, json_t *env,
				 char *errbuf)
{
	struct hb *b = hb_of(be);

	(void)errbuf;
	json_object_set_new(env, "backend", json_string("host"));
	pb_local_describe(&b->loc, env);
	json_object_set_new(env, "runner", json_string(b->runner));
	json_object_set_new(env, "runner_version",
			    json_string(b->runner_version));
	if (b->fs_workload)
		json_object_set_new(env, "disk_device",
				    json_string("a loop device over each disk "
						"file (direct I/O), for the "
						"workload's filesystem"));
	if (hb_skip_rdm(b))
		json_object_set_new(env, "rdm_note",
				    json_string("rdm skipped: a loop device "
						"needs root (or name a device "
						"in host.device)"));
	return PB_OK;
}

static enum pb_error hb_prepare(struct pb_backend *be,
				const struct pb_prep_ctx *c, char *errbuf)
{
	(void)c; /* nothing it changes outlives the run */
	return runner_version(hb_of(be), errbuf);
}

/* ---- run ---- */

/* path with its extension replaced by ext (runner-3.json ->
 * runner-3.progress.json) */
static void beside(char *out, size_t len, const char *path, const char *ext)
{
	const char *dot = strrchr(path, '.');
	const char *sl = strrchr(path, '/');
	size_t n =
		dot && (!sl || dot > sl) ? (size_t)(dot - path) : strlen(path);

	snprintf(out, len, "%.*s%s", (int)n, path, ext);
}

/* The runner's progress file, each time it is replaced (the runner
 * writes it atomically, once a second), to the harness. */
static void tell_progress(const struct pb_run_ctx *ctx, const char *path,
			  struct timespec *seen)
{
	struct stat st;
	json_t *p;

	if (!ctx || !ctx->progress || stat(path, &st) ||
	    (st.st_mtim.tv_sec == seen->tv_sec &&
	     st.st_mtim.tv_nsec == seen->tv_nsec))
		return;
	*seen = st.st_mtim;
	p = json_load_file(path, 0, NULL);
	if (p)
		ctx->progress(ctx, p);
	json_decref(p);
}

#define HB_MAX_ARGS 128

/*
 * The runner made no progress for stall_s: what the kernel says of it
 * and of the device under the disk is kept in the stall's directory, and
 * it is asked to stop (and let run, if something stopped it, so that it
 * writes what it measured); the watchdog's grace then kills it.
 */
static void stall_keep(const struct pb_run_ctx *ctx, struct pb_child *c,
		       const char *disk)
{
	char path[PATH_MAX], scratch[PB_ERRBUF_SIZE] = "";
	struct runner_devstat ds;
	FILE *fp;
	int fd;

	if (ctx->diag_dir && (!mkdir(ctx->diag_dir, 0755) || errno == EEXIST)) {
		snprintf(path, sizeof(path), "%s/host.txt", ctx->diag_dir);
		fd = open(disk, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && runner_devstat_get(&ds, fd) &&
		    (fp = fopen(path, "we"))) {
			fprintf(fp,
				"device %s under %s: %llu reads, %llu writes "
				"completed, %llu in flight\n",
				ds.name, disk, ds.reads, ds.writes,
				ds.in_flight);
			fclose(fp);
		}
		if (fd >= 0)
			close(fd);
		pb_local_proc_dump(c->pid, "provbench-runner", path, scratch);
	}
	pb_child_signal(c, SIGINT);
	pb_child_signal(c, SIGCONT);
}

static enum pb_error hb_run(struct pb_backend *be, const struct pb_disk *d,
			    const char *args, long timeout_s,
			    const struct pb_run_ctx *ctx, const char *local_out,
			    char *errbuf)
{
	struct hb *b = hb_of(be);
	char prog[PATH_MAX], cmdf[PATH_MAX], chunk[512], *words = NULL;
	char *argv[HB_MAX_ARGS], *save = NULL, *w;
	struct pb_child_spec sp = {.argv = argv, .flags = HB_CHILD};
	struct pb_child c;
	uint64_t t0 = pb_now_ns(), asked = 0, now;
	struct timespec seen = {0, 0};
	char stall[320] = "";
	bool killed = false;
	enum pb_error err = PB_OK;
	int n = 0, rc;

	beside(prog, sizeof(prog), local_out, ".progress.json");
	beside(cmdf, sizeof(cmdf), local_out, ".command");
	argv[n++] = b->runner;
	argv[n++] = "--target";
	argv[n++] = (char *)hb_disk_target(b, d);
	/* a file of provbench's own making, written in full (eager) or
	 * not: "holds data" is not a reason to refuse it. A device the
	 * profile names gets every check. */
	if (b->loop.fd < 0 && hb_disk_kind(b, d->mode) != HB_DEVICE)
		argv[n++] = "--force";
	words = strdup(args);
	if (!words)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	for (w = strtok_r(words, " ", &save); w && n < HB_MAX_ARGS - 10;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n++] = "-o";
	argv[n++] = (char *)local_out;
	argv[n++] = "--progress-file";
	argv[n++] = prog;
	argv[n++] = "--quiet";
	if (ctx && ctx->command) {
		err = pb_write_atomic(cmdf, ctx->command, strlen(ctx->command),
				      errbuf);
		if (err)
			goto out;
		argv[n++] = "--command-file";
		argv[n++] = cmdf;
	}
	argv[n] = NULL;
	unlink(local_out);
	err = pb_child_start(&c, &sp, errbuf);
	if (err)
		goto out;
	while (pb_child_open(&c)) {
		pb_child_read(&c, 200, chunk, sizeof(chunk));
		now = pb_now_ns();
		tell_progress(ctx, prog, &seen);
		/* a stop: the runner is asked as a terminal's ^C asks it,
		 * and given the time to write what it measured */
		if (ctx && ctx->stop && *ctx->stop && !asked) {
			pb_child_signal(&c, SIGINT);
			asked = now;
		}
		if (ctx && !asked &&
		    pb_stall_check(ctx->stall, stall, sizeof(stall))) {
			stall_keep(ctx, &c, hb_disk_target(b, d));
			asked = now;
		}
		if (!killed &&
		    ((asked && now - asked > HB_STOP_GRACE_S * 1000000000ull) ||
		     (timeout_s > 0 &&
		      now - t0 > (uint64_t)timeout_s * 1000000000ull))) {
			pb_child_kill(&c);
			killed = true;
		}
	}
	rc = pb_child_finish(&c);
	if (stall[0])
		err = pb_fail(errbuf, PB_ERR_STALLED,
			      "stalled: %s; the runner was stopped%s%s", stall,
			      ctx->diag_dir ? "; diagnostics in " : "",
			      ctx->diag_dir ? pb_path_base(ctx->diag_dir) : "");
	else if (asked)
		err = pb_fail(errbuf, PB_ERR_INTERRUPTED,
			      "interrupted; runner stopped");
	else if (killed)
		err = pb_fail(errbuf, PB_ERR_TIMEOUT,
			      "watchdog: the runner did not finish within %ld "
			      "s and was killed",
			      timeout_s);
	else if (rc)
		err = pb_fail(errbuf, PB_ERR_CHILD, "runner exited %d: %s", rc,
			      *pb_child_last_line(&c) ? pb_child_last_line(&c)
						      : "no message");
out:
	unlink(prog);
	unlink(cmdf);
	free(words);
	return err;
}

const struct pb_backend_ops host_backend = {
	.name = "host",
	.help = "the runner on this machine against files in a directory "
		"(the host's own first-write penalty; seconds per run)",
	.modes = PB_MODE_BIT(PB_MODE_THIN) | PB_MODE_BIT(PB_MODE_LAZY) |
		 PB_MODE_BIT(PB_MODE_EAGER) | PB_MODE_BIT(PB_MODE_RDM),
	.caps = 0,
	.options = hb_options,
	.options_size = sizeof(struct host_opts),
	.open = hb_open,
	.check = hb_check,
	.describe = hb_describe,
	.prepare = hb_prepare,
	.plan_disk = hb_plan_disk,
	.create_disk = hb_create,
	.run = hb_run,
	.destroy_disk = hb_destroy,
	.cleanup = hb_cleanup,
	.target_key = hb_target_key,
	.shared_key = hb_shared_key,
	.at_once = hb_at_once,
	.close = hb_close,
};
