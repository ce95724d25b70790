/*
 * test_target.c - the runner's safety checks and uuid lookup, on files in a
 * scratch directory: a refused target is left byte-for-byte unchanged.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "runner_int.h"
#include "unit.h"

static char dir[] = "/tmp/pb-target-XXXXXX";

static int setup(void)
{
	return mkdtemp(dir) ? 0 : 1;
}

static int teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}

static const char *tpath(char *buf, const char *name)
{
	sprintf(buf, "%s/%s", dir, name);
	return buf;
}

static enum pb_error try_open(const char *path, uint64_t size, bool force,
			      bool writes, char *err)
{
	struct runner_opts o;
	struct runner_target t;
	enum pb_error e;

	runner_opts_init(&o);
	o.target = path;
	o.size = size;
	o.force = force;
	o.bs = 4096;
	err[0] = '\0';
	e = runner_target_open(&t, &o, writes, err);
	runner_target_close(&t);
	return e;
}

static void ext4_signature_refused_unchanged(void)
{
	char p[256], cmd[512], err[PB_ERRBUF_SIZE];
	char *before, *after;
	size_t lb, la;

	tpath(p, "ext4.img");
	snprintf(cmd, sizeof(cmd),
		 "truncate -s 16M '%s' && mkfs.ext4 -q -F '%s' >/dev/null 2>&1",
		 p, p);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	before = pb_slurp_file(p, &lb);
	CU_ASSERT_PTR_NOT_NULL_FATAL(before);
	CU_ASSERT_EQUAL(try_open(p, 0, false, true, err), PB_ERR_UNSAFE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ext4"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--force"));
	after = pb_slurp_file(p, &la);
	CU_ASSERT_PTR_NOT_NULL_FATAL(after);
	CU_ASSERT_EQUAL(la, lb);
	CU_ASSERT_EQUAL(memcmp(before, after, lb), 0);
	/* --force overrides the signature check */
	CU_ASSERT_EQUAL(try_open(p, 0, true, true, err), PB_OK);
	/* reading is harmless: no check */
	CU_ASSERT_EQUAL(try_open(p, 0, false, false, err), PB_OK);
	free(before);
	free(after);
}

static void file_with_data_refused(void)
{
	char p[256], err[PB_ERRBUF_SIZE];
	FILE *fp;
	int i;

	tpath(p, "data.bin");
	fp = fopen(p, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	for (i = 0; i < 100000; i++)
		fputc(i * 7 + 3, fp);
	fclose(fp);
	CU_ASSERT_EQUAL(try_open(p, 0, false, true, err), PB_ERR_UNSAFE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "holds data"));
	CU_ASSERT_EQUAL(try_open(p, 0, true, true, err), PB_OK);
}

