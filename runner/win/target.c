/*
 * win/target.c - resolve, check and open the target on Windows: a file,
 * or a whole disk as \\.\PhysicalDriveN. The same rules as on Linux,
 * checked before a byte is written: a disk with a partition table, the
 * disk Windows runs from, a file or disk carrying a filesystem or
 * partition signature, and a file that already holds data are refused
 * unless --force; a disk is opened exclusively (share mode 0: it fails
 * while anything else has it open). Unbuffered I/O
 * (FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH) unless --buffered.
 *
 * uuid:UUID is the disk whose device identifier (VPD page 0x83, through
 * IOCTL_STORAGE_QUERY_PROPERTY) or serial number matches the VMware disk
 * uuid, by the same rules as on Linux (identity.c); a --by-id-dir, when
 * given, is looked in first (the simulator's guests have no disks of
 * their own). Windows' SAN policy leaves a disk added to a running VM
 * offline and read-only: only the disk found by its uuid is brought
 * online and writable, for this boot (Persist = FALSE), never another.
 */
#include <dirent.h>
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <winioctl.h>

#include "runner_int.h"

/* the disk attributes of the Windows SDK's winioctl.h (Windows 7 and
 * later), which mingw-w64's headers lack */
#ifndef IOCTL_DISK_GET_DISK_ATTRIBUTES
#define IOCTL_DISK_GET_DISK_ATTRIBUTES                                         \
	CTL_CODE(IOCTL_DISK_BASE, 0x003c, METHOD_BUFFERED, FILE_ANY_ACCESS)
#define IOCTL_DISK_SET_DISK_ATTRIBUTES                                         \
	CTL_CODE(IOCTL_DISK_BASE, 0x003d, METHOD_BUFFERED,                     \
		 FILE_READ_ACCESS | FILE_WRITE_ACCESS)
#define DISK_ATTRIBUTE_OFFLINE	 0x0000000000000001ull
#define DISK_ATTRIBUTE_READ_ONLY 0x0000000000000002ull

typedef struct {
	DWORD Version;
	DWORD Reserved1;
	DWORDLONG Attributes;
} GET_DISK_ATTRIBUTES;

typedef struct {
	DWORD Version;
	BOOLEAN Persist;
	BYTE Reserved1[3];
	DWORDLONG Attributes;
	DWORDLONG AttributesMask;
	DWORD Reserved2[4];
} SET_DISK_ATTRIBUTES;
#endif

static bool is_drive_path(const char *p)
{
	unsigned n;
	char tail;

	return sscanf(p, "\\\\.\\PhysicalDrive%u%c", &n, &tail) == 1 ||
	       sscanf(p, "\\\\.\\physicaldrive%u%c", &n, &tail) == 1;
}

/* what the first 8 KiB say the target carries, or NULL (after libblkid's
 * magic table, for the signatures a Windows or Linux guest leaves) */
static const char *signature(const unsigned char *b)
{
	unsigned i;

	if (!memcmp(b + 3, "NTFS    ", 8))
		return "ntfs";
	if (!memcmp(b + 3, "EXFAT   ", 8))
		return "exfat";
	if (!memcmp(b + 3, "ReFS", 4))
		return "refs";
	if (!memcmp(b + 82, "FAT32   ", 8) || !memcmp(b + 54, "FAT1", 4))
		return "vfat";
	if (!memcmp(b, "XFSB", 4))
		return "xfs";
	if (b[1080] == 0x53 && b[1081] == 0xef)
		return "ext4";
	if (!memcmp(b + 512, "LABELONE", 8))
		return "LVM2_member";
	if (!memcmp(b + 4086, "SWAPSPACE2", 10))
		return "swap";
	if (!memcmp(b + 512, "EFI PART", 8) || !memcmp(b + 4096, "EFI PART", 8))
		return "gpt partition table";
	if (b[510] == 0x55 && b[511] == 0xaa)
		for (i = 0; i < 4; i++)
			if (b[446 + 16 * i + 4])
				return "dos partition table";
	return NULL;
}

