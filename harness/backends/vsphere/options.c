/*
 * options.c - the vsphere backend's profile section, "vsphere": one table
 * (applied by the profile loader, printed by `provbench help profile`)
 * and the rules across keys: a VM is required, rdm and rdmp need a LUN.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"

#define OFF(f) offsetof(struct vsphere_opts, f)

static const char *const unapplied_choices[] = {"refuse", "measure", "skip",
						NULL};

const struct pb_option vsb_options[] = {
	{.name = "vm",
	 .type = PB_OPT_STR,
	 .off = OFF(vm),
	 .help = "the test VM: inventory path, unique name or moref:vm-N "
		 "(required)"},
	{.name = "datastore",
	 .type = PB_OPT_STR,
	 .off = OFF(datastore),
	 .flags = PB_OPT_F_PLACE,
	 .place_default = "the VM's own",
	 .help = "where new disks go (default: the VM's own)"},
	{.name = "host",
	 .type = PB_OPT_STR,
	 .off = OFF(host),
	 .help = "the host whose LUNs rdm / rdmp map (default: the VM's)"},
	{.name = "lun",
	 .type = PB_OPT_STR,
	 .off = OFF(lun),
	 .flags = PB_OPT_F_RDM,
	 .help = "the LUN's canonical name, for rdm / rdmp (`provbench "
		 "vsphere luns HOST` lists them)"},
	{.name = "controller",
	 .type = PB_OPT_INT,
	 .off = OFF(controller),
	 .min = -1,
	 .max = 1000000,
	 .def = "-1",
	 .help = "the SCSI controller's device key (default: any with room)"},
	{.name = "guest_dir",
	 .type = PB_OPT_STR,
	 .off = OFF(guest_dir),
	 .help = "the guest directory for the runner and its output "
		 "(default /tmp/provbench; on Windows "
		 "C:\\ProgramData\\provbench)"},
	{.name = "runner",
	 .type = PB_OPT_STR,
	 .off = OFF(runner),
	 .help = "the static runner to upload (default: PROVBENCH_RUNNER, "
		 "else the installed one)"},
	{.name = "runner_windows",
	 .type = PB_OPT_STR,
	 .off = OFF(runner_windows),
	 .help = "the runner for a Windows guest, provbench-runner.exe "
		 "(default: PROVBENCH_RUNNER_WINDOWS, else the installed one)"},
	{.name = "by_id_dir",
	 .type = PB_OPT_STR,
	 .off = OFF(by_id_dir),
	 .help = "where the runner looks disks up in the guest (default "
		 "/dev/disk/by-id; on Windows none: the disks' own "
		 "identifiers)"},
	{.name = "task_timeout_s",
	 .type = PB_OPT_UINT,
	 .off = OFF(task_timeout_s),
	 .min = 1,
	 .max = 7 * 86400,
	 .def = "3600",
	 .help = "a vSphere task not done by then failed"},
	{.name = "extra_config",
	 .flags = PB_OPT_F_SETTING,
	 .type = PB_OPT_KV,
	 .off = OFF(extra_config),
	 .help = "VMX settings the run needs live (disk.EnableUUID always)"},
	{.name = "power_cycle",
	 .type = PB_OPT_BOOL,
	 .off = OFF(power_cycle),
	 .help = "allow a power cycle of the VM to make settings live"},
	{.name = "unapplied",
	 .type = PB_OPT_CHOICE,
	 .off = OFF(unapplied),
	 .choices = unapplied_choices,
	 .def = "refuse",
	 .help = "a mode the datastore will not make as asked (NFS without "
		 "VAAI-NAS makes only thin; vSAN and vVols follow the "
		 "storage policy): refuse the run before anything is made, "
		 "measure it as what it becomes (named so in the report), or "
		 "skip it on that datastore (a fleet over mixed storage)"},
	{.name = "storage_policy",
	 .type = PB_OPT_KV,
	 .off = OFF(storage_policy),
	 .help = "vSAN, vVols: the storage policy each mode's disks get, by "
		 "name ({\"lazy\": \"Thick 100%\"}); read back through SPBM "
		 "after each disk is made"},
	{.name = NULL},
};

#undef OFF

enum pb_error vsb_options_check(void *opts, const struct pb_profile *p,
				char *errbuf)
{
	struct vsphere_opts *o = opts;
	const char *runner = getenv("PROVBENCH_RUNNER");
	unsigned i;

	if (!o->vm)
		return pb_fail(errbuf, PB_ERR_INPUT, "vsphere.vm: required");
	for (i = 0; i < o->storage_policy.n; i++) {
		enum pb_mode m;

		if (!pb_mode_parse(&m, o->storage_policy.key[i]) ||
		    pb_mode_is_raw_mapping(m))
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "vsphere.storage_policy: %s: not a "
				       "mode with a virtual disk (thin, lazy, "
				       "eager)",
				       o->storage_policy.key[i]);
	}
	for (i = 0; i < p->nmodes; i++)
		if (pb_mode_is_raw_mapping(p->modes[i]) && !o->lun)
			return pb_fail(errbuf, PB_ERR_INPUT,
				       "vsphere.lun: required for mode rdm / "
				       "rdmp");
	/* PROVBENCH_RUNNER_WINDOWS, else the one shipped */
	if (!o->runner_windows) {
		const char *env = getenv("PROVBENCH_RUNNER_WINDOWS");
		char path[PATH_MAX];

		if (env && *env)
			snprintf(path, sizeof(path), "%s", env);
		else
			pb_data_path(path, sizeof(path),
				     "win/provbench-runner.exe");
		o->runner_windows = strdup(path);
		if (!o->runner_windows)
			return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	}
	/* PROVBENCH_RUNNER, else the one shipped (pb_data_path) */
	if (!o->runner) {
		char path[PATH_MAX];

		if (runner && *runner)
			snprintf(path, sizeof(path), "%s", runner);
		else
			pb_data_path(path, sizeof(path),
				     "provbench-runner-static");
		o->runner = strdup(path);
		if (!o->runner)
			return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	}
	return PB_OK;
}
