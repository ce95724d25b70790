/*
 * lun.c - a host's SCSI LUNs and which of them may become raw device
 * mappings.
 *
 * config.storageDevice lists every SCSI device the host sees: array LUNs,
 * but also its boot disk, disks vSAN has claimed and CD-ROMs. What may be
 * mapped is what EnvironmentBrowser.QueryConfigTarget offers
 * (ConfigTarget.scsiDisk), as govc vm.rdm.ls / vm.rdm.attach and the
 * vSphere Client's RDM dialog use it; provbench offers nothing else. On top
 * of that, and whatever the server says, a LUN holding a VMFS extent or
 * mapped into any VM is in use: benchmark writes would destroy its data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vs_int.h"

struct lun_list {
	struct vs_lun *luns;
	size_t n;
	struct vs_moref vsan; /* the host's HostVsanSystem */
};

static enum pb_error on_storage(struct vs_session *s,
				const struct vs_objcontent *oc, void *arg)
{
	struct lun_list *r = arg;
	xmlNodePtr info = vs_prop(oc, "config.storageDevice"), l, mp;
	xmlNodePtr fsmounts = vs_prop(oc, "config.fileSystemVolume");
	char ext[256], b[16];
	size_t cnt = 0;

	if (r->luns) /* one host was asked for */
		return PB_OK;
	vs_moref_read(&r->vsan, vs_prop(oc, "configManager.vsanSystem"));
	for (l = vs_child(info, "scsiLun"); l; l = vs_next(l, "scsiLun"))
		cnt++;
	r->luns = calloc(cnt ? cnt : 1, sizeof(*r->luns));
	if (!r->luns)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	for (l = vs_child(info, "scsiLun"); l; l = vs_next(l, "scsiLun")) {
		struct vs_lun *u = &r->luns[r->n++];
		xmlNodePtr cap = vs_child(l, "capacity");

		vs_text(u->canonical_name, sizeof(u->canonical_name), l,
			"canonicalName");
		vs_text(u->display_name, sizeof(u->display_name), l,
			"displayName");
		vs_text(u->uuid, sizeof(u->uuid), l, "uuid");
		vs_text(u->device_path, sizeof(u->device_path), l,
			"devicePath");
		if (!u->device_path[0])
			vs_text(u->device_path, sizeof(u->device_path), l,
				"deviceName");
		vs_text(u->lun_type, sizeof(u->lun_type), l, "lunType");
		vs_text(u->vendor, sizeof(u->vendor), l, "vendor");
		vs_text(u->model, sizeof(u->model), l, "model");
		vs_text(u->vaai, sizeof(u->vaai), l, "vStorageSupport");
		u->capacity_bytes =
			vs_u64(cap, "block") * vs_u64(cap, "blockSize");
		/* why a host would not offer it, for the listing */
		if (strcmp(u->lun_type, "disk"))
			snprintf(u->why, sizeof(u->why), "a %s, not a disk",
				 u->lun_type[0] ? u->lun_type : "device");
		else if (vs_child(l, "vsanDiskInfo"))
			snprintf(u->why, sizeof(u->why), "claimed by vSAN");
		else if (!strcmp(vs_text(b, sizeof(b), l, "localDisk"), "true"))
			snprintf(u->why, sizeof(u->why),
				 "a local disk (the boot disk?)");
		/* a LUN that is a VMFS extent is in use */
		for (mp = vs_child(fsmounts, "mountInfo"); mp;
		     mp = vs_next(mp, "mountInfo")) {
			xmlNodePtr vol = vs_child(mp, "volume"), e;
			char vname[128];

			vs_text(vname, sizeof(vname), vol, "name");
			for (e = vs_child(vol, "extent"); e;
			     e = vs_next(e, "extent")) {
				vs_text(ext, sizeof(ext), e, "diskName");
				if (!strcmp(ext, u->canonical_name))
					snprintf(u->used_by, sizeof(u->used_by),
						 "vmfs:%s", vname);
			}
		}
	}
	return PB_OK;
}

/*
 * vSAN's own word on the host's disks (HostVsanSystem.QueryDisksForVsan):
 * "inUse" is claimed. On vSphere 8 a claimed disk no longer carries
 * vsanDiskInfo in the storage device list, so this is what tells; a host
 * without vSAN answers nothing or a fault, which is no error here.
 */
static void mark_vsan(struct vs_session *s, struct lun_list *r)
{
	struct vs_req q;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, d;
	char state[24], name[128];
	size_t i;

	if (!r->vsan.value[0] || vs_req_new(&q, "QueryDisksForVsan", &r->vsan))
		return;
	if (!vs_call(s, &q, true, &doc, &ret))
		for (d = vs_child(ret, "returnval"); d;
		     d = vs_next(d, "returnval")) {
			vs_text(state, sizeof(state), d, "state");
			vs_text(name, sizeof(name), vs_child(d, "disk"),
				"canonicalName");
			for (i = 0; i < r->n; i++)
				if (!strcmp(state, "inUse") &&
				    !strcmp(r->luns[i].canonical_name, name))
					snprintf(r->luns[i].why,
						 sizeof(r->luns[i].why),
						 "claimed by vSAN");
		}
	s->errbuf[0] = '\0';
	s->fault[0] = '\0';
	vs_req_dispose(&q);
	xmlFreeDoc(doc);
}

