/*
 * local.c - disks on this machine: exclusive creation, settling, FIEMAP
 * read-back, loop devices (local.h). Shared by the qemu and host
 * backends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "harness_int.h"
#include "local.h"

enum pb_error pb_local_open(struct pb_local *l, const char *backend,
			    const char *dir, const char *device, char *errbuf)
{
	char state[PATH_MAX], real[PATH_MAX];
	struct stat st;
	uint8_t rnd[6];
	enum pb_error err;

	memset(l, 0, sizeof(*l));
	if (gethostname(l->host, sizeof(l->host) - 1))
		snprintf(l->host, sizeof(l->host), "localhost");
	if (dir) {
		snprintf(l->dir, sizeof(l->dir), "%s", dir);
	} else {
		err = pb_state_dir(state, sizeof(state), errbuf);
		if (err)
			return err;
		snprintf(l->dir, sizeof(l->dir), "%s/%s", state, backend);
		if (mkdir(l->dir, 0700) && errno != EEXIST)
			return pb_fail(errbuf, PB_ERR_IO, "%s: %s", l->dir,
				       strerror(errno));
	}
	if (!realpath(l->dir, real))
		return pb_fail(errbuf, PB_ERR_INPUT, "%s.dir %s: %s", backend,
			       l->dir, strerror(errno));
	if (stat(real, &st) || !S_ISDIR(st.st_mode))
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s.dir %s: not a directory", backend, real);
	snprintf(l->dir, sizeof(l->dir), "%s", real);
	snprintf(l->key, sizeof(l->key), "%s:%s:%s", backend, l->host, l->dir);
	/* runs on one filesystem (any directory of it) or one device share
	 * its bandwidth */
	snprintf(l->shared[0], sizeof(l->shared[0]), "%s:%s: filesystem %u:%u",
		 backend, l->host, major(st.st_dev), minor(st.st_dev));
	if (device)
		snprintf(l->shared[1], sizeof(l->shared[1]), "%s:%s: device %s",
			 backend, l->host, device);
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd));
	snprintf(l->run_id, sizeof(l->run_id), "%02x%02x%02x%02x%02x%02x",
		 rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5]);
	return PB_OK;
}

void pb_local_shard(struct pb_local *l, const struct pb_profile *p)
{
	size_t n = strlen(l->run_id);

	snprintf(l->run_id + n, sizeof(l->run_id) - n, "%s", p->shard_tag);
}