static enum pb_error check_signature(HANDLE h, const char *path, char *errbuf)
{
	unsigned char *b = _aligned_malloc(8192, 4096);
	OVERLAPPED ov = {0};
	enum pb_error err = PB_OK;
	const char *what;
	DWORD n = 0;

	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	memset(b, 0, 8192);
	ov.hEvent = CreateEventA(NULL, TRUE, FALSE, NULL);
	if (ov.hEvent && (ReadFile(h, b, 8192, NULL, &ov) ||
			  GetLastError() == ERROR_IO_PENDING))
		GetOverlappedResult(h, &ov, &n, TRUE);
	if (ov.hEvent)
		CloseHandle(ov.hEvent);
	what = signature(b);
	if (what)
		err = pb_fail(errbuf, PB_ERR_UNSAFE,
			      "%s: carries a %s signature; refusing to "
			      "overwrite it (--force to override)",
			      path, what);
	_aligned_free(b);
	return err;
}

/* every byte of the file zero? (where the filesystem cannot say what is
 * allocated; read in 1 MiB pieces, so only as slow as the file is big) */
static bool all_zero(HANDLE h, uint64_t size)
{
	enum { CHUNK = 1 << 20 };
	unsigned char *b = _aligned_malloc(CHUNK, 4096);
	OVERLAPPED ov = {0};
	uint64_t off = 0;
	bool zero = b != NULL;

	ov.hEvent = CreateEventA(NULL, TRUE, FALSE, NULL);
	while (zero && ov.hEvent && off < size) {
		DWORD n = 0, i;

		ov.Offset = (DWORD)off;
		ov.OffsetHigh = (DWORD)(off >> 32);
		ResetEvent(ov.hEvent);
		if ((!ReadFile(h, b, CHUNK, NULL, &ov) &&
		     GetLastError() != ERROR_IO_PENDING) ||
		    !GetOverlappedResult(h, &ov, &n, TRUE) || !n) {
			zero = false;
			break;
		}
		for (i = 0; i < n && zero; i++)
			zero = !b[i];
		off += n;
	}
	if (ov.hEvent)
		CloseHandle(ov.hEvent);
	else
		zero = false;
	_aligned_free(b);
	return zero;
}

/* a file holds data unless it is empty, has no allocated range (NTFS
 * answers FSCTL_QUERY_ALLOCATED_RANGES), or reads as zeros throughout */
static enum pb_error check_file_empty(HANDLE h, const char *path, uint64_t size,
				      char *errbuf)
{
	FILE_ALLOCATED_RANGE_BUFFER q = {0}, r[1];
	DWORD n = 0;

	if (!size)
		return PB_OK;
	q.Length.QuadPart = (LONGLONG)size;
	if (DeviceIoControl(h, FSCTL_QUERY_ALLOCATED_RANGES, &q, sizeof(q), r,
			    sizeof(r), &n, NULL)
		    ? n == 0
		    : all_zero(h, size))
		return PB_OK;
	return pb_fail(errbuf, PB_ERR_UNSAFE,
		       "%s: file already holds data; refusing to overwrite it "
		       "(--force to override)",
		       path);
}

/* the number of the disk Windows runs from, or -1 */
static long system_disk(void)
{
	char root[MAX_PATH], vol[8];
	VOLUME_DISK_EXTENTS ext;
	DWORD n = 0;
	HANDLE h;
	long disk = -1;

	if (!GetSystemWindowsDirectoryA(root, sizeof(root)) || root[1] != ':')
		return -1;
	snprintf(vol, sizeof(vol), "\\\\.\\%c:", root[0]);
	h = CreateFileA(vol, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			OPEN_EXISTING, 0, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return -1;
	if (DeviceIoControl(h, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0,
			    &ext, sizeof(ext), &n, NULL) &&
	    ext.NumberOfDiskExtents)
		disk = (long)ext.Extents[0].DiskNumber;
	CloseHandle(h);
	return disk;
}

static enum pb_error check_disk(HANDLE h, struct runner_target *t,
				const struct runner_opts *o, char *errbuf)
{
	union {
		DRIVE_LAYOUT_INFORMATION_EX l;
		char room[sizeof(DRIVE_LAYOUT_INFORMATION_EX) +
			  128 * sizeof(PARTITION_INFORMATION_EX)];
	} lay;
	GET_LENGTH_INFORMATION len;
	DISK_GEOMETRY_EX geo;
	STORAGE_DEVICE_NUMBER num;
	DWORD n = 0, i;

	if (!DeviceIoControl(h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &len,
			     sizeof(len), &n, NULL) ||
	    !DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &geo,
			     sizeof(geo), &n, NULL))
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: cannot read the disk's size (error %lu)",
			       t->path, GetLastError());
	t->dev_size = (uint64_t)len.Length.QuadPart;
	t->lbs =
		geo.Geometry.BytesPerSector ? geo.Geometry.BytesPerSector : 512;
	if (!t->writes)
		return PB_OK;
	if (DeviceIoControl(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL, 0, &num,
			    sizeof(num), &n, NULL) &&
	    (long)num.DeviceNumber == system_disk())
		return pb_fail(errbuf, PB_ERR_UNSAFE,
			       "%s: is the disk Windows runs from; refusing "
			       "to write to it",
			       t->path);
	if (o->force)
		return PB_OK;
	if (DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_LAYOUT_EX, NULL, 0, &lay,
			    sizeof(lay), &n, NULL))
		for (i = 0; i < lay.l.PartitionCount; i++)
			if (lay.l.PartitionEntry[i].PartitionLength.QuadPart)
				return pb_fail(
					errbuf, PB_ERR_UNSAFE,
					"%s: carries a%s partition table; "
					"refusing to overwrite it (--force "
					"to override)",
					t->path,
					lay.l.PartitionStyle ==
							PARTITION_STYLE_GPT
						? " GPT"
						: "n MBR");
	return check_signature(h, t->path, errbuf);
}

