/*
 * backend_vsphere.c - the vsphere backend: disks of each mode created on
 * and attached to a test VM with ReconfigVM_Task, the static runner
 * uploaded once and run inside the guest through VMware Tools against the
 * disk's identity, its JSON downloaded, the disk destroyed.
 *
 * Disks are named by provbench ("[ds] vmdir/provbench-RUN-N.vmdk") so the
 * journal records the exact path before the disk exists, and cleanup can
 * find it again without guessing.
 *
 * What real servers make necessary:
 *   - settings such as disk.EnableUUID take effect at power-on only: they
 *     are read first, and a change on a running VM needs a power cycle the
 *     profile allows (vsphere.power_cycle); nothing is measured with a
 *     setting that is not live;
 *   - a guest sees a virtual disk (and a virtual-mode RDM) by the disk's
 *     uuid, but a physical-mode RDM as the LUN itself: by its NAA id;
 *   - provisioning time is the server's (the task's start to completion);
 *   - guest processes are polled sparingly (each poll is a guest login),
 *     and one Tools forgot is still judged by the output it left.
 */
#include <errno.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "harness_int.h"
#include "vsphere.h"

/* one setting the profile needs live, as found and as it will be */
struct setting {
	const char *key;
	const char *want;
	char had[256];
	bool change;
};

struct pb_backend {
	const struct pb_profile *p;
	struct vs_session *s;
	struct vs_vm_info vm;
	struct vs_vm_state state;
	struct vs_disk cur; /* the disk of the mode in progress */
	char url[512];
	char key[800];
	char ds[256];	  /* datastore for new disks */
	char vm_dir[300]; /* the VM's folder, when on that datastore */
	char run_id[32];
	char runner_guest[600];
	struct setting set[PB_MAX_KV + 1];
	unsigned nset;
	bool power_cycled;
	char power_cycled_at[32];
	char errbuf[PB_ERRBUF_SIZE];
};

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
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
	char edition[128];
	enum pb_error err;

	*out = NULL;
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->p = p;
	err = vs_config_from_env(&cfg, env_get, NULL, errbuf);
	if (!err)
		err = vs_session_open(&b->s, &cfg, NULL, NULL, errbuf);
	/* a free ESXi licence refuses every write: no run can work */
	if (!err && (err = vs_license_check(b->s, edition, sizeof(edition))))
		pb_fail(errbuf, err, "%s", vs_session_error(b->s));
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

/* ---- settings that take effect at power-on ---- */

/* VMX booleans are TRUE/true/1; other values compare exactly */
static bool same_value(const char *a, const char *b)
{
	static const char *const yes[] = {"true", "1", "yes"};
	bool ya = false, yb = false;
	size_t i;

	if (!strcasecmp(a, b))
		return true;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		ya |= !strcasecmp(a, yes[i]);
		yb |= !strcasecmp(b, yes[i]);
	}
	return ya && yb;
}

/* disk.EnableUUID and the profile's extraConfig, against what the VM has */
static enum pb_error settings_read(struct pb_backend *b)
{
	const struct pb_profile *p = b->p;
	const char *keys[PB_MAX_KV + 1];
	char(*vals)[256];
	enum pb_error err;
	unsigned i;

	b->nset = 0;
	/* the guest finds disks by uuid only with disk.EnableUUID */
	b->set[b->nset].key = "disk.EnableUUID";
	b->set[b->nset++].want = "TRUE";
	for (i = 0; i < p->vsphere.extra_config.n; i++) {
		if (!strcmp(p->vsphere.extra_config.key[i], "disk.EnableUUID"))
			continue;
		b->set[b->nset].key = p->vsphere.extra_config.key[i];
		b->set[b->nset++].want = p->vsphere.extra_config.val[i];
	}
	vals = calloc(b->nset, sizeof(*vals));
	if (!vals)
		return pb_fail(b->errbuf, PB_ERR_NOMEM, "out of memory");
	for (i = 0; i < b->nset; i++)
		keys[i] = b->set[i].key;
	err = sess_err(b, vs_vm_extra_config_get(b->s, &b->vm.ref, keys, vals,
						 b->nset));
	for (i = 0; !err && i < b->nset; i++) {
		snprintf(b->set[i].had, sizeof(b->set[i].had), "%s", vals[i]);
		b->set[i].change = !same_value(vals[i], b->set[i].want);
	}
	free(vals);
	return err;
}

