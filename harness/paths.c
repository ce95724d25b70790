/*
 * paths.c - where the files provbench ships with live: found from the
 * running binary, so a tree built anywhere or installed under any PREFIX
 * finds its own, and nothing depends on the PREFIX of the first build.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "harness_int.h"

const char *pb_build_commit = "unknown";

/* The directory of the running binary, or "" if /proc cannot say. */
static void exe_dir(char *out, size_t len)
{
	char exe[PATH_MAX], *sl;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	out[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	sl = strrchr(exe, '/');
	if (!sl)
		return;
	*sl = '\0';
	snprintf(out, len, "%s", exe);
}

bool pb_data_path(char *out, size_t len, const char *name)
{
	char dir[PATH_MAX], real[PATH_MAX];

	exe_dir(dir, sizeof(dir));
	if (!dir[0]) {
		snprintf(out, len, "%s", name);
		return false;
	}
	/* a build tree: build/provbench beside build/guest */
	snprintf(out, len, "%s/%s", dir, name);
	if (!access(out, R_OK))
		return true;
	/* an installed tree: PREFIX/bin/provbench, PREFIX/lib/provbench;
	 * PREFIX named without bin/.. */
	snprintf(out, len, "%s/..", dir);
	if (realpath(out, real))
		snprintf(dir, sizeof(dir), "%s", real);
	else
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/..");
	snprintf(out, len, "%s/lib/provbench/%s", dir, name);
	return !access(out, R_OK);
}

bool pb_in_source_tree(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	size_t len;
	int up;

	exe_dir(dir, sizeof(dir));
	if (!dir[0])
		return false;
	/* build/provbench, build/asan/provbench, or under any B=build/x:
	 * harness/run.c one to four directories above */
	for (up = 1; up <= 4; up++) {
		len = strlen(dir);
		if (len + 4 >= sizeof(dir))
			return false;
		memcpy(dir + len, "/..", 4);
		snprintf(path, sizeof(path), "%s/harness/run.c", dir);
		if (!access(path, R_OK))
			return true;
	}
	return false;
}
