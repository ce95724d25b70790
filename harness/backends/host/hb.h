/*
 * hb.h - the host backend's parts: the runner runs on this machine, with
 * no hypervisor between it and the disk files (fio's null engine is the
 * model for testability; this one is real). thin is a sparse file, lazy a
 * fallocated one, eager one written in full and fsync'd, rdm a block
 * device the profile names or a loop device over a written file
 * (disks.c); backend.c holds the ops, the check and the run.
 *
 * What it measures is the host's own first-write penalty on the
 * filesystem of host.dir (ext4, xfs, ZFS, an NFS mount), and the baseline
 * a guest's figures can be set against. It is also how the harness's own
 * logic is tested in seconds.
 *
 * Its profile section, "host" (options.c): dir, device, runner.
 */
#ifndef PB_HB_H
#define PB_HB_H

#include <limits.h>

#include "harness_int.h"
#include "host_options.h"
#include "local.h"

/* the runner runs in its own process group (a terminal's ^C reaches the
 * harness, which stops the runner itself) and dies with the harness */
#define HB_CHILD                                                               \
	(PB_CHILD_OWN_GROUP | PB_CHILD_DIE_WITH_US | PB_CHILD_NO_STDOUT)

/* how long an interrupted runner has to write its partial document */
#define HB_STOP_GRACE_S 30

enum hb_disk_kind { HB_SPARSE, HB_FALLOC, HB_FULL, HB_LOOP, HB_DEVICE };

struct hb {
	struct pb_backend base; /* first: what the harness holds */
	const struct pb_profile *p;
	const struct host_opts *o;
	struct pb_local loc; /* host, disk directory, key, places, run id */
	char runner[PATH_MAX];
	char runner_version[128];
	bool root;
	/* a workload that makes a filesystem needs a block device: every
	 * disk file is then written through a loop device over it */
	bool fs_workload;
	/* the disk in progress: its kind as made, and its loop device */
	enum hb_disk_kind kind;
	struct pb_loop loop;
	/* lazy asked, and the filesystem could not preallocate: said once */
	bool said_no_falloc;
};

extern const struct pb_backend_ops host_backend;

static inline struct hb *hb_of(struct pb_backend *be)
{
	return (struct hb *)be;
}

/* disks.c */
enum hb_disk_kind hb_disk_kind(const struct hb *b, enum pb_mode m);
bool hb_skip_rdm(const struct hb *b);
enum pb_error hb_plan_disk(struct pb_backend *be, enum pb_mode mode,
			   unsigned seq, struct pb_disk *d, json_t *j,
			   char *errbuf);
enum pb_error hb_create(struct pb_backend *be, struct pb_disk *d, char *errbuf);
/* What the runner writes for d: the file, its loop device, the device. */
const char *hb_disk_target(const struct hb *b, const struct pb_disk *d);
enum pb_error hb_destroy(struct pb_backend *be, const struct pb_disk *d,
			 char *errbuf);
enum pb_error hb_cleanup(struct pb_backend *be, json_t *entry, bool mine,
			 char *errbuf);

#endif
