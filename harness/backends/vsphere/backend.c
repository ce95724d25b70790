/*
 * backend.c - the vsphere backend's ops: open (a session, the licence,
 * the VM), the check (everything a run needs, creating nothing), the
 * description run.json records, and the disks: created and attached with
 * ReconfigVM_Task under names provbench chooses ("[ds] vmdir/provbench-
 * RUN-N.vmdk"), so the journal records the exact path before the disk
 * exists and cleanup finds it again without guessing. The parts: guest.c,
 * settings.c, options.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vsb.h"

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

/*
 * The sessions this process holds, by server: a target on a server another
 * target is logged in to shares that login (one session on the server for
 * a fleet, each target its own connection and collector, for its thread).
 * Targets are opened and closed by the main thread.
 */
static struct vsb *open_vsb[PB_MAX_TARGETS];

static struct vs_session *session_of(const char *url, const char *user)
{
	for (unsigned i = 0; i < PB_MAX_TARGETS; i++)
		if (open_vsb[i] && !strcmp(open_vsb[i]->url, url) &&
		    !strcmp(open_vsb[i]->user, user))
			return open_vsb[i]->s;
	return NULL;
}

static void pool_set(struct vsb *b, struct vsb *to)
{
	for (unsigned i = 0; i < PB_MAX_TARGETS; i++)
		if (open_vsb[i] == b) {
			open_vsb[i] = to;
			return;
		}
}

