/*
 * disk.c - a VM's disks: list them, add one of a provisioning mode with
 * ReconfigVM_Task (and read back what the server really applied), remove
 * one.
 *
 *   mode   backing                                   flags
 *   thin   VirtualDiskFlatVer2BackingInfo            thinProvisioned=true
 *   lazy   VirtualDiskFlatVer2BackingInfo            thin=false, scrub=false
 *   eager  VirtualDiskFlatVer2BackingInfo            thin=false, scrub=true
 *   rdm    VirtualDiskRawDiskMappingVer1BackingInfo  virtualMode
 *   rdmp   VirtualDiskRawDiskMappingVer1BackingInfo  physicalMode
 *
 * (thin: thinProvisioned; scrub: eagerlyScrub)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vs_int.h"

/* ---- reading devices ---- */

static void disk_read(struct vs_disk *d, xmlNodePtr dev)
{
	xmlNodePtr b = vs_child(dev, "backing");
	char buf[32];

	memset(d, 0, sizeof(*d));
	d->key = atoi(vs_text(buf, sizeof(buf), dev, "key"));
	d->controller_key =
		atoi(vs_text(buf, sizeof(buf), dev, "controllerKey"));
	d->unit = atoi(vs_text(buf, sizeof(buf), dev, "unitNumber"));
	vs_text(d->label, sizeof(d->label), vs_child(dev, "deviceInfo"),
		"label");
	d->capacity_bytes = vs_u64(dev, "capacityInBytes");
	if (!d->capacity_bytes)
		d->capacity_bytes = vs_u64(dev, "capacityInKB") * 1024;
	vs_xsi_type(d->backing, sizeof(d->backing), b);
	vs_text(d->file, sizeof(d->file), b, "fileName");
	vs_text(d->uuid, sizeof(d->uuid), b, "uuid");
	d->thin_provisioned = vs_bool(b, "thinProvisioned");
	d->eagerly_scrub = vs_bool(b, "eagerlyScrub");
	vs_text(d->compat_mode, sizeof(d->compat_mode), b, "compatibilityMode");
	vs_text(d->device_name, sizeof(d->device_name), b, "deviceName");
	vs_text(d->lun_uuid, sizeof(d->lun_uuid), b, "lunUuid");
	vs_text(d->disk_mode, sizeof(d->disk_mode), b, "diskMode");
	/* the mode is what the flags say, not what was asked for */
	if (!strcmp(d->backing, "VirtualDiskRawDiskMappingVer1BackingInfo"))
		d->mode = !strcmp(d->compat_mode, "physicalMode") ? PB_MODE_RDMP
								  : PB_MODE_RDM;
	else if (!strcmp(d->backing, "VirtualDiskFlatVer2BackingInfo"))
		d->mode = d->thin_provisioned == 1 ? PB_MODE_THIN
			  : d->eagerly_scrub == 1  ? PB_MODE_EAGER
						   : PB_MODE_LAZY;
	else
		d->mode = PB_MODE_UNKNOWN;
}

struct vm_devices {
	struct vs_disk *disks;
	size_t ndisks;
	/* every device's place: controller key and unit */
	struct {
		int ctl, unit;
	} * units;
	size_t nunits;
	/* SCSI controllers and the units in use on each */
	struct {
		int key;
		int bus;
		int own_unit;
		char type[48];
		char label[64];
		uint64_t used; /* bit per unit number */
	} ctl[8];
	size_t nctl;
	unsigned other_ctl;	  /* NVMe, SATA, IDE: no disk provbench adds */
	char datastore_path[512]; /* "[ds] vm/vm.vmx" */
	char hw_version[16];	  /* config.version: "vmx-19" */
	struct vs_moref host;
};

/*
 * The units a SCSI controller offers: 16 (0-15) on every type; 64 (0-63)
 * on a VMware Paravirtual controller from virtual hardware 14 (vSphere
 * 6.7, "Configuration Maximums": 64 targets per PVSCSI adapter).
 */
static int units_of(const char *type, const char *hw)
{
	int v = !strncmp(hw, "vmx-", 4) ? atoi(hw + 4) : 0;

	return !strcmp(type, "ParaVirtualSCSIController") && v >= 14 ? 64 : 16;
}