#define MAX_FOUND  8
#define MAX_DRIVES 64

struct found {
	char path[MAX_FOUND][MAX_PATH];
	char identity[256];
	BY_HANDLE_FILE_INFORMATION file[MAX_FOUND];
	unsigned count;
};

static void found_add(struct found *f, const char *path, const char *id)
{
	BY_HANDLE_FILE_INFORMATION fi;
	HANDLE h;
	unsigned i;

	/* two names of one disk (wwn- and scsi- links) are one disk */
	h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			OPEN_EXISTING, 0, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return;
	if (!GetFileInformationByHandle(h, &fi))
		memset(&fi, 0, sizeof(fi));
	CloseHandle(h);
	for (i = 0; i < f->count && i < MAX_FOUND; i++)
		if (fi.nFileIndexLow &&
		    fi.dwVolumeSerialNumber ==
			    f->file[i].dwVolumeSerialNumber &&
		    fi.nFileIndexHigh == f->file[i].nFileIndexHigh &&
		    fi.nFileIndexLow == f->file[i].nFileIndexLow)
			return;
	if (!f->count)
		snprintf(f->identity, sizeof(f->identity), "%s", id);
	if (f->count < MAX_FOUND) {
		snprintf(f->path[f->count], MAX_PATH, "%s", path);
		f->file[f->count] = fi;
	}
	f->count++;
}

static void scan_by_id(struct found *f, const char *dir, const char *hex)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[MAX_PATH];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strstr(de->d_name, "-part") ||
		    !runner_id_matches(de->d_name, hex))
			continue;
		snprintf(path, sizeof(path), "%s\\%s", dir, de->d_name);
		found_add(f, path, de->d_name);
	}
	closedir(d);
}

/* a property of a disk (IOCTL_STORAGE_QUERY_PROPERTY) into buf */
static bool query_property(HANDLE h, STORAGE_PROPERTY_ID id, uint8_t *buf,
			   DWORD len, DWORD *got)
{
	STORAGE_PROPERTY_QUERY q = {.PropertyId = id,
				    .QueryType = PropertyStandardQuery};

	memset(buf, 0, len);
	return DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof(q),
			       buf, len, got, NULL) != 0;
}

