/*
 * zerofs.c - a reference device whose first-write cost is known by
 * construction (issue 36): a FUSE passthrough over a directory that, as
 * VMFS does for a lazy-zeroed disk, writes zeros over each 1 MiB block of
 * a file on the first write that touches it, before the data, and counts
 * the time that took. provbench's host backend runs on the mount; its
 * penalty must agree with this count.
 *
 *   zerofs BACKING MOUNTPOINT LOG [EVERY [HEAD_MIB HEAD_TIMES [WAIT_US
 *          [SCOPE]]]]
 *
 * BACKING: the directory the files live in. LOG: where each file's count
 * is appended as one JSON line when it is removed (or at unmount):
 * {"file", "every", "head_mib", "head_times", "blocks_zeroed", "zero_ns",
 * "writes", "write_ns", "first_write_ns", "first_write_bytes",
 * "later_write_ns", "later_write_bytes", "paired_write_ns",
 * "paired_write_bytes", "block_zero_ns"}: write_ns the time of every
 * write the file was given, zeroing included; first_* the writes that
 * wrote a 4 KiB page for the first time (their zeroing and their data),
 * later_* those that wrote only pages written before (the same bytes
 * once written: what a first write costs over them is the device's own
 * count of its first-write cost, zeroing and its wake on the data write
 * after it both in it; at queue depth 1, one write at a time); paired_*
 * the later writes up to the last first write (with stripe pairs, the
 * rewrites interleaved with the fresh stripes, in the same pattern as
 * they); block_zero_ns each 1 MiB block's zeroing. EVERY:
 * zero one block in EVERY (1, the default: every block; 8: one in eight,
 * a cost concentrated on a minority of the disk; 0: none, the control).
 * HEAD_MIB, HEAD_TIMES: a file's first HEAD_MIB blocks are zeroed
 * HEAD_TIMES times over on their first touch (issue 52: a first-touch
 * cost heavier at the start, as a new file's first extents are; on the
 * first stripe, which no stripe pair holds). WAIT_US above 0: a block's
 * zeroing is a wait of that many microseconds instead of a write, timed
 * as slept (an array zeroing a block while the host waits, as VAAI's
 * WRITE SAME does): a cost known exactly, with no wake on the data write
 * after it, where written zeros slow the next write to the same blocks
 * by more than their own time (docs/validation.md).
 * SCOPE: "device" (the default) holds every write while a block is
 * zeroed, the whole device waiting, as the pass-time truths above need;
 * "block" holds only the writes to that block, the rest going on beside
 * it (issue 55's known tail: the writes a zeroing stalls are exactly
 * the first write to the block and any to it meanwhile, counted as
 * first_zero_waits; the log then also gives the device's own latency
 * quantiles of first and later writes, first_p50_ns ... later_p999_ns,
 * nearest rank, from a write's arrival here to its end).
 * Zeros go direct and synchronous (O_DIRECT | O_DSYNC), as an array's;
 * a block written whole by its first write is zeroed all the same: VMFS
 * zeroes before it knows.
 * A device that stalls (a path failover, a controller reset: issue 55's
 * coordinated omission): while the file HOLD exists beside BACKING
 * (BACKING.hold), every write waits, and goes on once it is gone.
 * Runs in the foreground until fusermount3 -u MOUNTPOINT.
 */
#define FUSE_USE_VERSION 35
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define ZBLOCK (1u << 20)

#define ZPAGE 4096u

/* a file's blocks, touched or not, and its counts */
struct zfile {
	struct zfile *next;
	char *path;
	unsigned char *touched; /* one byte per block */
	uint64_t *zns;		/* each block's zeroing, ns */
	size_t nblocks;
	uint64_t zeroed, zero_ns, writes, write_ns;
	/* each 4 KiB page written yet or not, and the writes' time apart:
	 * those that wrote a page for the first time (their zeroing
	 * included) and those that only wrote pages written before */
	unsigned char *written;
	size_t npages;
	uint64_t first_ns, first_bytes, later_ns, later_bytes;
	/* the later writes' sums as they stood at the last first write: the
	 * rewrites a first write's pass interleaves with its fresh stripes
	 * (stripe pairs), the same bytes once written in the same pattern,
	 * where a rewrite pass after it is sequential alone */
	uint64_t paired_ns, paired_bytes;
	/* SCOPE block: each write's time here, the top bit set for a
	 * first write; and the writes a zeroing held, by class */
	uint64_t *lat;
	size_t nlat, alat;
	uint64_t zero_waits[2]; /* [1]: first writes */
};