void pb_local_describe(const struct pb_local *l, json_t *env)
{
	struct utsname u;
	char cpu[256] = "", line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(cpu, sizeof(cpu), "%s", strchr(line, ':') + 2);
			cpu[strcspn(cpu, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_set_new(env, "host", json_string(l->host));
	json_object_set_new(env, "host_kernel", json_string(u.release));
	json_object_set_new(env, "host_cpu", json_string(cpu));
	json_object_set_new(env, "datastore", json_string(l->dir));
	json_object_set_new(env, "datastore_fs",
			    json_string(pb_local_fs_name(l->dir)));
}

enum pb_error pb_local_claim(const char *path, char *errbuf)
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

/*
 * qemu-img writes preallocation=full through the page cache and returns
 * with up to disk_size of zeros still dirty: counted as done, eager's
 * provisioning time was the page cache's, and the writeback then ran
 * under the first passes of whatever came next. The fsync belongs to
 * provisioning: it is what making the disk costs. After it the zeros stay
 * cached, clean, and the first O_DIRECT pass paid for them: every write
 * must first drop the cached pages of its range, a cost the rewrites no
 * longer have, so eager and the raw-device baseline showed a first-write
 * "penalty" of their own (8-15% on 1 GiB, 2026-12-02). A disk on an array
 * has nothing in the hypervisor's cache: neither has this one.
 */
enum pb_error pb_local_settle(const char *path, char *errbuf)
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

bool pb_local_extents(int fd, uint64_t *written, uint64_t *unwritten)
{
	struct runner_extents x;
	bool ok = runner_extents_get(&x, fd);

	*written = x.written;
	*unwritten = x.unwritten;
	return ok;
}

json_t *pb_local_readback(const char *path, uint64_t size)
{
	json_t *rb = json_object();
	uint64_t wr = 0, un = 0;
	struct stat st;
	char magic[4] = "";
	const char *mode = "unknown";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool st_ok;

	if (fd < 0)
		return rb;
	st_ok = !fstat(fd, &st);
	if (pread(fd, magic, 4, 0) == 4 && !memcmp(magic, "QFI\xfb", 4)) {
		json_object_set_new(rb, "format", json_string("qcow2"));
		mode = "thin";
	} else {
		json_object_set_new(rb, "format", json_string("raw"));
		if (pb_local_extents(fd, &wr, &un)) {
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
		} else if (st_ok && (uint64_t)st.st_blocks * 512 * 10 <= size) {
			/* no extents to read (NFS): what is allocated at
			 * all still tells thin from the rest */
			mode = "thin";
		}
	}
	if (st_ok)
		json_object_set_new(
			rb, "allocated_bytes",
			json_integer((json_int_t)st.st_blocks * 512));
	json_object_set_new(rb, "mode", json_string(mode));
	close(fd);
	return rb;
}

enum pb_error pb_local_check_direct(const char *dir, const char *key,
				    const char *needs, char *errbuf)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/.pb-direct-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return pb_fail(errbuf, PB_ERR_IO, "%s: cannot write: %s", dir,
			       strerror(errno));
	close(fd);
	fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	unlink(path);
	if (fd < 0)
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "%s: no O_DIRECT here (%s), which %s needs; "
			       "set %s to a directory on a disk filesystem",
			       dir, strerror(errno), needs, key);
	close(fd);
	return PB_OK;
}

const char *pb_local_fs_name(const char *dir)
{
	struct statfs sf;

	if (statfs(dir, &sf))
		return "unknown";
	switch ((unsigned long)sf.f_type) {
	case 0xef53:
		return "ext4";
	case 0x58465342:
		return "xfs";
	case 0x9123683e:
		return "btrfs";
	case 0x01021994:
		return "tmpfs";
	case 0x794c7630:
		return "overlayfs";
	case 0x2fc12fc1:
		return "zfs";
	case 0x6969:
		return "nfs";
	case 0xff534d42:
		return "cifs";
	case 0x65735546:
		return "fuse";
	default:
		return "other";
	}
}

/* ---- loop devices ---- */

enum pb_error pb_loop_attach(struct pb_loop *l, const char *file, char *errbuf)
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
		snprintf(l->dev, sizeof(l->dev), "/dev/loop%d", n);
		lfd = open(l->dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0)
			break;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)back;
		cfg.block_size = 512;
		/* direct I/O: no second page cache under the writer's; and
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
			      l->dev, strerror(errno));
		goto out;
	}
	if (n < 0 || lfd < 0) {
		err = pb_fail(errbuf, PB_ERR_IO, "no free loop device: %s",
			      strerror(errno));
		goto out;
	}
	l->fd = lfd;
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
 * Wait until the kernel has let go of loop device dev. With
 * LO_FLAGS_AUTOCLEAR, LOOP_CLR_FD only marks the device while another
 * opener remains, and the last one can be a killed qemu or runner whose
 * io_uring the kernel tears down in a worker after waitpid() has
 * returned, its direct I/O drained first: the device clears a moment
 * later, and on a loaded machine many seconds later (over 5 s once in
 * make test, host:host_kill9_at_every_step). Returning before then would
 * leave a run that says "nothing left" while /sys still shows the
 * backing file; so it waits for the device, up to 60 s, and says so if
 * that was not enough.
 */
