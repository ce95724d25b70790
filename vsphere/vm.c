/*
 * vm.c - a VM's settings and power, and what a storage engineer asks of
 * the environment around it: extraConfig (read before anything is set),
 * the power cycle settings like disk.EnableUUID need to take effect, the
 * VM's state (snapshots among it), a datastore's type, VMFS version and
 * VAAI status, and whether the host's licence allows writes at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "vs_int.h"

/* ---- extraConfig ---- */

enum pb_error vs_vm_set_extra_config(struct vs_session *s,
				     const struct vs_moref *vm,
				     const char *const *keys,
				     const char *const *values, size_t n)
{
	struct vs_req r;
	xmlNodePtr spec, ov;
	enum pb_error err;
	size_t i;

	err = vs_req_new(&r, "ReconfigVM_Task", vm);
	spec = err ? NULL : vs_add(r.op, "spec", NULL);
	for (i = 0; !err && i < n; i++) {
		ov = vs_add(spec, "extraConfig", NULL);
		if (!vs_add(ov, "key", keys[i]) ||
		    !vs_add_typed(&r, ov, "value", "xsd:string", values[i]))
			err = PB_ERR_NOMEM;
	}
	if (!spec)
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call_task(s, &r);
	else
		pb_fail(s->errbuf, err, "out of memory");
	vs_req_dispose(&r);
	return err;
}

struct extra_get {
	const char *const *keys;
	char (*values)[256];
	size_t n;
};

static enum pb_error on_extra(struct vs_session *s,
			      const struct vs_objcontent *oc, void *arg)
{
	struct extra_get *g = arg;
	xmlNodePtr ov;
	char k[256];
	size_t i;

	(void)s;
	for (ov = vs_child(vs_prop(oc, "config.extraConfig"), NULL); ov;
	     ov = vs_next(ov, NULL)) {
		vs_text(k, sizeof(k), ov, "key");
		for (i = 0; i < g->n; i++)
			if (!strcmp(k, g->keys[i]))
				vs_text(g->values[i], sizeof(g->values[i]), ov,
					"value");
	}
	return PB_OK;
}

enum pb_error vs_vm_extra_config_get(struct vs_session *s,
				     const struct vs_moref *vm,
				     const char *const *keys,
				     char (*values)[256], size_t n)
{
	static const char *const paths[] = {"config.extraConfig", NULL};
	struct extra_get g = {keys, values, n};
	size_t i;

	for (i = 0; i < n; i++)
		values[i][0] = '\0';
	return vs_retrieve_one(s, vm, paths, on_extra, &g);
}

/* ---- state and power ---- */

static enum pb_error on_state(struct vs_session *s,
			      const struct vs_objcontent *oc, void *arg)
{
	struct vs_vm_state *v = arg;

	(void)s;
	vs_node_text(v->power_state, sizeof(v->power_state),
		     vs_prop(oc, "runtime.powerState"));
	vs_node_text(v->tools, sizeof(v->tools),
		     vs_prop(oc, "guest.toolsRunningStatus"));
	vs_node_text(v->tools_status, sizeof(v->tools_status),
		     vs_prop(oc, "guest.toolsStatus"));
	vs_node_text(v->guest_family, sizeof(v->guest_family),
		     vs_prop(oc, "guest.guestFamily"));
	vs_node_text(v->guest_full_name, sizeof(v->guest_full_name),
		     vs_prop(oc, "guest.guestFullName"));
	vs_node_text(v->boot_time, sizeof(v->boot_time),
		     vs_prop(oc, "runtime.bootTime"));
	v->has_snapshot = vs_prop(oc, "snapshot") != NULL;
	return PB_OK;
}

enum pb_error vs_vm_state_get(struct vs_session *s, const struct vs_moref *vm,
			      struct vs_vm_state *out)
{
	static const char *const paths[] = {"runtime.powerState",
					    "guest.toolsRunningStatus",
					    "guest.toolsStatus",
					    "guest.guestFamily",
					    "guest.guestFullName",
					    "runtime.bootTime",
					    "snapshot",
					    NULL};

