/*
 * backend.c - the qemu backend's ops: open and close, the check (what a
 * run needs, creating nothing), the description run.json records, and
 * the run: a boot of the guest per disk, retried with the next aio mode
 * when qemu refuses one (docs/DESIGN.md says why native comes first). The parts: disks.c,
 * guest.c, accel.c, cmd.c, options.c; they never call back into this
 * file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "qb.h"
#include "runner.h"

/* ---- open / close ---- */

/* the profile's, PROVBENCH_GUEST_DIR, or the one shipped (pb_data_path) */
static void find_guest(struct qb *b)
{
	const char *env = getenv("PROVBENCH_GUEST_DIR");

	if (b->o->guest)
		snprintf(b->guest, sizeof(b->guest), "%s", b->o->guest);
	else if (env && *env)
		snprintf(b->guest, sizeof(b->guest), "%s", env);
	else
		pb_data_path(b->guest, sizeof(b->guest), "guest");
}

static enum pb_error qb_open(struct pb_backend **out,
			     const struct pb_profile *p, unsigned target,
			     char *errbuf)
{
	struct qb *b = calloc(1, sizeof(*b));
	enum pb_error err = PB_OK;

	*out = NULL;
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->p = p;
	b->o = p->targets[target].bopts;
	b->sysctl = pb_target_sysctl(p, target);
	b->loop = (struct pb_loop)PB_LOOP_INIT;
	b->root = geteuid() == 0;
	/* what run.json's environment says; each item's guest.aio says
	 * what its boot used */
	b->aio = strcmp(b->o->aio, "auto") ? b->o->aio : "native";
	err = pb_local_open(&b->loc, "qemu", b->o->dir, b->o->rdm_device,
			    errbuf);
	if (err)
		goto out;
	pb_local_shard(&b->loc, p);
	find_guest(b);
	snprintf(b->kernel, sizeof(b->kernel), "%s/vmlinuz", b->guest);
	snprintf(b->initrd, sizeof(b->initrd), "%s/initrd.gz", b->guest);
	snprintf(b->qemu_img, sizeof(b->qemu_img), "qemu-img");
out:
	if (err) {
		free(b);
		return err;
	}
	b->base.ops = &qemu_backend;
	*out = &b->base;
	return PB_OK;
}

static void qb_close(struct pb_backend *be)
{
	struct qb *b = qb_of(be);
	if (!b)
		return;
	qb_disks_close(b);
	json_decref(b->manifest);
	free(b);
}

static const char *qb_target_key(struct pb_backend *be)
{
	struct qb *b = qb_of(be);
	return b->loc.key;
}

static const char *qb_shared_key(struct pb_backend *be, unsigned i)
{
	struct qb *b = qb_of(be);

	return i < 2 && b->loc.shared[i][0] ? b->loc.shared[i] : NULL;
}

/* Guests at once without sharing a core: TCG's vCPU threads and KVM's
 * alike each want one of the host's. */
static unsigned qb_at_once(struct pb_backend *be)
{
	struct qb *b = qb_of(be);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cores > 0 ? (unsigned)cores / b->o->cpus : 1;

	return n ? n : 1;
}

/* ---- check ---- */

static enum pb_error qb_check(struct pb_backend *be, const struct pb_plan *plan,
			      struct pb_check_out *out, char *errbuf)
{
	struct qb *b = qb_of(be);
	char *ver_argv[] = {(char *)b->o->binary, "--version", NULL};
	char *img_argv[] = {b->qemu_img, "--version", NULL};
	struct pb_buf ver = PB_BUF_INIT(4096);
	struct statvfs sv;
	enum pb_error err;
	uint64_t free_b = UINT64_MAX;
	char fb[32], db[32];
	bool rdm = false, thin_only = true;
	size_t i;

