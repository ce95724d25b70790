/*
 * disks.c - the host backend's disks, files in host.dir made as a
 * hypervisor makes each mode: thin a sparse file (blocks allocated by the
 * first write to each), lazy a fallocated one (unwritten extents the
 * filesystem converts on first write), eager one written in full with
 * zeros and fsync'd (the provisioning, timed), rdm the block device the
 * profile names (checked empty and unused, never removed) or a loop
 * device over a file written in full (root). Each is read back (FIEMAP)
 * for what it really became: a filesystem that cannot preallocate (NFS
 * without ALLOCATE, ZFS) makes lazy thin, one that compresses zeros makes
 * eager thin, as NFS without VAAI does on vSphere. Files are created
 * exclusively: nothing that exists is ever overwritten.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hb.h"
#include "runjson.h"

static const char *const kind_names[] = {"sparse", "falloc", "full", "loop",
					 "device"};

enum hb_disk_kind hb_disk_kind(const struct hb *b, enum pb_mode m)
{
	switch (m) {
	case PB_MODE_THIN:
		return HB_SPARSE;
	case PB_MODE_LAZY:
		return HB_FALLOC;
	case PB_MODE_RDM:
		return b->o->device ? HB_DEVICE : HB_LOOP;
	default:
		return HB_FULL;
	}
}

bool hb_skip_rdm(const struct hb *b)
{
	return !b->o->device && !b->root;
}

enum pb_error hb_plan_disk(struct pb_backend *be, enum pb_mode mode,
			   unsigned seq, struct pb_disk *d, json_t *j,
			   char *errbuf)
{
	struct hb *b = hb_of(be);
	enum hb_disk_kind k = hb_disk_kind(b, mode);

	(void)errbuf;
	d->mode = mode;
	snprintf(d->id, sizeof(d->id), "%s-%u", b->loc.run_id, seq);
	if (k == HB_DEVICE)
		snprintf(d->file, sizeof(d->file), "%s", b->o->device);
	else
		snprintf(d->file, sizeof(d->file), "%s/provbench-%s.%s",
			 b->loc.dir, d->id, k == HB_LOOP ? "lun" : "disk");
	/* the runner is given the path: the id is what the journal and
	 * run.json call it */
	snprintf(d->uuid, sizeof(d->uuid), "%s", d->id);
	json_object_set_new(j, "file", json_string(d->file));
	json_object_set_new(j, "kind", json_string(kind_names[k]));
	json_object_set_new(j, "host", json_string(b->loc.host));
	return PB_OK;
}

/* Zeros to the end, then the file is settled: an eager disk, a LUN. */
static enum pb_error write_full(const char *path, uint64_t size, char *errbuf)
{
	enum { CHUNK = 4 << 20 };
	char *zero = calloc(1, CHUNK);
	uint64_t off = 0;
	enum pb_error err = PB_OK;
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (!zero || fd < 0) {
		err = pb_fail(errbuf, zero ? PB_ERR_IO : PB_ERR_NOMEM, "%s: %s",
			      path, zero ? strerror(errno) : "out of memory");
		goto out;
	}
	while (off < size) {
		size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
		ssize_t w = pwrite(fd, zero, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = pb_fail(errbuf, PB_ERR_IO, "%s: writing: %s",
				      path,
				      w < 0 ? strerror(errno) : "no progress");
			goto out;
		}
		off += (uint64_t)w;
	}
out:
	if (fd >= 0)
		close(fd);
	free(zero);
	return err ? err : pb_local_settle(path, errbuf);
}

/*
 * Preallocate: unwritten extents. A filesystem that cannot (NFS without
 * ALLOCATE, older ZFS) leaves the file sparse, which the read-back then
 * calls thin: the run goes on and the report names it by what it became.
 */
static enum pb_error falloc(struct hb *b, const char *path, uint64_t size,
			    json_t **note, char *errbuf)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	enum pb_error err = PB_OK;

	if (fd < 0)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", path,
			       strerror(errno));
	if (fallocate(fd, 0, 0, (off_t)size)) {
		if (errno != EOPNOTSUPP)
			err = pb_fail(errbuf, PB_ERR_IO, "%s: fallocate: %s",
				      path, strerror(errno));
		else if (ftruncate(fd, (off_t)size))
			err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", path,
				      strerror(errno));
		else {
			*note = json_sprintf("%s (%s) cannot preallocate: "
					     "the file is sparse",
					     b->loc.dir,
					     pb_local_fs_name(b->loc.dir));
			if (!b->said_no_falloc)
				pb_progress("  lazy: %s",
					    json_string_value(*note));
			b->said_no_falloc = true;
		}
	}
	close(fd);
	return err ? err : pb_local_settle(path, errbuf);
}