	memset(out, 0, sizeof(*out));
	return vs_retrieve_one(s, vm, paths, on_state, out);
}

struct until {
	const char *path, *want;
	char seen[48];
};

static bool on_until(const char *name, xmlNodePtr val, void *arg)
{
	struct until *u = arg;

	if (!strcmp(name, u->path))
		vs_node_text(u->seen, sizeof(u->seen), val);
	return !strcmp(u->seen, u->want);
}

/* Wait until the VM's property path reads want. */
static enum pb_error wait_until(struct vs_session *s, const struct vs_moref *vm,
				const char *path, const char *want,
				long timeout_s, const char *what)
{
	const char *paths[] = {path, NULL};
	struct until u = {path, want, ""};
	enum pb_error err =
		vs_wait_props(s, vm, paths, on_until, &u, timeout_s);

	if (err == PB_ERR_TIMEOUT)
		return pb_fail(s->errbuf, PB_ERR_TIMEOUT,
			       "VM %s: %s: %s is still %s after %ld s",
			       vm->value, what, path, u.seen[0] ? u.seen : "?",
			       timeout_s);
	return err;
}

static enum pb_error call_void(struct vs_session *s, const char *op,
			       const struct vs_moref *vm)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err = vs_req_new(&r, op, vm);

	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	r.once = true; /* a power operation */
	err = vs_call(s, &r, false, &doc, &ret);
	xmlFreeDoc(doc);
	vs_req_dispose(&r);
	return err;
}

/* ---- a disk file's allocation ---- */

struct alloc_find {
	const char *file; /* "[ds] dir/name.vmdk" */
	size_t stem;	  /* its length less ".vmdk" */
	uint64_t bytes;
	bool found;
};

/* a layoutEx file of the disk: its descriptor or its extent
 * ("name-flat.vmdk"), whose uniqueSize is what it holds */
static enum pb_error on_layout(struct vs_session *s,
			       const struct vs_objcontent *oc, void *arg)
{
	struct alloc_find *a = arg;
	xmlNodePtr f;
	char name[600];

	(void)s;
	for (f = vs_child(vs_prop(oc, "layoutEx.file"), NULL); f;
	     f = vs_next(f, NULL)) {
		vs_text(name, sizeof(name), f, "name");
		if (strncmp(name, a->file, a->stem) ||
		    (strcmp(name + a->stem, ".vmdk") &&
		     strcmp(name + a->stem, "-flat.vmdk")))
			continue;
		/* the extent holds the data; a descriptor alone is what a
		 * server without one lists */
		if (!a->found || !strcmp(name + a->stem, "-flat.vmdk"))
			a->bytes = vs_u64(f, "uniqueSize");
		a->found = true;
	}
	return PB_OK;
}

enum pb_error vs_vm_file_allocated(struct vs_session *s,
				   const struct vs_moref *vm, const char *file,
				   uint64_t *bytes)
{
	static const char *const paths[] = {"layoutEx.file", NULL};
	size_t n = strlen(file);
	struct alloc_find a = {file, n > 5 ? n - 5 : n, 0, false};
	enum pb_error err;

	/* the server refreshes a VM's storage figures on its own schedule;
	 * asked, now */
	err = call_void(s, "RefreshStorageInfo", vm);
	if (!err)
		err = vs_retrieve_one(s, vm, paths, on_layout, &a);
	if (!err && !a.found)
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "VM %s: %s is not in its layoutEx", vm->value,
			      file);
	*bytes = a.bytes;
	return err;
}

static enum pb_error power_on_once(struct vs_session *s,
				   const struct vs_moref *vm)
{
	struct vs_req r;
	enum pb_error err = vs_req_new(&r, "PowerOnVM_Task", vm);

	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	err = vs_call_task(s, &r);
	vs_req_dispose(&r);
	return err;
}