static void scan_drives(struct found *f, const char *hex)
{
	static uint8_t buf[4096];
	char ids[8][RUNNER_DEVID_LEN], path[32], serial[128];
	unsigned d, n, i;

	for (d = 0; d < MAX_DRIVES; d++) {
		HANDLE h;
		DWORD got = 0;

		snprintf(path, sizeof(path), "\\\\.\\PhysicalDrive%u", d);
		/* no access asked: the properties need none, and an open
		 * for them disturbs no other user of the disk */
		h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE,
				NULL, OPEN_EXISTING, 0, NULL);
		if (h == INVALID_HANDLE_VALUE)
			continue;
		n = query_property(h, StorageDeviceIdProperty, buf, sizeof(buf),
				   &got)
			    ? runner_devid_parse(ids, 8, buf, got)
			    : 0;
		for (i = 0; i < n; i++)
			if (runner_id_matches(ids[i], hex)) {
				found_add(f, path, ids[i]);
				break;
			}
		if (i == n && query_property(h, StorageDeviceProperty, buf,
					     sizeof(buf), &got)) {
			const STORAGE_DEVICE_DESCRIPTOR *dd =
				(const STORAGE_DEVICE_DESCRIPTOR *)buf;

			if (dd->SerialNumberOffset &&
			    dd->SerialNumberOffset < got) {
				snprintf(serial, sizeof(serial), "%s",
					 (const char *)buf +
						 dd->SerialNumberOffset);
				if (runner_id_matches(serial, hex))
					found_add(f, path, serial);
			}
		}
		CloseHandle(h);
	}
}

