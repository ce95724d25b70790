/*
 * guest.c - the vsphere backend in the guest, through VMware Tools: the
 * transfer check, the runner uploaded once per run (named by its checksum,
 * into a directory private to the guest user, read back and compared),
 * the guest's sysctls, and each run of the runner: started against the
 * disk's identity, its progress fetched at sparse polls, its JSON
 * downloaded, its own last words when it failed.
 */
#include <math.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vsb.h"

static void sha256_hex(char *out, const char *data, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n, i;

	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

/*
 * A guest file's content, through a local temporary file (guest transfers
 * go to files); NULL if it cannot be had (not there yet, say).
 */
static char *fetch_guest_file(struct vsb *b, const char *guest_path,
			      size_t *len)
{
	char local[64];
	char *data = NULL;
	int fd;

	snprintf(local, sizeof(local), "/tmp/provbench-fetch-XXXXXX");
	fd = mkstemp(local);
	if (fd < 0)
		return NULL;
	close(fd);
	if (!vs_guest_download(b->s, &b->vm, guest_path, local))
		data = pb_slurp_file(local, len);
	remove(local);
	return data;
}

void vsb_guest_family(struct vsb *b)
{
	const struct vsphere_opts *o = b->o;

	b->windows = !strcmp(b->state.guest_family, "windowsGuest");
	b->vm.windows = b->windows;
	snprintf(b->gdir, sizeof(b->gdir), "%s",
		 o->guest_dir ? o->guest_dir
		 : b->windows ? "C:\\ProgramData\\provbench"
			      : "/tmp/provbench");
	/* Windows has no by-id directory: the runner asks the disks */
	b->by_id_dir = o->by_id_dir ? o->by_id_dir
		       : b->windows ? NULL
				    : "/dev/disk/by-id";
	b->runner = b->windows ? o->runner_windows : o->runner;
}

void vsb_guest_path(const struct vsb *b, char *out, size_t len,
		    const char *name)
{
	snprintf(out, len, "%s%c%s", b->gdir, b->windows ? '\\' : '/', name);
}

/*
 * The guest directory readable only by the guest user (and, on Windows,
 * SYSTEM): nobody else in the guest can swap the runner between upload
 * and run. POSIX permissions on Linux; on Windows the directory's ACL,
 * inheritance cut and full control granted to those two alone, by
 * icacls (which every Windows since Server 2003 SP2 has).
 */
static enum pb_error guest_dir_private(struct vsb *b, char *errbuf)
{
	char args[1200];
	enum pb_error err;
	int64_t pid;
	int code = -1;

	if (!b->windows) {
		err = vs_guest_chmod(b->s, &b->vm, b->gdir, 0700);
		if (err)
			return pb_fail(errbuf, err,
				       "guest directory %s: cannot make it "
				       "private to the guest user: %s",
				       b->gdir, vs_session_error(b->s));
		return PB_OK;
	}
	snprintf(args, sizeof(args),
		 "%s /inheritance:r /grant:r %s:(OI)(CI)F "
		 "*S-1-5-18:(OI)(CI)F",
		 b->gdir, vs_session_guest_user(b->s));
	err = vs_guest_start(b->s, &b->vm, "C:\\Windows\\System32\\icacls.exe",
			     args, NULL, &pid);
	if (!err)
		err = vs_guest_wait(b->s, &b->vm, pid, 60, NULL, &code);
	if (err)
		return vsb_sess_err(b, err, errbuf);
	if (code)
		return pb_fail(errbuf, PB_ERR_CHILD,
			       "guest directory %s: icacls could not make it "
			       "private to the guest user (exit %d)",
			       b->gdir, code);
	return PB_OK;
}

/* A small file to the guest and back, through the path runs use: trust
 * and name problems show before any disk exists. */
enum pb_error vsb_transfer_round_trip(struct vsb *b, struct pb_check_out *out,
				      char *errbuf)
{
	const char *gdir = b->gdir;
	char up[64] = "/tmp/provbench-check-XXXXXX", down[80], guest[700];
	char name[64];
	char data[64], *back = NULL;
	enum pb_error err;
	size_t len = 0;
	int fd;

	fd = mkstemp(up);
	if (fd < 0)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", up,
			       strerror(errno));
	snprintf(data, sizeof(data), "provbench transfer check %llx\n",
		 (unsigned long long)pb_now_ns());
	if (write(fd, data, strlen(data)) != (ssize_t)strlen(data)) {
		close(fd);
		unlink(up);
		return pb_fail(errbuf, PB_ERR_IO, "%s: short write", up);
	}
	close(fd);
	snprintf(down, sizeof(down), "%s.back", up);
	snprintf(name, sizeof(name), "check-%s.txt", b->run_id);
	vsb_guest_path(b, guest, sizeof(guest), name);
	err = vs_guest_mkdir(b->s, &b->vm, gdir, true);
	if (err == PB_ERR_FAULT) /* it exists */
		err = PB_OK;
	err = vsb_sess_err(b, err, errbuf);
	if (!err)
		err = vsb_sess_err(
			b, vs_guest_upload(b->s, &b->vm, up, guest, 0600, true),
			errbuf);
	if (!err)
		err = vsb_sess_err(b,
				   vs_guest_download(b->s, &b->vm, guest, down),
				   errbuf);
	if (!err) {
		back = pb_slurp_file(down, &len);
		if (!back || len != strlen(data) || memcmp(back, data, len))
			err = pb_fail(errbuf, PB_ERR_PROTOCOL,
				      "guest transfer: the file came back "
				      "different from what was sent");
	}
	vs_guest_remove(b->s, &b->vm, guest, false);
	free(back);
	unlink(up);
	unlink(down);
	if (!err)
		pb_check_say(out, "guest transfer",
			     "%zu bytes up and back through %s", len,
			     vs_session_transfer_note(b->s));
	return err;
}

