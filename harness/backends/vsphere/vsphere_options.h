/*
 * vsphere_options.h - the vsphere backend's profile section, "vsphere",
 * as its option table (options.c) fills it, and its rules across keys.
 */
#ifndef PB_VSPHERE_OPTIONS_H
#define PB_VSPHERE_OPTIONS_H

#include "backend.h"

struct pb_profile;

/* the profile's "vsphere" section */
struct vsphere_opts {
	char *vm;		 /* inventory path or unique name */
	char *datastore;	 /* NULL: the VM's own */
	char *host;		 /* for the LUN; NULL: the VM's host */
	char *lun;		 /* canonical name, for rdm / rdmp */
	int controller;		 /* -1: any SCSI controller with room */
	char *guest_dir;	 /* where the runner and its output go */
	char *runner;		 /* local static runner to upload */
	char *runner_windows;	 /* the .exe, for a Windows guest */
	char *by_id_dir;	 /* where the runner looks disks up */
	unsigned task_timeout_s; /* a vSphere task not done by then failed */
	struct pb_kv extra_config;
	/* settings that take effect at power-on may be made live by a
	 * power cycle of the VM (shutdown through Tools, set, power on) */
	bool power_cycle;
	/* a mode the datastore will not make as asked (NFS without
	 * VAAI-NAS, vSAN without a thick policy): "refuse" it before
	 * anything is made, "measure" it as what it becomes, or "skip" it
	 * on that datastore */
	char *unapplied;
	/* vSAN, vVols: the storage policy (by name) each mode's disks get,
	 * mode -> name */
	struct pb_kv storage_policy;
};

extern const struct pb_option vsb_options[];
enum pb_error vsb_options_check(void *opts, const struct pb_profile *p,
				char *errbuf);

#endif