#define LAT_FIRST (1ull << 63)

static struct {
	const char *backing, *log;
	char hold[PATH_MAX + 8];
	unsigned every, head_mib, head_times, wait_us;
	bool block_scope; /* SCOPE block: only a zeroed block's writes wait */
	void *zeros;
	struct zfile *files;
	pthread_mutex_t lock;
	pthread_cond_t zeroed; /* SCOPE block: a block's zeroing ended */
} z = {.every = 1,
       .head_times = 1,
       .lock = PTHREAD_MUTEX_INITIALIZER,
       .zeroed = PTHREAD_COND_INITIALIZER};

/*
 * A file open here is three of the backing file's: as asked (reads,
 * metadata), the data's writes (O_DIRECT: no page cache, whose own first
 * touch of a page would be a first-write cost this device did not count)
 * and the zeros' (O_DIRECT | O_DSYNC, synchronous as an array's zeroing).
 */
struct zopen {
	int fd, wfd, zfd;
};

#define ZO(fi)	((struct zopen *)(uintptr_t)(fi)->fh)
#define DFD(fi) (ZO(fi)->fd)

static int open_three(const char *path, int flags, mode_t mode,
		      struct fuse_file_info *fi)
{
	struct zopen *o = malloc(sizeof(*o));
	int e;

	if (!o)
		return -ENOMEM;
	o->wfd = o->zfd = -1;
	o->fd = open(path, flags, mode);
	if (o->fd >= 0 && (flags & O_ACCMODE) != O_RDONLY)
		o->wfd = open(path, O_WRONLY | O_DIRECT);
	if (o->fd >= 0 && (flags & O_ACCMODE) != O_RDONLY && o->wfd >= 0)
		o->zfd = open(path, O_WRONLY | O_DIRECT | O_DSYNC);
	if (o->fd < 0 ||
	    ((flags & O_ACCMODE) != O_RDONLY && (o->wfd < 0 || o->zfd < 0))) {
		e = errno;
		if (o->fd >= 0)
			close(o->fd);
		if (o->wfd >= 0)
			close(o->wfd);
		free(o);
		return -e;
	}
	fi->fh = (uint64_t)(uintptr_t)o;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void real(char *out, const char *path)
{
	snprintf(out, PATH_MAX, "%s%s", z.backing, path);
}

/* the file's record, made on first need; z.lock held */
static struct zfile *zfile_get(const char *path)
{
	struct zfile *f;

