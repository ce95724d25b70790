/*
 * qemu_options.h - the qemu backend's profile section, "qemu", as its
 * option table (options.c) fills it.
 */
#ifndef PB_QEMU_OPTIONS_H
#define PB_QEMU_OPTIONS_H

#include "backend.h"

/* the profile's "qemu" section */
struct qemu_opts {
	char *dir;	  /* disk files; NULL: <state dir>/qemu */
	char *accel;	  /* "auto" (KVM if a probe boot works), "kvm", "tcg" */
	char *rdm_device; /* host block device for rdm; NULL: a loop device */
	char *guest;	  /* guest image directory; NULL: see find_guest */
	char *binary;	  /* qemu-system-x86_64 */
	/* the disk's I/O path: "auto" (the order guest.c tries), or one */
	char *aio;
	/* what thin is made as: "qcow2" (its clusters allocated as written)
	 * or "raw" (a sparse file whose holes the host fills) */
	char *thin;
	unsigned memory_mib;
	unsigned cpus;
	bool mem_file; /* guest RAM in a file of dir (VMware's named file) */
};

extern const struct pb_option qb_options[];

#endif