/* Mark LUNs some VM already maps as an RDM (by lunUuid or device path). */
static enum pb_error on_vm_rdms(struct vs_session *s,
				const struct vs_objcontent *oc, void *arg)
{
	struct lun_list *r = arg;
	xmlNodePtr dev, b;
	char type[80], uuid[128], path[256];
	size_t i;

	(void)s;
	for (dev = vs_child(vs_prop(oc, "config.hardware.device"), NULL); dev;
	     dev = vs_next(dev, NULL)) {
		b = vs_child(dev, "backing");
		if (strcmp(vs_xsi_type(type, sizeof(type), b),
			   "VirtualDiskRawDiskMappingVer1BackingInfo"))
			continue;
		vs_text(uuid, sizeof(uuid), b, "lunUuid");
		vs_text(path, sizeof(path), b, "deviceName");
		for (i = 0; i < r->n; i++)
			if ((uuid[0] && !strcmp(uuid, r->luns[i].uuid)) ||
			    (path[0] && !strcmp(path, r->luns[i].device_path)))
				snprintf(r->luns[i].used_by,
					 sizeof(r->luns[i].used_by), "rdm:%s",
					 oc->obj.value);
	}
	return PB_OK;
}

static enum pb_error on_ref(struct vs_session *s,
			    const struct vs_objcontent *oc, void *arg)
{
	struct vs_moref *out = arg;

	(void)s;
	vs_moref_read(out, oc->props ? vs_child(oc->props, "val") : NULL);
	return PB_OK;
}

/* The environment browser of the compute resource the host is in. */
static enum pb_error host_browser(struct vs_session *s,
				  const struct vs_moref *host,
				  struct vs_moref *browser)
{
	static const char *const parent[] = {"parent", NULL};
	static const char *const eb[] = {"environmentBrowser", NULL};
	struct vs_moref cr = {"", ""};
	enum pb_error err;

	browser->type[0] = browser->value[0] = '\0';
	err = vs_retrieve_one(s, host, parent, on_ref, &cr);
	if (!err && cr.value[0])
		err = vs_retrieve_one(s, &cr, eb, on_ref, browser);
	if (!err && !browser->value[0])
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "host %s: no environment browser for its "
			      "compute resource",
			      host->value);
	return err;
}

enum pb_error vs_config_target(struct vs_session *s,
			       const struct vs_moref *host, xmlDocPtr *doc,
			       xmlNodePtr *target)
{
	struct vs_moref browser;
	struct vs_req r;
	xmlNodePtr ret;
	enum pb_error err;

	*doc = NULL;
	*target = NULL;
	err = host_browser(s, host, &browser);
	if (err)
		return err;
	err = vs_req_new(&r, "QueryConfigTarget", &browser);
	if (!err && !vs_add_moref(r.op, "host", host))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, true, doc, &ret);
	else
		pb_fail(s->errbuf, err, "out of memory");
	vs_req_dispose(&r);
	if (!err)
		*target = vs_child(ret, "returnval");
	return err;
}

void vs_luns_mark_offered(struct vs_lun *luns, size_t n, xmlNodePtr target)
{
	xmlNodePtr d;
	char name[128];
	size_t i;

	for (d = vs_child(target, "scsiDisk"); d; d = vs_next(d, "scsiDisk")) {
		vs_text(name, sizeof(name), vs_child(d, "disk"),
			"canonicalName");
		for (i = 0; i < n; i++)
			if (!strcmp(luns[i].canonical_name, name))
				luns[i].offered = true;
	}
	for (i = 0; i < n; i++)
		if (!luns[i].offered && !luns[i].used_by[0] && !luns[i].why[0])
			snprintf(luns[i].why, sizeof(luns[i].why),
				 "not offered for RDM by the host");
}

enum pb_error vs_host_luns(struct vs_session *s, const struct vs_moref *host,
			   struct vs_lun **out, size_t *n)
{
	static const char *const paths[] = {"config.storageDevice",
					    "config.fileSystemVolume",
					    "configManager.vsanSystem", NULL};
	static const char *const vm_paths[] = {"config.hardware.device", NULL};
	struct lun_list r = {NULL, 0, {"", ""}};
	xmlDocPtr doc = NULL;
	xmlNodePtr target;
	enum pb_error err;

	err = vs_retrieve_one(s, host, paths, on_storage, &r);
	if (!err)
		mark_vsan(s, &r);
	/* a LUN mapped into any VM is in use: benchmark writes would
	 * destroy that VM's data */
	if (!err)
		err = vs_retrieve_all(s, "VirtualMachine", vm_paths, on_vm_rdms,
				      &r);
	if (!err)
		err = vs_config_target(s, host, &doc, &target);
	if (!err)
		vs_luns_mark_offered(r.luns, r.n, target);
	xmlFreeDoc(doc);
	if (err) {
		free(r.luns);
		r.luns = NULL;
		r.n = 0;
	}
	*out = r.luns;
	*n = r.n;
	return err;
}

enum pb_error vs_lun_find(struct vs_session *s, const struct vs_moref *host,
			  const char *name, struct vs_lun *out)
{
	struct vs_lun *luns = NULL;
	size_t n = 0, i;
	enum pb_error err = vs_host_luns(s, host, &luns, &n);

	for (i = 0; !err && i < n; i++)
		if (!strcmp(luns[i].canonical_name, name) ||
		    !strcmp(luns[i].uuid, name) ||
		    !strcmp(luns[i].display_name, name))
			break;
	if (!err && i == n)
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "LUN '%s': not on host %s (see `provbench "
			      "vsphere luns HOST`)",
			      name, host->value);
	else if (!err && luns[i].used_by[0])
		err = pb_fail(s->errbuf, PB_ERR_INPUT,
			      "LUN '%s': in use (%s); refusing to map it", name,
			      luns[i].used_by);
	else if (!err && !luns[i].offered)
		err = pb_fail(s->errbuf, PB_ERR_INPUT,
			      "LUN '%s': %s; refusing to map it", name,
			      luns[i].why);
	if (!err)
		*out = luns[i];
	free(luns);
	return err;
}