	for (i = 0; i < plan->n; i++) {
		rdm |= plan->items[i].mode == PB_MODE_RDM;
		thin_only &= plan->items[i].mode == PB_MODE_THIN;
	}
	err = qb_run_cmd(b, ver_argv, &ver, errbuf);
	if (!err)
		err = qb_run_cmd(b, img_argv, NULL, errbuf);
	if (!err)
		err = qb_load_manifest(b, errbuf);
	if (!err)
		err = pb_local_check_direct(b->loc.dir, "qemu.dir",
					    "the disks' cache=none", errbuf);
	if (!err && !statvfs(b->loc.dir, &sv))
		free_b = (uint64_t)sv.f_bavail * sv.f_frsize;
	/* A thin disk larger than the space under it is what thin is for (a
	 * pass that fills it ends with "the host filesystem is full"); a
	 * preallocated one cannot be made at all. */
	/* sizes as the user writes them ("500 TiB"), not a count of MiB */
	pb_size_format(fb, sizeof(fb), free_b);
	pb_size_format(db, sizeof(db), b->p->disk_size);
	if (!err && free_b < b->p->disk_size && !thin_only)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s: %s free, a preallocated disk needs %s",
			      b->loc.dir, fb, db);
	else if (!err && free_b < b->p->disk_size)
		pb_check_warn(out, "space",
			      "%s: %s free, less than a thin disk's %s: the "
			      "host filesystem may fill mid-pass",
			      b->loc.dir, fb, db);
	if (!err && rdm && b->o->rdm_device) {
		char why[PB_ERRBUF_SIZE] = "";

		err = runner_device_check(b->o->rdm_device, b->p->disk_size,
					  why);
		if (err)
			pb_fail(errbuf, err, "qemu.rdm_device: %s", why);
	}
	if (!err && out) {
		char *nl = ver.data ? strchr(ver.data, '\n') : NULL;

		if (nl)
			*nl = '\0';
		pb_check_say(out, "qemu", "%s", ver.data ? ver.data : "?");
		pb_check_say(out, "guest", "%s (kernel %s)", b->guest,
			     json_string_value(json_object_get(
				     b->manifest, "kernel_release")));
		pb_check_say(out, "disks", "%s", b->loc.dir);
		/* the one the run will use: the same choice, made now */
		err = qb_accel_choose(b, errbuf);
		if (!err)
			pb_check_say(out, "accelerator", "%s", b->accel_note);
	}
	if (!err && out) {
		if (rdm && qb_skip_rdm(b))
			pb_check_warn(out, "rdm",
				      "skipped (a loop device needs root; or "
				      "name a device in qemu.rdm_device)");
		else if (rdm)
			pb_check_say(out, "rdm", "%s",
				     b->o->rdm_device ? b->o->rdm_device
						      : "a loop device over a "
							"preallocated file");
	}
	pb_buf_dispose(&ver);
	return err;
}

/* ---- describe ---- */

static enum pb_error qb_describe(struct pb_backend *be, json_t *env,
				 char *errbuf)
{
	struct qb *b = qb_of(be);
	char *ver_argv[] = {(char *)b->o->binary, "--version", NULL};
	struct pb_buf ver = PB_BUF_INIT(4096);
	char scratch[PB_ERRBUF_SIZE] = "";

	/* a description, not a check: what cannot be had is said as such */
	(void)errbuf;
	if (!qb_run_cmd(b, ver_argv, &ver, scratch) && ver.data) {
		char *nl = strchr(ver.data, '\n');

		if (nl)
			*nl = '\0';
	}
	json_object_set_new(env, "backend", json_string("qemu"));
	json_object_set_new(env, "accelerator",
			    json_string(b->accel ? b->accel : "none"));
	json_object_set_new(env, "accelerator_note",
			    json_string(b->accel_note));
	json_object_set_new(env, "qemu",
			    json_string(ver.data ? ver.data : "unknown"));
	pb_local_describe(&b->loc, env);
	json_object_set_new(env, "disk_cache", json_string("none"));
	json_object_set_new(env, "disk_aio", json_string(b->aio));
	json_object_set_new(env, "thin_format", json_string(b->o->thin));
	json_object_set_new(env, "guest_memory_mib",
			    json_integer(b->o->memory_mib));
	json_object_set_new(env, "guest_cpus", json_integer(b->o->cpus));
	if (b->manifest) {
		json_object_set_new(env, "guest_kernel",
				    json_copy(json_object_get(
					    b->manifest, "kernel_release")));
		json_object_set_new(env, "guest_image",
				    json_deep_copy(b->manifest));
	}
	if (qb_skip_rdm(b))
		json_object_set_new(env, "rdm_note",
				    json_string("rdm skipped: a loop device "
						"needs root (or name a device "
						"in qemu.rdm_device)"));
	pb_buf_dispose(&ver);
	return PB_OK;
}

/* ---- run ---- */

/* what a sample's file held: its extents, written or not */
static uint64_t sample_held(const struct qb_sample *x)
{
	return x->ext.written + x->ext.unwritten;
}