enum pb_error vsb_prepare(struct pb_backend *be, const struct pb_prep_ctx *c,
			  char *errbuf)
{
	struct vsb *b = vsb_of(be);
	const struct vsphere_opts *o = b->o;
	char sum[2 * EVP_MAX_MD_SIZE + 1], there[2 * EVP_MAX_MD_SIZE + 1];
	char change[1024], *data;
	size_t len, len_local;
	unsigned i;
	enum pb_error err;
	int code;
	bool same;

	err = vsb_sess_err(b, vs_vm_state_get(b->s, &b->vm.ref, &b->state),
			   errbuf);
	if (!err)
		err = vsb_settings_read(b, errbuf);
	/* vSAN, vVols: the disks' folder, before any disk is named */
	if (!err)
		err = vsb_storage_prepare(b, errbuf);
	if (err)
		return err;
	/* nothing is measured with a setting that is not live */
	if (vsb_settings_to_change(b, change, sizeof(change))) {
		if (!o->power_cycle)
			return vsb_settings_refuse(b, change, errbuf);
		err = vsb_settings_apply(b, c, errbuf);
		if (!err)
			err = vsb_sess_err(
				b, vs_vm_state_get(b->s, &b->vm.ref, &b->state),
				errbuf);
		if (err)
			return err;
	}
	vsb_guest_family(b);
	if (b->windows && b->sysctl->n)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "sysctl: %s runs Windows (%s); sysctls are "
			       "Linux settings",
			       b->vm.name, b->state.guest_full_name);
	data = pb_slurp_file(b->runner, &len);
	if (!data)
		return pb_fail(errbuf, PB_ERR_INPUT, "runner %s: %s", b->runner,
			       strerror(errno));
	sha256_hex(sum, data, len);
	free(data);
	len_local = len;
	/* named by its checksum: an existing copy is this runner */
	snprintf(change, sizeof(change), "provbench-runner-%.16s%s", sum,
		 b->windows ? ".exe" : "");
	vsb_guest_path(b, b->runner_guest, sizeof(b->runner_guest), change);
	err = vs_guest_mkdir(b->s, &b->vm, b->gdir, true);
	if (err == PB_ERR_FAULT) /* it exists */
		err = PB_OK;
	if (err)
		return vsb_sess_err(b, err, errbuf);
	/* only the guest user may write where the runner lives */
	err = guest_dir_private(b, errbuf);
	if (err)
		return err;
	/* skip the upload when the guest's copy has the same checksum */
	data = fetch_guest_file(b, b->runner_guest, &len);
	if (data)
		sha256_hex(there, data, len);
	same = data && !strcmp(there, sum);
	free(data);
	if (!same) {
		pb_progress("uploading the runner to %s (%zu KiB)",
			    b->runner_guest, len_local >> 10);
		err = vsb_sess_err(b,
				   vs_guest_upload(b->s, &b->vm, b->runner,
						   b->runner_guest, 0700, true),
				   errbuf);
		/* what will run is what was sent: read back and compared */
		data = err ? NULL : fetch_guest_file(b, b->runner_guest, &len);
		if (data)
			sha256_hex(there, data, len);
		if (!err && (!data || strcmp(there, sum)))
			err = pb_fail(errbuf, PB_ERR_PROTOCOL,
				      "runner in the guest (%s) does not have "
				      "the checksum sent (sha256 %.16s...)",
				      b->runner_guest, sum);
		free(data);
	}
	for (i = 0; !err && i < b->sysctl->n; i++) {
		char args[512];
		int64_t pid;

		snprintf(args, sizeof(args), "-w %s=%s", b->sysctl->key[i],
			 b->sysctl->val[i]);
		err = vsb_sess_err(b,
				   vs_guest_start(b->s, &b->vm, "/sbin/sysctl",
						  args, NULL, &pid),
				   errbuf);
		if (!err)
			err = vsb_sess_err(b,
					   vs_guest_wait(b->s, &b->vm, pid, 60,
							 NULL, &code),
					   errbuf);
		if (!err && code)
			err = pb_fail(errbuf, PB_ERR_CHILD,
				      "guest sysctl %s failed (exit %d)", args,
				      code);
	}
	return err;
}