static enum pb_error vsb_open(struct pb_backend **out,
			      const struct pb_profile *p, unsigned target,
			      char *errbuf)
{
	struct vs_config cfg = VS_CONFIG_INIT;
	struct vsb *b;
	const char *dir, *sl;
	char edition[128], unset[400];
	enum pb_error err;

	*out = NULL;
	/* every setting a run needs named at once, before the server is
	 * reached: not the guest's login a run later */
	if (vs_config_env_unset(env_get, NULL, unset, sizeof(unset), true))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: not set (the server, its login, the test "
			       "VM's guest login and a pin or CA for the "
			       "server's certificate: provbench help "
			       "environment)",
			       unset);
	b = calloc(1, sizeof(*b));
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->p = p;
	b->o = p->targets[target].bopts;
	b->sysctl = pb_target_sysctl(p, target);
	err = vs_config_from_env(&cfg, env_get, NULL, errbuf);
	if (!err) {
		struct vs_session *with =
			session_of(cfg.url, cfg.username ? cfg.username : "");

		err = with ? vs_session_open_shared(&b->s, with, errbuf)
			   : vs_session_open(&b->s, &cfg, NULL, NULL, errbuf);
	}
	/* a free ESXi licence refuses every write: no run can work */
	if (!err && (err = vs_license_check(b->s, edition, sizeof(edition))))
		pb_fail(errbuf, err, "%s", vs_session_error(b->s));
	if (!err) {
		/* a task that never ends must not hold a lab run for ever */
		vs_session_set_task_timeout(b->s, b->o->task_timeout_s);
		snprintf(b->url, sizeof(b->url), "%s", cfg.url);
		snprintf(b->user, sizeof(b->user), "%s",
			 cfg.username ? cfg.username : "");
		err = vs_vm_find(b->s, &b->vm, b->o->vm);
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
	if (b->o->datastore && strcmp(b->o->datastore, b->ds)) {
		snprintf(b->ds, sizeof(b->ds), "%s", b->o->datastore);
		b->vm_dir[0] = '\0';
	}
	/* the places other runs may share: the datastore, the LUN */
	snprintf(b->shared[0], sizeof(b->shared[0]), "vsphere %s datastore %s",
		 b->url, b->ds);
	if (b->o->lun)
		snprintf(b->shared[1], sizeof(b->shared[1]),
			 "vsphere %s lun %s", b->url, b->o->lun);
	/* the host: its HBAs, its CPUs and its network are every VM's on
	 * it (where the VM was when the run began) */
	if (b->vm.host.value[0])
		snprintf(b->shared[2], sizeof(b->shared[2]),
			 "vsphere %s host %s", b->url, b->vm.host.value);
	/* a shard's tag too: shards on one datastore never name a disk
	 * alike */
	snprintf(b->run_id, sizeof(b->run_id), "%llx%s",
		 (unsigned long long)(time(NULL) ^ (pb_now_ns() << 16)),
		 p->shard_tag);
	/* as asked, until check reads the datastore (storage.c) */
	for (int m = 0; m < PB_MODE__COUNT; m++) {
		b->made[m].made = (enum pb_mode)m;
		b->made[m].reserve = -1;
	}
	b->base.ops = &vsphere_backend;
	pool_set(NULL, b); /* a full pool: the next target logs in itself */
	*out = &b->base;
	return PB_OK;
}

static void vsb_close(struct pb_backend *be)
{
	struct vsb *b = vsb_of(be);
	if (!b)
		return;
	pool_set(b, NULL);
	vs_session_free(b->s);
	free(b);
}

static const char *vsb_target_key(struct pb_backend *be)
{
	struct vsb *b = vsb_of(be);
	return b->key;
}

static void add_file(const char *path, void *arg)
{
	json_array_append_new(arg, json_string(path));
}

/* The datastore's provbench disks as the server lists them: its name is
 * ours (provbench-<run>-<n>.vmdk, an RDM's mapping file too) */
static enum pb_error vsb_place_disks(struct pb_backend *be, unsigned i,
				     json_t *files, char *errbuf)
{
	struct vsb *b = vsb_of(be);

	if (i || !b->shared[0][0]) /* the datastore is the first place */
		return PB_OK;
	return vsb_sess_err(b,
			    vs_datastore_files(b->s, b->ds, "provbench-*.vmdk",
					       add_file, files),
			    errbuf);
}

static const char *vsb_shared_key(struct pb_backend *be, unsigned i)
{
	struct vsb *b = vsb_of(be);

	/* in order, skipping an unset one (no LUN) */
	for (unsigned k = 0; k < 3; k++)
		if (b->shared[k][0] && !i--)
			return b->shared[k];
	return NULL;
}

/* ---- check ---- */

static void check_lun(struct vsb *b, struct pb_check_out *out)
{
	const struct pb_profile *p = b->p;
	const struct vsphere_opts *o = b->o;
	struct vs_host_info h;
	struct vs_lun lun;
	char sz[32], dsz[32];
	enum pb_error err = PB_OK;

	h.ref = b->vm.host;
	if (o->host)
		err = vs_host_find(b->s, &h, o->host);
	if (!err)
		err = vs_lun_find(b->s, &h.ref, o->lun, &lun);
	if (err) {
		pb_check_problem(out, err, "LUN", "%s", vs_session_error(b->s));
		return;
	}
	/* the passes cover disk_size bytes of the LUN */
	if (lun.capacity_bytes < p->disk_size)
		pb_check_problem(
			out, PB_ERR_INPUT, "LUN",
			"LUN %s: %s, smaller than disk_size %s", o->lun,
			pb_size_format(sz, sizeof(sz), lun.capacity_bytes),
			pb_size_format(dsz, sizeof(dsz), p->disk_size));
	else
		pb_check_say(out, "LUN", "%s: %s %s, %s, free, VAAI %s", o->lun,
			     lun.vendor, lun.model,
			     pb_size_format(sz, sizeof(sz), lun.capacity_bytes),
			     lun.vaai[0] ? lun.vaai : "unknown");
}

/*
 * The VM's host: one in maintenance mode (or entering it, waiting for
 * its VMs to go) powers no VM on, so a power cycle there would leave the
 * lab's VM off; one not connected answers nothing.
 */
static void check_host(struct vsb *b, struct pb_check_out *out, bool cycle)
{
	struct vs_host_state h;

	if (!b->vm.host.value[0])
		return;
	if (vs_host_state_get(b->s, &b->vm.host, &h)) {
		pb_check_problem(out, PB_ERR_INPUT, "host", "%s",
				 vs_session_error(b->s));
		return;
	}
	if (strcmp(h.connection, "connected") && h.connection[0])
		pb_check_problem(out, PB_ERR_INPUT, "host",
				 "host %s of VM %s is %s: nothing can be made "
				 "there",
				 h.name, b->vm.name, h.connection);
	else if ((h.in_maintenance || h.entering_maintenance) && cycle)
		pb_check_problem(
			out, PB_ERR_INPUT, "host",
			"host %s of VM %s is %s maintenance mode: a VM shut "
			"down there for the power cycle could not be powered "
			"on again; wait for it to leave maintenance mode, move "
			"the VM, or make the settings live yourself",
			h.name, b->vm.name,
			h.in_maintenance ? "in" : "entering");
	else if (h.in_maintenance || h.entering_maintenance)
		pb_check_warn(out, "host",
			      "host %s of VM %s is %s maintenance mode: the "
			      "VM may be moved or shut down during the run",
			      h.name, b->vm.name,
			      h.in_maintenance ? "in" : "entering");
	else
		pb_check_say(out, "host",
			     "%s: connected, not in maintenance "
			     "mode",
			     h.name);
}

/*
 * A unit for the disk: provbench adds its disks on a SCSI controller (an
 * RDM needs one; NVMe and SATA are not where labs measure RDM against
 * VMDK). One disk at a time, so one free unit is enough.
 */
static void check_controllers(struct vsb *b, struct pb_check_out *out)
{
	struct vs_vm_hw hw;
	char list[600] = "";
	size_t i, at = 0;
	unsigned free = 0;

	if (vs_vm_controllers(b->s, &b->vm.ref, &hw)) {
		pb_check_problem(out, PB_ERR_INPUT, "controller", "%s",
				 vs_session_error(b->s));
		return;
	}
	for (i = 0; i < hw.nctl; i++) {
		if (b->o->controller >= 0 && hw.ctl[i].key != b->o->controller)
			continue;
		free += hw.ctl[i].free;
		if (at < sizeof(list))
			at += (size_t)snprintf(list + at, sizeof(list) - at,
					       "%s%s (%s, key %d) "
					       "%u of %u units free",
					       at ? "; " : "", hw.ctl[i].label,
					       hw.ctl[i].type, hw.ctl[i].key,
					       hw.ctl[i].free, hw.ctl[i].units);
	}
	if (b->o->controller >= 0 && !list[0])
		pb_check_problem(out, PB_ERR_INPUT, "controller",
				 "vsphere.controller %d: VM %s has no SCSI "
				 "controller with that key",
				 b->o->controller, b->vm.name);
	else if (!hw.nctl)
		pb_check_problem(
			out, PB_ERR_INPUT, "controller",
			"VM %s has no SCSI controller%s: provbench adds its "
			"disks on SCSI (a raw device mapping needs it); add a "
			"VMware Paravirtual SCSI controller to the VM (its "
			"guest needs the pvscsi driver) and run again",
			b->vm.name,
			hw.other_controllers ? " (its disks are on NVMe or "
					       "SATA)"
					     : "");
	else if (!free)
		pb_check_problem(
			out, PB_ERR_INPUT, "controller",
			"VM %s: no free unit on %s: every unit but 7 holds a "
			"device; add a SCSI controller (VMware Paravirtual "
			"offers 64 units from virtual hardware 14, VM %s has "
			"%s) or remove a device",
			b->vm.name, list, b->vm.name,
			hw.hw_version[0] ? hw.hw_version
					 : "an unknown version");
	else
		pb_check_say(out, "controller", "%s", list);
}

/*
 * Raw disks open only for an administrator (an elevated one: UAC gives a
 * Tools login of the Administrators group a filtered token otherwise).
 * `net session` succeeds only elevated, the usual test (Microsoft's own
 * scripts use it); its output is not needed, only the exit status.
 */
static enum pb_error check_windows_admin(struct vsb *b,
					 struct pb_check_out *out, char *errbuf)
{
	enum pb_error err;
	int64_t pid;
	int code = -1;

	err = vs_guest_start(b->s, &b->vm, "C:\\Windows\\System32\\net.exe",
			     "session", NULL, &pid);
	if (!err)
		err = vs_guest_wait(b->s, &b->vm, pid, 60, NULL, &code);
	if (err)
		return vsb_sess_err(b, err, errbuf);
	if (code)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "guest user %s on %s is not an elevated "
			       "administrator (net session exit %d): the "
			       "runner could not open the new disks",
			       vs_session_guest_user(b->s), b->vm.name, code);
	pb_check_say(out, "guest user",
		     "%s: an administrator (may open raw "
		     "disks)",
		     vs_session_guest_user(b->s));
	return PB_OK;
}
/*
 * What the guest's runner can do: a filesystem or engine of the other
 * family's runner would fail in the guest at the first disk, hours into a
 * run; it is refused here, before anything is made. The harness speaks the
 * Linux runner's engine names (io_uring, psync), so a Windows guest takes
 * engine auto (the .exe picks iocp, sync where it must, and says which).
 */