	for (f = z.files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	f->next = z.files;
	z.files = f;
	return f;
}

/* a write's time kept (SCOPE block); z.lock held */
static void lat_add(struct zfile *f, uint64_t v, int first, bool held)
{
	if (f->nlat == f->alat) {
		size_t n = f->alat ? 2 * f->alat : 4096;
		uint64_t *l = realloc(f->lat, n * sizeof(*l));

		if (!l)
			return; /* the quantiles then of fewer: said below */
		f->lat = l;
		f->alat = n;
	}
	f->lat[f->nlat++] = v;
	f->zero_waits[!!first] += held;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* the class's (first or later writes) p50, p99 and p99.9 to out, as
 * JSON members, nearest rank; 0 where the class had none */
static void lat_quantiles(FILE *out, struct zfile *f, int first)
{
	static const struct {
		const char *name;
		double q;
	} qs[] = {{"p50", 0.5}, {"p99", 0.99}, {"p999", 0.999}};
	uint64_t *v = malloc((f->nlat ? f->nlat : 1) * sizeof(*v));
	size_t n = 0, i;

	for (i = 0; v && i < f->nlat; i++)
		if (!(f->lat[i] & LAT_FIRST) == !first)
			v[n++] = f->lat[i] & ~LAT_FIRST;
	if (n)
		qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t r = n ? (size_t)(qs[i].q * (double)n + 0.999999) : 0;

		fprintf(out, ", \"%s_%s_ns\": %llu", first ? "first" : "later",
			qs[i].name,
			(unsigned long long)(r ? v[(r > n ? n : r) - 1] : 0));
	}
	fprintf(out, ", \"%s_writes_timed\": %zu, \"%s_zero_waits\": %llu",
		first ? "first" : "later", n, first ? "first" : "later",
		(unsigned long long)f->zero_waits[!!first]);
	/* every write of the class that took a millisecond or more, the
	 * longest first: a stall count over any threshold from them */
	fprintf(out, ", \"%s_slow_ns\": [", first ? "first" : "later");
	for (i = n; i-- > 0 && v[i] >= 1000000;)
		fprintf(out, "%s%llu", i + 1 < n ? ", " : "",
			(unsigned long long)v[i]);
	fprintf(out, "]");
	free(v);
}

/* its count to the log, and the record gone; z.lock held */
static void zfile_retire(const char *path)
{
	struct zfile **pp, *f;
	FILE *out;

	for (pp = &z.files; *pp && strcmp((*pp)->path, path);)
		pp = &(*pp)->next;
	if (!(f = *pp))
		return;
	*pp = f->next;
	out = fopen(z.log, "a");
	if (out) {
		fprintf(out,
			"{\"file\": \"%s\", \"every\": %u, \"head_mib\": %u, "
			"\"head_times\": %u, \"wait_us\": %u, "
			"\"blocks_zeroed\": "
			"%llu, \"zero_ns\": %llu, \"writes\": %llu, "
			"\"write_ns\": %llu, \"first_write_ns\": %llu, "
			"\"first_write_bytes\": %llu, \"later_write_ns\": "
			"%llu, \"later_write_bytes\": %llu, "
			"\"paired_write_ns\": %llu, "
			"\"paired_write_bytes\": %llu, \"block_zero_ns\": [",
			f->path + 1, z.every, z.head_mib, z.head_times,
			z.wait_us, (unsigned long long)f->zeroed,
			(unsigned long long)f->zero_ns,
			(unsigned long long)f->writes,
			(unsigned long long)f->write_ns,
			(unsigned long long)f->first_ns,
			(unsigned long long)f->first_bytes,
			(unsigned long long)f->later_ns,
			(unsigned long long)f->later_bytes,
			(unsigned long long)f->paired_ns,
			(unsigned long long)f->paired_bytes);
		for (size_t b = 0; b < f->nblocks; b++)
			fprintf(out, "%s%llu", b ? ", " : "",
				(unsigned long long)f->zns[b]);
		fprintf(out, "]");
		if (z.block_scope) {
			fprintf(out, ", \"scope\": \"block\"");
			lat_quantiles(out, f, 1);
			lat_quantiles(out, f, 0);
		}
		fprintf(out, "}\n");
		fclose(out);
	}
	free(f->lat);
	free(f->touched);
	free(f->written);
	free(f->zns);
	free(f->path);
	free(f);
}

/* block b of f zeroed (written or waited, times over): SCOPE block lets
 * go of z.lock meanwhile, the block marked as being zeroed (2) so a
 * write to it waits; z.lock held on entry and on return */
static int zero_block(struct zfile *f, int fd, size_t b, unsigned times)
{
	uint64_t t0;
	unsigned k;
	int rc = 0;

	if (z.block_scope) {
		f->touched[b] = 2;
		pthread_mutex_unlock(&z.lock);
	}
	t0 = now_ns();
	for (k = 0; k < times && !rc; k++) {
		struct timespec w = {0, (long)z.wait_us * 1000};

		if (z.wait_us)
			while (nanosleep(&w, &w) && errno == EINTR)
				;
		else if (pwrite(fd, z.zeros, ZBLOCK, (off_t)b * ZBLOCK) !=
			 ZBLOCK)
			rc = errno ? -errno : -EIO;
	}
	t0 = now_ns() - t0;
	if (z.block_scope) {
		pthread_mutex_lock(&z.lock);
		f->touched[b] = 1;
		pthread_cond_broadcast(&z.zeroed);
	}
	if (!rc) {
		f->zns[b] = t0;
		f->zero_ns += t0;
		f->zeroed++;
	}
	return rc;
}

/* blocks [first, last] of f touched; those not yet, zeroed first when
 * they are one in z.every, and *held set when this write zeroed one or
 * waited for another write's zeroing of one; z.lock held */
static int zero_untouched(struct zfile *f, int fd, size_t first, size_t last,
			  bool *held)
{
	size_t b;
	int rc;

	if (last >= f->nblocks) {
		unsigned char *t = realloc(f->touched, last + 1);
		uint64_t *ns;

		if (t)
			f->touched = t;
		ns = realloc(f->zns, (last + 1) * sizeof(*ns));
		if (!t || !ns)
			return -ENOMEM;
		f->zns = ns;
		memset(t + f->nblocks, 0, last + 1 - f->nblocks);
		memset(ns + f->nblocks, 0,
		       (last + 1 - f->nblocks) * sizeof(*ns));
		f->nblocks = last + 1;
	}
	for (b = first; b <= last; b++) {
		if (f->touched[b] == 2) {
			/* another write zeroes it: this one waits too */
			while (f->touched[b] == 2)
				pthread_cond_wait(&z.zeroed, &z.lock);
			*held = true;
			continue;
		}
		if (f->touched[b])
			continue;
		f->touched[b] = 1;
		if (!z.every || b % z.every)
			continue;
		*held = true;
		rc = zero_block(f, fd, b, b < z.head_mib ? z.head_times : 1);
		if (rc)
			return rc;
	}
	return 0;
}

/* Does [off, off + size) write a page of f for the first time? Its
 * pages marked written; -1 out of memory; z.lock held */
static int pages_first(struct zfile *f, off_t off, size_t size)
{
	size_t a = (size_t)off / ZPAGE, b = ((size_t)off + size - 1) / ZPAGE;
	int first = 0;

	if (b >= f->npages) {
		/* doubled, not grown by a write's pages: a copy of the map
		 * on every first write would be a first-write cost of the
		 * device's own bookkeeping */
		size_t n = b + 1 > 2 * f->npages ? b + 1 : 2 * f->npages;
		unsigned char *w = realloc(f->written, n);

		if (!w)
			return -1;
		memset(w + f->npages, 0, n - f->npages);
		f->written = w;
		f->npages = n;
	}
	for (; a <= b; a++) {
		first |= !f->written[a];
		f->written[a] = 1;
	}
	return first;
}

static int zf_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	uint64_t t0 = now_ns();
	struct zfile *f;
	ssize_t n;
	int rc = 0, first = 0;
	bool held = false;

