/*
 * win/fs.c - filesystem and command passes on Windows: not in the Windows
 * runner yet (NTFS formatting and cmd /c passes are #18's next step). Each
 * says so in one line instead of measuring something else.
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

enum pb_error runner_command_run(struct runner_pass_result *r, const char *cmd,
				 const char *cwd, const char *device)
{
	(void)cmd;
	(void)cwd;
	(void)device;
	r->complete = false;
	return pb_fail(r->error, PB_ERR_UNSUPPORTED,
		       "command passes are not in the Windows runner yet");
}
