/*
 * target.c - find, check and open the runner's target.
 *
 * Nothing is lost: before a single byte is written, a target is refused if
 * it is mounted (itself, a partition of it, or a device stacked on it), is
 * or holds the root filesystem, is used as swap or held by device-mapper or
 * md, or carries a partition table or a filesystem / LVM / RAID signature
 * (libblkid probing). --force overrides only the signature and "file has
 * data" checks. Block devices are opened O_EXCL so the kernel refuses one
 * that something else claims after the checks ran.
 */
#include <blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "runner_int.h"

#define MAX_STACK 64

/* ---- uuid lookup ---- */

#define MAX_FOUND 8

struct found {
	char path[MAX_FOUND][PATH_MAX];
	char identity[256];
	unsigned count;
};

static void found_add(struct found *f, const char *path, const char *id)
{
	char real[PATH_MAX];
	unsigned i;

	if (!realpath(path, real))
		return;
	for (i = 0; i < f->count && i < MAX_FOUND; i++)
		if (!strcmp(real, f->path[i]))
			return; /* another link to the same disk */
	if (!f->count)
		snprintf(f->identity, sizeof(f->identity), "%s", id);
	if (f->count < MAX_FOUND)
		snprintf(f->path[f->count], PATH_MAX, "%s", real);
	f->count++;
}

static void scan_by_id(struct found *f, const char *dir, const char *hex)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strstr(de->d_name, "-part"))
			continue;
		if (!runner_id_matches(de->d_name, hex))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		found_add(f, path, de->d_name);
	}
	closedir(d);
}

static bool read_line(char *buf, size_t len, const char *path)
{
	FILE *fp = fopen(path, "re");
	bool ok = false;

	if (!fp)
		return false;
	if (fgets(buf, (int)len, fp)) {
		buf[strcspn(buf, "\n")] = '\0';
		ok = buf[0] != '\0';
	}
	fclose(fp);
	return ok;
}

/* Without udev (a minimal guest) there is no by-id: read sysfs instead. */
static void scan_sys_block(struct found *f, const char *dir, const char *hex)
{
	static const char *const attrs[] = {"device/wwid", "wwid", "serial",
					    "device/serial"};
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX], val[256], dev[PATH_MAX + 8];
	size_t i;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir,
				 de->d_name, attrs[i]);
			if (!read_line(val, sizeof(val), path) ||
			    !runner_id_matches(val, hex))
				continue;
			snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
			found_add(f, dev, val);
			break;
		}
	}
	closedir(d);
}

enum pb_error runner_target_find_uuid(char *path, size_t pathlen,
				      char *identity, size_t idlen,
				      const char *uuid, const char *by_id_dir,
				      const char *sys_block_dir, char *errbuf)
{
	struct found *f;
	enum pb_error err = PB_OK;
	char hex[128];

	err = runner_id_uuid_hex(hex, sizeof(hex), uuid, errbuf);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	if (by_id_dir)
		scan_by_id(f, by_id_dir, hex);
	if (!f->count && sys_block_dir)
		scan_sys_block(f, sys_block_dir, hex);
	if (!f->count) {
		err = pb_fail(errbuf, PB_ERR_NOTFOUND,
			      "--target: no disk with UUID %s (looked in %s "
			      "and %s; is disk.EnableUUID=TRUE set?)",
			      uuid, by_id_dir ? by_id_dir : "-",
			      sys_block_dir ? sys_block_dir : "-");
	} else if (f->count > 1) {
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "--target: UUID %s matches %u disks (%s, %s%s); "
			      "give the full UUID",
			      uuid, f->count, f->path[0], f->path[1],
			      f->count > 2 ? ", ..." : "");
	} else {
		snprintf(path, pathlen, "%s", f->path[0]);
		snprintf(identity, idlen, "%s", f->identity);
	}
	free(f);
	return err;
}

/* ---- safety checks ---- */

struct devset {
	dev_t dev[MAX_STACK];
	unsigned n;
};

static bool devset_has(const struct devset *s, dev_t d)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return true;
	return false;
}

