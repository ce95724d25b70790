/*
 * fuzz_profile.c - libFuzzer target: a profile file, as written by anyone,
 * through the strict loader, the plan and the runner's arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct pb_profile p;
	struct pb_plan plan = {0};
	struct pb_buf args = PB_BUF_INIT(1 << 16);
	char err[PB_ERRBUF_SIZE];
	unsigned i;

	/* a file in memory: the loader reads a path, like the CLI */
	if (fd < 0) {
		fd = memfd_create("profile", 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		setenv("PROVBENCH_VM", "vm-1", 1);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	if (pb_profile_load(&p, path, err) == PB_OK &&
	    p.repetitions * p.nmodes * p.npoints <= 4096 &&
	    pb_plan_build(&plan, &p, err) == PB_OK) {
		for (i = 0; i < p.npoints; i++) {
			pb_workload_args(&args, &p.points[i], 1);
			args.len = 0;
		}
	}
	pb_plan_dispose(&plan);
	pb_buf_dispose(&args);
	pb_profile_dispose(&p);
	return 0;
}