static void loop_wait_clear(const char *dev)
{
	char p[64];
	unsigned i;

	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
		 dev + strlen("/dev/"));
	for (i = 0; i < 1200 && access(p, F_OK) == 0; i++)
		usleep(50 * 1000);
	if (access(p, F_OK) == 0)
		fprintf(stderr,
			"provbench: warning: %s: still held after 60 s; the "
			"kernel lets it go when its last user ends\n",
			dev);
}

void pb_loop_detach(struct pb_loop *l)
{
	if (!l || l->fd < 0)
		return;
	ioctl(l->fd, LOOP_CLR_FD, 0);
	close(l->fd);
	loop_wait_clear(l->dev);
	l->fd = -1;
	l->dev[0] = '\0';
}

void pb_loop_close(struct pb_loop *l)
{
	if (!l || l->fd < 0)
		return;
	close(l->fd);
	l->fd = -1;
}

unsigned pb_loop_detach_file(const char *path)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	unsigned n = 0;

	while (dir && (e = readdir(dir))) {
		char p[4096], back[4096 + 2] = "";
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

/* the first line of a small /proc file into out ("" when unreadable) */
static void proc_line(char *out, size_t len, const char *path)
{
	FILE *fp = fopen(path, "re");

	out[0] = '\0';
	if (fp) {
		if (!fgets(out, (int)len, fp))
			out[0] = '\0';
		fclose(fp);
	}
	out[strcspn(out, "\n")] = '\0';
}

static void copy_file(FILE *to, const char *path, const char *indent)
{
	char line[512];
	FILE *fp = fopen(path, "re");

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp))
		fprintf(to, "%s%s", indent, line);
	fclose(fp);
}

enum pb_error pb_local_proc_dump(pid_t pid, const char *what, const char *path,
				 char *errbuf)
{
	char dir[64], p[PATH_MAX], line[512];
	FILE *fp = fopen(path, "ae");
	struct dirent *e;
	DIR *d;

	if (!fp)
		return pb_fail(errbuf, PB_ERR_IO, "%s: %s", path,
			       strerror(errno));
	snprintf(dir, sizeof(dir), "/proc/%ld", (long)pid);
	fprintf(fp, "%s, pid %ld\n", what, (long)pid);
	snprintf(p, sizeof(p), "%s/task", dir);
	if ((d = opendir(p))) {
		while ((e = readdir(d))) {
			char comm[64], state[128], wchan[128];

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/task/%s/comm", dir,
				 e->d_name);
			proc_line(comm, sizeof(comm), p);
			snprintf(p, sizeof(p), "%s/task/%s/stat", dir,
				 e->d_name);
			proc_line(state, sizeof(state), p);
			snprintf(p, sizeof(p), "%s/task/%s/wchan", dir,
				 e->d_name);
			proc_line(wchan, sizeof(wchan), p);
			/* the state is the field after the command's ")" */
			fprintf(fp, "thread %s %s: state %c, wchan %s\n",
				e->d_name, comm,
				strrchr(state, ')') ? strrchr(state, ')')[2]
						    : '?',
				wchan);
			snprintf(p, sizeof(p), "%s/task/%s/stack", dir,
				 e->d_name);
			copy_file(fp, p, "    ");
		}
		closedir(d);
	}
	snprintf(p, sizeof(p), "%s/fd", dir);
	if ((d = opendir(p))) {
		while ((e = readdir(d))) {
			ssize_t n;

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/fd/%s", dir, e->d_name);
			n = readlink(p, line, sizeof(line) - 1);
			if (n <= 0)
				continue;
			line[n] = '\0';
			if (!strstr(line, "io_uring") && !strstr(line, "aio"))
				continue;
			fprintf(fp, "fd %s -> %s\n", e->d_name, line);
			snprintf(p, sizeof(p), "%s/fdinfo/%s", dir, e->d_name);
			copy_file(fp, p, "    ");
		}
		closedir(d);
	}
	fclose(fp);
	return PB_OK;
}