static enum pb_error
check_family_workload(struct vsb *b, const struct pb_profile *p, char *errbuf)
{
	unsigned i;

	for (i = 0; i < p->npoints; i++) {
		const struct runner_opts *w = &p->points[i];
		unsigned fs = w->filesystem;

		if (b->windows && (fs == RUNNER_FS_EXT4 || fs == RUNNER_FS_XFS))
			return pb_fail(
				errbuf, PB_ERR_INPUT,
				"workload filesystem %s: VM %s runs "
				"Windows, whose runner makes ntfs",
				runner_option_find("filesystem")->choices[fs],
				b->vm.name);
		if (!b->windows && fs == RUNNER_FS_NTFS)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "workload filesystem ntfs: VM %s runs "
				       "Linux, whose runner makes ext4 or xfs",
				       b->vm.name);
		if (b->windows && w->engine != RUNNER_ENGINE_AUTO)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "workload engine %s: a Linux engine, "
				       "and VM %s runs Windows (leave engine "
				       "auto: its runner uses an I/O "
				       "completion port, or synchronous I/O "
				       "where it must, and says which)",
				       runner_option_find("engine")
					       ->choices[w->engine],
				       b->vm.name);
	}
	return PB_OK;
}

/*
 * Everything a run needs, creating nothing; every problem found is said,
 * not only the first (pb_check_problem), and a run checks this before it
 * changes anything: a problem found after a power cycle has cost the lab
 * its VM for nothing.
 */