static void sleep_ms(uint64_t ms, const struct pb_run_ctx *ctx)
{
	for (uint64_t t = 0; t < ms && !(ctx->stop && *ctx->stop); t += 100) {
		struct timespec ts = {0, 100000000L};

		nanosleep(&ts, NULL);
	}
}

/*
 * Wait for the guest runner. No event announces a guest process's end, and
 * every poll is a guest login, so polls are sparse: from a quarter second
 * doubling to 5 s in the first minute (short runs end soon after they do),
 * then 10 s growing to 30 s; sooner when the runner's progress says it is
 * about to finish, and at least four times in stall_s. Its progress is
 * fetched at each poll. *aged_out: Tools no longer list it (it ended
 * minutes ago). PB_ERR_STALLED, why in stall: no progress for stall_s.
 */
static enum pb_error wait_runner(struct vsb *b, int64_t pid, long timeout_s,
				 const struct pb_run_ctx *ctx, const char *prog,
				 struct vsb_reclaim_watch *rw, int *code,
				 bool *aged_out, char *stall, size_t stall_len,
				 char *errbuf)
{
	unsigned want_ms = 0;
	uint64_t start = pb_now_ns(), next_ms = 125, el_ms;
	enum pb_error err;
	double eta = -1;
	bool done = false;
	json_t *pj;
	char *text;
	size_t len;

	*aged_out = false;
	for (;;) {
		err = vs_guest_poll(b->s, &b->vm, pid, &done, code);
		if (err == PB_ERR_NOTFOUND) {
			*aged_out = true;
			return PB_OK;
		}
		if (err || done)
			return vsb_sess_err(b, err, errbuf);
		if (ctx->stop && *ctx->stop)
			return pb_fail(errbuf, PB_ERR_INTERRUPTED,
				       "interrupted");
		el_ms = (pb_now_ns() - start) / 1000000;
		if (el_ms >= (uint64_t)timeout_s * 1000)
			return pb_fail(errbuf, PB_ERR_TIMEOUT,
				       "the runner is still running after "
				       "%ld s (timeout_s)",
				       timeout_s);
		if (ctx->progress || rw->on) {
			/* no file yet (the first second) is not an error */
			text = fetch_guest_file(b, prog, &len);
			pj = text ? json_loadb(text, len, 0, NULL) : NULL;
			free(text);
			if (pj) {
				/* a runner waiting on a command says no end */
				json_t *e = json_object_get(pj, "eta_s");

				eta = json_is_number(e) ? json_number_value(e)
							: -1;
				if (ctx->progress)
					ctx->progress(ctx, pj);
				want_ms = vsb_reclaim_watch_poll(b, rw, pj);
			}
			json_decref(pj);
		}
		if (pb_stall_check(ctx->stall, stall, stall_len))
			return PB_ERR_STALLED;
		if (el_ms < 60000)
			next_ms = next_ms * 2 > 5000 ? 5000 : next_ms * 2;
		else
			next_ms = next_ms < 10000	    ? 10000
				  : next_ms * 3 / 2 > 30000 ? 30000
							    : next_ms * 3 / 2;
		/* about to finish: look again just after */
		if (eta >= 0 && eta * 1000 + 500 < (double)next_ms)
			next_ms = (uint64_t)(eta * 1000) + 500;
		/* a stall is seen within a quarter of stall_s of its start */
		if (ctx->stall && ctx->stall->limit_s > 0 &&
		    (double)next_ms > ctx->stall->limit_s * 250)
			next_ms = (uint64_t)(ctx->stall->limit_s * 250);
		/* a reclaim giving back: read at the server's pace */
		if (want_ms && want_ms < next_ms)
			next_ms = want_ms;
		if (next_ms < 250)
			next_ms = 250;
		sleep_ms(next_ms, ctx);
	}
}

