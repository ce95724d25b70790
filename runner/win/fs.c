/*
 * win/fs.c - filesystem passes on Windows: NTFS on the whole target disk,
 * after every check of a raw write run. The disk gets a GPT with one basic
 * data partition (1 MiB aligned, as Disk Management lays it out); its
 * volume is mounted on a private directory beside the runner (no drive
 * letter: nothing else in the guest sees it by name); format.com makes
 * NTFS, quick (/Q: the MFT, log and bitmap) or, with --full-format, full
 * (every block written: a thin disk is allocated in full, and the passes
 * after it are no longer the storage's first writes; the document says
 * so), timed as the mkfs step; the passes use one file in it. Teardown removes the mount point, also after an
 * interrupted or failed pass.
 *
 * Not exercisable under Wine (no disks, no format.com that formats):
 * docs/windows.md gives the check on a real Windows VM.
 */
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <winioctl.h>

#include "runner_int.h"

/* {EBD0A0A2-B9E5-4433-87C0-68B6B72699C7}: a basic data partition */
static const GUID basic_data = {
	0xebd0a0a2,
	0xb9e5,
	0x4433,
	{0x87, 0xc0, 0x68, 0xb6, 0xb7, 0x26, 0x99, 0xc7}};

/* a random GUID for the disk and its partition (RFC 4122 version 4) */
static void new_guid(GUID *g)
{
	LARGE_INTEGER c;
	uint64_t x;
	unsigned char *b = (unsigned char *)g;
	size_t i;

	QueryPerformanceCounter(&c);
	x = (uint64_t)c.QuadPart ^ (uint64_t)GetCurrentProcessId() << 32 ^
	    (uint64_t)(uintptr_t)g;
	for (i = 0; i < sizeof(*g); i++) {
		/* xorshift64*: unique enough for a disk made for one run */
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		b[i] = (unsigned char)((x * 0x2545f4914f6cdd1dull) >> 56);
	}
	g->Data3 = (unsigned short)((g->Data3 & 0x0fff) | 0x4000);
	g->Data4[0] = (unsigned char)((g->Data4[0] & 0x3f) | 0x80);
}

static enum pb_error partition(HANDLE h, const char *dev, char *errbuf)
{
	CREATE_DISK cd = {.PartitionStyle = PARTITION_STYLE_GPT};
	union {
		DRIVE_LAYOUT_INFORMATION_EX l;
		char room[sizeof(DRIVE_LAYOUT_INFORMATION_EX) +
			  4 * sizeof(PARTITION_INFORMATION_EX)];
	} lay;
	const LONGLONG mib = 1 << 20;
	LONGLONG start, end;
	DWORD n = 0;

	new_guid(&cd.Gpt.DiskId);
	cd.Gpt.MaxPartitionCount = 128;
	if (!DeviceIoControl(h, IOCTL_DISK_CREATE_DISK, &cd, sizeof(cd), NULL,
			     0, &n, NULL) ||
	    !DeviceIoControl(h, IOCTL_DISK_UPDATE_PROPERTIES, NULL, 0, NULL, 0,
			     &n, NULL) ||
	    !DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_LAYOUT_EX, NULL, 0, &lay,
			     sizeof(lay), &n, NULL))
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: cannot write a partition table (error "
			       "%lu)",
			       dev, GetLastError());
	start = (lay.l.Gpt.StartingUsableOffset.QuadPart + mib - 1) / mib * mib;
	end = (lay.l.Gpt.StartingUsableOffset.QuadPart +
	       lay.l.Gpt.UsableLength.QuadPart) /
	      mib * mib;
	if (end <= start)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: too small for NTFS",
			       dev);
	lay.l.PartitionCount = 1;
	memset(&lay.l.PartitionEntry[0], 0, sizeof(lay.l.PartitionEntry[0]));
	lay.l.PartitionEntry[0].PartitionStyle = PARTITION_STYLE_GPT;
	lay.l.PartitionEntry[0].StartingOffset.QuadPart = start;
	lay.l.PartitionEntry[0].PartitionLength.QuadPart = end - start;
	lay.l.PartitionEntry[0].PartitionNumber = 1;
	lay.l.PartitionEntry[0].RewritePartition = TRUE;
	lay.l.PartitionEntry[0].Gpt.PartitionType = basic_data;
	new_guid(&lay.l.PartitionEntry[0].Gpt.PartitionId);
	wcscpy(lay.l.PartitionEntry[0].Gpt.Name, L"provbench");
	if (!DeviceIoControl(h, IOCTL_DISK_SET_DRIVE_LAYOUT_EX, &lay,
			     sizeof(lay), NULL, 0, &n, NULL) ||
	    !DeviceIoControl(h, IOCTL_DISK_UPDATE_PROPERTIES, NULL, 0, NULL, 0,
			     &n, NULL))
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: cannot write the partition (error %lu)",
			       dev, GetLastError());
	return PB_OK;
}