enum pb_error vs_vm_power_on(struct vs_session *s, const struct vs_moref *vm,
			     long timeout_s)
{
	struct vs_vm_state st;
	enum pb_error err = PB_OK;
	unsigned tries;

	for (tries = 1;; tries++) {
		err = vs_vm_state_get(s, vm, &st);
		if (!err && strcmp(st.power_state, "poweredOn"))
			err = power_on_once(s, vm);
		/* a fault that says why it cannot (a host in maintenance
		 * mode, a licence) will not change in seconds */
		if (!err || tries == 3 ||
		    (err == PB_ERR_FAULT &&
		     strcmp(s->fault, "SystemError") != 0) ||
		    err == PB_ERR_LICENSE || err == PB_ERR_LOGIN)
			break;
		sleep(2);
	}
	if (!err)
		err = wait_until(s, vm, "guest.toolsRunningStatus",
				 "guestToolsRunning", timeout_s,
				 "boot after the power cycle");
	return err;
}

enum pb_error vs_vm_power_cycle(struct vs_session *s, const struct vs_moref *vm,
				const char *const *keys,
				const char *const *values, size_t n,
				struct vs_power_cycle *pc)
{
	char first[PB_ERRBUF_SIZE] = "", fault[sizeof(s->fault)];
	const char *name = pc->name ? pc->name : vm->value;
	struct vs_vm_state st;
	enum pb_error err, on;
	uint64_t t_off;

	pc->went_off = pc->on_again = false;
	err = vs_vm_state_get(s, vm, &st);
	if (err)
		return err;
	if (strcmp(st.power_state, "poweredOn") &&
	    strcmp(st.power_state, "poweredOff"))
		return pb_fail(s->errbuf, PB_ERR_INPUT,
			       "VM %s is %s: power it on first", name,
			       st.power_state);
	if (!strcmp(st.power_state, "poweredOn")) {
		/* a clean shutdown through Tools: the guest's filesystems
		 * stay whole. Never a hard power-off unasked. */
		if (strcmp(st.tools, "guestToolsRunning"))
			return pb_fail(s->errbuf, PB_ERR_INPUT,
				       "VM %s: VMware Tools not running (%s): "
				       "cannot shut the guest down cleanly "
				       "for the power cycle",
				       name, st.tools);
		err = call_void(s, "ShutdownGuest", vm);
		if (!err)
			err = wait_until(s, vm, "runtime.powerState",
					 "poweredOff", pc->timeout_s,
					 "guest shutdown");
		/* the guest may still be on its way down: what it is now
		 * decides whether there is anything to put back */
		if (err) {
			snprintf(first, sizeof(first), "%s", s->errbuf);
			if (vs_vm_state_get(s, vm, &st) ||
			    !strcmp(st.power_state, "poweredOn"))
				return pb_fail(s->errbuf, err,
					       "%s; VM %s left as it was",
					       first, name);
		}
	}
	pc->went_off = true;
	t_off = pb_now_ns();
	if (pc->off)
		pc->off(pc->arg);
	if (!err) {
		err = vs_vm_set_extra_config(s, vm, keys, values, n);
		if (err)
			snprintf(first, sizeof(first), "%s", s->errbuf);
	}
	memcpy(fault, s->fault, sizeof(fault));
	/* off now, whatever went wrong: it is the lab's VM, on again */
	on = vs_vm_power_on(s, vm, pc->timeout_s);
	pc->on_again = on == PB_OK;
	if (on) {
		char why[PB_ERRBUF_SIZE];

		snprintf(why, sizeof(why), "%s", s->errbuf);
		s->errbuf[0] = '\0';
		return pb_fail(s->errbuf, err ? err : on,
			       "VM %s is powered off: provbench could not "
			       "power it on again (%s)%s%s; power it on by "
			       "hand",
			       name, why, err ? " after: " : "", first);
	}
	if (err) {
		s->errbuf[0] = '\0';
		memcpy(s->fault, fault, sizeof(fault));
		return pb_fail(s->errbuf, err,
			       "VM %s powered on again after %.0f s off, "
			       "the settings not made: %s",
			       name, (double)(pb_now_ns() - t_off) / 1e9,
			       first);
	}
	return PB_OK;
}