static enum pb_error sparse(const char *path, uint64_t size, char *errbuf)
{
	enum pb_error err = PB_OK;

	if (truncate(path, (off_t)size))
		err = pb_fail(errbuf, PB_ERR_IO, "%s: %s", path,
			      strerror(errno));
	return err ? err : pb_local_settle(path, errbuf);
}

enum pb_error hb_create(struct pb_backend *be, struct pb_disk *d, char *errbuf)
{
	struct hb *b = hb_of(be);
	enum hb_disk_kind k = hb_disk_kind(b, d->mode);
	json_t *note = NULL;
	uint64_t t0;
	enum pb_error err;

	d->readback = NULL;
	b->kind = k;
	if (k == HB_LOOP && hb_skip_rdm(b))
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "rdm skipped: a loop device needs root (or name "
			       "a device in host.device)");
	if (k == HB_DEVICE) {
		err = runner_device_check(d->file, d->size, errbuf);
		if (err)
			return err;
		d->provision_s = 0;
		d->provision_source = "none: the device exists";
		d->readback = json_pack("{s:s,s:s}", "mode", "rdm",
					RJ_K_RB_DEVICE, d->file);
		return PB_OK;
	}
	err = pb_local_claim(d->file, errbuf);
	if (err)
		return err;
	t0 = pb_now_ns();
	if (k == HB_SPARSE)
		err = sparse(d->file, d->size, errbuf);
	else if (k == HB_FALLOC)
		err = falloc(b, d->file, d->size, &note, errbuf);
	else
		err = write_full(d->file, d->size, errbuf);
	/* a LUN's blocks exist before anyone maps it: the stand-in's
	 * writing is not provisioning, the mapping is */
	if (k == HB_LOOP)
		t0 = pb_now_ns();
	if (!err && (k == HB_LOOP || b->fs_workload))
		err = pb_loop_attach(&b->loop, d->file, errbuf);
	d->provision_s = (double)(pb_now_ns() - t0) / 1e9;
	d->provision_source = "host wall";
	if (err)
		goto out;
	if (k == HB_LOOP) {
		d->readback = json_pack(
			"{s:s,s:s,s:s,s:b}", "mode", "rdm", RJ_K_RB_DEVICE,
			b->loop.dev, RJ_K_RB_BACKING, d->file, "direct_io", 1);
	} else {
		d->readback = pb_local_readback(d->file, d->size);
		if (b->loop.fd >= 0)
			json_object_set_new(d->readback, RJ_K_RB_DEVICE,
					    json_string(b->loop.dev));
		if (note)
			json_object_set(d->readback, "note", note);
	}
out:
	json_decref(note);
	return err;
}

const char *hb_disk_target(const struct hb *b, const struct pb_disk *d)
{
	return b->loop.fd >= 0 ? b->loop.dev : d->file;
}

enum pb_error hb_destroy(struct pb_backend *be, const struct pb_disk *d,
			 char *errbuf)
{
	struct hb *b = hb_of(be);

	if (hb_disk_kind(b, d->mode) == HB_DEVICE)
		return PB_OK; /* the profile's device is never removed */
	pb_loop_detach(&b->loop);
	if (unlink(d->file) && errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", d->file,
			       strerror(errno));
	return PB_OK;
}

enum pb_error hb_cleanup(struct pb_backend *be, json_t *entry, bool mine,
			 char *errbuf)
{
	struct hb *b = hb_of(be);
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *kind = json_string_value(json_object_get(entry, "kind"));
	bool found = false;

	/* another directory's entry is not this run's to touch */
	if (!mine)
		return PB_ERR_UNSAFE;
	if (!file || !kind)
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "journal entry without a file");
	if (!strcmp(kind, "device"))
		return PB_ERR_NOTFOUND; /* never provbench's to remove */
	/* any file may have had a loop device over it (a filesystem
	 * workload's, the LUN's) */
	if (b->root)
		found = pb_loop_detach_file(file) > 0;
	if (!unlink(file))
		found = true;
	else if (errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", file,
			       strerror(errno));
	return found ? PB_OK : PB_ERR_NOTFOUND;
}