static enum pb_error on_devices(struct vs_session *s,
				const struct vs_objcontent *oc, void *arg)
{
	struct vm_devices *v = arg;
	xmlNodePtr dev, list = vs_prop(oc, "config.hardware.device");
	char type[64];
	size_t i, n = 0;

	/* one VM was asked for: a reply listing more objects (a broken or
	 * hostile server) is read for its first one only */
	if (v->disks)
		return PB_OK;
	vs_node_text(v->datastore_path, sizeof(v->datastore_path),
		     vs_prop(oc, "summary.config.vmPathName"));
	vs_node_text(v->hw_version, sizeof(v->hw_version),
		     vs_prop(oc, "config.version"));
	vs_moref_read(&v->host, vs_prop(oc, "runtime.host"));
	for (dev = vs_child(list, NULL); dev; dev = vs_next(dev, NULL))
		n++;
	v->disks = calloc(n ? n : 1, sizeof(*v->disks));
	v->units = calloc(n ? n : 1, sizeof(*v->units));
	if (!v->disks || !v->units)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	for (dev = vs_child(list, NULL); dev; dev = vs_next(dev, NULL)) {
		vs_xsi_type(type, sizeof(type), dev);
		/* every VirtualSCSIController has scsiCtlrUnitNumber */
		if (vs_child(dev, "scsiCtlrUnitNumber") &&
		    v->nctl < sizeof(v->ctl) / sizeof(v->ctl[0])) {
			char b[16];

			v->ctl[v->nctl].key =
				atoi(vs_text(b, sizeof(b), dev, "key"));
			v->ctl[v->nctl].bus =
				atoi(vs_text(b, sizeof(b), dev, "busNumber"));
			v->ctl[v->nctl].own_unit = atoi(vs_text(
				b, sizeof(b), dev, "scsiCtlrUnitNumber"));
			snprintf(v->ctl[v->nctl].type,
				 sizeof(v->ctl[v->nctl].type), "%s", type);
			vs_text(v->ctl[v->nctl].label,
				sizeof(v->ctl[v->nctl].label),
				vs_child(dev, "deviceInfo"), "label");
			v->nctl++;
			continue;
		}
		if (!strcmp(type, "VirtualNVMEController") ||
		    !strcmp(type, "VirtualAHCIController") ||
		    !strcmp(type, "VirtualNVDIMMController"))
			v->other_ctl++;
		if (!strcmp(type, "VirtualDisk"))
			disk_read(&v->disks[v->ndisks++], dev);
		/* a unit is taken by whatever sits on it: a disk, a SCSI
		 * CD-ROM, a passthrough tape; ESXi refuses a second device
		 * there (InvalidDeviceSpec) */
		if (v->nunits < n && vs_child(dev, "unitNumber") &&
		    vs_child(dev, "controllerKey")) {
			char b[16];

			v->units[v->nunits].ctl = atoi(
				vs_text(b, sizeof(b), dev, "controllerKey"));
			v->units[v->nunits++].unit =
				atoi(vs_text(b, sizeof(b), dev, "unitNumber"));
		}
	}
	for (i = 0; i < v->nunits; i++) {
		size_t c;

		for (c = 0; c < v->nctl; c++)
			if (v->ctl[c].key == v->units[i].ctl &&
			    v->units[i].unit >= 0 && v->units[i].unit < 64)
				v->ctl[c].used |= 1ull << v->units[i].unit;
	}
	return PB_OK;
}

/* Hand the disks to the caller (none on error); the rest goes. */
static enum pb_error take_disks(struct vm_devices *v, enum pb_error err,
				struct vs_disk **out, size_t *n)
{
	if (err) {
		free(v->disks);
		v->disks = NULL;
		v->ndisks = 0;
	}
	free(v->units);
	v->units = NULL;
	*out = v->disks;
	*n = v->ndisks;
	v->disks = NULL;
	return err;
}

enum pb_error vs_disks_read(struct vs_session *s, xmlNodePtr returnval,
			    struct vs_disk **out, size_t *n)
{
	struct vm_devices v;
	enum pb_error err;