/* ---- datastores ---- */

struct ds_find {
	const char *name;
	struct vs_ds_detail *out;
	struct vs_moref ref;
};

/* A VMFS volume's space reclamation, as the server says it (nothing
 * where it is not VMFS or the server predates 6.5) */
static void ds_reclaim(struct vs_ds_reclaim *r, xmlNodePtr vmfs)
{
	xmlNodePtr bw = vs_child(vmfs, "unmapBandwidthSpec");

	if (!vmfs)
		return;
	r->vmfs_major = (int)vs_u64(vmfs, "majorVersion");
	vs_text(r->priority, sizeof(r->priority), vmfs, "unmapPriority");
	r->granularity_kb = (unsigned)vs_u64(vmfs, "unmapGranularity");
	if (!bw)
		return;
	vs_text(r->policy, sizeof(r->policy), bw, "policy");
	r->fixed_mbs = vs_u64(bw, "fixedValue");
	r->min_mbs = vs_u64(bw, "dynamicMin");
	r->max_mbs = vs_u64(bw, "dynamicMax");
}

static enum pb_error on_ds(struct vs_session *s, const struct vs_objcontent *oc,
			   void *arg)
{
	struct ds_find *f = arg;
	char name[256], b[32];

	(void)s;
	if (strcmp(vs_node_text(name, sizeof(name), vs_prop(oc, "name")),
		   f->name))
		return PB_OK;
	f->ref = oc->obj;
	snprintf(f->out->name, sizeof(f->out->name), "%s", name);
	vs_node_text(f->out->type, sizeof(f->out->type),
		     vs_prop(oc, "summary.type"));
	f->out->capacity = strtoull(
		vs_node_text(b, sizeof(b), vs_prop(oc, "summary.capacity")),
		NULL, 10);
	f->out->free_space = strtoull(
		vs_node_text(b, sizeof(b), vs_prop(oc, "summary.freeSpace")),
		NULL, 10);
	f->out->accessible = !strcmp(
		vs_node_text(b, sizeof(b), vs_prop(oc, "summary.accessible")),
		"true");
	f->out->ref = oc->obj;
	vs_node_text(f->out->url, sizeof(f->out->url),
		     vs_prop(oc, "summary.url"));
	/* absent flags read as what a VMFS datastore says */
	f->out->per_file_thin =
		vs_bool(vs_prop(oc, "capability"),
			"perFileThinProvisioningSupported") != 0;
	f->out->rdm_files = vs_bool(vs_prop(oc, "capability"),
				    "rawDiskMappingsSupported") != 0;
	f->out->top_level_dirs =
		vs_bool(vs_prop(oc, "capability"),
			"topLevelDirectoryCreateSupported") != 0;
	/* VmfsDatastoreInfo.vmfs.version: "6.82"; absent for NFS */
	vs_text(f->out->vmfs_version, sizeof(f->out->vmfs_version),
		vs_child(vs_prop(oc, "info"), "vmfs"), "version");
	/* its uuid, by which the host keeps its datastore.* counters */
	vs_text(f->out->uuid, sizeof(f->out->uuid),
		vs_child(vs_prop(oc, "info"), "vmfs"), "uuid");
	if (!f->out->uuid[0] &&
	    !strncmp(f->out->url, "ds:///vmfs/volumes/", 19)) {
		snprintf(f->out->uuid, sizeof(f->out->uuid), "%s",
			 f->out->url + 19);
		f->out->uuid[strcspn(f->out->uuid, "/")] = '\0';
	}
	/* its LUN, whose disk.* counters the host keeps by that name */
	vs_text(f->out->lun, sizeof(f->out->lun),
		vs_child(vs_child(vs_prop(oc, "info"), "vmfs"), "extent"),
		"diskName");
	ds_reclaim(&f->out->reclaim, vs_child(vs_prop(oc, "info"), "vmfs"));
	return PB_OK;
}