	/* a stalled device: held while the hold file is there */
	while (!access(z.hold, F_OK))
		usleep(1000);
	if (size) {
		pthread_mutex_lock(&z.lock);
		f = zfile_get(path);
		rc = f ? zero_untouched(f, ZO(fi)->zfd, (size_t)off / ZBLOCK,
					(size_t)(off + (off_t)size - 1) /
						ZBLOCK,
					&held)
		       : -ENOMEM;
		if (!rc && (first = pages_first(f, off, size)) < 0)
			rc = -ENOMEM;
		pthread_mutex_unlock(&z.lock);
		if (rc)
			return rc;
	}
	/* a write direct I/O cannot take (a provisioning's odd tail) goes
	 * as asked; FUSE's buffer is not aligned as O_DIRECT needs: an
	 * aligned copy, the same for every write */
	if ((off | (off_t)size) % 4096) {
		n = pwrite(DFD(fi), buf, size, off);
		rc = n < 0 ? -errno : 0;
	} else if ((uintptr_t)buf % 4096) {
		void *a = NULL;

		if (posix_memalign(&a, 4096, size))
			return -ENOMEM;
		memcpy(a, buf, size);
		n = pwrite(ZO(fi)->wfd, a, size, off);
		rc = n < 0 ? -errno : 0;
		free(a);
	} else {
		n = pwrite(ZO(fi)->wfd, buf, size, off);
		rc = n < 0 ? -errno : 0;
	}
	if (rc)
		return rc;
	pthread_mutex_lock(&z.lock);
	if ((f = zfile_get(path))) {
		uint64_t ns = now_ns() - t0;

		f->writes++;
		f->write_ns += ns;
		*(first ? &f->first_ns : &f->later_ns) += ns;
		*(first ? &f->first_bytes : &f->later_bytes) += size;
		if (first) {
			f->paired_ns = f->later_ns;
			f->paired_bytes = f->later_bytes;
		}
		if (z.block_scope)
			lat_add(f, ns | (first ? LAT_FIRST : 0), first, held);
	}
	pthread_mutex_unlock(&z.lock);
	return (int)n;
}

/*
 * Preallocation: the backing file's blocks are allocated and written (a
 * lazy-zeroed disk's blocks are the datastore's already), so the backing
 * filesystem's own first-write cost (converting unwritten extents) is
 * out of every later write; but this file's blocks are still to be
 * zeroed by their first write, as a lazy-zeroed disk's are.
 */
static int zf_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	off_t at;