/* the volume (\\?\Volume{...}\) on disk number disk, once it arrives */
static bool find_volume(char *out, size_t len, DWORD disk)
{
	char name[MAX_PATH];
	unsigned tries;

	/* the volume manager announces a new partition's volume shortly */
	for (tries = 0; tries < 150 && !runner_stop_requested(); tries++) {
		HANDLE f = FindFirstVolumeA(name, sizeof(name));
		bool found = false;

		while (f != INVALID_HANDLE_VALUE && !found) {
			VOLUME_DISK_EXTENTS ext;
			size_t nl = strlen(name);
			HANDLE v;
			DWORD n = 0;

			name[nl - 1] = '\0'; /* the volume, not its root */
			v = CreateFileA(name, 0,
					FILE_SHARE_READ | FILE_SHARE_WRITE,
					NULL, OPEN_EXISTING, 0, NULL);
			name[nl - 1] = '\\';
			if (v != INVALID_HANDLE_VALUE) {
				found = DeviceIoControl(
						v,
						IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS,
						NULL, 0, &ext, sizeof(ext), &n,
						NULL) &&
					ext.NumberOfDiskExtents == 1 &&
					ext.Extents[0].DiskNumber == disk;
				CloseHandle(v);
			}
			if (!found && !FindNextVolumeA(f, name, sizeof(name)))
				break;
		}
		if (f != INVALID_HANDLE_VALUE)
			FindVolumeClose(f);
		if (found) {
			snprintf(out, len, "%s", name);
			return true;
		}
		Sleep(100);
	}
	return false;
}

/* format.com on the mount point: its exit status, -1 if it did not run */
static int format_ntfs(const char *mnt, bool full, char *cmdline, size_t len)
{
	STARTUPINFOA si = {.cb = sizeof(si)};
	PROCESS_INFORMATION pi;
	char sys[MAX_PATH], line[MAX_PATH * 2 + 64];
	DWORD code = (DWORD)-1;

	if (!GetSystemDirectoryA(sys, sizeof(sys)))
		snprintf(sys, sizeof(sys), "C:\\Windows\\System32");
	snprintf(cmdline, len, "format %s /FS:NTFS%s /Y /V:provbench", mnt,
		 full ? "" : " /Q");
	snprintf(line, sizeof(line),
		 "\"%s\\format.com\" %s /FS:NTFS%s /Y /V:provbench", sys, mnt,
		 full ? "" : " /Q");
	if (!CreateProcessA(NULL, line, NULL, NULL, FALSE, CREATE_NO_WINDOW,
			    NULL, NULL, &si, &pi))
		return -1;
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	return (int)code;
}

