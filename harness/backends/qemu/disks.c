/*
 * disks.c - the qemu backend's disks, made the way qemu makes them: thin
 * is qcow2 without preallocation (or, with qemu.thin raw, a sparse raw
 * file whose holes the host fills), lazy raw with falloc (unwritten extents
 * the host converts on first write), eager raw fully written, rdm a host
 * block device passed through raw (qemu.rdm_device, checked empty and
 * unused) or a loop device over a fully written file. Each is read back
 * (FIEMAP) for what it really is. Files are created exclusively: nothing
 * that exists is ever overwritten. Loop devices are set up with
 * LO_FLAGS_AUTOCLEAR, so one never outlives its last opener; the journal
 * covers them anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "local.h"
#include "qb.h"
#include "runjson.h"

static const char *const kind_names[] = {"qcow2", "raw", "loop", "device"};

enum qb_disk_kind qb_disk_kind(const struct qb *b, enum pb_mode m)
{
	switch (m) {
	case PB_MODE_THIN:
		return strcmp(b->o->thin, "raw") ? QB_QCOW2 : QB_RAW;
	case PB_MODE_RDM:
		return b->o->rdm_device ? QB_DEVICE : QB_LOOP;
	default:
		return QB_RAW;
	}
}

bool qb_skip_rdm(const struct qb *b)
{
	return !b->o->rdm_device && !b->root;
}

enum pb_error qb_plan_disk(struct pb_backend *be, enum pb_mode mode,
			   unsigned seq, struct pb_disk *d, json_t *j,
			   char *errbuf)
{
	struct qb *b = qb_of(be);
	enum qb_disk_kind k = qb_disk_kind(b, mode);
	static const char *const ext[] = {"qcow2", "raw", "lun", ""};
	uint8_t rnd[4];

	d->mode = mode;
	snprintf(d->id, sizeof(d->id), "%s-%u", b->loc.run_id, seq);
	if (k == QB_DEVICE)
		snprintf(d->file, sizeof(d->file), "%s", b->o->rdm_device);
	else
		snprintf(d->file, sizeof(d->file), "%s/provbench-%s.%s",
			 b->loc.dir, d->id, ext[k]);
	/* virtio-blk serials hold 20 characters; hex, so the runner's
	 * uuid: lookup takes it */
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd));
	snprintf(d->uuid, sizeof(d->uuid), "%.12s%02x%02x%02x%02x",
		 b->loc.run_id, rnd[0], rnd[1], rnd[2], rnd[3]);
	(void)errbuf;
	json_object_set_new(j, "file", json_string(d->file));
	json_object_set_new(j, "kind", json_string(kind_names[k]));
	json_object_set_new(j, "host", json_string(b->loc.host));
	return PB_OK;
}

static enum pb_error qemu_img_create(struct qb *b, const char *fmt,
				     const char *prealloc, const char *path,
				     uint64_t size, char *errbuf)
{
	char o[64], sz[32];
	char *argv[] = {b->qemu_img, "create", "-q",	     "-f", (char *)fmt,
			"-o",	     o,	       (char *)path, sz,   NULL};

	snprintf(o, sizeof(o), "preallocation=%s", prealloc);
	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)size);
	return qb_run_cmd(b, argv, NULL, errbuf);
}

/* A LUN stand-in: the file fully written, so the host adds no lazy
 * allocation of its own under the baseline; on disk before the clock
 * starts, as a LUN's blocks are. */
static enum pb_error lun_file(struct qb *b, const char *path, uint64_t size,
			      char *errbuf)
{
	enum pb_error err =
		qemu_img_create(b, "raw", "full", path, size, errbuf);

	return err ? err : pb_local_settle(path, errbuf);
}

enum pb_error qb_create(struct pb_backend *be, struct pb_disk *d, char *errbuf)
{
	struct qb *b = qb_of(be);
	enum qb_disk_kind k = qb_disk_kind(b, d->mode);
	uint64_t size = d->size, t0;
	enum pb_error err;

	d->readback = NULL;
	if (k == QB_LOOP && qb_skip_rdm(b))
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "rdm skipped: a loop device needs root (or name "
			       "a device in qemu.rdm_device)");
	if (k == QB_DEVICE) {
		err = runner_device_check(d->file, size, errbuf);
		if (err)
			return err;
		d->provision_s = 0;
		d->readback = json_pack("{s:s,s:s}", "mode", "rdm",
					RJ_K_RB_DEVICE, d->file);
		return PB_OK;
	}
	err = pb_local_claim(d->file, errbuf);
	if (err)
		return err;
	if (k == QB_LOOP) {
		err = lun_file(b, d->file, size, errbuf);
		t0 = pb_now_ns();
		if (!err)
			err = pb_loop_attach(&b->loop, d->file, errbuf);
		d->provision_s = qb_since(t0);
		if (!err)
			d->readback = json_pack("{s:s,s:s,s:s,s:b}", "mode",
						"rdm", RJ_K_RB_DEVICE,
						b->loop.dev, RJ_K_RB_BACKING,
						d->file, "direct_io", 1);
		return err;
	}
	t0 = pb_now_ns();
	if (k == QB_QCOW2)
		err = qemu_img_create(b, "qcow2", "off", d->file, size, errbuf);
	else
		err = qemu_img_create(b, "raw",
				      d->mode == PB_MODE_EAGER	? "full"
				      : d->mode == PB_MODE_LAZY ? "falloc"
								: "off",
				      d->file, size, errbuf);
	if (!err)
		err = pb_local_settle(d->file, errbuf);
	d->provision_s = qb_since(t0);
	d->provision_source = "qemu-img wall";
	if (!err)
		d->readback = pb_local_readback(d->file, size);
	return err;
}

enum pb_error qb_destroy(struct pb_backend *be, const struct pb_disk *d,
			 char *errbuf)
{
	struct qb *b = qb_of(be);
	enum qb_disk_kind k = qb_disk_kind(b, d->mode);

	if (k == QB_DEVICE)
		return PB_OK; /* the profile's device is never removed */
	if (k == QB_LOOP)
		pb_loop_detach(&b->loop);
	if (unlink(d->file) && errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", d->file,
			       strerror(errno));
	return PB_OK;
}

enum pb_error qb_cleanup(struct pb_backend *be, json_t *entry, bool mine,
			 char *errbuf)
{
	struct qb *b = qb_of(be);
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *kind = json_string_value(json_object_get(entry, "kind"));
	bool found = false;

	(void)b;
	/* another disk directory's entry is not this run's to touch */
	if (!mine)
		return PB_ERR_UNSAFE;
	if (!file || !kind)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "journal entry without a file");
	if (!strcmp(kind, "device"))
		return PB_ERR_NOTFOUND; /* never provbench's to remove */
	if (!strcmp(kind, "loop"))
		found = pb_loop_detach_file(file) > 0;
	if (!unlink(file))
		found = true;
	else if (errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", file,
			       strerror(errno));
	return found ? PB_OK : PB_ERR_NOTFOUND;
}

void qb_disks_close(struct qb *b)
{
	pb_loop_close(&b->loop);
}