static enum pb_error vsb_check(struct pb_backend *be,
			       const struct pb_plan *plan,
			       struct pb_check_out *out, char *errbuf)
{
	struct vsb *b = vsb_of(be);
	const struct pb_profile *p = b->p;
	const struct vsphere_opts *o = b->o;
	bool raw = false, on, tools, cycle = false;
	char change[1024], why[PB_ERRBUF_SIZE];
	enum pb_error err;
	size_t i;
	int code;

	err = vsb_sess_err(b, vs_vm_state_get(b->s, &b->vm.ref, &b->state),
			   errbuf);
	if (err)
		return err;
	/* what a run uploads hours later: the guest family's runner */
	vsb_guest_family(b);
	if (access(b->runner, R_OK))
		pb_check_problem(out, PB_ERR_INPUT, "runner",
				 "runner %s: %s (%s, or set %s)", b->runner,
				 strerror(errno),
				 !pb_in_source_tree() ? "reinstall provbench"
				 : b->windows
					 ? "build it with `make "
					   "runner-windows`"
					 : "build it with `make runner-static`",
				 b->windows ? "PROVBENCH_RUNNER_WINDOWS"
					    : "PROVBENCH_RUNNER");
	pb_check_say(out, "server", "%s, API %s (speaking %s)",
		     vs_session_about(b->s)->full_name,
		     vs_session_about(b->s)->api_version,
		     vs_session_api_version(b->s));
	pb_check_say(out, "VM", "%s (%s): %s, tools %s, %s", b->vm.name,
		     b->vm.ref.value, b->state.power_state, b->state.tools,
		     b->state.guest_full_name[0] ? b->state.guest_full_name
						 : "guest OS unknown");
	on = !strcmp(b->state.power_state, "poweredOn");
	tools = on && !strcmp(b->state.tools, "guestToolsRunning");
	if (!on)
		pb_check_problem(out, PB_ERR_INPUT, "VM",
				 "VM %s is %s, not on: power it on (with "
				 "VMware Tools running in its guest)",
				 b->vm.name, b->state.power_state);
	else if (!strcmp(b->state.tools_status, "toolsNotInstalled"))
		pb_check_problem(out, PB_ERR_INPUT, "VM",
				 "VM %s: VMware Tools are not installed in "
				 "its guest (toolsNotInstalled): install "
				 "open-vm-tools (Linux) or VMware Tools; the "
				 "runner is started and fetched through them",
				 b->vm.name);
	else if (!tools)
		pb_check_problem(out, PB_ERR_INPUT, "VM",
				 "VM %s: VMware Tools installed but not "
				 "running (%s): start them in the guest "
				 "(systemctl start vmtoolsd, or the VMware "
				 "Tools service); the runner cannot be "
				 "started without them",
				 b->vm.name, b->state.tools);
	if (b->state.has_snapshot)
		pb_check_warn(out, "snapshots",
			      "VM %s has snapshots: every disk write goes to a "
			      "delta disk, not to the disk being measured (the "
			      "new disks are added outside them, but the "
			      "guest's own I/O is not)",
			      b->vm.name);
	err = vsb_settings_read(b, errbuf);
	if (err)
		return err;
	for (i = 0; i < b->nset; i++)
		if (!b->set[i].change)
			pb_check_say(out, "setting",
				     "%s = %s: set, live since the VM's "
				     "power-on%s%s",
				     b->set[i].key, b->set[i].had,
				     b->state.boot_time[0] ? " at " : "",
				     b->state.boot_time);
	if (vsb_settings_to_change(b, change, sizeof(change))) {
		cycle = o->power_cycle;
		why[0] = '\0';
		if (o->power_cycle)
			pb_check_warn(out, "settings",
				      "%s; a run power-cycles the VM to make "
				      "them live (vsphere.power_cycle): it "
				      "is shut down through Tools and powered "
				      "on again whatever fails",
				      change);
		else
			pb_check_problem(out,
					 vsb_settings_refuse(b, change, why),
					 "settings", "%s", why);
	}
	check_host(b, out, cycle);
	check_controllers(b, out);
	for (i = 0; i < plan->n; i++)
		raw |= pb_mode_is_raw_mapping(plan->items[i].mode);
	vsb_storage_check(b, plan, out);
	if (raw)
		check_lun(b, out);
	vsb_counters_check(b, out);
	/* the guest: only through running Tools */
	if (tools) {
		/* the guest login, without creating anything */
		err = vs_guest_wait(b->s, &b->vm, 0, 1, NULL, &code);
		if (err == PB_ERR_NOTFOUND) /* no pid 0: the login worked */
			err = PB_OK;
		if (err)
			pb_check_problem(out, err, "guest login", "%s",
					 vs_session_error(b->s));
		else
			pb_check_say(out, "guest login", "accepted");
		if (!err)
			pb_check_say(
				out, "guest",
				"%s (%s): runner %s, directory %s%s",
				b->windows ? "Windows" : "Linux",
				b->state.guest_family[0] ? b->state.guest_family
							 : "family unknown",
				b->runner, b->gdir,
				b->windows ? ", disks found by their device "
					     "identifiers"
					   : "");
		why[0] = '\0';
		if (!err && check_family_workload(b, p, why))
			pb_check_problem(out, PB_ERR_INPUT, "workload", "%s",
					 why);
		why[0] = '\0';
		if (!err && b->windows &&
		    (err = check_windows_admin(b, out, why)))
			pb_check_problem(out, err, "guest user", "%s", why);
		why[0] = '\0';
		if (!err && (err = vsb_transfer_round_trip(b, out, why)))
			pb_check_problem(out, err, "guest transfer", "%s", why);
	}
	return pb_check_result(out, errbuf);
}

