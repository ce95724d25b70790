/*
 * disks.c - the qemu backend's disks, made the way qemu makes them: thin
 * is qcow2 without preallocation, lazy raw with falloc (unwritten extents
 * the host converts on first write), eager raw fully written, rdm a host
 * block device passed through raw (qemu.rdm_device, checked empty and
 * unused) or a loop device over a fully written file. Each is read back
 * (FIEMAP) for what it really is. Files are created exclusively: nothing
 * that exists is ever overwritten. Loop devices are set up with
 * LO_FLAGS_AUTOCLEAR, so one never outlives its last opener; the journal
 * covers them anyway.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qb.h"
#include "runjson.h"

static const char *const kind_names[] = {"qcow2", "raw", "loop", "device"};

enum qb_disk_kind qb_disk_kind(const struct qb *b, enum pb_mode m)
{
	switch (m) {
	case PB_MODE_THIN:
		return QB_QCOW2;
	case PB_MODE_RDM:
		return b->o->rdm_device ? QB_DEVICE : QB_LOOP;
	default:
		return QB_RAW;
	}
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
	snprintf(d->id, sizeof(d->id), "%s-%u", b->run_id, seq);
	if (k == QB_DEVICE)
		snprintf(d->file, sizeof(d->file), "%s", b->o->rdm_device);
	else
		snprintf(d->file, sizeof(d->file), "%s/provbench-%s.%s", b->dir,
			 d->id, ext[k]);
	/* virtio-blk serials hold 20 characters; hex, so the runner's
	 * uuid: lookup takes it */
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd));
	snprintf(d->uuid, sizeof(d->uuid), "%.12s%02x%02x%02x%02x", b->run_id,
		 rnd[0], rnd[1], rnd[2], rnd[3]);
	(void)errbuf;
	json_object_set_new(j, "file", json_string(d->file));
	json_object_set_new(j, "kind", json_string(kind_names[k]));
	json_object_set_new(j, "host", json_string(b->host));
	return PB_OK;
}

/* Written and unwritten (preallocated) bytes of a file, from FIEMAP. */
static bool extents(int fd, uint64_t *written, uint64_t *unwritten)
{
	enum { N = 256 };
	struct fiemap *fm =
		calloc(1, sizeof(*fm) + N * sizeof(fm->fm_extents[0]));
	uint64_t start = 0;
	bool ok = false, last = false;

	*written = *unwritten = 0;
	while (fm && !last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = ~0ull - start;
		fm->fm_extent_count = N;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			goto out;
		if (!fm->fm_mapped_extents)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
				*unwritten += e->fe_length;
			else
				*written += e->fe_length;
			start = e->fe_logical + e->fe_length;
			last |= e->fe_flags & FIEMAP_EXTENT_LAST;
		}
	}
	ok = true;
out:
	free(fm);
	return ok;
}

/*
 * What the file really is, whatever was asked: a qcow2 is thin; a raw
 * file mostly written is eager, mostly preallocated-unwritten is lazy,
 * mostly unallocated is thin (a filesystem without fallocate).
 */
static json_t *file_readback(const char *path, uint64_t size)
{
	json_t *rb = json_object();
	uint64_t wr = 0, un = 0;
	struct stat st;
	char magic[4] = "";
	const char *mode = "unknown";
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return rb;
	if (pread(fd, magic, 4, 0) == 4 && !memcmp(magic, "QFI\xfb", 4)) {
		json_object_set_new(rb, "format", json_string("qcow2"));
		mode = "thin";
	} else {
		json_object_set_new(rb, "format", json_string("raw"));
		if (extents(fd, &wr, &un)) {
			json_object_set_new(rb, "written_bytes",
					    json_integer((json_int_t)wr));
			json_object_set_new(rb, "unwritten_bytes",
					    json_integer((json_int_t)un));
			if (wr * 10 >= size * 9)
				mode = "eager";
			else if ((wr + un) * 10 >= size * 9)
				mode = "lazy";
			else if ((wr + un) * 10 <= size)
				mode = "thin";
		}
	}
	if (!fstat(fd, &st))
		json_object_set_new(
			rb, "allocated_bytes",
			json_integer((json_int_t)st.st_blocks * 512));
	json_object_set_new(rb, "mode", json_string(mode));
	close(fd);
	return rb;
}