/*
 * A stalled runner, as the server sees it: the VM's power and Tools (a
 * guest that hung stops its heartbeat), and the runner's own log in the
 * guest, kept in the stall's directory before the process is terminated.
 */
static void stall_keep(struct vsb *b, const struct pb_run_ctx *ctx, int64_t pid,
		       const char *glog)
{
	struct vs_vm_state st;
	char path[PATH_MAX];
	size_t len = 0;
	char *log;
	FILE *fp;

	if (!ctx->diag_dir || (mkdir(ctx->diag_dir, 0755) && errno != EEXIST))
		return;
	snprintf(path, sizeof(path), "%s/vm.txt", ctx->diag_dir);
	fp = fopen(path, "we");
	if (!fp)
		return;
	fprintf(fp, "VM %s, guest process %lld\n", b->vm.name, (long long)pid);
	if (!vs_vm_state_get(b->s, &b->vm.ref, &st))
		fprintf(fp, "power %s, Tools %s (%s)\n", st.power_state,
			st.tools, st.tools_status);
	else
		fprintf(fp, "its state could not be read: %s\n",
			vs_session_error(b->s));
	log = fetch_guest_file(b, glog, &len);
	fprintf(fp, "the runner's log in the guest:\n%.*s\n", (int)len,
		log ? log : "");
	free(log);
	fclose(fp);
}

/* A Windows runner's gentle stop: an empty file at its --stop-file (the
 * upload of /dev/null, which is one) */
static enum pb_error ask_stop(struct vsb *b, const char *gstop)
{
	return vs_guest_upload(b->s, &b->vm, "/dev/null", gstop, 0600, true);
}

/* The last line of the runner's log in the guest: its own error. */
static void runner_message(struct vsb *b, const char *log, char *out,
			   size_t len)
{
	size_t n = 0;
	char *text = fetch_guest_file(b, log, &n), *end, *line;

	out[0] = '\0';
	if (!text)
		return;
	end = text + n;
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	line = strrchr(text, '\n');
	snprintf(out, len, "%s", line ? line + 1 : text);
	free(text);
}

