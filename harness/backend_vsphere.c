/*
 * backend_vsphere.c - the vsphere backend: disks of each mode created on
 * and attached to a test VM with ReconfigVM_Task, the static runner
 * uploaded once and run inside the guest through VMware Tools against the
 * disk's uuid, its JSON downloaded, the disk destroyed.
 *
 * Disks are named by provbench ("[ds] vmdir/provbench-RUN-N.vmdk") so the
 * journal records the exact path before the disk exists, and cleanup can
 * find it again without guessing.
 */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness_int.h"
#include "vsphere.h"

struct pb_backend {
	const struct pb_profile *p;
	struct vs_session *s;
	struct vs_vm_info vm;
	struct vs_disk cur; /* the disk of the mode in progress */
	char url[512];
	char key[800];
	char ds[256];	  /* datastore for new disks */
	char vm_dir[300]; /* the VM's folder, when on that datastore */
	char run_id[32];
	char runner_guest[600];
	char errbuf[PB_ERRBUF_SIZE];
};

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

static enum vs_disk_mode vs_mode(enum pb_mode m)
{
	static const enum vs_disk_mode map[PB_MODE__COUNT] = {
		[PB_MODE_THIN] = VS_DISK_THIN,	 [PB_MODE_LAZY] = VS_DISK_LAZY,
		[PB_MODE_EAGER] = VS_DISK_EAGER, [PB_MODE_RDM] = VS_DISK_RDM,
		[PB_MODE_RDMP] = VS_DISK_RDMP,
	};
	return map[m];
}

/* Keep the session's message as the backend's. */
static enum pb_error sess_err(struct pb_backend *b, enum pb_error err)
{
	if (err && !b->errbuf[0])
		snprintf(b->errbuf, sizeof(b->errbuf), "%s",
			 vs_session_error(b->s));
	return err;
}

static enum pb_error vsb_open(struct pb_backend **out,
			      const struct pb_profile *p, char *errbuf)
{
	struct vs_config cfg = VS_CONFIG_INIT;
	struct pb_backend *b = calloc(1, sizeof(*b));
	const char *dir, *sl;
	enum pb_error err;

	*out = NULL;
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->p = p;
	err = vs_config_from_env(&cfg, env_get, NULL, errbuf);
	if (!err)
		err = vs_session_open(&b->s, &cfg, NULL, NULL, errbuf);
	if (!err) {
		/* a task that never ends must not hold a lab run for ever */
		vs_session_set_task_timeout(b->s, p->vsphere.task_timeout_s);
		snprintf(b->url, sizeof(b->url), "%s", cfg.url);
		err = vs_vm_find(b->s, &b->vm, p->vsphere.vm);
		if (err)
			pb_fail(errbuf, err, "%s", vs_session_error(b->s));
	}
	vs_config_dispose(&cfg);
	if (err) {
		vs_session_free(b->s);
		free(b);
		return err;
	}
	snprintf(b->key, sizeof(b->key), "vsphere %s %s", b->url,
		 b->vm.ref.value);
	/* "[ds] dir/vm.vmx": new disks go beside the VM unless told */
	dir = strchr(b->vm.path, ']');
	if (b->vm.path[0] == '[' && dir)
		snprintf(b->ds, sizeof(b->ds), "%.*s",
			 (int)(dir - b->vm.path - 1), b->vm.path + 1);
	if (dir && (sl = strrchr(dir, '/')))
		snprintf(b->vm_dir, sizeof(b->vm_dir), "%.*s",
			 (int)(sl - dir - 2), dir + 2);
	if (p->vsphere.datastore && strcmp(p->vsphere.datastore, b->ds)) {
		snprintf(b->ds, sizeof(b->ds), "%s", p->vsphere.datastore);
		b->vm_dir[0] = '\0';
	}
	snprintf(b->run_id, sizeof(b->run_id), "%llx",
		 (unsigned long long)(time(NULL) ^ (pb_now_ns() << 16)));
	*out = b;
	return PB_OK;
}

static void vsb_close(struct pb_backend *b)
{
	if (!b)
		return;
	vs_session_free(b->s);
	free(b);
}

static const char *vsb_error(struct pb_backend *b)
{
	return b->errbuf[0] ? b->errbuf : vs_session_error(b->s);
}

static const char *vsb_target_key(struct pb_backend *b)
{
	return b->key;
}