enum pb_error vs_datastore_detail(struct vs_session *s,
				  const struct vs_moref *host, const char *name,
				  struct vs_ds_detail *out)
{
	static const char *const paths[] = {"name",
					    "summary.type",
					    "summary.capacity",
					    "summary.freeSpace",
					    "summary.accessible",
					    "summary.url",
					    "info",
					    "capability",
					    NULL};
	struct ds_find f = {name, out, {"", ""}};
	xmlDocPtr doc = NULL;
	xmlNodePtr target, d;
	char dname[256];
	enum pb_error err;

	memset(out, 0, sizeof(*out));
	err = vs_retrieve_all(s, "Datastore", paths, on_ds, &f);
	if (!err && !f.ref.value[0])
		return pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			       "datastore %s: not found", name);
	/* VAAI (hardware acceleration), as the host sees the datastore */
	if (!err && host && host->value[0] &&
	    !vs_config_target(s, host, &doc, &target))
		for (d = vs_child(target, "datastore"); d;
		     d = vs_next(d, "datastore"))
			if (!strcmp(vs_text(dname, sizeof(dname), d, "name"),
				    name))
				vs_text(out->vaai, sizeof(out->vaai), d,
					"vStorageSupport");
	/* VAAI is a detail: its absence is not an error (the datastore's
	 * own failure keeps its message) */
	if (!err)
		s->errbuf[0] = '\0';
	xmlFreeDoc(doc);
	return err;
}

/* The datastore named name's browser. */
struct ds_browser {
	const char *name;
	struct vs_moref browser;
};

static enum pb_error on_browser(struct vs_session *s,
				const struct vs_objcontent *oc, void *arg)
{
	struct ds_browser *f = arg;
	char name[256];

	(void)s;
	if (!strcmp(vs_node_text(name, sizeof(name), vs_prop(oc, "name")),
		    f->name))
		vs_moref_read(&f->browser, vs_prop(oc, "browser"));
	return PB_OK;
}

/* "[ds] dir" (a server) or "[ds]/dir" (the simulator) and a file name as
 * one datastore path, "[ds] dir/name" */
static void ds_path_join(char *out, size_t len, const char *folder,
			 const char *name)
{
	const char *end = strchr(folder, ']');
	const char *rest = end ? end + 1 : "";

	while (*rest == ' ' || *rest == '/')
		rest++;
	if (!end)
		snprintf(out, len, "%s", name);
	else if (*rest)
		snprintf(out, len, "%.*s %s%s%s", (int)(end - folder + 1),
			 folder, rest, rest[strlen(rest) - 1] == '/' ? "" : "/",
			 name);
	else
		snprintf(out, len, "%.*s %s", (int)(end - folder + 1), folder,
			 name);
}

struct ds_files {
	vs_file_fn fn;
	void *arg;
};

static enum pb_error on_search_result(struct vs_session *s,
				      const struct vs_objcontent *oc, void *arg)
{
	struct ds_files *f = arg;
	xmlNodePtr res, file;
	char folder[1024], name[512], path[1600];

	(void)s;
	/* ArrayOfHostDatastoreBrowserSearchResults: one per folder */
	for (res = vs_child(vs_prop(oc, "info.result"), NULL); res;
	     res = vs_next(res, NULL)) {
		vs_text(folder, sizeof(folder), res, "folderPath");
		for (file = vs_child(res, "file"); file;
		     file = vs_next(file, "file")) {
			vs_text(name, sizeof(name), file, "path");
			if (!name[0])
				continue;
			ds_path_join(path, sizeof(path), folder, name);
			f->fn(path, f->arg);
		}
	}
	return PB_OK;
}