static bool read_dev(dev_t *out, const char *path)
{
	char buf[64];
	unsigned ma, mi;

	if (!read_line(buf, sizeof(buf), path) ||
	    sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return false;
	*out = makedev(ma, mi);
	return true;
}

/*
 * Every block device d lives on: itself, its whole disk if it is a
 * partition, and what device-mapper or md builds it from (slaves/),
 * recursively. If the target is in this set, writing the target destroys d.
 */
static void underlying(struct devset *s, dev_t d, unsigned depth)
{
	char base[128], path[PATH_MAX], sub[PATH_MAX];
	struct stat st;
	DIR *dir;
	struct dirent *de;
	dev_t p;

	if (depth > 8 || s->n >= MAX_STACK || devset_has(s, d))
		return;
	s->dev[s->n++] = d;
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", major(d),
		 minor(d));
	snprintf(path, sizeof(path), "%s/partition", base);
	if (stat(path, &st) == 0) {
		snprintf(path, sizeof(path), "%s/../dev", base);
		if (read_dev(&p, path))
			underlying(s, p, depth + 1);
	}
	snprintf(path, sizeof(path), "%s/slaves", base);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", path, de->d_name);
		if (read_dev(&p, sub))
			underlying(s, p, depth + 1);
	}
	closedir(dir);
}

static bool stacked_on(dev_t upper, dev_t target)
{
	struct devset s = {.n = 0};

	underlying(&s, upper, 0);
	return devset_has(&s, target);
}

/* Is target, or anything built on it, mounted? Names the mount point. */
static bool find_mount(char *where, size_t len, dev_t target)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[2048];
	unsigned ma, mi;
	bool hit = false;

	if (!fp)
		return false;
	while (!hit && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &ma, &mi, mnt) !=
		    3)
			continue;
		if (ma == 0)
			continue; /* virtual filesystems */
		if (stacked_on(makedev(ma, mi), target)) {
			snprintf(where, len, "%s", mnt);
			hit = true;
		}
	}
	fclose(fp);
	return hit;
}

static bool find_swap(char *where, size_t len, dev_t target)
{
	FILE *fp = fopen("/proc/swaps", "re");
	char line[1024], name[1024];
	struct stat st;
	bool hit = false;

	if (!fp)
		return false;
	while (!hit && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%1023s", name) != 1 || name[0] != '/')
			continue;
		if (stat(name, &st) || !S_ISBLK(st.st_mode))
			continue;
		if (stacked_on(st.st_rdev, target)) {
			snprintf(where, len, "%s", name);
			hit = true;
		}
	}
	fclose(fp);
	return hit;
}

/* A holder (dm, md, bcache) claims the device even when nothing is mounted */
static bool find_holder(char *who, size_t len, dev_t d)
{
	char path[128];
	DIR *dir;
	struct dirent *de;
	bool hit = false;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(d),
		 minor(d));
	dir = opendir(path);
	if (!dir)
		return false;
	while (!hit && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(who, len, "%s", de->d_name);
		hit = true;
	}
	closedir(dir);
	return hit;
}

static enum pb_error check_block(const char *path, dev_t rdev, char *errbuf)
{
	struct stat root;
	char where[2048];

	if (stat("/", &root) == 0 && stacked_on(root.st_dev, rdev))
		return pb_fail(errbuf, PB_ERR_UNSAFE,
			       "%s: is or holds the root filesystem; refusing "
			       "to write to it",
			       path);
	if (find_mount(where, sizeof(where), rdev))
		return pb_fail(errbuf, PB_ERR_UNSAFE,
			       "%s: is mounted (on %s); refusing to write to "
			       "it",
			       path, where);
	if (find_swap(where, sizeof(where), rdev))
		return pb_fail(errbuf, PB_ERR_UNSAFE,
			       "%s: is in use as swap (%s); refusing to write "
			       "to it",
			       path, where);
	if (find_holder(where, sizeof(where), rdev))
		return pb_fail(errbuf, PB_ERR_UNSAFE,
			       "%s: is in use by %s; refusing to write to it",
			       path, where);
	return PB_OK;
}

/*
 * libblkid's safe probe: superblocks (filesystems, LVM2_member,
 * linux_raid_member, swap) and partition tables.
 */