/* The settings to change, as one line; "" when none. */
static unsigned settings_to_change(const struct pb_backend *b, char *out,
				   size_t len)
{
	unsigned i, n = 0;
	size_t k = 0;

	out[0] = '\0';
	for (i = 0; i < b->nset; i++) {
		if (!b->set[i].change)
			continue;
		k += (size_t)snprintf(out + k, k < len ? len - k : 0,
				      "%s%s is %s%s%s, needs %s", n ? "; " : "",
				      b->set[i].key, b->set[i].had[0] ? "'" : "",
				      b->set[i].had[0] ? b->set[i].had : "unset",
				      b->set[i].had[0] ? "'" : "",
				      b->set[i].want);
		n++;
	}
	return n;
}

static enum pb_error settings_refuse(struct pb_backend *b, const char *what)
{
	return pb_fail(b->errbuf, PB_ERR_INPUT,
		       "VM %s: %s; these take effect only when the VM powers "
		       "on: set vsphere.power_cycle: true to let provbench "
		       "shut the guest down and power it on again, or set "
		       "them and power-cycle the VM yourself",
		       b->vm.name, what);
}

/* Make the settings live: set them with the VM off, power on, wait for
 * Tools; then the VM is read again (DRS may place it on another host). */
static enum pb_error settings_apply(struct pb_backend *b)
{
	const char *keys[PB_MAX_KV + 1], *vals[PB_MAX_KV + 1];
	unsigned i, n = 0;
	enum pb_error err;
	char ref[200];

	for (i = 0; i < b->nset; i++)
		if (b->set[i].change) {
			keys[n] = b->set[i].key;
			vals[n++] = b->set[i].want;
		}
	if (!n)
		return PB_OK;
	fprintf(stderr,
		"provbench: power-cycling VM %s to make %u setting(s) live "
		"(vsphere.power_cycle)\n",
		b->vm.name, n);
	err = sess_err(b, vs_vm_power_cycle(b->s, &b->vm.ref, keys, vals, n,
					    b->p->vsphere.task_timeout_s));
	if (err)
		return err;
	b->power_cycled = true;
	pb_utc_iso(b->power_cycled_at, sizeof(b->power_cycled_at));
	snprintf(ref, sizeof(ref), "moref:%s", b->vm.ref.value);
	return sess_err(b, vs_vm_find(b->s, &b->vm, ref));
}

/* ---- check ---- */

/* A small file to the guest and back, through the path runs use: trust
 * and name problems show before any disk exists. */
static enum pb_error transfer_round_trip(struct pb_backend *b, FILE *out)
{
	const char *gdir = b->p->vsphere.guest_dir;
	char up[64] = "/tmp/provbench-check-XXXXXX", down[80], guest[700];
	char data[64], *back = NULL;
	enum pb_error err;
	size_t len = 0;
	int fd;

	fd = mkstemp(up);
	if (fd < 0)
		return pb_fail(b->errbuf, PB_ERR_IO, "%s: %s", up,
			       strerror(errno));
	snprintf(data, sizeof(data), "provbench transfer check %llx\n",
		 (unsigned long long)pb_now_ns());
	if (write(fd, data, strlen(data)) != (ssize_t)strlen(data)) {
		close(fd);
		unlink(up);
		return pb_fail(b->errbuf, PB_ERR_IO, "%s: short write", up);
	}
	close(fd);
	snprintf(down, sizeof(down), "%s.back", up);
	snprintf(guest, sizeof(guest), "%s/check-%s.txt", gdir, b->run_id);
	err = sess_err(b, vs_guest_mkdir(b->s, &b->vm, gdir, true));
	if (err == PB_ERR_FAULT) { /* it exists */
		err = PB_OK;
		b->errbuf[0] = '\0';
	}
	if (!err)
		err = sess_err(b, vs_guest_upload(b->s, &b->vm, up, guest, 0600,
						  true));
	if (!err)
		err = sess_err(b,
			       vs_guest_download(b->s, &b->vm, guest, down));
	if (!err) {
		back = pb_slurp_file(down, &len);
		if (!back || len != strlen(data) || memcmp(back, data, len))
			err = pb_fail(b->errbuf, PB_ERR_PROTOCOL,
				      "guest transfer: the file came back "
				      "different from what was sent");
	}
	vs_guest_remove(b->s, &b->vm, guest, false);
	free(back);
	unlink(up);
	unlink(down);
	if (!err)
		fprintf(out, "guest transfer: %zu bytes up and back through %s\n",
			len, vs_session_transfer_note(b->s));
	return err;
}