enum pb_error vs_datastore_files(struct vs_session *s, const char *ds,
				 const char *pattern, vs_file_fn fn, void *arg)
{
	static const char *const paths[] = {"name", "browser", NULL};
	static const char *const result[] = {"info.result", NULL};
	struct ds_browser b = {ds, {"", ""}};
	struct ds_files f = {fn, arg};
	struct vs_moref task;
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, spec;
	enum pb_error err;

	err = vs_retrieve_all(s, "Datastore", paths, on_browser, &b);
	if (!err && !b.browser.value[0])
		return pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			       "datastore %s: not found", ds);
	if (err)
		return err;
	err = vs_req_new(&r, "SearchDatastoreSubFolders_Task", &b.browser);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	/* VmDiskFileQuery: the disks' descriptors, not their -flat extents */
	if (!vs_addf(r.op, "datastorePath", "[%s]", ds) ||
	    !(spec = vs_add(r.op, "searchSpec", NULL)) ||
	    !vs_add_typed(&r, spec, "query", "VmDiskFileQuery", NULL) ||
	    !vs_add(spec, "matchPattern", pattern))
		err = pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
	vs_req_dispose(&r);
	if (!err) {
		vs_moref_read(&task, vs_child(ret, "returnval"));
		err = vs_task_wait(s, &task, s->task_timeout_s);
	}
	xmlFreeDoc(doc);
	if (!err)
		err = vs_retrieve_one(s, &task, result, on_search_result, &f);
	return err;
}

/* ---- licences ---- */

/* The editions whose API is read-only (govmomi's free-licence list). */
static bool free_edition(const char *key)
{
	return !strcmp(key, "esxBasic") ||
	       !strcmp(key, "esx.hypervisor.free") || !strcmp(key, "esx.free");
}

struct lic {
	char edition[128];
	bool free, expired;
};

/* An evaluation keeps its name after the 60 days; its expiration
 * properties say whether it ran out. */
static bool eval_expired(xmlNodePtr info)
{
	xmlNodePtr p;
	char k[64], v[64];

	for (p = vs_child(info, "properties"); p;
	     p = vs_next(p, "properties")) {
		vs_text(k, sizeof(k), p, "key");
		vs_text(v, sizeof(v), p, "value");
		if ((!strcmp(k, "expirationHours") ||
		     !strcmp(k, "expirationMinutes")) &&
		    v[0] && atol(v) <= 0)
			return true;
		if (!strcmp(k, "expirationDate") && !isnan(vs_datetime(v)) &&
		    vs_datetime(v) < (double)time(NULL))
			return true;
	}
	return false;
}

static enum pb_error on_licenses(struct vs_session *s,
				 const struct vs_objcontent *oc, void *arg)
{
	struct lic *l = arg;
	xmlNodePtr info;
	char key[64];

	(void)s;
	for (info = vs_child(vs_prop(oc, "licenses"), NULL); info;
	     info = vs_next(info, NULL)) {
		vs_text(key, sizeof(key), info, "editionKey");
		if (!l->edition[0] || free_edition(key))
			vs_text(l->edition, sizeof(l->edition), info, "name");
		if (free_edition(key))
			l->free = true;
		if (!strcmp(key, "eval") && eval_expired(info))
			l->expired = true;
	}
	return PB_OK;
}

enum pb_error vs_license_check(struct vs_session *s, char *edition, size_t len)
{
	static const char *const paths[] = {"licenses", NULL};
	struct lic l;
	enum pb_error err;

	memset(&l, 0, sizeof(l));
	edition[0] = '\0';
	/* vCenter manages no free hosts: its hosts' licences allow writes */
	if (vs_session_is_vcenter(s) || !s->sc.license_manager.value[0])
		return PB_OK;
	err = vs_retrieve_one(s, &s->sc.license_manager, paths, on_licenses,
			      &l);
	if (err)
		return err;
	snprintf(edition, len, "%s", l.edition);
	if (l.free)
		return pb_fail(s->errbuf, PB_ERR_LICENSE,
			       "%s: this host's licence (%s) makes the vSphere "
			       "API read-only: provbench cannot create disks "
			       "or run anything there; a licensed or "
			       "evaluation host is needed",
			       s->sdk_url, l.edition);
	if (l.expired)
		return pb_fail(s->errbuf, PB_ERR_LICENSE,
			       "%s: this host's evaluation licence has "
			       "expired: the API refuses changes",
			       s->sdk_url);
	return PB_OK;
}
