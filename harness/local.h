/*
 * local.h - disks on this machine, as the qemu and host backends make
 * them: files created exclusively (nothing that exists is ever
 * overwritten), made durable and out of the page cache before anything is
 * measured on them, read back through FIEMAP for what they really became,
 * and loop devices over them (direct I/O, autoclear). One home for what
 * both backends do to a local file, so neither calls into the other.
 */
#ifndef PB_LOCAL_H
#define PB_LOCAL_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common.h"

/*
 * Where a local backend's disks live and what it shares: this machine's
 * name, the disk directory (the profile's, or <state dir>/SUB made 0700)
 * resolved, the lock and journal key "BACKEND:HOST:DIR", the places
 * another run may share ("BACKEND:HOST: filesystem MAJ:MIN", and
 * "BACKEND:HOST: device PATH" when a device is named), and this run's
 * random id for disk names.
 */
struct pb_local {
	char host[256];
	char dir[PATH_MAX];
	char key[PATH_MAX + 300];
	char shared[2][PATH_MAX + 300];
	char run_id[32];
};

/* Fill l for backend ("qemu", "host"): dir the profile's (NULL: the state
 * directory's backend/), device its device or NULL. */
enum pb_error pb_local_open(struct pb_local *l, const char *backend,
			    const char *dir, const char *device, char *errbuf);
/* A shard's tag ("-s0of3") after the run id: shards on one place never
 * name a disk alike. */
struct pb_profile;
void pb_local_shard(struct pb_local *l, const struct pb_profile *p);
/* The machine and the disk directory, into run.json's environment: host,
 * host_kernel, host_cpu, datastore, datastore_fs. */
void pb_local_describe(const struct pb_local *l, json_t *env);

/* Create path, empty, exclusively: PB_ERR_UNSAFE if it exists. */
enum pb_error pb_local_claim(const char *path, char *errbuf);

/*
 * fsync path and drop its pages from the host's page cache: a new disk is
 * on the device before the clock of the first pass starts, and none of it
 * is cached (an O_DIRECT write over cached pages must drop them first, a
 * cost of the first pass only: docs/DESIGN.md).
 */
enum pb_error pb_local_settle(const char *path, char *errbuf);

/* Written and unwritten (preallocated) bytes of an open file (FIEMAP);
 * false where the filesystem cannot say (NFS, tmpfs). */
bool pb_local_extents(int fd, uint64_t *written, uint64_t *unwritten);

/*
 * What the file at path really is, whatever was asked, as run.json's
 * read-back: {"format", "written_bytes", "unwritten_bytes",
 * "allocated_bytes", "mode"}. A qcow2 is thin; a raw file mostly written
 * is eager, mostly preallocated-unwritten lazy, mostly unallocated thin;
 * "unknown" when the filesystem cannot tell (no FIEMAP, and allocated).
 */
json_t *pb_local_readback(const char *path, uint64_t size);

/* O_DIRECT where files of dir live (tmpfs has none): PB_ERR_UNSUPPORTED
 * with why, naming key (the profile key that chose dir) and what needs it. */
enum pb_error pb_local_check_direct(const char *dir, const char *key,
				    const char *needs, char *errbuf);

/* The filesystem dir is on, by name ("ext4", "xfs", "nfs", "zfs", ...). */
const char *pb_local_fs_name(const char *dir);

/*
 * A process that stopped making progress, as the kernel sees it, added
 * to the file at path: its threads (state, wchan, kernel stack where
 * readable: root) and its io_uring and aio rings (fdinfo: entries
 * submitted, completed, reaped). what names it ("qemu").
 */
enum pb_error pb_local_proc_dump(pid_t pid, const char *what, const char *path,
				 char *errbuf);

/* A loop device provbench attached, over a file it made. */
struct pb_loop {
	int fd; /* -1: none */
	char dev[32];
};

#define PB_LOOP_INIT                                                           \
	{                                                                      \
		.fd = -1                                                       \
	}

/* Attach a free loop device over file, with direct I/O and autoclear (it
 * goes with its last opener). Needs root. */
enum pb_error pb_loop_attach(struct pb_loop *l, const char *file, char *errbuf);
/* Detach it and wait until the kernel has let go. NULL-safe, idempotent. */
void pb_loop_detach(struct pb_loop *l);
/* Close it without detaching (autoclear does once nothing holds it). */
void pb_loop_close(struct pb_loop *l);
/* Detach every loop device whose backing file is path (a crashed run's):
 * how many. */
unsigned pb_loop_detach_file(const char *path);

#endif