static enum pb_error check_lun(struct pb_backend *b, FILE *out)
{
	const struct pb_profile *p = b->p;
	struct vs_host_info h;
	struct vs_lun lun;
	char sz[32], dsz[32];
	enum pb_error err = PB_OK;

	h.ref = b->vm.host;
	if (p->vsphere.host)
		err = sess_err(b, vs_host_find(b->s, &h, p->vsphere.host));
	if (!err)
		err = sess_err(b, vs_lun_find(b->s, &h.ref, p->vsphere.lun,
					      &lun));
	/* the passes cover disk_size bytes of the LUN */
	if (!err && lun.capacity_bytes < p->disk_size)
		err = pb_fail(b->errbuf, PB_ERR_INPUT,
			      "LUN %s: %s, smaller than disk_size %s",
			      p->vsphere.lun,
			      pb_size_format(sz, sizeof(sz),
					     lun.capacity_bytes),
			      pb_size_format(dsz, sizeof(dsz), p->disk_size));
	if (!err)
		fprintf(out, "LUN %s: %s %s, %s, free, VAAI %s\n",
			p->vsphere.lun, lun.vendor, lun.model,
			pb_size_format(sz, sizeof(sz), lun.capacity_bytes),
			lun.vaai[0] ? lun.vaai : "unknown");
	return err;
}

static enum pb_error vsb_check(struct pb_backend *b, const struct pb_plan *plan,
			       FILE *out)
{
	const struct pb_profile *p = b->p;
	struct vs_ds_detail ds;
	bool flat = false, raw = false;
	char sz[32], fr[32], change[1024];
	enum pb_error err, later = PB_OK;
	size_t i;
	int code;

	b->errbuf[0] = '\0';
	err = sess_err(b, vs_vm_state_get(b->s, &b->vm.ref, &b->state));
	if (err)
		return err;
	fprintf(out, "server: %s, API %s (speaking %s)\n",
		vs_session_about(b->s)->full_name,
		vs_session_about(b->s)->api_version,
		vs_session_api_version(b->s));
	fprintf(out, "VM %s (%s): %s, tools %s, %s\n", b->vm.name,
		b->vm.ref.value, b->state.power_state, b->state.tools,
		b->state.guest_full_name[0] ? b->state.guest_full_name
					    : "guest OS unknown");
	if (strcmp(b->state.power_state, "poweredOn"))
		return pb_fail(b->errbuf, PB_ERR_INPUT, "VM %s is %s, not on",
			       b->vm.name, b->state.power_state);
	if (strcmp(b->state.tools, "guestToolsRunning"))
		return pb_fail(b->errbuf, PB_ERR_INPUT,
			       "VM %s: VMware Tools not running (%s): the "
			       "runner cannot be started",
			       b->vm.name, b->state.tools);
	if (b->state.has_snapshot)
		fprintf(out,
			"warning: VM %s has snapshots: every disk write goes "
			"to a delta disk, not to the disk being measured "
			"(the new disks are added outside them, but the "
			"guest's own I/O is not)\n",
			b->vm.name);
	err = settings_read(b);
	if (err)
		return err;
	for (i = 0; i < b->nset; i++)
		if (!b->set[i].change)
			fprintf(out, "setting %s = %s: set, live since the VM's "
				     "power-on%s%s\n",
				b->set[i].key, b->set[i].had,
				b->state.boot_time[0] ? " at " : "",
				b->state.boot_time);
	if (settings_to_change(b, change, sizeof(change))) {
		if (p->vsphere.power_cycle)
			fprintf(out,
				"settings: %s; a run power-cycles the VM to "
				"make them live (vsphere.power_cycle)\n",
				change);
		else
			later = settings_refuse(b, change);
	}
	for (i = 0; i < plan->n; i++) {
		if (pb_mode_is_raw_mapping(plan->items[i].mode))
			raw = true;
		else
			flat = true;
	}
	if (flat) {
		err = sess_err(b, vs_datastore_detail(b->s, &b->vm.host, b->ds,
						      &ds));
		/* one disk at a time, and eager allocates all of it */
		if (!err && ds.free_space < p->disk_size)
			err = pb_fail(
				b->errbuf, PB_ERR_INPUT,
				"datastore %s: %s free, a %s disk does "
				"not fit",
				b->ds,
				pb_size_format(fr, sizeof(fr), ds.free_space),
				pb_size_format(sz, sizeof(sz), p->disk_size));
		if (!err)
			fprintf(out,
				"datastore %s: %s%s%s, %s free of %s, VAAI %s; "
				"disks are created one at a time\n",
				b->ds, ds.type, ds.vmfs_version[0] ? " " : "",
				ds.vmfs_version,
				pb_size_format(fr, sizeof(fr), ds.free_space),
				pb_size_format(sz, sizeof(sz), ds.capacity),
				ds.vaai[0] ? ds.vaai : "unknown");
	}
	if (!err && raw)
		err = check_lun(b, out);
	if (!err) {
		/* the guest login, without creating anything */
		err = vs_guest_wait(b->s, &b->vm, 0, 1, NULL, &code);
		if (err == PB_ERR_NOTFOUND) /* no pid 0: the login worked */
			err = PB_OK;
		err = sess_err(b, err);
		if (!err)
			fprintf(out, "guest login: accepted\n");
	}
	if (!err)
		err = transfer_round_trip(b, out);
	if (!err && access(p->vsphere.runner, R_OK))
		err = pb_fail(b->errbuf, PB_ERR_INPUT, "runner %s: %s",
			      p->vsphere.runner, strerror(errno));
	return err ? err : later;
}