	memset(&v, 0, sizeof(v));
	err = vs_each_object(s, returnval, on_devices, &v);
	return take_disks(&v, err, out, n);
}

static enum pb_error read_devices(struct vs_session *s,
				  const struct vs_moref *vm,
				  struct vm_devices *v)
{
	static const char *const paths[] = {
		"config.hardware.device", "summary.config.vmPathName",
		"runtime.host", "config.version", NULL};

	memset(v, 0, sizeof(*v));
	return vs_retrieve_one(s, vm, paths, on_devices, v);
}

enum pb_error vs_disk_list(struct vs_session *s, const struct vs_moref *vm,
			   struct vs_disk **out, size_t *n)
{
	struct vm_devices v;
	enum pb_error err = read_devices(s, vm, &v);

	return take_disks(&v, err, out, n);
}

/* ---- reconfiguration ---- */

/* "[datastore1] vm/vm.vmx" -> "datastore1" */
static void ds_of(char *out, size_t len, const char *path)
{
	const char *e = strchr(path, ']');

	if (path[0] == '[' && e)
		snprintf(out, len, "%.*s", (int)(e - path - 1), path + 1);
	else
		out[0] = '\0';
}

static enum pb_error build_add(struct vs_session *s, struct vs_req *r,
			       const struct vs_disk_spec *sp, const char *ds,
			       int ctl, int unit, const struct vs_lun *lun)
{
	xmlNodePtr spec, dc, dev, b;
	char file[600];
	bool rdm = pb_mode_is_raw_mapping(sp->mode);
	uint64_t bytes = rdm ? lun->capacity_bytes : sp->size_bytes;

	if (sp->file)
		snprintf(file, sizeof(file), "%s", sp->file);
	else
		snprintf(file, sizeof(file), "[%s]", ds);
	spec = vs_add(r->op, "spec", NULL);
	dc = vs_add(spec, "deviceChange", NULL);
	if (!vs_add(dc, "operation", "add") ||
	    !vs_add(dc, "fileOperation", "create"))
		return PB_ERR_NOMEM;
	dev = vs_add_typed(r, dc, "device", "VirtualDisk", NULL);
	if (!vs_add(dev, "key", "-100"))
		return PB_ERR_NOMEM;
	b = vs_add_typed(r, dev, "backing",
			 rdm ? "VirtualDiskRawDiskMappingVer1BackingInfo"
			     : "VirtualDiskFlatVer2BackingInfo",
			 NULL);
	if (!vs_add(b, "fileName", file))
		return PB_ERR_NOMEM;
	if (rdm) {
		if (!vs_add(b, "lunUuid", lun->uuid) ||
		    !vs_add(b, "deviceName", lun->device_path) ||
		    !vs_add(b, "compatibilityMode",
			    sp->mode == PB_MODE_RDMP ? "physicalMode"
						     : "virtualMode") ||
		    !vs_add(b, "diskMode",
			    sp->mode == PB_MODE_RDMP ? "independent_persistent"
						     : "persistent"))
			return PB_ERR_NOMEM;
	} else {
		if (!vs_add(b, "diskMode", "persistent") ||
		    !vs_add(b, "thinProvisioned",
			    sp->mode == PB_MODE_THIN ? "true" : "false") ||
		    !vs_add(b, "eagerlyScrub",
			    sp->mode == PB_MODE_EAGER ? "true" : "false"))
			return PB_ERR_NOMEM;
	}
	if (!vs_addf(dev, "controllerKey", "%d", ctl) ||
	    !vs_addf(dev, "unitNumber", "%d", unit) ||
	    !vs_addf(dev, "capacityInKB", "%llu",
		     (unsigned long long)(bytes / 1024)))
		return PB_ERR_NOMEM;
	/* capacityInBytes is 5.5's: older hostd faults on an element it
	 * does not know */
	if (vs_api_at_least(s, "5.5") &&
	    !vs_addf(dev, "capacityInBytes", "%llu", (unsigned long long)bytes))
		return PB_ERR_NOMEM;
	/* VirtualDeviceConfigSpec.profile follows device (schema order) */
	if (sp->policy_id) {
		xmlNodePtr pr =
			vs_add_typed(r, dc, "profile",
				     "VirtualMachineDefinedProfileSpec", NULL);

		if (!vs_add(pr, "profileId", sp->policy_id))
			return PB_ERR_NOMEM;
	}
	return PB_OK;
}