	(void)path;
	if (fallocate(DFD(fi), mode, off, len))
		return -errno;
	if (mode || ZO(fi)->wfd < 0 || off % ZBLOCK)
		return 0;
	for (at = off; at < off + len; at += ZBLOCK) {
		size_t n = (size_t)(off + len - at < ZBLOCK ? off + len - at
							    : ZBLOCK);

		if (pwrite(ZO(fi)->wfd, z.zeros, n, at) != (ssize_t)n)
			return errno ? -errno : -EIO;
	}
	return fdatasync(ZO(fi)->wfd) ? -errno : 0;
}

static int zf_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return fstat(DFD(fi), st) ? -errno : 0;
	real(p, path);
	return lstat(p, st) ? -errno : 0;
}

static int zf_open(const char *path, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	real(p, path);
	return open_three(p, fi->flags, 0, fi);
}

static int zf_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	real(p, path);
	return open_three(p, fi->flags, mode, fi);
}

static int zf_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	ssize_t n = pread(DFD(fi), buf, size, off);

	(void)path;
	return n < 0 ? -errno : (int)n;
}

static int zf_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	struct zopen *o = ZO(fi);

	close(o->fd);
	if (o->wfd >= 0)
		close(o->wfd);
	if (o->zfd >= 0)
		close(o->zfd);
	free(o);
	return 0;
}

static int zf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	return (datasync ? fdatasync(DFD(fi)) : fsync(DFD(fi))) ? -errno : 0;
}

static int zf_unlink(const char *path)
{
	char p[PATH_MAX];

	real(p, path);
	if (unlink(p))
		return -errno;
	pthread_mutex_lock(&z.lock);
	zfile_retire(path);
	pthread_mutex_unlock(&z.lock);
	return 0;
}

static int zf_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return ftruncate(DFD(fi), size) ? -errno : 0;
	real(p, path);
	return truncate(p, size) ? -errno : 0;
}

static int zf_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;

	(void)off, (void)fi, (void)flags;
	real(p, path);
	if (!(d = opendir(p)))
		return -errno;
	while ((e = readdir(d)))
		fill(buf, e->d_name, NULL, 0, 0);
	closedir(d);
	return 0;
}

static int zf_mkdir(const char *path, mode_t mode)
{
	char p[PATH_MAX];

	real(p, path);
	return mkdir(p, mode) ? -errno : 0;
}

static int zf_rmdir(const char *path)
{
	char p[PATH_MAX];

	real(p, path);
	return rmdir(p) ? -errno : 0;
}

static int zf_rename(const char *from, const char *to, unsigned flags)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (flags)
		return -EINVAL;
	real(a, from);
	real(b, to);
	if (rename(a, b))
		return -errno;
	/* the count goes with the file */
	pthread_mutex_lock(&z.lock);
	for (struct zfile *f = z.files; f; f = f->next)
		if (!strcmp(f->path, from)) {
			char *p = strdup(to);

			if (p) {
				free(f->path);
				f->path = p;
			}
			break;
		}
	pthread_mutex_unlock(&z.lock);
	return 0;
}

static int zf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return fchmod(DFD(fi), mode) ? -errno : 0;
	real(p, path);
	return chmod(p, mode) ? -errno : 0;
}

static int zf_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return futimens(DFD(fi), tv) ? -errno : 0;
	real(p, path);
	return utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

static int zf_statfs(const char *path, struct statvfs *st)
{
	char p[PATH_MAX];

	real(p, path);
	return statvfs(p, st) ? -errno : 0;
}