/* Did an output whose exit status aged out describe a complete run? */
static bool output_complete(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL), *p;
	bool ok = doc && json_is_false(json_object_get(doc, "interrupted"));
	size_t i;

	json_array_foreach(json_object_get(doc, "passes"), i, p) ok =
		ok && json_is_true(json_object_get(p, "complete"));
	ok = ok && json_array_size(json_object_get(doc, "passes"));
	json_decref(doc);
	return ok;
}

/* A run's files in the guest directory, named by its disk */
struct run_files {
	char out[700], prog[700], gcmd[700], glog[700], gstop[700], ggo[700];
};

static void run_files(struct vsb *b, const struct pb_disk *d,
		      struct run_files *f)
{
	static const struct {
		const char *pre, *post;
		size_t off;
	} names[] = {
		{"out-", ".json", offsetof(struct run_files, out)},
		{"progress-", ".json", offsetof(struct run_files, prog)},
		{"log-", ".txt", offsetof(struct run_files, glog)},
		{"command-", ".txt", offsetof(struct run_files, gcmd)},
		{"stop-", "", offsetof(struct run_files, gstop)},
		{"go-", "", offsetof(struct run_files, ggo)},
	};
	char name[PB_ERRBUF_SIZE];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(name, sizeof(name), "%s%s%s", names[i].pre, d->id,
			 names[i].post);
		vsb_guest_path(b, (char *)f + names[i].off, sizeof(f->out),
			       name);
	}
}