/* Free units on controller c: never its own unit, nor 7. */
static unsigned units_free(const struct vm_devices *v, size_t c)
{
	int u, n = units_of(v->ctl[c].type, v->hw_version);
	unsigned k = 0;

	for (u = 0; u < n; u++)
		if (u != v->ctl[c].own_unit && u != 7 &&
		    !(v->ctl[c].used & (1ull << u)))
			k++;
	return k;
}

/* The first free unit on the first SCSI controller with room (or the one
 * asked for); never the controller's own unit, nor 7. */
static bool free_unit(const struct vm_devices *v, int want_ctl, int *ctl,
		      int *unit)
{
	size_t c;
	int u;

	for (c = 0; c < v->nctl; c++) {
		if (want_ctl >= 0 && v->ctl[c].key != want_ctl)
			continue;
		for (u = 0; u < units_of(v->ctl[c].type, v->hw_version); u++) {
			if (u == v->ctl[c].own_unit || u == 7 ||
			    (v->ctl[c].used & (1ull << u)))
				continue;
			*ctl = v->ctl[c].key;
			*unit = u;
			return true;
		}
	}
	return false;
}

struct recent {
	struct vs_moref tasks[16];
	size_t n;
};

static enum pb_error on_recent(struct vs_session *s,
			       const struct vs_objcontent *oc, void *arg)
{
	struct recent *r = arg;
	xmlNodePtr t;

	(void)s;
	for (t = vs_child(vs_prop(oc, "recentTask"), NULL);
	     t && r->n < sizeof(r->tasks) / sizeof(r->tasks[0]);
	     t = vs_next(t, NULL))
		vs_moref_read(&r->tasks[r->n++], t);
	return PB_OK;
}

static enum pb_error on_running(struct vs_session *s,
				const struct vs_objcontent *oc, void *arg)
{
	bool *running = arg;
	char id[96], state[16];

	(void)s;
	vs_node_text(id, sizeof(id), vs_prop(oc, "info.descriptionId"));
	vs_node_text(state, sizeof(state), vs_prop(oc, "info.state"));
	*running = !strcmp(id, "VirtualMachine.reconfigure") &&
		   (!strcmp(state, "queued") || !strcmp(state, "running"));
	return PB_OK;
}

/*
 * A ReconfigVM_Task sent whose reply never came: the server may have made
 * the disk or not. Never sent again blindly: the VM's reconfiguration
 * tasks still running are waited for, then its devices read; the disk is
 * there by its file name (made), or nothing happened and it is sent once
 * more. Without a file name there is no telling: an error that says so.
 */
static enum pb_error add_lost(struct vs_session *s, const struct vs_moref *vm,
			      struct vs_req *r, const char *file)
{
	static const char *const rpaths[] = {"recentTask", NULL};
	static const char *const tpaths[] = {"info.descriptionId", "info.state",
					     NULL};
	char why[PB_ERRBUF_SIZE];
	struct recent rec = {.n = 0};
	struct vm_devices v;
	enum pb_error err;
	size_t i;

	snprintf(why, sizeof(why), "%s", s->errbuf);
	if (!file)
		return PB_ERR_CONNECT;
	s->errbuf[0] = '\0';
	err = vs_retrieve_one(s, vm, rpaths, on_recent, &rec);
	for (i = 0; !err && i < rec.n; i++) {
		bool running = false;

		if (vs_retrieve_one(s, &rec.tasks[i], tpaths, on_running,
				    &running)) {
			s->errbuf[0] = '\0'; /* gone since: done */
			continue;
		}
		/* ours, most likely: its end is the disk's */
		if (running)
			vs_task_wait(s, &rec.tasks[i], s->task_timeout_s);
		s->errbuf[0] = '\0';
	}
	if (!err)
		err = read_devices(s, vm, &v);
	if (err)
		return err;
	for (i = 0; i < v.ndisks; i++)
		if (!strcmp(v.disks[i].file, file))
			break;
	free(v.disks);
	free(v.units);
	if (i < v.ndisks) {
		fprintf(stderr,
			"provbench: warning: ReconfigVM_Task: the reply was "
			"lost (%s), but the VM has the disk %s: made\n",
			why, file);
		return PB_OK;
	}
	fprintf(stderr,
		"provbench: warning: ReconfigVM_Task: the reply was lost (%s) "
		"and the VM has no disk %s and no reconfiguration running: "
		"sending it once more\n",
		why, file);
	return vs_call_task(s, r);
}