/* ---- describe ---- */

static json_t *settings_json(const struct pb_backend *b)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; i < b->nset; i++)
		json_array_append_new(
			a, json_pack("{s:s,s:s,s:s}", "key", b->set[i].key,
				     "value", b->set[i].want, "live",
				     b->set[i].change
					     ? "set by provbench, live since "
					       "its power cycle"
					     : "as found: set before the run, "
					       "live since the VM's "
					       "power-on"));
	return a;
}

static enum pb_error vsb_describe(struct pb_backend *b, json_t *env)
{
	const struct vs_about *a = vs_session_about(b->s);
	struct vs_host_info *hs = NULL;
	struct vs_ds_detail ds;
	struct vs_lun lun;
	size_t n = 0, i;
	json_t *host = json_null(), *store = json_null(), *jl = json_null();

	if (!vs_host_list(b->s, &hs, &n))
		for (i = 0; i < n; i++)
			if (!strcmp(hs[i].ref.value, b->vm.host.value)) {
				json_decref(host);
				host = json_pack("{s:s,s:s,s:s,s:s}", "name",
						 hs[i].name, "moref",
						 hs[i].ref.value, "version",
						 hs[i].version, "build",
						 hs[i].build);
			}
	free(hs);
	/* free space at the start: a full datastore slows thin disks */
	if (!vs_datastore_detail(b->s, &b->vm.host, b->ds, &ds)) {
		json_decref(store);
		store = json_pack(
			"{s:s,s:s,s:s?,s:I,s:I,s:s?}", "name", ds.name, "type",
			ds.type, "vmfs_version",
			ds.vmfs_version[0] ? ds.vmfs_version : NULL, "capacity",
			(json_int_t)ds.capacity, "free_at_start",
			(json_int_t)ds.free_space, "vaai",
			ds.vaai[0] ? ds.vaai : NULL);
	}
	if (b->p->vsphere.lun && !vs_lun_find(b->s, &b->vm.host,
					      b->p->vsphere.lun, &lun)) {
		json_decref(jl);
		jl = json_pack("{s:s,s:s,s:s,s:I,s:s?}", "canonical_name",
			       lun.canonical_name, "vendor", lun.vendor,
			       "model", lun.model, "capacity",
			       (json_int_t)lun.capacity_bytes, "vaai",
			       lun.vaai[0] ? lun.vaai : NULL);
	}
	b->errbuf[0] = '\0';
	json_object_set_new(
		env, "server",
		json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "url", b->url,
			  "product", a->full_name, "version", a->version,
			  "build", a->build, "api_type", a->api_type,
			  "api_version", a->api_version, "api_version_used",
			  vs_session_api_version(b->s)));
	json_object_set_new(env, "host", host);
	json_object_set_new(env, "datastore", store);
	json_object_set_new(env, "lun", jl);
	json_object_set_new(
		env, "vm",
		json_pack("{s:s,s:s,s:s,s:s,s:b,s:b,s:s?,s:o}", "name",
			  b->vm.name, "moref", b->vm.ref.value, "path",
			  b->vm.path, "guest", b->state.guest_full_name,
			  "snapshots", b->state.has_snapshot, "power_cycled",
			  b->power_cycled, "power_cycled_at",
			  b->power_cycled ? b->power_cycled_at : NULL,
			  "settings", settings_json(b)));
	json_object_set_new(env, "guest_transfer",
			    json_string(vs_session_transfer_note(b->s)));
	return PB_OK;
}

