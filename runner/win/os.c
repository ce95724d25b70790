/*
 * win/os.c - the runner's platform parts on Windows that are not the
 * target or an engine: what system it runs on (and whether that is Wine),
 * its clocks (the precise system time; QueryPerformanceCounter, which
 * counts from boot), FlushFileBuffers, and the console's stop events.
 */
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <windows.h>

#include "runner_int.h"

typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);
typedef const char *(CDECL *wine_get_version_fn)(void);

bool runner_system_get(struct runner_system *s)
{
	HMODULE nt = GetModuleHandleA("ntdll.dll");
	OSVERSIONINFOW v = {.dwOSVersionInfoSize = sizeof(v)};
	rtl_get_version_fn get = NULL;
	wine_get_version_fn wine = NULL;
	SYSTEM_INFO si;
	DWORD n = sizeof(s->hostname);

	/* GetVersionEx lies to programs without a manifest; ntdll does not */
	if (nt) {
		get = (rtl_get_version_fn)(void (*)(void))GetProcAddress(
			nt, "RtlGetVersion");
		wine = (wine_get_version_fn)(void (*)(void))GetProcAddress(
			nt, "wine_get_version");
	}
	if (!get || get(&v))
		return false;
	if (wine)
		snprintf(s->kernel, sizeof(s->kernel),
			 "Windows %lu.%lu.%lu (Wine %s)", v.dwMajorVersion,
			 v.dwMinorVersion, v.dwBuildNumber, wine());
	else
		snprintf(s->kernel, sizeof(s->kernel), "Windows %lu.%lu.%lu",
			 v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber);
	GetNativeSystemInfo(&si);
	snprintf(s->machine, sizeof(s->machine), "%s",
		 si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64
			 ? "x86_64"
		 : si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64
			 ? "aarch64"
			 : "unknown");
	if (!GetComputerNameExA(ComputerNameDnsHostname, s->hostname, &n))
		s->hostname[0] = '\0';
	return true;
}

void runner_clock_now(struct timespec *unix_t, struct timespec *boot_t)
{
	/* 100 ns ticks since 1601-01-01 */
	const uint64_t epoch = 116444736000000000ull;
	FILETIME ft;
	uint64_t t, ns;

	GetSystemTimePreciseAsFileTime(&ft);
	t = ((uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime) - epoch;
	unix_t->tv_sec = (time_t)(t / 10000000);
	unix_t->tv_nsec = (long)(t % 10000000 * 100);
	/* pb_now_ns is QueryPerformanceCounter, which counts from boot */
	ns = pb_now_ns();
	boot_t->tv_sec = (time_t)(ns / 1000000000ull);
	boot_t->tv_nsec = (long)(ns % 1000000000ull);
}

int runner_fd_sync(int fd)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);

	return h != INVALID_HANDLE_VALUE && FlushFileBuffers(h) ? 0 : -EIO;
}

void runner_fd_drop_cache(int fd)
{
	/* Windows cannot drop one file's cached pages; a buffered read pass
	 * there reads what the cache holds (docs/windows.md) */
	(void)fd;
}

bool runner_devstat_get(struct runner_devstat *out, int fd)
{
	/* IOCTL_DISK_PERFORMANCE needs the counters enabled (diskperf -y);
	 * not read here: the pass has no device figures on Windows */
	(void)fd;
	memset(out, 0, sizeof(*out));
	return false;
}

bool runner_extents_get(struct runner_extents *out, int fd)
{
	/* FSCTL_QUERY_ALLOCATED_RANGES says allocated, not written: not
	 * the same question, so not asked */
	(void)fd;
	memset(out, 0, sizeof(*out));
	return false;
}

const struct runner_engine_ops *const runner_engine_async = &runner_engine_iocp;
const struct runner_engine_ops *const runner_engine_sync =
	&runner_engine_win_sync;

static BOOL WINAPI on_console(DWORD ev)
{
	switch (ev) {
	case CTRL_C_EVENT:
	case CTRL_BREAK_EVENT:
		runner_request_stop();
		return TRUE;
	case CTRL_CLOSE_EVENT:
	case CTRL_LOGOFF_EVENT:
	case CTRL_SHUTDOWN_EVENT:
		/* the process ends when this returns: give the run the time
		 * to drain its I/O and write the partial document */
		runner_request_stop();
		Sleep(5000);
		return TRUE;
	}
	return FALSE;
}

void runner_sleep_ms(unsigned ms)
{
	Sleep(ms);
}

void runner_sleep_until_ns(uint64_t t)
{
	uint64_t now = pb_now_ns();

	/* the Windows runner offers no rate (runner_opts_check): this is
	 * the seam's whole, at Sleep's millisecond */
	if (t > now)
		Sleep((DWORD)((t - now) / 1000000u));
}

void runner_stop_handlers_install(void)
{
	SetConsoleCtrlHandler(on_console, TRUE);
}