/* Create path exclusively: qemu-img would overwrite whatever is there. */
static enum pb_error claim(const char *path, char *errbuf)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return pb_fail(errbuf,
			       errno == EEXIST ? PB_ERR_UNSAFE : PB_ERR_IO,
			       "%s: %s", path,
			       errno == EEXIST ? "already exists; provbench "
						 "never writes a file it did "
						 "not create"
					       : strerror(errno));
	close(fd);
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

/*
 * Make a new disk file durable before anything is measured on it, and
 * leave none of it in the host's page cache. qemu-img writes
 * preallocation=full through the page cache and returns with up to
 * disk_size of zeros still dirty: counted as done, eager's provisioning
 * time was the page cache's, and the writeback then ran under the first
 * passes of whatever came next. The fsync belongs to provisioning: it is
 * what making the disk costs. After it the zeros stay cached, clean, and
 * the guest's first pass paid for them: every O_DIRECT write (qemu's
 * cache=none, the loop device's direct I/O) must first drop the cached
 * pages of its range, a cost the rewrites no longer have once they are
 * gone, so eager and the raw-device baseline showed a first-write
 * "penalty" of their own (8-15% on 1 GiB, 2026-12-02). A disk on an
 * array has nothing in the hypervisor's cache: neither has this one.
 */
static enum pb_error settle(const char *path, char *errbuf)
{
	enum pb_error err = PB_OK;
	int fd = open(path, O_RDWR | O_CLOEXEC), e;

	if (fd < 0 || fsync(fd))
		err = pb_fail(errbuf, PB_ERR_IO, "%s: fsync: %s", path,
			      strerror(errno));
	else if ((e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)))
		err = pb_fail(errbuf, PB_ERR_IO,
			      "%s: dropping its cached pages: %s", path,
			      strerror(e));
	if (fd >= 0)
		close(fd);
	return err;
}

/* A LUN stand-in: the file fully written, so the host adds no lazy
 * allocation of its own under the baseline; on disk before the clock
 * starts, as a LUN's blocks are. */
static enum pb_error lun_file(struct qb *b, const char *path, uint64_t size,
			      char *errbuf)
{
	enum pb_error err =
		qemu_img_create(b, "raw", "full", path, size, errbuf);

	return err ? err : settle(path, errbuf);
}

static enum pb_error loop_attach(struct qb *b, const char *file, char *errbuf)
{
	struct loop_config cfg;
	int ctl = -1, back = -1, lfd = -1, n = -1, tries;
	enum pb_error err = PB_OK;

	back = open(file, O_RDWR | O_CLOEXEC);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (back < 0 || ctl < 0) {
		err = pb_fail(errbuf, PB_ERR_IO, "%s: %s",
			      back < 0 ? file : "/dev/loop-control",
			      strerror(errno));
		goto out;
	}
	for (tries = 0; tries < 8; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		snprintf(b->loop_dev, sizeof(b->loop_dev), "/dev/loop%d", n);
		lfd = open(b->loop_dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0)
			break;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)back;
		cfg.block_size = 512;
		/* direct I/O: no second page cache under the guest's; and
		 * autoclear: the device goes with its last opener */
		cfg.info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR;
		snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s",
			 file);
		if (!ioctl(lfd, LOOP_CONFIGURE, &cfg))
			break;
		if (errno == EBUSY) { /* someone else took it first */
			close(lfd);
			lfd = -1;
			continue;
		}
		err = pb_fail(errbuf, PB_ERR_IO, "%s: LOOP_CONFIGURE: %s",
			      b->loop_dev, strerror(errno));
		goto out;
	}
	if (n < 0 || lfd < 0) {
		err = pb_fail(errbuf, PB_ERR_IO, "no free loop device: %s",
			      strerror(errno));
		goto out;
	}
	b->loop_fd = lfd;
	lfd = -1;
