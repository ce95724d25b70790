/*
 * profile_help.h - the profile's keys said for a person: help, the
 * manual, docs/profile.md.
 */
#ifndef PB_PROFILE_HELP_H
#define PB_PROFILE_HELP_H

#include <stdio.h>

enum cli_help_format {
	CLI_HELP_TEXT,	   /* provbench help profile */
	CLI_HELP_MARKDOWN, /* docs/profile.md */
	CLI_HELP_MAN,	   /* the manual's PROFILE KEYS section */
};

/* Every profile key, or those named key ("bs", "workload.bs", "qemu.dir"),
 * to fp; an exit code (2, said, for a key no table has). */
int cli_profile_help(FILE *fp, enum cli_help_format fmt, const char *key);

#endif
