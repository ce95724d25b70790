/*
 * os_posix.c - the runner's platform parts on Linux that are not the
 * target or an engine: what system it runs on.
 */
#include <stdio.h>
#include <sys/utsname.h>

#include "runner_int.h"

bool runner_system_get(struct runner_system *s)
{
	struct utsname u;

	if (uname(&u))
		return false;
	snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	snprintf(s->machine, sizeof(s->machine), "%s", u.machine);
	snprintf(s->hostname, sizeof(s->hostname), "%s", u.nodename);
	return true;
}