/* ---- describe ---- */

static enum pb_error vsb_describe(struct pb_backend *be, json_t *env,
				  char *errbuf)
{
	struct vsb *b = vsb_of(be);
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
				host = json_pack(
					"{s:s,s:s,s:s,s:s}", "name", hs[i].name,
					"moref", hs[i].ref.value, "version",
					hs[i].version, "build", hs[i].build);
			}
	free(hs);
	/* free space at the start: a full datastore slows thin disks */
	if (!vs_datastore_detail(b->s, &b->vm.host, b->ds, &ds)) {
		json_decref(store);
		store = json_pack(
			"{s:s,s:s,s:s?,s:I,s:I,s:s?,s:b,s:b,s:o,s:s?}", "name",
			ds.name, "type", ds.type, "vmfs_version",
			ds.vmfs_version[0] ? ds.vmfs_version : NULL, "capacity",
			(json_int_t)ds.capacity, "free_at_start",
			(json_int_t)ds.free_space, "vaai",
			ds.vaai[0] ? ds.vaai : NULL, "thin_per_file",
			ds.per_file_thin, "rdm_files", ds.rdm_files, "modes",
			vsb_storage_json(b), "disks_folder",
			b->ns_folder[0] ? b->ns_folder : NULL);
		if (store)
			json_object_set_new(store, "reclaim",
					    vsb_reclaim_json(&ds));
	}
	if (b->o->lun && !vs_lun_find(b->s, &b->vm.host, b->o->lun, &lun)) {
		json_decref(jl);
		jl = json_pack("{s:s,s:s,s:s,s:I,s:s?}", "canonical_name",
			       lun.canonical_name, "vendor", lun.vendor,
			       "model", lun.model, "capacity",
			       (json_int_t)lun.capacity_bytes, "vaai",
			       lun.vaai[0] ? lun.vaai : NULL);
	}
	/* a description, not a check: what could not be read is absent */
	(void)errbuf;
	json_object_set_new(env, "server",
			    json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "url",
				      b->url, "product", a->full_name,
				      "version", a->version, "build", a->build,
				      "api_type", a->api_type, "api_version",
				      a->api_version, "api_version_used",
				      vs_session_api_version(b->s)));
	json_object_set_new(env, "host", host);
	json_object_set_new(env, "datastore", store);
	json_object_set_new(env, "lun", jl);
	json_object_set_new(
		env, "vm",
		json_pack("{s:s,s:s,s:s,s:s,s:s,s:b,s:b,s:s?,s:o}", "name",
			  b->vm.name, "moref", b->vm.ref.value, "path",
			  b->vm.path, "guest", b->state.guest_full_name,
			  "guest_family", b->state.guest_family, "snapshots",
			  b->state.has_snapshot, "power_cycled",
			  b->power_cycled, "power_cycled_at",
			  b->power_cycled ? b->power_cycled_at : NULL,
			  "settings", vsb_settings_json(b)));
	json_object_set_new(env, "guest_transfer",
			    json_string(vs_session_transfer_note(b->s)));
	return PB_OK;
}