enum pb_error vs_disk_add(struct vs_session *s, const struct vs_moref *vm,
			  const struct vs_disk_spec *sp, struct vs_disk *out)
{
	struct vm_devices v, after;
	struct vs_lun lun;
	struct vs_req r = {0};
	struct vs_task_times tt;
	char ds[256];
	int ctl = -1, unit = -1;
	size_t i;
	enum pb_error err;
	bool rdm = pb_mode_is_raw_mapping(sp->mode);

	memset(&after, 0, sizeof(after));
	memset(&lun, 0, sizeof(lun));
	err = read_devices(s, vm, &v);
	if (err)
		goto out;
	if (!free_unit(&v, sp->controller_key, &ctl, &unit)) {
		err = pb_fail(s->errbuf, PB_ERR_INPUT,
			      sp->controller_key >= 0
				      ? "VM %s: SCSI controller %d has no "
					"free unit"
				      : "VM %s: no SCSI controller with a "
					"free unit",
			      vm->value, sp->controller_key);
		goto out;
	}
	if (sp->datastore)
		snprintf(ds, sizeof(ds), "%s", sp->datastore);
	else
		ds_of(ds, sizeof(ds), v.datastore_path);
	if (!ds[0]) {
		err = pb_fail(s->errbuf, PB_ERR_INPUT,
			      "VM %s: no datastore given and none known for "
			      "the VM",
			      vm->value);
		goto out;
	}
	if (rdm) {
		struct vs_moref host = v.host;
		struct vs_host_info hi;

		if (!sp->lun) {
			err = pb_fail(s->errbuf, PB_ERR_INPUT,
				      "mode %s needs a LUN (--lun)",
				      pb_mode_name(sp->mode));
			goto out;
		}
		if (sp->host) {
			err = vs_host_find(s, &hi, sp->host);
			if (err)
				goto out;
			host = hi.ref;
		}
		err = vs_lun_find(s, &host, sp->lun, &lun);
		if (err)
			goto out;
	} else if (sp->size_bytes < 1024 * 1024) {
		err = pb_fail(s->errbuf, PB_ERR_INPUT,
			      "disk size %llu bytes: at least 1 MiB",
			      (unsigned long long)sp->size_bytes);
		goto out;
	}
	err = vs_req_new(&r, "ReconfigVM_Task", vm);
	if (!err)
		err = build_add(s, &r, sp, ds, ctl, unit, &lun);
	if (err) {
		pb_fail(s->errbuf, err, "out of memory");
		goto out;
	}
	s->no_reply = false;
	err = vs_call_task(s, &r);
	if (err && s->no_reply)
		err = add_lost(s, vm, &r, sp->file);
	if (err)
		goto out;
	/* read back: the server's word on what it created; the task's
	 * times stay those of the reconfiguration */
	tt = s->last_task;
	err = read_devices(s, vm, &after);
	s->last_task = tt;
	for (i = 0; !err && i < after.ndisks; i++)
		if (after.disks[i].controller_key == ctl &&
		    after.disks[i].unit == unit)
			break;
	if (!err && i == after.ndisks)
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "VM %s: the new disk is not at controller %d "
			      "unit %d after the reconfiguration",
			      vm->value, ctl, unit);
	if (!err) {
		*out = after.disks[i];
		snprintf(out->lun_name, sizeof(out->lun_name), "%s",
			 rdm ? lun.canonical_name : "");
	}
out:
	vs_req_dispose(&r);
	free(v.disks);
	free(v.units);
	free(after.disks);
	free(after.units);
	return err;
}