enum pb_error runner_target_find_uuid(char *path, size_t pathlen,
				      char *identity, size_t idlen,
				      const char *uuid, const char *by_id_dir,
				      const char *sys_block_dir, char *errbuf)
{
	struct found *f;
	enum pb_error err;
	char hex[128];

	(void)sys_block_dir;
	err = runner_id_uuid_hex(hex, sizeof(hex), uuid, errbuf);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	if (by_id_dir && *by_id_dir)
		scan_by_id(f, by_id_dir, hex);
	if (!f->count)
		scan_drives(f, hex);
	if (!f->count) {
		err = pb_fail(errbuf, PB_ERR_NOTFOUND,
			      "--target: no disk with UUID %s (looked at "
			      "\\\\.\\PhysicalDrive0-%u%s%s; is "
			      "disk.EnableUUID=TRUE set?)",
			      uuid, MAX_DRIVES - 1, by_id_dir ? " and in " : "",
			      by_id_dir ? by_id_dir : "");
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

/* the disk found by its uuid, online and writable for this boot: the SAN
 * policy (OfflineShared, OfflineAll) leaves an added disk neither */
static enum pb_error disk_online(HANDLE h, const char *path, char *errbuf)
{
	GET_DISK_ATTRIBUTES get = {0};
	SET_DISK_ATTRIBUTES set = {0};
	const DWORDLONG both =
		DISK_ATTRIBUTE_OFFLINE | DISK_ATTRIBUTE_READ_ONLY;
	DWORD n = 0;

	if (!DeviceIoControl(h, IOCTL_DISK_GET_DISK_ATTRIBUTES, NULL, 0, &get,
			     sizeof(get), &n, NULL) ||
	    !(get.Attributes & both))
		return PB_OK;
	set.Version = sizeof(set);
	set.Persist = FALSE;
	set.AttributesMask = both;
	set.Attributes = 0;
	if (!DeviceIoControl(h, IOCTL_DISK_SET_DISK_ATTRIBUTES, &set,
			     sizeof(set), NULL, 0, &n, NULL))
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: cannot bring the disk online and writable "
			       "(error %lu)",
			       path, GetLastError());
	DeviceIoControl(h, IOCTL_DISK_UPDATE_PROPERTIES, NULL, 0, NULL, 0, &n,
			NULL);
	return PB_OK;
}

enum pb_error runner_target_open(struct runner_target *t,
				 const struct runner_opts *o, bool writes,
				 char *errbuf)
{
	DWORD access = GENERIC_READ | (writes ? GENERIC_WRITE : 0),
	      flags = FILE_FLAG_OVERLAPPED, share, disp;
	HANDLE h = INVALID_HANDLE_VALUE;
	LARGE_INTEGER sz;
	enum pb_error err;
	bool by_uuid = false;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->writes = writes;
	if (!strncmp(o->target, "uuid:", 5)) {
		err = runner_target_find_uuid(t->path, sizeof(t->path),
					      t->identity, sizeof(t->identity),
					      o->target + 5, o->by_id_dir,
					      o->sys_block_dir, errbuf);
		if (err)
			return err;
		by_uuid = true;
	} else {
		snprintf(t->path, sizeof(t->path), "%s", o->target);
	}
	if (!o->buffered)
		flags |= FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH;
	if (is_drive_path(t->path)) {
		t->kind = RUNNER_TARGET_BLOCK;
		/* share mode 0: refused while anything else has it open */
		share = writes ? 0 : FILE_SHARE_READ | FILE_SHARE_WRITE;
		disp = OPEN_EXISTING;
	} else {
		t->kind = RUNNER_TARGET_FILE;
		share = FILE_SHARE_READ;
		disp = OPEN_EXISTING;
	}
	h = CreateFileA(t->path, access, share, NULL, disp, flags, NULL);
	if (h != INVALID_HANDLE_VALUE && by_uuid && writes &&
	    t->kind == RUNNER_TARGET_BLOCK) {
		err = disk_online(h, t->path, errbuf);
		if (err) {
			CloseHandle(h);
			return err;
		}
	}
	if (h == INVALID_HANDLE_VALUE && t->kind == RUNNER_TARGET_FILE &&
	    GetLastError() == ERROR_FILE_NOT_FOUND && writes && !by_uuid) {
		if (!o->size)
			return pb_fail(errbuf, PB_ERR_USAGE,
				       "%s: does not exist; give --size to "
				       "create it",
				       t->path);
		t->lbs = 512;
		t->dev_size = o->size;
		/* validate before creating, so bad input leaves nothing */
		err = runner_target_region(t, o, errbuf);
		if (err)
			return err;
		t->dev_size = 0;
		h = CreateFileA(t->path, access, share, NULL, CREATE_NEW, flags,
				NULL);
		if (h == INVALID_HANDLE_VALUE)
			return pb_fail(errbuf, PB_ERR_IO,
				       "%s: cannot create (error %lu)", t->path,
				       GetLastError());
		t->created = true;
	} else if (h == INVALID_HANDLE_VALUE) {
		DWORD code = GetLastError();

		return pb_fail(errbuf,
			       code == ERROR_FILE_NOT_FOUND ||
					       code == ERROR_PATH_NOT_FOUND
				       ? PB_ERR_NOTFOUND
			       : code == ERROR_SHARING_VIOLATION ? PB_ERR_UNSAFE
								 : PB_ERR_IO,
			       "%s: cannot open (error %lu%s)", t->path, code,
			       code == ERROR_SHARING_VIOLATION
				       ? ": in use by another program"
				       : "");
	}
	t->fd = _open_osfhandle((intptr_t)h, 0);
	if (t->fd < 0) {
		CloseHandle(h);
		return pb_fail(errbuf, PB_ERR_IO, "%s: no descriptor", t->path);
	}
	if (t->kind == RUNNER_TARGET_BLOCK) {
		err = check_disk(h, t, o, errbuf);
	} else if (!t->created) {
		if (!GetFileSizeEx(h, &sz))
			return pb_fail(errbuf, PB_ERR_IO, "%s: no size",
				       t->path);
		t->dev_size = (uint64_t)sz.QuadPart;
		t->lbs = 512;
		err = PB_OK;
		if (writes && !o->force) {
			err = check_signature(h, t->path, errbuf);
			if (!err)
				err = check_file_empty(h, t->path, t->dev_size,
						       errbuf);
		}
	} else {
		err = PB_OK;
	}
	if (err)
		return err;
	err = runner_target_region(t, o, errbuf);
	if (err)
		return err;
	if (t->kind == RUNNER_TARGET_FILE && writes && t->dev_size < t->size) {
		/* grow, never shrink */
		sz.QuadPart = (LONGLONG)t->size;
		if (!SetFilePointerEx(h, sz, NULL, FILE_BEGIN) ||
		    !SetEndOfFile(h))
			return pb_fail(errbuf, PB_ERR_IO,
				       "%s: cannot extend to %llu bytes "
				       "(error %lu)",
				       t->path, (unsigned long long)t->size,
				       GetLastError());
		t->dev_size = t->size;
	}
	return PB_OK;
}

void runner_target_close(struct runner_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* DeviceIoControl's TRIM (FSCTL_FILE_LEVEL_TRIM, IOCTL_STORAGE_MANAGE_
 * DATA_SET_ATTRIBUTES) is not done yet: said, and the write after it is
 * still measured */
enum pb_error runner_target_reclaim(struct runner_target *t,
				    struct runner_pass_result *r, char *errbuf)
{
	(void)t;
	(void)errbuf;
	r->reclaim_method = "none";
	snprintf(r->trim_error, sizeof(r->trim_error), "%s",
		 "not done by the Windows runner");
	return PB_OK;
}