enum pb_error runner_fs_setup(struct runner_fs *fs, const struct runner_opts *o,
			      char *errbuf)
{
	struct runner_opts dev = *o;
	struct runner_target t;
	STORAGE_DEVICE_NUMBER num;
	char vol[MAX_PATH], dir[MAX_PATH], root[MAX_PATH + 2];
	enum pb_error err;
	uint64_t t0;
	DWORD n = 0;
	HANDLE h;
	int rc;

	memset(fs, 0, sizeof(*fs));
	fs->type = o->filesystem;
	if (fs->type != RUNNER_FS_NTFS)
		return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
			       "--filesystem %s: a Linux filesystem; the "
			       "Windows runner makes ntfs",
			       runner_fs_name(fs->type));
	/* every check of a raw write run, on the whole disk */
	dev.size = 0;
	err = runner_target_open(&t, &dev, true, errbuf);
	if (!err && t.kind != RUNNER_TARGET_BLOCK)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "--filesystem: %s is not a disk", t.path);
	if (!err && t.dev_size < o->size)
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "--size: %llu bytes do not fit on %s (%llu)",
			      (unsigned long long)o->size, t.path,
			      (unsigned long long)t.dev_size);
	snprintf(fs->device, sizeof(fs->device), "%s", t.path);
	h = t.fd >= 0 ? (HANDLE)_get_osfhandle(t.fd) : INVALID_HANDLE_VALUE;
	if (!err && !DeviceIoControl(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL,
				     0, &num, sizeof(num), &n, NULL))
		err = pb_fail(errbuf, PB_ERR_IO, "%s: no disk number",
			      fs->device);
	if (!err)
		err = partition(h, fs->device, errbuf);
	/* format.com locks the volume: nothing of ours may hold the disk */
	runner_target_close(&t);
	if (err)
		return err;
	if (!find_volume(vol, sizeof(vol), num.DeviceNumber))
		return pb_fail(errbuf, PB_ERR_IO,
			       "%s: its new partition's volume did not "
			       "appear",
			       fs->device);
	/* a private mount point beside the runner (its working directory,
	 * the guest directory only the guest user may open) */
	if (!GetCurrentDirectoryA(sizeof(dir), dir))
		return pb_fail(errbuf, PB_ERR_IO, "no working directory");
	snprintf(fs->mnt, sizeof(fs->mnt), "%s\\provbench-mnt-%lu", dir,
		 GetCurrentProcessId());
	if (!CreateDirectoryA(fs->mnt, NULL)) {
		fs->mnt[0] = '\0';
		return pb_fail(errbuf, PB_ERR_IO, "mount point: error %lu",
			       GetLastError());
	}
	snprintf(root, sizeof(root), "%s\\", fs->mnt);
	if (!SetVolumeMountPointA(root, vol)) {
		err = pb_fail(errbuf, PB_ERR_IO, "mount %s on %s: error %lu",
			      vol, fs->mnt, GetLastError());
		RemoveDirectoryA(fs->mnt);
		fs->mnt[0] = '\0';
		return err;
	}
	fs->mounted = true;
	t0 = pb_now_ns();
	fs->full_format = o->full_format;
	rc = format_ntfs(fs->mnt, o->full_format, fs->mkfs_cmd,
			 sizeof(fs->mkfs_cmd));
	fs->mkfs_s = (double)(pb_now_ns() - t0) / 1e9;
	if (rc)
		return pb_fail(errbuf,
			       rc < 0 ? PB_ERR_UNSUPPORTED : PB_ERR_CHILD,
			       "format %s /FS:NTFS %s (exit %d)", fs->mnt,
			       rc < 0 ? "did not start" : "failed", rc);
	snprintf(fs->file, sizeof(fs->file), "%s\\provbench.dat", fs->mnt);
	return PB_OK;
}

/* NTFS frees a deleted file's clusters itself; a retrim (defrag /L) is
 * a scheduled maintenance task there, not something to time here. */
enum pb_error runner_fs_recreate(struct runner_fs *fs, bool trim,
				 struct runner_pass_result *r, char *errbuf)
{
	uint64_t t0 = pb_now_ns();

	if (!DeleteFileA(fs->file))
		return pb_fail(errbuf, PB_ERR_IO, "deleting %s: error %lu",
			       fs->file, (unsigned long)GetLastError());
	r->delete_ns = pb_now_ns() - t0;
	if (trim)
		snprintf(r->trim_error, sizeof(r->trim_error), "%s",
			 "not done by the Windows runner");
	return PB_OK;
}

void runner_fs_teardown(struct runner_fs *fs)
{
	char root[MAX_PATH + 2];

	if (fs->mounted) {
		snprintf(root, sizeof(root), "%s\\", fs->mnt);
		DeleteVolumeMountPointA(root);
		fs->mounted = false;
	}
	if (fs->mnt[0])
		RemoveDirectoryA(fs->mnt);
	fs->mnt[0] = '\0';
}