/*
 * A reclaim pass's samples, chosen for what the disk's file held: before,
 * the most it held in the second up to the pass's start; after, the least
 * it held from then until the next pass began (the space may come back
 * after the guest's call returns: what the next write found). The guest's
 * clock maps onto the host's to within the console's latency; before a
 * discard a file only grows and after it until the next write only
 * shrinks, so the extremes are the discard's, wherever it fell in that.
 */
static void reclaim_samples(json_t *doc, size_t i, int64_t off, int64_t t0,
			    const struct qb_boot *g, const struct qb_sample **a,
			    const struct qb_sample **z)
{
	json_t *passes = json_object_get(doc, RUNNER_K_PASSES);
	json_t *nb = json_object_get(json_array_get(passes, i + 1),
				     RUNNER_K_STARTED_BOOT);
	int64_t t2 = json_is_integer(nb) ? json_integer_value(nb) + off
					 : (*z ? (*z)->host_ns : t0);
	size_t k;

	if (!json_object_get(json_array_get(passes, i), RUNNER_K_RECLAIM))
		return;
	for (k = 0; k < g->nsamples; k++) {
		const struct qb_sample *x = &g->samples[k];

		if (!x->has_ext)
			continue;
		if (x->host_ns <= t0 && x->host_ns >= t0 - 1000000000 &&
		    (!*a || !(*a)->has_ext || sample_held(x) > sample_held(*a)))
			*a = x;
		if (x->host_ns >= t0 && x->host_ns <= t2 &&
		    (!*z || !(*z)->has_ext ||
		     sample_held(x) < sample_held(*z) || (*z)->host_ns < t0))
			*z = x;
	}
}

/*
 * Each pass's window on the host's clock (its start on the guest's
 * uptime, moved by the offset PB-START gave; its length) and the host's
 * samples around it: the last one at or before its start, the first at or
 * after its end. Their difference is what the host's device and qemu did
 * in it, to the samples' resolution; none when there are no samples.
 */
static void host_side(json_t *doc, const struct qb_boot *g)
{
	int64_t off = g->start_host_unix_ns - g->start_uptime_ns;
	json_t *pass;
	size_t i, k;

	if (!g->nsamples || !g->start_host_unix_ns)
		return;
	json_array_foreach(json_object_get(doc, RUNNER_K_PASSES), i, pass)
	{
		json_t *b = json_object_get(pass, RUNNER_K_STARTED_BOOT);
		json_t *pr = json_object_get(pass, RUNNER_K_PAIRED);
		/* a paired first write's seconds are its fresh stripes';
		 * it ran for its wall time, rewritten stripes and all */
		double s = json_number_value(
			json_object_get(pr ? pr : pass, pr ? "wall_seconds"
							   : RUNNER_K_SECONDS));
		int64_t t0, t1;
		const struct qb_sample *a = NULL, *z = NULL;

		if (!json_is_integer(b) || !(s > 0))
			continue;
		t0 = json_integer_value(b) + off;
		t1 = t0 + (int64_t)(s * 1e9);
		for (k = 0; k < g->nsamples; k++) {
			if (g->samples[k].host_ns <= t0)
				a = &g->samples[k];
			if (g->samples[k].host_ns >= t1 && !z)
				z = &g->samples[k];
		}
		reclaim_samples(doc, i, off, t0, g, &a, &z);
		if (!a || !z)
			continue; /* the pass ran outside the samples */
		json_object_set_new(
			pass, "host_device",
			json_pack(
				"{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:i,"
				"s:I}",
				"name", z->ds.name, "reads",
				(json_int_t)(z->ds.reads - a->ds.reads),
				"read_bytes",
				(json_int_t)(z->ds.read_sectors -
					     a->ds.read_sectors) *
					512,
				"read_ms",
				(json_int_t)(z->ds.read_ms - a->ds.read_ms),
				"writes",
				(json_int_t)(z->ds.writes - a->ds.writes),
				"write_bytes",
				(json_int_t)(z->ds.write_sectors -
					     a->ds.write_sectors) *
					512,
				"write_ms",
				(json_int_t)(z->ds.write_ms - a->ds.write_ms),
				"busy_ms",
				(json_int_t)(z->ds.busy_ms - a->ds.busy_ms),
				"queue_ms",
				(json_int_t)(z->ds.queue_ms - a->ds.queue_ms),
				"window_s",
				(double)(z->host_ns - a->host_ns) / 1e9,
				"resolution_ms", QB_SAMPLE_MS, "qemu_cpu_ms",
				(json_int_t)(z->cpu_ms - a->cpu_ms)));
		/* what the host's filesystem did under the disk's file
		 * (thin's qcow2 clusters allocated, lazy's unwritten
		 * extents converted), the same samples around the pass */
		if (a->has_ext && z->has_ext)
			json_object_set_new(
				pass, "host_extents",
				json_pack("{s:{s:I,s:I,s:I},s:{s:I,s:I,s:I}}",
					  "before", "written_bytes",
					  (json_int_t)a->ext.written,
					  "unwritten_bytes",
					  (json_int_t)a->ext.unwritten, "count",
					  (json_int_t)a->ext.count, "after",
					  "written_bytes",
					  (json_int_t)z->ext.written,
					  "unwritten_bytes",
					  (json_int_t)z->ext.unwritten, "count",
					  (json_int_t)z->ext.count));
	}
}