static enum pb_error vsb_check(struct pb_backend *b, const struct pb_plan *plan,
			       FILE *out)
{
	const struct pb_profile *p = b->p;
	struct vs_ds_info *ds = NULL;
	struct vs_lun *luns = NULL;
	struct vs_host_info h;
	bool flat = false, raw = false;
	size_t n = 0, i;
	char sz[32], fr[32];
	enum pb_error err = PB_OK;

	b->errbuf[0] = '\0';
	fprintf(out, "VM %s (%s): %s, tools %s\n", b->vm.name, b->vm.ref.value,
		b->vm.power_state, b->vm.tools_status);
	if (strcmp(b->vm.power_state, "poweredOn"))
		return pb_fail(b->errbuf, PB_ERR_INPUT, "VM %s is %s, not on",
			       b->vm.name, b->vm.power_state);
	if (strcmp(b->vm.tools_status, "guestToolsRunning"))
		return pb_fail(b->errbuf, PB_ERR_INPUT,
			       "VM %s: VMware Tools not running (%s): the "
			       "runner cannot be started",
			       b->vm.name, b->vm.tools_status);
	for (i = 0; i < plan->n; i++) {
		if (plan->items[i].mode >= PB_MODE_RDM)
			raw = true;
		else
			flat = true;
	}
	if (flat) {
		err = sess_err(b, vs_datastore_list(b->s, &ds, &n));
		for (i = 0; !err && i < n; i++)
			if (!strcmp(ds[i].name, b->ds))
				break;
		if (!err && i == n)
			err = pb_fail(b->errbuf, PB_ERR_INPUT,
				      "datastore %s: not found", b->ds);
		/* one disk at a time, and eager allocates all of it */
		if (!err && ds[i].free_space < p->disk_size)
			err = pb_fail(
				b->errbuf, PB_ERR_INPUT,
				"datastore %s: %s free, a %s disk does "
				"not fit",
				b->ds,
				pb_size_format(fr, sizeof(fr),
					       ds[i].free_space),
				pb_size_format(sz, sizeof(sz), p->disk_size));
		if (!err)
			fprintf(out,
				"datastore %s (%s): %s free, disks are "
				"created one at a time\n",
				b->ds, ds[i].type,
				pb_size_format(fr, sizeof(fr),
					       ds[i].free_space));
		free(ds);
	}
	if (!err && raw) {
		h.ref = b->vm.host;
		if (p->vsphere.host)
			err = sess_err(b,
				       vs_host_find(b->s, &h, p->vsphere.host));
		if (!err)
			err = sess_err(b,
				       vs_host_luns(b->s, &h.ref, &luns, &n));
		for (i = 0; !err && i < n; i++)
			if (!strcmp(luns[i].canonical_name, p->vsphere.lun))
				break;
		if (!err && i == n)
			err = pb_fail(b->errbuf, PB_ERR_INPUT,
				      "LUN %s: not on the VM's host",
				      p->vsphere.lun);
		if (!err && luns[i].used_by[0])
			err = pb_fail(b->errbuf, PB_ERR_INPUT,
				      "LUN %s: in use (%s)", p->vsphere.lun,
				      luns[i].used_by);
		if (!err)
			fprintf(out, "LUN %s: %s, free\n", p->vsphere.lun,
				pb_size_format(sz, sizeof(sz),
					       luns[i].capacity_bytes));
		free(luns);
	}
	if (!err) {
		/* the guest login, without creating anything */
		int code;

		err = vs_guest_wait(b->s, &b->vm, 0, 1, NULL, &code);
		if (err == PB_ERR_NOTFOUND) /* no pid 0: the login worked */
			err = PB_OK;
		err = sess_err(b, err);
		if (!err)
			fprintf(out, "guest login: accepted\n");
	}
	return err;
}

static enum pb_error vsb_describe(struct pb_backend *b, json_t *env)
{
	const struct vs_about *a = vs_session_about(b->s);
	struct vs_host_info *hs = NULL;
	struct vs_ds_info *ds = NULL;
	size_t n = 0, i;
	json_t *host = json_null(), *store = json_null();

