/*
 * env_help.h - the PROVBENCH_* variables said for a person: help and
 * the manual's ENVIRONMENT, from env.c's table.
 */
#ifndef PB_ENV_HELP_H
#define PB_ENV_HELP_H

#include <stdio.h>

#include "profile_help.h"

/* Every variable, by group, to fp as text or roff; an exit code. */
int cli_env_help(FILE *fp, enum cli_help_format fmt);
/* Every exit code and what it means (error.c's table), the same ways. */
int cli_exit_help(FILE *fp, enum cli_help_format fmt);

#endif