/* Add what the host saw of the guest to the runner's document. */
static void annotate(const char *path, const struct qb_boot *g,
		     const struct qb *b, const char *aio)
{
	json_t *doc = json_load_file(path, 0, NULL), *gj;
	char lines[sizeof(g->sysctl)], *line, *save = NULL;

	if (!doc)
		return;
	gj = json_pack("{s:s,s:s,s:f,s:f,s:b}", "accelerator", b->accel, "aio",
		       aio, "boot_to_init_s", g->t_boot, "boot_to_runner_s",
		       g->t_start, "mem_file", b->o->mem_file);
	/* the settings as the guest read them back, not as asked */
	if (gj && g->sysctl[0]) {
		json_t *sc = json_object();

		snprintf(lines, sizeof(lines), "%s", g->sysctl);
		for (line = strtok_r(lines, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *eq = strchr(line, '=');

			if (eq) {
				*eq = '\0';
				json_object_set_new(sc, line,
						    json_string(eq + 1));
			}
		}
		json_object_set_new(gj, "sysctl", sc);
	}
	json_object_set_new(doc, "guest", gj);
	/* the passes on the host's clock: a pass started at its
	 * started_boot_ns + host_offset_ns; the console line's delay (a pipe,
	 * well under the 10 ms of /proc/uptime's steps) is the error */
	if (g->start_host_unix_ns > 0)
		json_object_set_new(
			doc, "clock",
			json_pack(
				"{s:s,s:I,s:s}", "base", "started_boot_ns",
				"host_offset_ns",
				(json_int_t)(g->start_host_unix_ns -
					     g->start_uptime_ns),
				"source",
				"the guest's uptime at PB-START on the host's "
				"clock, within 10 ms"));
	host_side(doc, g);
	json_dump_file(doc, path, JSON_COMPACT);
	json_decref(doc);
}

/*
 * A failed guest's console, its last lines, kept beside the results
 * (runner-N.console.log) and named in the error: what a person reads
 * first when the guest did not do what it should.
 */
static void keep_console(const struct qb_boot *g, const char *local_out,
			 char *note, size_t len)
{
	char path[PATH_MAX];
	const char *dot = strrchr(local_out, '.');
	FILE *fp;
	unsigned i;

	note[0] = '\0';
	if (!g->ntail)
		return;
	snprintf(path, sizeof(path), "%.*s.console.log",
		 (int)(dot ? (size_t)(dot - local_out) : strlen(local_out)),
		 local_out);
	fp = fopen(path, "wx");
	if (!fp)
		return; /* the error still says what it can */
	for (i = 0; i < g->ntail; i++)
		fprintf(fp, "%s\n",
			g->tail[(g->tail_next + QB_TAIL_LINES - g->ntail + i) %
				QB_TAIL_LINES]);
	if (fclose(fp) == 0)
		snprintf(note, len, " (the guest console's last lines: %s)",
			 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
}

/*
 * The host filesystem under the disk files full: a thin or lazy disk
 * could not grow, and qemu (werror=report) handed the guest an I/O error.
 * Said as what it is, not as the guest's error alone.
 */
static void disk_full_note(const struct qb *b, char *note, size_t len)
{
	struct statvfs sv;
	char fr[32];

	note[0] = '\0';
	if (statvfs(b->loc.dir, &sv))
		return;
	if ((uint64_t)sv.f_bavail * sv.f_frsize >= (1u << 20))
		return;
	snprintf(note, len,
		 "; the disk's host filesystem is full (%s free in %s): the "
		 "disk file could not grow",
		 pb_size_format(fr, sizeof(fr),
				(uint64_t)sv.f_bavail * sv.f_frsize),
		 b->loc.dir);
}

/*
 * A stalled guest's console, whole from its boot (every line but the
 * progress stream's, the guest's own PB-DIAG lines among them), beside
 * what guest.c kept of qemu; the message names the directory.
 */
static enum pb_error stalled(const struct qb_boot *g,
			     const struct pb_run_ctx *ctx, char *errbuf)
{
	const char *diag = ctx ? ctx->diag_dir : NULL;
	char path[PATH_MAX], scratch[PB_ERRBUF_SIZE];

	if (diag && (!mkdir(diag, 0755) || errno == EEXIST)) {
		snprintf(path, sizeof(path), "%s/console.log", diag);
		pb_write_atomic(path, g->console.data ? g->console.data : "",
				g->console.len, scratch);
	}
	return pb_fail(errbuf, PB_ERR_STALLED,
		       "stalled: %s; the guest was stopped%s%s", g->stall_why,
		       diag ? "; diagnostics in " : "",
		       diag ? pb_path_base(diag) : "");
}

static enum pb_error run_guest(struct qb *b, const struct pb_disk *d,
			       const char *args, long timeout_s,
			       const struct pb_run_ctx *ctx,
			       const char *local_out, const char *sysctl,
			       struct qb_boot *gp, int sample_fd, int ext_fd,
			       char *errbuf)
{
	char tail[PATH_MAX + 64] = "", full[PATH_MAX + 128] = "";
	/* Linux AIO, then threads where qemu refuses it; io_uring only when
	 * the profile names it: Debian 12's QEMU 7.2 can strand a request
	 * its io_uring path resubmits (docs/DESIGN.md) */
	static const char *const aios[] = {"native", "threads"};
	/* a path the profile names is the only one tried */
	bool named = strcmp(b->o->aio, "auto") != 0;
	enum qb_disk_kind k = qb_disk_kind(b, d->mode);
	struct qb_job j = {
		.format = k == QB_QCOW2 ? "qcow2" : "raw",
		/* thick disks offer no discard (ESXi: LBPME 0), thin and a
		 * raw mapping pass it down */
		.discard = d->mode == PB_MODE_THIN || k == QB_LOOP ||
			   k == QB_DEVICE,
		.serial = d->uuid,
		.args = args,
		.command = ctx ? ctx->command : NULL,
		.out = local_out,
		.accel = b->accel,
	};
	struct qb_boot *g = gp;
	enum pb_error err = PB_OK;
	size_t a;

	j.disk = k == QB_LOOP ? b->loop.dev : d->file;
	j.sample_fd = sample_fd;
	j.ext_fd = ext_fd;
	j.stall_s = b->p->stall_s;
	j.qmp = b->qmp[0] ? b->qmp : NULL;
	j.mem_dir = b->o->mem_file ? b->loc.dir : NULL;
	j.sysctl = sysctl;
	for (a = 0; a < sizeof(aios) / sizeof(aios[0]); a++) {
		j.aio = named ? b->o->aio : aios[a];
		unlink(local_out);
		pb_progress("  booting guest (%s, aio=%s)",
			    !strcmp(b->accel, "kvm") ? "KVM" : "TCG: slower",
			    j.aio);
		err = qb_guest_boot(b, g, &j, (double)timeout_s, ctx, errbuf);
		if (err)
			return err;
		if (g->stalled)
			return stalled(g, ctx, errbuf);
		/* qemu refusing the aio mode fails before the guest boots;
		 * the next one is tried */
		if (named || g->t_boot > 0 || g->interrupted ||
		    g->killed_timeout ||
		    !(strstr(g->qemu_err, "aio") ||
		      strstr(g->qemu_err, "uring")))
			break;
	}
	b->aio = j.aio;
	if (g->interrupted)
		return pb_fail(errbuf, PB_ERR_INTERRUPTED,
			       "interrupted; guest stopped");
	if (g->killed_timeout || !g->exited || g->status)
		keep_console(g, local_out, tail, sizeof(tail));
	disk_full_note(b, full, sizeof(full));
	if (g->killed_timeout)
		return pb_fail(
			errbuf, PB_ERR_TIMEOUT,
			"watchdog: the guest did not finish within %ld s "
			"and was killed%s%s",
			timeout_s, full, tail);
	if (!g->exited) {
		if (g->t_boot == 0)
			return pb_fail(errbuf, PB_ERR_IO, "qemu: %s%s",
				       g->qemu_err[0]
					       ? g->qemu_err
					       : "the guest never booted",
				       tail);
		return pb_fail(
			errbuf, PB_ERR_IO,
			"the guest stopped before the runner finished%s%s%s%s",
			g->nlog ? ": " : "", g->nlog ? g->log[g->nlog - 1] : "",
			full, tail);
	}
	annotate(local_out, g, b, j.aio);
	/* a setting asked for and not made is not measured as if it were */
	if (g->sysctl_fail[0])
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "guest_sysctl: %s: the guest could not set it",
			       g->sysctl_fail);
	if (g->status)
		return pb_fail(errbuf, PB_ERR_CHILD,
			       "runner in the guest exited %d: %s%s%s",
			       g->status,
			       g->nlog ? g->log[g->nlog - 1] : "no message",
			       full, tail);
	return PB_OK;
}

static enum pb_error qb_run(struct pb_backend *be, const struct pb_disk *d,
			    const char *args, long timeout_s,
			    const struct pb_run_ctx *ctx, const char *local_out,
			    char *errbuf)
{
	struct qb *b = qb_of(be);
	struct pb_buf sc = PB_BUF_INIT(16384);
	struct qb_boot g = {0};
	enum pb_error err = PB_OK;
	unsigned i;
	int fd, efd = -1;

	/* qemu's monitor for this boot, where a stall's diagnostics ask
	 * it: a directory of its own (a unix socket's path is short) */
	if (!qb_qmp_dir_make(b->qmp, sizeof(b->qmp)))
		b->qmp[0] = '\0';
	/* guest_sysctl for the guest's init, a "key=value" line each */
	for (i = 0; !err && i < b->sysctl->n; i++)
		err = pb_buf_printf(&sc, "%s=%s\n", b->sysctl->key[i],
				    b->sysctl->val[i]);
	/* the host's device under the disk, sampled as the guest writes,
	 * and a loop device's file, whose extents a discard punches */
	fd = open(qb_disk_kind(b, d->mode) == QB_LOOP ? b->loop.dev : d->file,
		  O_RDONLY | O_CLOEXEC);
	if (qb_disk_kind(b, d->mode) == QB_LOOP)
		efd = open(d->file, O_RDONLY | O_CLOEXEC);
	if (err)
		err = pb_fail(errbuf, err, "out of memory");
	else
		err = run_guest(b, d, args, timeout_s, ctx, local_out,
				b->sysctl->n ? sc.data : NULL, &g, fd, efd,
				errbuf);
	if (fd >= 0)
		close(fd);
	if (efd >= 0)
		close(efd);
	if (b->qmp[0]) {
		qb_qmp_dir_remove(b->qmp);
		b->qmp[0] = '\0';
	}
	qb_boot_dispose(&g);
	pb_buf_dispose(&sc);
	return err;
}

/* The host beside the guest: the same directory (the disk files' own
 * filesystem), and the same device for rdm when the profile names one. */
static enum pb_error qb_host_twin(const void *bopts, json_t *host, char *errbuf)
{
	const struct qemu_opts *o = bopts;
	char dir[PATH_MAX];
	enum pb_error err = PB_OK;

	if (o->dir) {
		snprintf(dir, sizeof(dir), "%s", o->dir);
	} else {
		err = pb_state_dir(dir, sizeof(dir), errbuf);
		if (err)
			return err;
		/* pb_local_open's default for the qemu backend */
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/qemu");
	}
	json_object_set_new(host, "dir", json_string(dir));
	if (o->rdm_device)
		json_object_set_new(host, "device", json_string(o->rdm_device));
	return err;
}

const struct pb_backend_ops qemu_backend = {
	.name = "qemu",
	.help = "the experiment for real on this machine: disk files (or a "
		"device) and a small guest under qemu",
	.modes = PB_MODE_BIT(PB_MODE_THIN) | PB_MODE_BIT(PB_MODE_LAZY) |
		 PB_MODE_BIT(PB_MODE_EAGER) | PB_MODE_BIT(PB_MODE_RDM),
	/* each item boots its own guest, with its target's settings */
	.caps = PB_CAP_GUEST_SYSCTL | PB_CAP_SETTINGS_PER_ITEM,
	.options = qb_options,
	.options_size = sizeof(struct qemu_opts),
	.open = qb_open,
	.check = qb_check,
	.describe = qb_describe,
	.prepare = qb_prepare,
	.plan_disk = qb_plan_disk,
	.create_disk = qb_create,
	.run = qb_run,
	.destroy_disk = qb_destroy,
	.cleanup = qb_cleanup,
	.target_key = qb_target_key,
	.shared_key = qb_shared_key,
	.at_once = qb_at_once,
	.close = qb_close,
	.host_twin = qb_host_twin,
};
