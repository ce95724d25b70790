/*
 * options.c - the qemu backend's profile section, "qemu": one table
 * (applied by the profile loader, printed by `provbench help profile`);
 * nothing across keys needs a rule of its own.
 */
#include <stddef.h>

#include "qb.h"

static const char *const accels[] = {"auto", "kvm", "tcg", NULL};
static const char *const aios[] = {"auto", "io_uring", "native", "threads",
				   NULL};
static const char *const thins[] = {"qcow2", "raw", NULL};

#define OFF(f) offsetof(struct qemu_opts, f)

const struct pb_option qb_options[] = {
	{.name = "dir",
	 .type = PB_OPT_STR,
	 .off = OFF(dir),
	 .flags = PB_OPT_F_PLACE,
	 .place_default = "the state directory's",
	 .help = "where the disk files go (default: <state dir>/qemu); on a "
		 "filesystem with O_DIRECT"},
	{.name = "accel",
	 .type = PB_OPT_CHOICE,
	 .off = OFF(accel),
	 .choices = accels,
	 .def = "auto",
	 .help = "auto: KVM if a probe boot reaches init, else TCG"},
	{.name = "rdm_device",
	 .type = PB_OPT_STR,
	 .off = OFF(rdm_device),
	 .flags = PB_OPT_F_RDM,
	 .help = "a host block device for rdm (checked empty and unused); "
		 "default: a loop device over a preallocated file (root)"},
	{.name = "guest",
	 .type = PB_OPT_STR,
	 .off = OFF(guest),
	 .help = "the guest image directory (default: PROVBENCH_GUEST_DIR, "
		 "beside the binary, or the installed one)"},
	{.name = "binary",
	 .type = PB_OPT_STR,
	 .off = OFF(binary),
	 .def = "qemu-system-x86_64",
	 .help = "the qemu to run"},
	{.name = "aio",
	 .type = PB_OPT_CHOICE,
	 .off = OFF(aio),
	 .choices = aios,
	 .def = "auto",
	 .help = "the test disk's I/O path in qemu (cache=none): auto is "
		 "native (Linux AIO), then threads where qemu refuses it; "
		 "io_uring, native or threads named is used or the item "
		 "fails"},
	{.name = "thin",
	 .type = PB_OPT_CHOICE,
	 .off = OFF(thin),
	 .choices = thins,
	 .def = "qcow2",
	 .help = "what a thin disk is made as: qcow2 without preallocation "
		 "(its clusters allocated as written, qemu's own thin), or "
		 "raw: "
		 "a sparse file whose holes the host's filesystem fills as "
		 "written; both pass a guest's discard down to the file"},
	{.name = "memory_mib",
	 .type = PB_OPT_UINT,
	 .off = OFF(memory_mib),
	 .min = 64,
	 .max = 65536,
	 .def = "256",
	 .help = "guest memory"},
	{.name = "cpus",
	 .type = PB_OPT_UINT,
	 .off = OFF(cpus),
	 .min = 1,
	 .max = 64,
	 .def = "1",
	 .help = "guest CPUs"},
	{.name = "mem_file",
	 .type = PB_OPT_BOOL,
	 .off = OFF(mem_file),
	 .flags = PB_OPT_F_SETTING,
	 .help = "true: the guest's RAM is a file in dir, shared and written "
		 "back like any file (VMware's mainMem.useNamedFile = TRUE, "
		 "seed 002's cause); default false, anonymous memory"},
	{.name = NULL},
};

#undef OFF