enum pb_error vsb_run(struct pb_backend *be, const struct pb_disk *d,
		      const char *args, long timeout_s,
		      const struct pb_run_ctx *ctx, const char *local_out,
		      char *errbuf)
{
	struct vsb *b = vsb_of(be);
	struct run_files f;
	char *out = f.out, *prog = f.prog, *gcmd = f.gcmd, *glog = f.glog,
	     *gstop = f.gstop;
	struct vsb_reclaim_watch rw;
	char lcmd[1300];
	char why[PB_ERRBUF_SIZE], stall[320] = "";
	struct pb_buf cmd = PB_BUF_INIT(16384);
	int64_t pid = 0;
	int code = -1;
	bool aged = false;
	enum pb_error err, derr;
	json_t *started;
	double launched = NAN, finished = NAN;

	run_files(b, d, &f);
	vsb_reclaim_watch_init(&rw, b, d->file, f.ggo);
	if (ctx && ctx->command) {
		/* shell text goes as a file, never through the argument
		 * string the guest splits into words */
		snprintf(lcmd, sizeof(lcmd), "%s.command", local_out);
		err = pb_write_atomic(lcmd, ctx->command, strlen(ctx->command),
				      errbuf);
		if (!err)
			err = vsb_sess_err(b,
					   vs_guest_upload(b->s, &b->vm, lcmd,
							   gcmd, 0600, true),
					   errbuf);
		remove(lcmd);
		if (err)
			goto out;
	}
	/* Tools end a Windows process outright (TerminateProcess): there the
	 * runner is asked to stop by a file it looks for, as SIGTERM asks a
	 * Linux one */
	if (pb_buf_printf(
		    &cmd,
		    "%s --target uuid:%s%s%s -q -o %s "
		    "--progress-file %s --log-file %s%s%s%s%s%s%s",
		    args, d->uuid, b->by_id_dir ? " --by-id-dir " : "",
		    b->by_id_dir ? b->by_id_dir : "", out, prog, glog,
		    b->windows ? " --stop-file " : "", b->windows ? gstop : "",
		    ctx && ctx->command ? " --command-file " : "",
		    ctx && ctx->command ? gcmd : "",
		    rw.on ? " --reclaim-go-file " : "", rw.on ? f.ggo : "")) {
		pb_buf_dispose(&cmd);
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
		goto out;
	}
	/* the server's clock at the launch: where the runner's passes
	 * begin, whatever the guest's clock says (counters.c) */
	if (vs_server_time(b->s, &launched))
		launched = NAN;
	err = vsb_sess_err(b,
			   vs_guest_start(b->s, &b->vm, b->runner_guest,
					  cmd.data, b->gdir, &pid),
			   errbuf);
	pb_buf_dispose(&cmd);
	if (err)
		goto out;
	/* a crash from here on leaves a guest process: cleanup stops it */
	started = json_pack("{s:I}", "guest_pid", (json_int_t)pid);
	err = ctx && ctx->journal ? ctx->journal(ctx, started) : PB_OK;
	json_decref(started);
	if (!err)
		err = wait_runner(b, pid, timeout_s, ctx, prog, &rw, &code,
				  &aged, stall, sizeof(stall), errbuf);
	if (err == PB_ERR_STALLED)
		stall_keep(b, ctx, pid, glog);
	if (err == PB_ERR_INTERRUPTED || err == PB_ERR_TIMEOUT ||
	    err == PB_ERR_STALLED) {
		/* the runner drains and writes its partial JSON on SIGTERM,
		 * or on Windows once its stop file is there; Tools'
		 * terminate is the hard stop after that */
		bool ended = false;

		if (b->windows && !ask_stop(b, gstop))
			ended = !vs_guest_wait(b->s, &b->vm, pid, 30, NULL,
					       &code);
		if (!ended) {
			vs_guest_kill(b->s, &b->vm, pid);
			vs_guest_wait(b->s, &b->vm, pid, 30, NULL, &code);
		}
	} else if (err) {
		goto out;
	}
	/* terminated through the guest operations, before the disk goes */
	if (err == PB_ERR_STALLED)
		pb_fail(errbuf, err,
			"stalled: %s; the guest process was terminated%s%s",
			stall, ctx->diag_dir ? "; diagnostics in " : "",
			ctx->diag_dir ? pb_path_base(ctx->diag_dir) : "");
	if (!err && vs_server_time(b->s, &finished))
		finished = NAN;
	/* partial results are worth having too */
	derr = vs_guest_download(b->s, &b->vm, out, local_out);
	/* a runner Tools forgot is judged by the output it left */
	if (!err &&
	    (aged ? derr || !output_complete(local_out) : code != 0 || derr)) {
		/* the runner's own words, not the download's FileNotFound
		 * that follows its failure */
		char fetch[PB_ERRBUF_SIZE];

		snprintf(fetch, sizeof(fetch), "%s", vs_session_error(b->s));
		runner_message(b, glog, why, sizeof(why));
		if (why[0] && !aged)
			err = pb_fail(errbuf, PB_ERR_CHILD,
				      "runner in the guest (exit %d): %s", code,
				      why);
		else if (why[0])
			err = pb_fail(errbuf, PB_ERR_CHILD,
				      "runner in the guest: %s", why);
		else if (!aged && code > 0)
			err = pb_fail(errbuf, PB_ERR_CHILD,
				      "the runner exited %d in the guest",
				      code);
		else if (aged && !derr)
			err = pb_fail(
				errbuf, PB_ERR_CHILD,
				"the runner ended unseen (Tools no longer "
				"list it) and its output is incomplete");
		else
			err = pb_fail(errbuf, PB_ERR_PROTOCOL,
				      "the runner's output could not be "
				      "fetched: %s",
				      fetch);
	}
	/* the server's side of each pass, from its own counters */
	if (!err && !derr) {
		vsb_counters_annotate(b, local_out, launched, finished, ctx);
		vsb_reclaim_annotate(&rw, local_out);
	}
	vs_guest_remove(b->s, &b->vm, out, false);
	vs_guest_remove(b->s, &b->vm, prog, false);
	vs_guest_remove(b->s, &b->vm, glog, false);
	if (b->windows)
		vs_guest_remove(b->s, &b->vm, gstop, false);
	if (ctx && ctx->command)
		vs_guest_remove(b->s, &b->vm, gcmd, false);
	if (rw.on)
		vs_guest_remove(b->s, &b->vm, f.ggo, false);
out:
	vsb_reclaim_watch_dispose(&rw);
	return err;
}
