/*
 * fs.c - filesystem passes: make a fresh ext4 or xfs on the target (after
 * the same safety checks as a raw run), mount it in a private directory,
 * hand the passes one file inside it, and unmount at the end, also after
 * an interrupted or failed pass.
 *
 * ext4 initialises its inode tables and journal in the background after
 * mount unless told not to; that I/O would land in the first-write pass,
 * so lazy_itable_init=0,lazy_journal_init=0 moves it into mkfs, whose time
 * is recorded separately (on thin and lazy disks mkfs itself pays zeroing
 * costs). xfs has no such background initialisation.
 *
 * Neither discards the device (ext4's nodiscard, xfs's -K): by default
 * both discard every block first, which a loop device or a qemu drive
 * with discard=unmap passes down as holes punched in the disk's file: an
 * eager disk's file turned sparse before its first write was measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner_int.h"

/* a signal, or the harness's stop file, while mkfs runs */
static bool mkfs_stop(void *stop_file)
{
	runner_stop_file_poll(stop_file, pb_now_ns());
	return runner_stop_requested();
}

enum pb_error runner_fs_setup(struct runner_fs *fs, const struct runner_opts *o,
			      char *errbuf)
{
	struct runner_opts dev = *o;
	struct pb_child_spec sp = {.flags = PB_CHILD_NO_STDOUT};
	struct runner_target t;
	struct runner_wait wait = RUNNER_WAIT_INIT("mkfs", fs->device);
	char *argv[12], msg[PB_ERRBUF_SIZE], *dir;
	uint64_t t0;
	enum pb_error err;
	int rc, n = 0, i;

	memset(fs, 0, sizeof(*fs));
	fs->type = o->filesystem;
	if (fs->type == RUNNER_FS_NTFS)
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "--filesystem ntfs: the Windows runner's; this "
			       "one makes ext4 or xfs");
	/* every check of a raw write run, on the whole device */
	dev.size = 0;
	err = runner_target_open(&t, &dev, true, errbuf);
	if (!err && t.kind != RUNNER_TARGET_BLOCK)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "--filesystem: %s is not a block device", t.path);
	if (!err && t.dev_size < o->size)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "--size: %llu bytes do not fit on %s (%llu)",
			      (unsigned long long)o->size, t.path,
			      (unsigned long long)t.dev_size);
	snprintf(fs->device, sizeof(fs->device), "%s", t.path);
	runner_target_close(&t);
	if (err)
		return err;

	if (fs->type == RUNNER_FS_EXT4) {
		argv[n++] = "mkfs.ext4";
		argv[n++] = "-F";
		argv[n++] = "-q";
		argv[n++] = "-E";
		argv[n++] = "lazy_itable_init=0,lazy_journal_init=0,nodiscard";
	} else {
		argv[n++] = "mkfs.xfs";
		argv[n++] = "-f";
		argv[n++] = "-q";
		argv[n++] = "-K";
	}
	argv[n++] = "-L";
	argv[n++] = "provbench";
	argv[n++] = fs->device;
	argv[n] = NULL;
	for (i = 0; i < n - 1; i++) /* as run, but for the device */
		snprintf(fs->mkfs_cmd + strlen(fs->mkfs_cmd),
			 sizeof(fs->mkfs_cmd) - strlen(fs->mkfs_cmd), "%s%s",
			 i ? " " : "", argv[i]);
	t0 = pb_now_ns();
	sp.argv = argv;
	/* mkfs writes the whole device's metadata (lazy init off): a
	 * heartbeat says it is at it, and what the device does */
	sp.tick = runner_wait_tick;
	sp.tick_arg = &wait;
	/* a stop asked while it formats stops it: a big disk's mkfs is
	 * minutes, and nothing after it is wanted */
	sp.stop = mkfs_stop;
	sp.stop_arg = (void *)o->stop_file;
	rc = pb_child_run(&sp, NULL, msg, sizeof(msg), errbuf);
	runner_wait_done(&wait);
	fs->mkfs_s = (double)(pb_now_ns() - t0) / 1e9;
	if (rc < 0)
		return PB_ERR_CHILD;
	if (runner_stop_requested())
		return pb_fail(errbuf, PB_ERR_INTERRUPTED, "interrupted in %s",
			       argv[0]);
	if (rc)
		return pb_fail(errbuf,
			       rc == 127 ? PB_ERR_UNSUPPORTED : PB_ERR_CHILD,
			       "%s failed (exit %d): %s", argv[0], rc,
			       msg[0] ? msg : "no message");

	/* a private mount point: in $TMPDIR when it is set (as mktemp
	 * does), else /run, a tmpfs in the guest and on most hosts, else
	 * /tmp */
	snprintf(fs->mnt, sizeof(fs->mnt), "%s/provbench-mnt-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR")
		 : access("/run", W_OK)		       ? "/tmp"
						       : "/run");
	dir = mkdtemp(fs->mnt);
	if (!dir) {
		fs->mnt[0] = '\0';
		return pb_fail(errbuf, PB_ERR_IO, "mount point: %s",
			       strerror(errno));
	}
	if (mount(fs->device, fs->mnt, runner_fs_name(fs->type), MS_NOATIME,
		  NULL)) {
		err = pb_fail(errbuf,
			      errno == ENODEV ? PB_ERR_UNSUPPORTED : PB_ERR_IO,
			      "mount %s on %s: %s", fs->device, fs->mnt,
			      strerror(errno));
		rmdir(fs->mnt);
		fs->mnt[0] = '\0';
		return err;
	}
	fs->mounted = true;
	snprintf(fs->file, sizeof(fs->file), "%s/provbench.dat", fs->mnt);
	return PB_OK;
}

enum pb_error runner_fs_recreate(struct runner_fs *fs, bool trim,
				 struct runner_pass_result *r, char *errbuf)
{
	struct fstrim_range range = {.start = 0, .len = UINT64_MAX};
	enum pb_error err = PB_OK;
	uint64_t t0 = pb_now_ns();
	int dfd = open(fs->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", fs->mnt,
			       strerror(errno));
	/* the blocks are free once the delete is on disk, not before; and
	 * truncated first, since an unlinked file's blocks stay while
	 * anything holds it (io_uring drops its files after its ring is
	 * gone, asynchronously): a trim would miss them */
	if (truncate(fs->file, 0) || unlink(fs->file) || syncfs(dfd)) {
		err = pb_fail(errbuf, PB_ERR_IO, "deleting %s: %s", fs->file,
			      strerror(errno));
		goto out;
	}
	r->delete_ns = pb_now_ns() - t0;
	if (!trim)
		goto out;
	t0 = pb_now_ns();
	if (ioctl(dfd, FITRIM, &range))
		snprintf(r->trim_error, sizeof(r->trim_error), "%s",
			 errno == EOPNOTSUPP ? "the device does not discard"
					     : strerror(errno));
	else
		r->trimmed = true, r->trim_bytes = range.len;
	r->trim_ns = pb_now_ns() - t0;
out:
	close(dfd);
	return err;
}

void runner_fs_teardown(struct runner_fs *fs)
{
	int i;

	if (fs->mounted) {
		/* a command's stray child may hold it for a moment */
		for (i = 0; umount2(fs->mnt, 0); i++) {
			if (errno != EBUSY || i == 50) {
				umount2(fs->mnt, MNT_DETACH);
				break;
			}
			usleep(100000);
		}
		fs->mounted = false;
	}
	if (fs->mnt[0])
		rmdir(fs->mnt);
	fs->mnt[0] = '\0';
}