out:
	if (lfd >= 0)
		close(lfd);
	if (back >= 0)
		close(back);
	if (ctl >= 0)
		close(ctl);
	return err;
}

/*
 * Wait (up to 5 s) until the kernel has let go of loop device dev. With
 * LO_FLAGS_AUTOCLEAR, LOOP_CLR_FD only marks the device while another
 * opener remains, and the last one can be a killed qemu whose io_uring
 * the kernel tears down in a worker after waitpid() has returned: the
 * device clears a moment later. Returning before then would leave a run
 * that says "nothing left" while /sys still shows the backing file.
 */
static void loop_wait_clear(const char *dev)
{
	char p[64];
	unsigned i;

	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
		 dev + strlen("/dev/"));
	for (i = 0; i < 100 && access(p, F_OK) == 0; i++)
		usleep(50 * 1000);
}

static void loop_detach(struct qb *b)
{
	if (b->loop_fd < 0)
		return;
	ioctl(b->loop_fd, LOOP_CLR_FD, 0);
	close(b->loop_fd);
	loop_wait_clear(b->loop_dev);
	b->loop_fd = -1;
	b->loop_dev[0] = '\0';
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
	err = claim(d->file, errbuf);
	if (err)
		return err;
	if (k == QB_LOOP) {
		err = lun_file(b, d->file, size, errbuf);
		t0 = pb_now_ns();
		if (!err)
			err = loop_attach(b, d->file, errbuf);
		d->provision_s = qb_since(t0);
		if (!err)
			d->readback = json_pack("{s:s,s:s,s:s,s:b}", "mode",
						"rdm", RJ_K_RB_DEVICE,
						b->loop_dev, RJ_K_RB_BACKING,
						d->file, "direct_io", 1);
		return err;
	}
	t0 = pb_now_ns();
	if (d->mode == PB_MODE_THIN)
		err = qemu_img_create(b, "qcow2", "off", d->file, size, errbuf);
	else
		err = qemu_img_create(
			b, "raw", d->mode == PB_MODE_EAGER ? "full" : "falloc",
			d->file, size, errbuf);
	if (!err)
		err = settle(d->file, errbuf);
	d->provision_s = qb_since(t0);
	d->provision_source = "qemu-img wall";
	if (!err)
		d->readback = file_readback(d->file, size);
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
		loop_detach(b);
	if (unlink(d->file) && errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", d->file,
			       strerror(errno));
	return PB_OK;
}

/* Detach every loop device whose backing file is path. */
static unsigned loop_detach_file(const char *path)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	unsigned n = 0;

	while (dir && (e = readdir(dir))) {
		char p[PATH_MAX], back[PATH_MAX + 2] = "";
		FILE *f;
		int fd;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
			 e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (!fgets(back, sizeof(back), f))
			back[0] = '\0';
		fclose(f);
		back[strcspn(back, "\n")] = '\0';
		/* a deleted backing file shows as "path (deleted)" */
		if (strcmp(back, path) &&
		    (strncmp(back, path, strlen(path)) ||
		     strcmp(back + strlen(path), " (deleted)")))
			continue;
		snprintf(p, sizeof(p), "/dev/%s", e->d_name);
		fd = open(p, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			if (!ioctl(fd, LOOP_CLR_FD, 0))
				n++;
			close(fd);
			loop_wait_clear(p);
		}
	}
	if (dir)
		closedir(dir);
	return n;
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
		found = loop_detach_file(file) > 0;
	if (!unlink(file))
		found = true;
	else if (errno != ENOENT)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", file,
			       strerror(errno));
	return found ? PB_OK : PB_ERR_NOTFOUND;
}

void qb_disks_close(struct qb *b)
{
	if (b->loop_fd >= 0)
		close(b->loop_fd);
	b->loop_fd = -1;
}