static enum pb_error check_signature(const char *path, char *errbuf)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL;
	enum pb_error err = PB_OK;
	int r;

	if (!pr)
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: cannot probe for signatures: %s", path,
			       strerror(errno ? errno : EIO));
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	r = blkid_do_safeprobe(pr);
	if (r == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0)
			err = pb_fail(errbuf, PB_ERR_UNSAFE,
				      "%s: carries a %s signature; refusing to "
				      "overwrite it (--force to override)",
				      path, type);
		else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) ==
			 0)
			err = pb_fail(errbuf, PB_ERR_UNSAFE,
				      "%s: carries a %s partition table; "
				      "refusing to overwrite it (--force to "
				      "override)",
				      path, type);
		else
			err = pb_fail(errbuf, PB_ERR_UNSAFE,
				      "%s: carries a signature; refusing to "
				      "overwrite it (--force to override)",
				      path);
	} else if (r == -2) {
		err = pb_fail(errbuf, PB_ERR_UNSAFE,
			      "%s: carries several conflicting signatures; "
			      "refusing to overwrite it (--force to override)",
			      path);
	} else if (r < 0) {
		err = pb_fail(errbuf, PB_ERR_IO,
			      "%s: probing for signatures failed", path);
	}
	blkid_free_probe(pr);
	return err;
}

/* An existing file must hold no data: empty, or holes only. */
static enum pb_error check_file_empty(const char *path, int fd,
				      const struct stat *st, char *errbuf)
{
	off_t data;

	if (st->st_size == 0 || st->st_blocks == 0)
		return PB_OK;
	data = lseek(fd, 0, SEEK_DATA);
	if (data < 0 && errno == ENXIO)
		return PB_OK;
	return pb_fail(errbuf, PB_ERR_UNSAFE,
		       "%s: file already holds data; refusing to overwrite it "
		       "(--force to override)",
		       path);
}

static void block_identity(char *out, size_t len, dev_t rdev)
{
	static const char *const attrs[] = {"device/wwid", "wwid", "serial",
					    "device/serial",
					    "loop/backing_file"};
	char path[128], val[256];
	size_t i;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s",
			 major(rdev), minor(rdev), attrs[i]);
		if (read_line(val, sizeof(val), path)) {
			snprintf(out, len, "%s%s", i == 4 ? "loop:" : "", val);
			return;
		}
	}
}

