/*
 * time.c - clocks and timestamps: one monotonic clock for durations, and
 * UTC timestamps in the forms results, directory names and logs use.
 */
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "common.h"

#ifdef _WIN32
uint64_t pb_now_ns(void)
{
	/* QueryPerformanceCounter: Windows' monotonic clock, sub-microsecond */
	LARGE_INTEGER c, f;

	QueryPerformanceCounter(&c);
	QueryPerformanceFrequency(&f);
	return (uint64_t)c.QuadPart / (uint64_t)f.QuadPart * 1000000000ull +
	       (uint64_t)c.QuadPart % (uint64_t)f.QuadPart * 1000000000ull /
		       (uint64_t)f.QuadPart;
}
#else
uint64_t pb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
#endif

char *pb_utc_format(char *out, size_t len, time_t t, enum pb_time_form form)
{
	struct tm tm;

	if (!len)
		return out;
	out[0] = '\0';
#ifdef _WIN32
	if (gmtime_s(&tm, &t))
		return out;
#else
	if (!gmtime_r(&t, &tm))
		return out;
#endif
	/* literal formats, so the compiler checks each */
	switch (form) {
	case PB_TIME_ISO:
		strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
		break;
	case PB_TIME_COMPACT:
		strftime(out, len, "%Y%m%dT%H%M%SZ", &tm);
		break;
	case PB_TIME_CLOCK:
		strftime(out, len, "%H:%M:%S", &tm);
		break;
	}
	return out;
}

char *pb_utc_iso(char *out, size_t len)
{
	return pb_utc_format(out, len, time(NULL), PB_TIME_ISO);
}
