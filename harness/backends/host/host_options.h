/*
 * host_options.h - the host backend's profile section, "host", as its
 * option table (options.c) fills it.
 */
#ifndef PB_HOST_OPTIONS_H
#define PB_HOST_OPTIONS_H

#include "backend.h"

struct host_opts {
	char *dir;    /* the disk files; NULL: <state dir>/host */
	char *device; /* a block device for rdm; NULL: a loop device */
	char *runner; /* the runner to run; NULL: the one beside provbench */
};

extern const struct pb_option hb_options[];

#endif