	if (!vs_host_list(b->s, &hs, &n))
		for (i = 0; i < n; i++)
			if (!strcmp(hs[i].ref.value, b->vm.host.value)) {
				json_decref(host);
				host = json_pack("{s:s,s:s,s:s}", "name",
						 hs[i].name, "version",
						 hs[i].version, "build",
						 hs[i].build);
			}
	free(hs);
	if (!vs_datastore_list(b->s, &ds, &n))
		for (i = 0; i < n; i++)
			if (!strcmp(ds[i].name, b->ds)) {
				json_decref(store);
				store = json_pack("{s:s,s:s,s:I}", "name",
						  ds[i].name, "type",
						  ds[i].type, "capacity",
						  (json_int_t)ds[i].capacity);
			}
	free(ds);
	json_object_set_new(env, "server",
			    json_pack("{s:s,s:s,s:s,s:s,s:s}", "url", b->url,
				      "product", a->full_name, "version",
				      a->version, "build", a->build,
				      "api_version",
				      vs_session_api_version(b->s)));
	json_object_set_new(env, "host", host);
	json_object_set_new(env, "datastore", store);
	json_object_set_new(env, "vm",
			    json_pack("{s:s,s:s,s:s}", "name", b->vm.name,
				      "moref", b->vm.ref.value, "path",
				      b->vm.path));
	return PB_OK;
}

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
static char *fetch_guest_file(struct pb_backend *b, const char *guest_path,
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

static enum pb_error vsb_prepare(struct pb_backend *b)
{
	const struct pb_profile *p = b->p;
	const char *keys[PB_MAX_KV + 1], *vals[PB_MAX_KV + 1];
	char sum[2 * EVP_MAX_MD_SIZE + 1], there[2 * EVP_MAX_MD_SIZE + 1];
	char *data;
	size_t len;
	unsigned i, n = 0;
	enum pb_error err;
	int code;

	b->errbuf[0] = '\0';
	/* the guest sees disk serials only with disk.EnableUUID */
	keys[n] = "disk.EnableUUID";
	vals[n++] = "TRUE";
	for (i = 0; i < p->vsphere.extra_config.n; i++, n++) {
		keys[n] = p->vsphere.extra_config.key[i];
		vals[n] = p->vsphere.extra_config.val[i];
	}
	err = sess_err(b,
		       vs_vm_set_extra_config(b->s, &b->vm.ref, keys, vals, n));
	if (err)
		return err;
	data = pb_slurp_file(p->vsphere.runner, &len);
	if (!data)
		return pb_fail(b->errbuf, PB_ERR_INPUT, "runner %s: %s",
			       p->vsphere.runner, strerror(errno));
	sha256_hex(sum, data, len);
	free(data);
	/* named by its checksum: an existing copy is this runner */
	snprintf(b->runner_guest, sizeof(b->runner_guest),
		 "%s/provbench-runner-%.16s", p->vsphere.guest_dir, sum);
	err = sess_err(
		b, vs_guest_mkdir(b->s, &b->vm, p->vsphere.guest_dir, true));
	if (err == PB_ERR_FAULT) { /* it exists */
		err = PB_OK;
		b->errbuf[0] = '\0';
	}
	/* only the guest user may write where the runner lives: nobody else
	 * in the guest can swap it between upload and run */
	if (!err) {
		err = sess_err(b, vs_guest_chmod(b->s, &b->vm,
						 p->vsphere.guest_dir, 0700));
		if (err)
			return pb_fail(b->errbuf, err,
				       "guest directory %s: cannot make it "
				       "private to the guest user",
				       p->vsphere.guest_dir);
	}
	if (err)
		return err;
	/* skip the upload when the guest's copy has the same checksum */
	data = fetch_guest_file(b, b->runner_guest, &len);
	if (data)
		sha256_hex(there, data, len);
	err = data && !strcmp(there, sum) ? PB_OK : PB_ERR_NOTFOUND;
	free(data);
	if (err) {
		b->errbuf[0] = '\0';
		err = sess_err(b,
			       vs_guest_upload(b->s, &b->vm, p->vsphere.runner,
					       b->runner_guest, 0700, true));
		/* what will run is what was sent: read back and compared */
		data = err ? NULL : fetch_guest_file(b, b->runner_guest, &len);
		if (data)
			sha256_hex(there, data, len);
		if (!err && (!data || strcmp(there, sum)))
			err = pb_fail(b->errbuf, PB_ERR_PROTOCOL,
				      "runner in the guest (%s) does not have "
				      "the checksum sent (sha256 %.16s...)",
				      b->runner_guest, sum);
		free(data);
	}
	for (i = 0; !err && i < p->sysctl.n; i++) {
		char args[512];
		int64_t pid;

		snprintf(args, sizeof(args), "-w %s=%s", p->sysctl.key[i],
			 p->sysctl.val[i]);
		err = sess_err(b, vs_guest_start(b->s, &b->vm, "/sbin/sysctl",
						 args, NULL, &pid));
		if (!err)
			err = sess_err(b, vs_guest_wait(b->s, &b->vm, pid, 60,
							NULL, &code));
		if (!err && code)
			err = pb_fail(b->errbuf, PB_ERR_FAULT,
				      "guest sysctl %s failed (exit %d)", args,
				      code);
	}
	return err;
}

static enum pb_error vsb_plan_disk(struct pb_backend *b, enum pb_mode mode,
				   unsigned seq, struct pb_disk *d, json_t *j)
{
	d->mode = mode;
	snprintf(d->id, sizeof(d->id), "%s-%u", b->run_id, seq);
	if (b->vm_dir[0])
		snprintf(d->file, sizeof(d->file), "[%s] %s/provbench-%s.vmdk",
			 b->ds, b->vm_dir, d->id);
	else
		snprintf(d->file, sizeof(d->file), "[%s] provbench-%s.vmdk",
			 b->ds, d->id);
	json_object_set_new(j, "target", json_string(b->key));
	json_object_set_new(j, "vm", json_string(b->vm.ref.value));
	json_object_set_new(j, "vm_name", json_string(b->vm.name));
	json_object_set_new(j, "file", json_string(d->file));
	return PB_OK;
}

static enum pb_error vsb_create(struct pb_backend *b, struct pb_disk *d)
{
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	enum pb_error err;
	uint64_t t0;

	b->errbuf[0] = '\0';
	sp.mode = vs_mode(d->mode);
	sp.size_bytes = b->p->disk_size;
	sp.datastore = b->ds;
	sp.lun = b->p->vsphere.lun;
	sp.host = b->p->vsphere.host;
	sp.controller_key = b->p->vsphere.controller;
	sp.file = d->file;
	t0 = pb_now_ns();
	err = sess_err(b, vs_disk_add(b->s, &b->vm.ref, &sp, &b->cur));
	d->provision_s = (double)(pb_now_ns() - t0) / 1e9;
	if (err)
		return err;
	snprintf(d->uuid, sizeof(d->uuid), "%s", b->cur.uuid);
	/* what the server applied, which a report must show as it is */
	d->readback = json_pack(
		"{s:s,s:i,s:s,s:I,s:o,s:o,s:s?}", "mode",
		vs_disk_mode_name(b->cur.mode), "key", b->cur.key, "backing",
		b->cur.backing, "capacity", (json_int_t)b->cur.capacity_bytes,
		"thin_provisioned",
		b->cur.thin_provisioned < 0
			? json_null()
			: json_boolean(b->cur.thin_provisioned),
		"eagerly_scrub",
		b->cur.eagerly_scrub < 0 ? json_null()
					 : json_boolean(b->cur.eagerly_scrub),
		"compatibility_mode",
		b->cur.compat_mode[0] ? b->cur.compat_mode : NULL);
	if (!d->uuid[0])
		return pb_fail(b->errbuf, PB_ERR_PROTOCOL,
			       "disk %s: the server reported no uuid, so the "
			       "guest cannot find it",
			       d->file);
	return PB_OK;
}

/*
 * Wait for the guest runner in slices of a few seconds; between them,
 * fetch its progress file and pass it on (a run can last hours).
 */
static enum pb_error wait_runner(struct pb_backend *b, int64_t pid,
				 long timeout_s, const struct pb_run_ctx *ctx,
				 const char *prog, int *code)
{
	time_t end = time(NULL) + timeout_s;
	enum pb_error err;
	json_t *pj;
	char *text;
	size_t len;

	for (;;) {
		err = vs_guest_wait(b->s, &b->vm, pid, 3, ctx->stop, code);
		if (err != PB_ERR_TIMEOUT)
			return err;
		if (time(NULL) >= end)
			return pb_fail(b->errbuf, PB_ERR_TIMEOUT,
				       "the runner is still running after "
				       "%ld s (timeout_s)",
				       timeout_s);
		if (!ctx->progress)
			continue;
		/* no file yet (the first second) is not an error */
		text = fetch_guest_file(b, prog, &len);
		pj = text ? json_loadb(text, len, 0, NULL) : NULL;
		free(text);
		if (pj)
			ctx->progress(ctx, pj);
		json_decref(pj);
	}
}

static enum pb_error vsb_run(struct pb_backend *b, const struct pb_disk *d,
			     const char *args, long timeout_s,
			     const struct pb_run_ctx *ctx,
			     const char *local_out)
{
	const struct pb_profile *p = b->p;
	char out[700], prog[700], gcmd[700], lcmd[1300];
	struct pb_buf cmd = PB_BUF_INIT(16384);
	int64_t pid = 0;
	int code = -1;
	enum pb_error err;

	b->errbuf[0] = '\0';
	snprintf(out, sizeof(out), "%s/out-%s.json", p->vsphere.guest_dir,
		 d->id);
	snprintf(prog, sizeof(prog), "%s/progress-%s.json",
		 p->vsphere.guest_dir, d->id);
	snprintf(gcmd, sizeof(gcmd), "%s/command-%s.txt", p->vsphere.guest_dir,
		 d->id);
	if (ctx && ctx->command) {
		/* shell text goes as a file, never through the argument
		 * string the guest splits into words */
		snprintf(lcmd, sizeof(lcmd), "%s.command", local_out);
		err = pb_write_atomic(lcmd, ctx->command, strlen(ctx->command),
				      b->errbuf);
		if (!err)
			err = sess_err(b, vs_guest_upload(b->s, &b->vm, lcmd,
							  gcmd, 0600, true));
		remove(lcmd);
		if (err)
			return err;
	}
	if (pb_buf_printf(&cmd,
			  "%s --target uuid:%s --by-id-dir %s -q -o %s "
			  "--progress-file %s%s%s",
			  args, d->uuid, p->vsphere.by_id_dir, out, prog,
			  ctx && ctx->command ? " --command-file " : "",
			  ctx && ctx->command ? gcmd : "")) {
		pb_buf_dispose(&cmd);
		return pb_fail(b->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = sess_err(b, vs_guest_start(b->s, &b->vm, b->runner_guest,
					 cmd.data, p->vsphere.guest_dir, &pid));
	pb_buf_dispose(&cmd);
	if (err)
		return err;
	err = wait_runner(b, pid, timeout_s, ctx, prog, &code);
	if (err == PB_ERR_INTERRUPTED || err == PB_ERR_TIMEOUT) {
		/* the runner drains and writes its partial JSON on SIGTERM;
		 * Tools' terminate is the hard stop */
		vs_guest_kill(b->s, &b->vm, pid);
		vs_guest_wait(b->s, &b->vm, pid, 30, NULL, &code);
		sess_err(b, err);
	} else if (err) {
		return sess_err(b, err);
	}
	/* partial results are worth having too */
	if (vs_guest_download(b->s, &b->vm, out, local_out) && !err)
		err = sess_err(b, PB_ERR_PROTOCOL);
	vs_guest_remove(b->s, &b->vm, out, false);
	vs_guest_remove(b->s, &b->vm, prog, false);
	if (ctx && ctx->command)
		vs_guest_remove(b->s, &b->vm, gcmd, false);
	if (!err && code)
		err = pb_fail(b->errbuf, PB_ERR_FAULT,
			      "the runner exited %d in the guest", code);
	return err;
}

static enum pb_error vsb_destroy(struct pb_backend *b, const struct pb_disk *d)
{
	b->errbuf[0] = '\0';
	if (strcmp(b->cur.file, d->file))
		return pb_fail(b->errbuf, PB_ERR_INTERNAL,
			       "disk %s is not the one in progress", d->file);
	return sess_err(b, vs_disk_remove(b->s, &b->vm.ref, &b->cur, false));
}

/*
 * A leftover: the VM's disk whose backing file is the journaled one. Only
 * that exact file is touched; a disk not found is already gone.
 */
static enum pb_error vsb_cleanup(struct pb_backend *b, json_t *entry)
{
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *vm = json_string_value(json_object_get(entry, "vm"));
	struct vs_vm_info info;
	struct vs_disk *disks = NULL;
	char ref[200];
	size_t n = 0, i;
	enum pb_error err;

	b->errbuf[0] = '\0';
	if (!file || !vm || !strstr(file, "provbench-"))
		return pb_fail(b->errbuf, PB_ERR_INPUT,
			       "journal entry without a provbench disk file");
	snprintf(ref, sizeof(ref), "moref:%s", vm);
	err = vs_vm_find(b->s, &info, ref);
	if (err == PB_ERR_NOTFOUND)
		return err;
	if (!err)
		err = vs_disk_list(b->s, &info.ref, &disks, &n);
	for (i = 0; !err && i < n; i++)
		if (!strcmp(disks[i].file, file))
			break;
	if (!err && i == n)
		err = PB_ERR_NOTFOUND;
	else if (!err)
		err = vs_disk_remove(b->s, &info.ref, &disks[i], false);
	free(disks);
	if (err && err != PB_ERR_NOTFOUND)
		sess_err(b, err);
	return err;
}

const struct backend_ops vsphere_backend = {
	.name = "vsphere",
	.flags = PB_BACKEND_F_RDM | PB_BACKEND_F_GUEST_VM,
	.open = vsb_open,
	.check = vsb_check,
	.describe = vsb_describe,
	.prepare = vsb_prepare,
	.plan_disk = vsb_plan_disk,
	.create_disk = vsb_create,
	.run = vsb_run,
	.destroy_disk = vsb_destroy,
	.cleanup = vsb_cleanup,
	.target_key = vsb_target_key,
	.error = vsb_error,
	.close = vsb_close,
};