static enum pb_error open_existing(struct runner_target *t,
				   const struct runner_opts *o,
				   const struct stat *st, char *errbuf)
{
	int flags = (t->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	enum pb_error err;
	int lbs = 512;
	uint64_t sz = 0;

	if (S_ISBLK(st->st_mode)) {
		t->kind = RUNNER_TARGET_BLOCK;
		if (t->writes) {
			err = check_block(t->path, st->st_rdev, errbuf);
			if (err)
				return err;
			if (!o->force) {
				err = check_signature(t->path, errbuf);
				if (err)
					return err;
			}
			/* the kernel's own claim check: EBUSY if in use */
			flags |= O_EXCL;
		}
	} else if (S_ISREG(st->st_mode)) {
		t->kind = RUNNER_TARGET_FILE;
	} else {
		return pb_fail(errbuf, PB_ERR_UNSAFE,
			       "%s: not a block device or a regular file",
			       t->path);
	}
	t->fd = open(t->path, flags);
	if (t->fd < 0)
		return pb_fail(
			errbuf, errno == EBUSY ? PB_ERR_UNSAFE : PB_ERR_IO,
			"%s: cannot open: %s%s", t->path, strerror(errno),
			errno == EBUSY ? " (in use by the kernel)" : "");
	if (t->kind == RUNNER_TARGET_BLOCK) {
		if (ioctl(t->fd, BLKGETSIZE64, &sz) ||
		    ioctl(t->fd, BLKSSZGET, &lbs))
			return pb_fail(errbuf, PB_ERR_IO,
				       "%s: cannot read device size: %s",
				       t->path, strerror(errno));
		t->dev_size = sz;
		t->lbs = (unsigned)lbs;
		if (!t->identity[0])
			block_identity(t->identity, sizeof(t->identity),
				       st->st_rdev);
		return PB_OK;
	}
	t->dev_size = (uint64_t)st->st_size;
	t->lbs = 512;
	if (t->writes && !o->force) {
		err = check_signature(t->path, errbuf);
		if (!err)
			err = check_file_empty(t->path, t->fd, st, errbuf);
		if (err)
			return err;
	}
	return PB_OK;
}

enum pb_error runner_target_open(struct runner_target *t,
				 const struct runner_opts *o, bool writes,
				 char *errbuf)
{
	const char *spec = o->target;
	struct stat st;
	enum pb_error err;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->writes = writes;
	if (!strncmp(spec, "uuid:", 5)) {
		err = runner_target_find_uuid(t->path, sizeof(t->path),
					      t->identity, sizeof(t->identity),
					      spec + 5, o->by_id_dir,
					      o->sys_block_dir, errbuf);
		if (err)
			return err;
	} else {
		snprintf(t->path, sizeof(t->path), "%s", spec);
	}

	if (stat(t->path, &st) == 0) {
		err = open_existing(t, o, &st, errbuf);
	} else if (errno == ENOENT && writes && strncmp(spec, "uuid:", 5)) {
		if (!o->size)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "%s: does not exist; give --size to "
				       "create it",
				       t->path);
		t->kind = RUNNER_TARGET_FILE;
		t->lbs = 512;
		t->dev_size = o->size;
		/* validate before creating, so bad input leaves nothing */
		err = runner_target_region(t, o, errbuf);
		if (err)
			return err;
		t->dev_size = 0; /* extended below, sparsely */
		t->fd = open(t->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			     0600);
		if (t->fd < 0)
			return pb_fail(errbuf, PB_ERR_IO,
				       "%s: cannot create: %s", t->path,
				       strerror(errno));
		t->created = true;
		err = PB_OK;
	} else {
		return pb_fail(errbuf,
			       errno == ENOENT ? PB_ERR_NOTFOUND : PB_ERR_IO,
			       "%s: %s", t->path, strerror(errno));
	}
	if (err)
		return err;
	err = runner_target_region(t, o, errbuf);
	if (err)
		return err;
	if (t->kind == RUNNER_TARGET_FILE && t->writes &&
	    t->dev_size < t->size) {
		/* grow sparsely: never shrink a file */
		if (ftruncate(t->fd, (off_t)t->size))
			return pb_fail(errbuf, PB_ERR_IO,
				       "%s: cannot extend to %llu bytes: %s",
				       t->path, (unsigned long long)t->size,
				       strerror(errno));
		t->dev_size = t->size;
	}
	if (!o->buffered) {
		/* set O_DIRECT after the checks: blkid reads through cache */
		int fl = fcntl(t->fd, F_GETFL);

		if (fl < 0 || fcntl(t->fd, F_SETFL, fl | O_DIRECT))
			return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
				       "%s: O_DIRECT not supported here (use "
				       "--buffered): %s",
				       t->path, strerror(errno));
	}
	return PB_OK;
}

void runner_target_close(struct runner_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

enum pb_error runner_device_check(const char *path, uint64_t size, char *errbuf)
{
	struct runner_opts o;
	struct runner_target t;
	enum pb_error err;

	runner_opts_init(&o);
	o.target = path;
	o.size = size;
	o.bs = 4096;
	/* opened for writing so every write-time check runs; nothing is
	 * written, and O_EXCL keeps anyone else off it meanwhile */
	err = runner_target_open(&t, &o, true, errbuf);
	if (!err && t.kind != RUNNER_TARGET_BLOCK)
		err = pb_fail(errbuf, PB_ERR_INPUT, "%s: not a block device",
			      path);
	runner_target_close(&t);
	return err;
}

enum pb_error runner_target_reclaim(struct runner_target *t,
				    struct runner_pass_result *r, char *errbuf)
{
	uint64_t range[2] = {0, t->size}, t0 = pb_now_ns();
	int rc;

	(void)errbuf;
	if (t->kind == RUNNER_TARGET_BLOCK) {
		r->reclaim_method = "blkdiscard";
		rc = ioctl(t->fd, BLKDISCARD, range);
	} else {
		r->reclaim_method = "punch-hole";
		rc = fallocate(t->fd,
			       FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
			       (off_t)t->size);
	}
	r->trim_ns = pb_now_ns() - t0;
	if (rc)
		snprintf(r->trim_error, sizeof(r->trim_error), "%s",
			 errno == EOPNOTSUPP || errno == ENOTTY
				 ? (t->kind == RUNNER_TARGET_BLOCK
					    ? "the device does not discard"
					    : "the filesystem cannot punch "
					      "holes")
				 : strerror(errno));
	else {
		r->trimmed = true;
		r->trim_bytes = t->size;
	}
	return PB_OK;
}