/* ---- prepare ---- */

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
	char sum[2 * EVP_MAX_MD_SIZE + 1], there[2 * EVP_MAX_MD_SIZE + 1];
	char change[1024], *data;
	size_t len;
	unsigned i;
	enum pb_error err;
	int code;

	b->errbuf[0] = '\0';
	err = sess_err(b, vs_vm_state_get(b->s, &b->vm.ref, &b->state));
	if (!err)
		err = settings_read(b);
	if (err)
		return err;
	/* nothing is measured with a setting that is not live */
	if (settings_to_change(b, change, sizeof(change))) {
		if (!p->vsphere.power_cycle)
			return settings_refuse(b, change);
		err = settings_apply(b);
		if (!err)
			err = sess_err(b, vs_vm_state_get(b->s, &b->vm.ref,
							  &b->state));
		if (err)
			return err;
	}
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
			err = pb_fail(b->errbuf, PB_ERR_CHILD,
				      "guest sysctl %s failed (exit %d)", args,
				      code);
	}
	return err;
}

/* ---- disks ---- */

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

/* "naa.6000c29..." -> "6000c29...": what a guest sees of a LUN */
static void naa_hex(char *out, size_t len, const char *canonical)
{
	const char *p = !strncmp(canonical, "naa.", 4) ? canonical + 4
						       : canonical;

	snprintf(out, len, "%s", p);
}

static enum pb_error vsb_create(struct pb_backend *b, struct pb_disk *d)
{
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	const struct vs_task_times *tt;
	enum pb_error err;
	uint64_t t0;

	b->errbuf[0] = '\0';
	sp.mode = d->mode;
	sp.size_bytes = b->p->disk_size;
	sp.datastore = b->ds;
	sp.lun = b->p->vsphere.lun;
	sp.host = b->p->vsphere.host;
	sp.controller_key = b->p->vsphere.controller;
	sp.file = d->file;
	t0 = pb_now_ns();
	err = sess_err(b, vs_disk_add(b->s, &b->vm.ref, &sp, &b->cur));
	d->provision_wall_s = (double)(pb_now_ns() - t0) / 1e9;
	tt = vs_session_last_task(b->s);
	/* the server's own time for the reconfiguration (eager zeroing is
	 * in it); the LUN lookup and the read-backs around it are not */
	d->provision_s = tt->have_server ? tt->server_s : d->provision_wall_s;
	d->provision_source = tt->have_server ? "server task" : "client wall";
	if (err)
		return err;
	/* a physical RDM passes SCSI INQUIRY through: the guest sees the
	 * LUN's own identity (wwn-0x<naa>), not the mapping file's uuid */
	if (d->mode == PB_MODE_RDMP && b->cur.lun_name[0])
		naa_hex(d->uuid, sizeof(d->uuid), b->cur.lun_name);
	else
		snprintf(d->uuid, sizeof(d->uuid), "%s", b->cur.uuid);
	/* what the server applied, which a report must show as it is */
	d->readback = json_pack(
		"{s:s,s:i,s:s,s:I,s:o,s:o,s:s?,s:s?}", "mode",
		pb_mode_name(b->cur.mode), "key", b->cur.key, "backing",
		b->cur.backing, "capacity", (json_int_t)b->cur.capacity_bytes,
		"thin_provisioned",
		b->cur.thin_provisioned < 0
			? json_null()
			: json_boolean(b->cur.thin_provisioned),
		"eagerly_scrub",
		b->cur.eagerly_scrub < 0 ? json_null()
					 : json_boolean(b->cur.eagerly_scrub),
		"compatibility_mode",
		b->cur.compat_mode[0] ? b->cur.compat_mode : NULL, "lun",
		b->cur.lun_name[0] ? b->cur.lun_name : NULL);
	if (!d->uuid[0])
		return pb_fail(b->errbuf, PB_ERR_PROTOCOL,
			       "disk %s: the server reported no uuid, so the "
			       "guest cannot find it",
			       d->file);
	return PB_OK;
}