/* ---- disks ---- */

static enum pb_error vsb_plan_disk(struct pb_backend *be, enum pb_mode mode,
				   unsigned seq, struct pb_disk *d, json_t *j,
				   char *errbuf)
{
	struct vsb *b = vsb_of(be);
	(void)errbuf;
	d->mode = mode;
	snprintf(d->id, sizeof(d->id), "%s-%u", b->run_id, seq);
	if (b->vm_dir[0])
		snprintf(d->file, sizeof(d->file), "[%s] %s/provbench-%s.vmdk",
			 b->ds, b->vm_dir, d->id);
	else
		snprintf(d->file, sizeof(d->file), "[%s] provbench-%s.vmdk",
			 b->ds, d->id);
	/* said as it is made: not the mode's usual note when the
	 * datastore makes something else (vsphere.unapplied: measure) */
	if (b->made[mode].made != mode && b->o->unapplied &&
	    !strcmp(b->o->unapplied, "skip"))
		snprintf(d->note, sizeof(d->note),
			 " (the datastore makes it %s: skipped)",
			 b->made[mode].made == PB_MODE_UNKNOWN
				 ? "whatever its policy says"
				 : pb_mode_name(b->made[mode].made));
	else if (b->made[mode].made != mode)
		snprintf(d->note, sizeof(d->note),
			 " (the datastore makes it %s: measured as that)",
			 b->made[mode].made == PB_MODE_UNKNOWN
				 ? "whatever its policy says"
				 : pb_mode_name(b->made[mode].made));
	json_object_set_new(j, "vm", json_string(b->vm.ref.value));
	json_object_set_new(j, "vm_name", json_string(b->vm.name));
	json_object_set_new(j, "file", json_string(d->file));
	return PB_OK;
}

/* "naa.6000c29..." -> "6000c29...": what a guest sees of a LUN */
static void naa_hex(char *out, size_t len, const char *canonical)
{
	const char *p =
		!strncmp(canonical, "naa.", 4) ? canonical + 4 : canonical;

	snprintf(out, len, "%s", p);
}

