/*
 * check_out.h - what a check found, said by name: lines for a person or
 * check --json's entries for a script. Below the backends and the check
 * command alike, so that both say findings through it and neither calls
 * the other.
 */
#ifndef PB_CHECK_OUT_H
#define PB_CHECK_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "common.h"

/* Where findings go: one per target checked. */
struct pb_check_out {
	FILE *fp;	    /* lines, or */
	json_t *items;	    /* entries {name, level, detail[, target]} */
	const char *target; /* the target checked, when there are several */
	/* a run's own check: only warnings and problems, on stderr as
	 * "provbench: warning: ..." lines */
	bool run;
	/* the target's problems: how many, the first's error and text */
	unsigned problems;
	enum pb_error first;
	char first_msg[PB_ERRBUF_SIZE];
};

/*
 * One finding of a check, by name ("server", "datastore", "guest
 * transfer"): a line "name: text" for a person, an entry of `check
 * --json`'s "checks" for a script. A warning is a finding that does not
 * stop a run. NULL-safe (out NULL: said nowhere).
 */
void pb_check_say(struct pb_check_out *out, const char *name, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));
void pb_check_warn(struct pb_check_out *out, const char *name, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));
/*
 * A problem that stops a run, said at once and counted, so one check
 * names every problem it can see, not only the first: what to do goes in
 * the text. Returns err. The check then ends with pb_check_result, which
 * makes the first problem its error (and says how many more there were).
 */
enum pb_error pb_check_problem(struct pb_check_out *out, enum pb_error err,
			       const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
enum pb_error pb_check_result(struct pb_check_out *out, char *errbuf);

#endif