/* ---- run ---- */

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
 * about to finish. Its progress is fetched at
 * each poll. *aged_out: Tools no longer list it (it ended minutes ago).
 */
static enum pb_error wait_runner(struct pb_backend *b, int64_t pid,
				 long timeout_s, const struct pb_run_ctx *ctx,
				 const char *prog, int *code, bool *aged_out)
{
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
			b->errbuf[0] = '\0';
			return PB_OK;
		}
		if (err || done)
			return sess_err(b, err);
		if (ctx->stop && *ctx->stop)
			return pb_fail(b->errbuf, PB_ERR_INTERRUPTED,
				       "interrupted");
		el_ms = (pb_now_ns() - start) / 1000000;
		if (el_ms >= (uint64_t)timeout_s * 1000)
			return pb_fail(b->errbuf, PB_ERR_TIMEOUT,
				       "the runner is still running after "
				       "%ld s (timeout_s)",
				       timeout_s);
		if (ctx->progress) {
			/* no file yet (the first second) is not an error */
			text = fetch_guest_file(b, prog, &len);
			pj = text ? json_loadb(text, len, 0, NULL) : NULL;
			free(text);
			if (pj) {
				eta = json_number_value(
					json_object_get(pj, "eta_s"));
				ctx->progress(ctx, pj);
			}
			json_decref(pj);
		}
		if (el_ms < 60000)
			next_ms = next_ms * 2 > 5000 ? 5000 : next_ms * 2;
		else
			next_ms = next_ms < 10000 ? 10000
				  : next_ms * 3 / 2 > 30000 ? 30000
							    : next_ms * 3 / 2;
		/* about to finish: look again just after */
		if (eta >= 0 && eta * 1000 + 500 < (double)next_ms)
			next_ms = (uint64_t)(eta * 1000) + 500;
		if (next_ms < 250)
			next_ms = 250;
		sleep_ms(next_ms, ctx);
	}
}

/* The last line of the runner's log in the guest: its own error. */
static void runner_message(struct pb_backend *b, const char *log, char *out,
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

	json_array_foreach(json_object_get(doc, "passes"), i, p)
		ok = ok && json_is_true(json_object_get(p, "complete"));
	ok = ok && json_array_size(json_object_get(doc, "passes"));
	json_decref(doc);
	return ok;
}