static enum pb_error add_backing(struct vs_req *r, xmlNodePtr dev,
				 const struct vs_disk *d)
{
	bool rdm = pb_mode_is_raw_mapping(d->mode);
	xmlNodePtr b = vs_add_typed(r, dev, "backing", d->backing, NULL);

	if (!vs_add(b, "fileName", d->file))
		return PB_ERR_NOMEM;
	if (rdm &&
	    ((d->lun_uuid[0] && !vs_add(b, "lunUuid", d->lun_uuid)) ||
	     (d->device_name[0] && !vs_add(b, "deviceName", d->device_name)) ||
	     (d->compat_mode[0] &&
	      !vs_add(b, "compatibilityMode", d->compat_mode))))
		return PB_ERR_NOMEM;
	if (!vs_add(b, "diskMode",
		    d->disk_mode[0] ? d->disk_mode : "persistent"))
		return PB_ERR_NOMEM;
	/* schema order: uuid follows diskMode in both backings */
	if (d->uuid[0] && !vs_add(b, "uuid", d->uuid))
		return PB_ERR_NOMEM;
	return PB_OK;
}

enum pb_error vs_disk_remove(struct vs_session *s, const struct vs_moref *vm,
			     const struct vs_disk *d, bool keep_file)
{
	struct vs_req r = {0};
	xmlNodePtr dc, dev;
	enum pb_error err;

	err = vs_req_new(&r, "ReconfigVM_Task", vm);
	dc = err ? NULL
		 : vs_add(vs_add(r.op, "spec", NULL), "deviceChange", NULL);
	if (!vs_add(dc, "operation", "remove") ||
	    (!keep_file && !vs_add(dc, "fileOperation", "destroy")))
		err = PB_ERR_NOMEM;
	/* the device as the server described it, backing included: servers
	 * (and the simulator) take the file to destroy from it */
	dev = err ? NULL : vs_add_typed(&r, dc, "device", "VirtualDisk", NULL);
	if (!err &&
	    (!vs_addf(dev, "key", "%d", d->key) || add_backing(&r, dev, d) ||
	     !vs_addf(dev, "controllerKey", "%d", d->controller_key) ||
	     !vs_addf(dev, "unitNumber", "%d", d->unit) ||
	     !vs_addf(dev, "capacityInKB", "%llu",
		      (unsigned long long)(d->capacity_bytes / 1024))))
		err = PB_ERR_NOMEM;
	if (err)
		pb_fail(s->errbuf, err, "out of memory");
	else
		err = vs_call_task(s, &r);
	vs_req_dispose(&r);
	return err;
}

enum pb_error vs_devices_free_unit(struct vs_session *s, xmlNodePtr returnval,
				   int want_ctl, int *ctl, int *unit)
{
	struct vm_devices v;
	enum pb_error err;

	memset(&v, 0, sizeof(v));
	err = vs_each_object(s, returnval, on_devices, &v);
	if (!err && !free_unit(&v, want_ctl, ctl, unit))
		err = PB_ERR_NOTFOUND;
	free(v.disks);
	free(v.units);
	return err;
}

enum pb_error vs_vm_controllers(struct vs_session *s, const struct vs_moref *vm,
				struct vs_vm_hw *out)
{
	struct vm_devices v;
	enum pb_error err = read_devices(s, vm, &v);
	size_t c;

	memset(out, 0, sizeof(*out));
	for (c = 0; !err && c < v.nctl && c < VS_MAX_CONTROLLERS; c++) {
		struct vs_controller *o = &out->ctl[out->nctl++];

		o->key = v.ctl[c].key;
		o->bus = v.ctl[c].bus;
		snprintf(o->type, sizeof(o->type), "%s", v.ctl[c].type);
		snprintf(o->label, sizeof(o->label), "%s", v.ctl[c].label);
		o->units = (unsigned)units_of(v.ctl[c].type, v.hw_version) - 2;
		o->free = units_free(&v, c);
	}
	if (!err) {
		snprintf(out->hw_version, sizeof(out->hw_version), "%s",
			 v.hw_version);
		out->other_controllers = v.other_ctl;
	}
	free(v.disks);
	free(v.units);
	return err;
}