static void *zf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* SCOPE block: the kernel holds asynchronous requests beyond
	 * max_background (12 by default) in its own queue, where this
	 * device's clock does not see them: a few zeroings held at once
	 * under an offered rate would fill twelve, and the writes behind
	 * them would stall unseen */
	if (z.block_scope) {
		conn->max_background = 256;
		conn->congestion_threshold = 192;
	}
	/* the backing file's own size and times, never a cached guess */
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->use_ino = 1;
	/* a file removed while open keeps its name in the log, not FUSE's
	 * .fuse_hidden rename */
	cfg->hard_remove = 1;
	return NULL;
}

static void zf_destroy(void *data)
{
	(void)data;
	pthread_mutex_lock(&z.lock);
	while (z.files)
		zfile_retire(z.files->path);
	pthread_mutex_unlock(&z.lock);
}

static const struct fuse_operations ops = {
	.init = zf_init,
	.destroy = zf_destroy,
	.getattr = zf_getattr,
	.open = zf_open,
	.create = zf_create,
	.read = zf_read,
	.write = zf_write,
	.release = zf_release,
	.fsync = zf_fsync,
	.fallocate = zf_fallocate,
	.unlink = zf_unlink,
	.truncate = zf_truncate,
	.readdir = zf_readdir,
	.mkdir = zf_mkdir,
	.rmdir = zf_rmdir,
	.rename = zf_rename,
	.chmod = zf_chmod,
	.utimens = zf_utimens,
	.statfs = zf_statfs,
};

int main(int argc, char **argv)
{
	static char backing[PATH_MAX];
	/* SCOPE block: a zeroing holds one of the file system's threads for
	 * its time, and writes beyond the threads wait in the kernel, where
	 * this device's clock does not see them: threads enough for the
	 * zeroings a rate's first touches overlap */
	char *fargv[] = {argv[0],
			 "-f",
			 "-o",
			 "default_permissions,max_threads=64",
			 argc > 2 ? argv[2] : NULL,
			 NULL};
	char *end;
	int rc;

	if (argc < 4 || argc == 6 || argc > 9) {
		fprintf(stderr, "usage: zerofs BACKING MOUNTPOINT LOG [EVERY "
				"[HEAD_MIB HEAD_TIMES [WAIT_US [SCOPE]]]]\n");
		return 2;
	}
	if (!realpath(argv[1], backing)) {
		fprintf(stderr, "zerofs: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	z.backing = backing;
	snprintf(z.hold, sizeof(z.hold), "%s.hold", backing);
	z.log = argv[3];
	if (argc == 9) {
		if (strcmp(argv[8], "block") && strcmp(argv[8], "device")) {
			fprintf(stderr, "zerofs: SCOPE '%s': block or device\n",
				argv[8]);
			return 2;
		}
		z.block_scope = !strcmp(argv[8], "block");
	}
	if (argc >= 8) {
		unsigned long w = strtoul(argv[7], &end, 10);

		if (*end || w > 999999) {
			fprintf(stderr, "zerofs: WAIT_US '%s': 0 to 999999\n",
				argv[7]);
			return 2;
		}
		z.wait_us = (unsigned)w;
	}
	if (argc >= 7) {
		unsigned long h = strtoul(argv[5], &end, 10), t;

		if (*end || h > 1u << 20 ||
		    (t = strtoul(argv[6], &end, 10), *end) || t < 1 || t > 64) {
			fprintf(stderr,
				"zerofs: HEAD_MIB '%s', HEAD_TIMES '%s': "
				"blocks up to 1048576, times from 1 to 64\n",
				argv[5], argv[6]);
			return 2;
		}
		z.head_mib = (unsigned)h;
		z.head_times = (unsigned)t;
	}
	if (argc >= 5) {
		unsigned long e = strtoul(argv[4], &end, 10);

		if (*end || e > 1024) {
			fprintf(stderr,
				"zerofs: EVERY '%s': a count from 0 to "
				"1024\n",
				argv[4]);
			return 2;
		}
		z.every = (unsigned)e;
	}
	/* zeros written with the caller's own flags, O_DIRECT included:
	 * aligned */
	if (posix_memalign(&z.zeros, 4096, ZBLOCK))
		return 1;
	memset(z.zeros, 0, ZBLOCK);
	rc = fuse_main(5, fargv, &ops, NULL);
	free(z.zeros);
	return rc;
}
