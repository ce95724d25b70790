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
 * Not yet here: uuid: targets (the disk whose device identifier page
 * 0x83 matches, and bringing that one disk online under the SAN policy).
 */
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <string.h>
#include <windows.h>
#include <winioctl.h>

#include "runner_int.h"

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

static enum pb_error check_signature(HANDLE h, const char *path,
				     char *errbuf)
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

/* a file holds data unless it is empty or has no allocated range */
static enum pb_error check_file_empty(HANDLE h, const char *path,
				      uint64_t size, char *errbuf)
{
	FILE_ALLOCATED_RANGE_BUFFER q = {0}, r[1];
	DWORD n = 0;

	if (!size)
		return PB_OK;
	q.Length.QuadPart = (LONGLONG)size;
	if (DeviceIoControl(h, FSCTL_QUERY_ALLOCATED_RANGES, &q, sizeof(q), r,
			    sizeof(r), &n, NULL) &&
	    n == 0)
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
	    !DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0,
			     &geo, sizeof(geo), &n, NULL))
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: cannot read the disk's size (error %lu)",
			       t->path, GetLastError());
	t->dev_size = (uint64_t)len.Length.QuadPart;
	t->lbs = geo.Geometry.BytesPerSector ? geo.Geometry.BytesPerSector
					     : 512;
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

enum pb_error runner_target_open(struct runner_target *t,
				 const struct runner_opts *o, bool writes,
				 char *errbuf)
{
	DWORD access = GENERIC_READ | (writes ? GENERIC_WRITE : 0),
	      flags = FILE_FLAG_OVERLAPPED, share, disp;
	HANDLE h = INVALID_HANDLE_VALUE;
	LARGE_INTEGER sz;
	enum pb_error err;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->writes = writes;
	if (!strncmp(o->target, "uuid:", 5))
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "%s: uuid: targets are not in the Windows "
			       "runner yet; give \\\\.\\PhysicalDriveN",
			       o->target);
	snprintf(t->path, sizeof(t->path), "%s", o->target);
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
	if (h == INVALID_HANDLE_VALUE && t->kind == RUNNER_TARGET_FILE &&
	    GetLastError() == ERROR_FILE_NOT_FOUND && writes) {
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
				       "%s: cannot create (error %lu)",
				       t->path, GetLastError());
		t->created = true;
	} else if (h == INVALID_HANDLE_VALUE) {
		DWORD code = GetLastError();

		return pb_fail(errbuf,
			       code == ERROR_FILE_NOT_FOUND ||
					       code == ERROR_PATH_NOT_FOUND
				       ? PB_ERR_NOTFOUND
			       : code == ERROR_SHARING_VIOLATION
				       ? PB_ERR_UNSAFE
				       : PB_ERR_IO,
			       "%s: cannot open (error %lu%s)", t->path, code,
			       code == ERROR_SHARING_VIOLATION
				       ? ": in use by another program"
				       : "");
	}
	t->fd = _open_osfhandle((intptr_t)h, 0);
	if (t->fd < 0) {
		CloseHandle(h);
		return pb_fail(errbuf, PB_ERR_IO, "%s: no descriptor",
			       t->path);
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