static void sparse_and_new_files_accepted(void)
{
	char p[256], cmd[512], err[PB_ERRBUF_SIZE];
	struct stat st;

	tpath(p, "sparse.img");
	snprintf(cmd, sizeof(cmd), "truncate -s 64M '%s'", p);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(try_open(p, 0, false, true, err), PB_OK);

	tpath(p, "new.img");
	CU_ASSERT_EQUAL(try_open(p, 0, false, true, err), PB_ERR_USAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--size"));
	CU_ASSERT_NOT_EQUAL(stat(p, &st), 0); /* bad input creates nothing */
	CU_ASSERT_EQUAL(try_open(p, 1 << 20, false, true, err), PB_OK);
	CU_ASSERT_EQUAL_FATAL(stat(p, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 1 << 20);
	CU_ASSERT_EQUAL(st.st_blocks, 0);
	/* smaller than one block */
	tpath(p, "tiny.img");
	snprintf(cmd, sizeof(cmd), "truncate -s 1000 '%s'", p);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(try_open(p, 0, false, true, err), PB_ERR_INPUT);
}

static void not_a_disk_refused(void)
{
	char err[PB_ERRBUF_SIZE], p[256];

	CU_ASSERT_EQUAL(try_open("/dev/null", 4096, true, true, err),
			PB_ERR_UNSAFE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a block device"));
	CU_ASSERT_EQUAL(try_open(dir, 4096, true, true, err), PB_ERR_UNSAFE);
	CU_ASSERT_EQUAL(
		try_open(tpath(p, "no/such/dir/x"), 4096, false, true, err),
		PB_ERR_IO);
}

/*
 * The root filesystem's device, through a device node of our own (the
 * machine may not have one in /dev): refused even with --force, before it
 * is opened. Only the check runs: runner_target_open never writes.
 */
static void root_device_refused(void)
{
	char p[256], err[PB_ERRBUF_SIZE];
	struct stat st;

	CU_ASSERT_EQUAL_FATAL(stat("/", &st), 0);
	/* the mount test covers this machine's case */
	if (major(st.st_dev) == 0)
		PB_SKIP("/ is not on a block device here");
	tpath(p, "rootdev");
	if (mknod(p, S_IFBLK | 0600, st.st_dev))
		PB_SKIP("mknod needs root");
	CU_ASSERT_EQUAL(try_open(p, 4096, true, true, err), PB_ERR_UNSAFE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "root filesystem"));
	unlink(p);
}

static void link_to(const char *name, const char *target)
{
	char p[512], d[256];

	snprintf(d, sizeof(d), "%s/by-id", dir);
	mkdir(d, 0700);
	snprintf(p, sizeof(p), "%s/%s", d, name);
	CU_ASSERT_EQUAL(symlink(target, p), 0);
}

static void uuid_lookup(void)
{
	char byid[256], sys[256], path[PATH_MAX], id[256], a[256], b[256],
		err[PB_ERRBUF_SIZE], f[512];
	FILE *fp;

	snprintf(byid, sizeof(byid), "%s/by-id", dir);
	tpath(a, "disk-a");
	tpath(b, "disk-b");
	close(open(a, O_CREAT | O_WRONLY, 0600));
	close(open(b, O_CREAT | O_WRONLY, 0600));
	link_to("wwn-0x6000c29a1b2c3d4e5f60718293a4b5c6", a);
	link_to("scsi-36000c29a1b2c3d4e5f60718293a4b5c6", a);
	link_to("wwn-0x6000c29a1b2c3d4e5f60718293a4b5c6-part1", b);
	link_to("wwn-0x6000c29a1b2c3d4e0000000000000000", b);

	err[0] = '\0';
	CU_ASSERT_EQUAL(
		runner_target_find_uuid(path, sizeof(path), id, sizeof(id),
					"6000C29A-1B2C-3D4E-5F60-718293A4B5C6",
					byid, NULL, err),
		PB_OK);
	CU_ASSERT_STRING_EQUAL(path, a);
	CU_ASSERT_PTR_NOT_NULL(strstr(id, "6000c29a1b2c3d4e5f60718293a4b5c6"));
	/* a prefix matching two disks is ambiguous, never a guess */
	err[0] = '\0';
	CU_ASSERT_EQUAL(runner_target_find_uuid(path, sizeof(path), id,
						sizeof(id), "6000c29a1b2c3d4e",
						byid, NULL, err),
			PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "2 disks"));
	err[0] = '\0';
	CU_ASSERT_EQUAL(runner_target_find_uuid(path, sizeof(path), id,
						sizeof(id), "deadbeefdeadbeef",
						byid, NULL, err),
			PB_ERR_NOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "EnableUUID"));
	err[0] = '\0';
	CU_ASSERT_EQUAL(runner_target_find_uuid(path, sizeof(path), id,
						sizeof(id), "not-a-uuid", byid,
						NULL, err),
			PB_ERR_USAGE);

	/* no udev: a virtio serial (20 chars) in sysfs names /dev/<name> */
	snprintf(sys, sizeof(sys), "%s/sys-block", dir);
	mkdir(sys, 0700);
	snprintf(f, sizeof(f), "%s/null", sys);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/null/serial", sys);
	fp = fopen(f, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs("77aa29a1b2c3d4e5f607\n", fp);
	fclose(fp);
	err[0] = '\0';
	CU_ASSERT_EQUAL(
		runner_target_find_uuid(path, sizeof(path), id, sizeof(id),
					"77aa29a1-b2c3-d4e5-f607-18293a4b5c60",
					byid, sys, err),
		PB_OK);
	CU_ASSERT_STRING_EQUAL(path, "/dev/null");
	CU_ASSERT_STRING_EQUAL(id, "77aa29a1b2c3d4e5f607");
}

static const struct pb_case cases[] = {
	PB_CASE(ext4_signature_refused_unchanged),
	PB_CASE(file_with_data_refused),
	PB_CASE(sparse_and_new_files_accepted),
	PB_CASE(not_a_disk_refused),
	PB_CASE(root_device_refused),
	PB_CASE(uuid_lookup),
	PB_CASES_END,
};

const struct pb_suite suite_target = {"target", setup, teardown, cases};