static enum pb_error vsb_create(struct pb_backend *be, struct pb_disk *d,
				char *errbuf)
{
	struct vsb *b = vsb_of(be);
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	const struct vs_task_times *tt;
	enum pb_error err;
	uint64_t t0;

	if (vsb_storage_skips(b, d->mode, errbuf))
		return PB_ERR_UNSUPPORTED;
	sp.mode = d->mode;
	sp.size_bytes = d->size;
	sp.datastore = b->ds;
	sp.lun = b->o->lun;
	sp.host = b->o->host;
	sp.controller_key = b->o->controller;
	sp.file = d->file;
	sp.policy_id = b->made[d->mode].policy_id[0]
			       ? b->made[d->mode].policy_id
			       : NULL;
	t0 = pb_now_ns();
	err = vsb_sess_err(b, vs_disk_add(b->s, &b->vm.ref, &sp, &b->cur),
			   errbuf);
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
	/* what the datastore made of it, and why, with the policy */
	if (d->readback)
		vsb_storage_readback(b, d, d->readback);
	if (!d->uuid[0])
		return pb_fail(errbuf, PB_ERR_PROTOCOL,
			       "disk %s: the server reported no uuid, so the "
			       "guest cannot find it",
			       d->file);
	return PB_OK;
}

static enum pb_error vsb_destroy(struct pb_backend *be, const struct pb_disk *d,
				 char *errbuf)
{
	struct vsb *b = vsb_of(be);
	if (strcmp(b->cur.file, d->file))
		return pb_fail(errbuf, PB_ERR_INTERNAL,
			       "disk %s is not the one in progress", d->file);
	return vsb_sess_err(b, vs_disk_remove(b->s, &b->vm.ref, &b->cur, false),
			    errbuf);
}

/*
 * A leftover: the VM's disk whose backing file is the journaled one. Only
 * that exact file is touched; a disk not found is already gone. A guest
 * runner a crashed run left is stopped first: it writes to that disk.
 */
static enum pb_error vsb_cleanup(struct pb_backend *be, json_t *entry,
				 bool mine, char *errbuf)
{
	struct vsb *b = vsb_of(be);
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *vm = json_string_value(json_object_get(entry, "vm"));
	const char *change =
		json_string_value(json_object_get(entry, "change"));
	json_t *jpid = json_object_get(entry, "guest_pid");
	struct vs_vm_info info;
	struct vs_disk *disks = NULL;
	char ref[200];
	size_t n = 0, i;
	enum pb_error err;
	int code;

	/* a power cycle cut short: the VM on again (another target's is
	 * that target's to restore) */
	if (change && !strcmp(change, "power") && vm)
		return mine ? vsb_power_restore(
				      b, vm,
				      json_string_value(
					      json_object_get(entry, "vm_name"))
					      ?: vm,
				      errbuf)
			    : PB_ERR_UNSAFE;
	if (!file || !vm || !strstr(file, "provbench-"))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "journal entry without a provbench disk file");
	snprintf(ref, sizeof(ref), "moref:%s", vm);
	err = vs_vm_find(b->s, &info, ref);
	if (err == PB_ERR_NOTFOUND) {
		/* deleted since: its disks went with it or are no VM's */
		return pb_fail(errbuf, err,
			       "VM %s no longer exists on %s; marked gone", vm,
			       b->url);
	}
	/* another VM's entry: never touched while that VM exists */
	if (!err && !mine)
		return PB_ERR_UNSAFE;
	if (!err && json_is_integer(jpid)) {
		/* gone already is fine; it must not outlive its disk */
		if (!vs_guest_kill(b->s, &info, json_integer_value(jpid)))
			vs_guest_wait(b->s, &info, json_integer_value(jpid), 30,
				      NULL, &code);
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
		vsb_sess_err(b, err, errbuf);
	return err;
}

static size_t vsb_settings_unset(char *out, size_t len)
{
	return vs_config_env_unset(env_get, NULL, out, len, true);
}

const struct pb_backend_ops vsphere_backend = {
	.name = "vsphere",
	.help = "disks of each mode on a test VM through vCenter or ESXi, the "
		"runner in its guest through VMware Tools",
	.modes = PB_MODE_BIT(PB_MODE_THIN) | PB_MODE_BIT(PB_MODE_LAZY) |
		 PB_MODE_BIT(PB_MODE_EAGER) | PB_MODE_BIT(PB_MODE_RDM) |
		 PB_MODE_BIT(PB_MODE_RDMP),
	.caps = PB_CAP_GUEST_SYSCTL | PB_CAP_CLEANUP_GONE |
		PB_CAP_SHARED_STORAGE,
	.options = vsb_options,
	.options_size = sizeof(struct vsphere_opts),
	.section_required = true,
	.options_check = vsb_options_check,
	.settings_unset = vsb_settings_unset,
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
	.shared_key = vsb_shared_key,
	.place_disks = vsb_place_disks,
	.close = vsb_close,
};