static enum pb_error vsb_run(struct pb_backend *b, const struct pb_disk *d,
			     const char *args, long timeout_s,
			     const struct pb_run_ctx *ctx,
			     const char *local_out)
{
	const struct pb_profile *p = b->p;
	char out[700], prog[700], gcmd[700], glog[700], lcmd[1300];
	char why[PB_ERRBUF_SIZE];
	struct pb_buf cmd = PB_BUF_INIT(16384);
	int64_t pid = 0;
	int code = -1;
	bool aged = false;
	enum pb_error err, derr;
	json_t *started;

	b->errbuf[0] = '\0';
	snprintf(out, sizeof(out), "%s/out-%s.json", p->vsphere.guest_dir,
		 d->id);
	snprintf(prog, sizeof(prog), "%s/progress-%s.json",
		 p->vsphere.guest_dir, d->id);
	snprintf(glog, sizeof(glog), "%s/log-%s.txt", p->vsphere.guest_dir,
		 d->id);
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
			  "--progress-file %s --log-file %s%s%s",
			  args, d->uuid, p->vsphere.by_id_dir, out, prog, glog,
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
	/* a crash from here on leaves a guest process: cleanup stops it */
	started = json_pack("{s:I}", "guest_pid", (json_int_t)pid);
	err = ctx && ctx->journal ? ctx->journal(ctx, started) : PB_OK;
	json_decref(started);
	if (!err)
		err = wait_runner(b, pid, timeout_s, ctx, prog, &code, &aged);
	if (err == PB_ERR_INTERRUPTED || err == PB_ERR_TIMEOUT) {
		/* the runner drains and writes its partial JSON on SIGTERM;
		 * Tools' terminate is the hard stop */
		vs_guest_kill(b->s, &b->vm, pid);
		vs_guest_wait(b->s, &b->vm, pid, 30, NULL, &code);
	} else if (err) {
		return err;
	}
	/* partial results are worth having too */
	derr = vs_guest_download(b->s, &b->vm, out, local_out);
	/* a runner Tools forgot is judged by the output it left */
	if (!err && (aged ? derr || !output_complete(local_out)
			  : code != 0 || derr)) {
		/* the runner's own words, not the download's FileNotFound
		 * that follows its failure */
		char fetch[PB_ERRBUF_SIZE];

		snprintf(fetch, sizeof(fetch), "%s", vs_session_error(b->s));
		runner_message(b, glog, why, sizeof(why));
		b->errbuf[0] = '\0';
		if (why[0] && !aged)
			err = pb_fail(b->errbuf, PB_ERR_CHILD,
				      "runner in the guest (exit %d): %s", code,
				      why);
		else if (why[0])
			err = pb_fail(b->errbuf, PB_ERR_CHILD,
				      "runner in the guest: %s", why);
		else if (!aged && code > 0)
			err = pb_fail(b->errbuf, PB_ERR_CHILD,
				      "the runner exited %d in the guest",
				      code);
		else if (aged && !derr)
			err = pb_fail(b->errbuf, PB_ERR_CHILD,
				      "the runner ended unseen (Tools no longer "
				      "list it) and its output is incomplete");
		else
			err = pb_fail(b->errbuf, PB_ERR_PROTOCOL,
				      "the runner's output could not be "
				      "fetched: %s",
				      fetch);
	}
	vs_guest_remove(b->s, &b->vm, out, false);
	vs_guest_remove(b->s, &b->vm, prog, false);
	vs_guest_remove(b->s, &b->vm, glog, false);
	if (ctx && ctx->command)
		vs_guest_remove(b->s, &b->vm, gcmd, false);
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
 * that exact file is touched; a disk not found is already gone. A guest
 * runner a crashed run left is stopped first: it writes to that disk.
 */
static enum pb_error vsb_cleanup(struct pb_backend *b, json_t *entry)
{
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *vm = json_string_value(json_object_get(entry, "vm"));
	json_t *jpid = json_object_get(entry, "guest_pid");
	struct vs_vm_info info;
	struct vs_disk *disks = NULL;
	char ref[200];
	size_t n = 0, i;
	enum pb_error err;
	int code;

	b->errbuf[0] = '\0';
	if (!file || !vm || !strstr(file, "provbench-"))
		return pb_fail(b->errbuf, PB_ERR_INPUT,
			       "journal entry without a provbench disk file");
	snprintf(ref, sizeof(ref), "moref:%s", vm);
	err = vs_vm_find(b->s, &info, ref);
	if (err == PB_ERR_NOTFOUND) {
		/* deleted since: its disks went with it or are no VM's */
		snprintf(b->errbuf, sizeof(b->errbuf),
			 "VM %s no longer exists on %s; marked gone", vm,
			 b->url);
		return err;
	}
	/* another VM's entry: never touched while that VM exists */
	if (!err && strcmp(json_string_value(json_object_get(entry, "target"))
				   ?: "",
			   b->key))
		return PB_ERR_UNSAFE;
	if (!err && json_is_integer(jpid)) {
		/* gone already is fine; it must not outlive its disk */
		if (!vs_guest_kill(b->s, &info, json_integer_value(jpid)))
			vs_guest_wait(b->s, &info, json_integer_value(jpid), 30,
				      NULL, &code);
		b->errbuf[0] = '\0';
	}
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
