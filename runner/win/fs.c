/*
 * win/fs.c - filesystem passes on Windows: not in the Windows runner yet
 * (NTFS on the raw disk is the next step); said in one line instead of
 * measuring something else.
 */
#include <string.h>

#include "runner_int.h"

enum pb_error runner_fs_setup(struct runner_fs *fs, const struct runner_opts *o,
			      char *errbuf)
{
	(void)o;
	memset(fs, 0, sizeof(*fs));
	return pb_fail(errbuf, PB_ERR_UNSUPPORTED,
		       "--filesystem %s: filesystem passes are not in the "
		       "Windows runner yet",
		       runner_fs_name(o->filesystem));
}

void runner_fs_teardown(struct runner_fs *fs)
{
	(void)fs;
}
