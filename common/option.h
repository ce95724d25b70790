/*
 * option.h - an option's row (fio's struct fio_option, parse.h): the
 * profile's own keys, each backend's section, the runner's options
 * (the profile's workload keys) and each command's command line are
 * tables of them. A table is an array of rows ended by one whose name is
 * NULL; its parser applies the rows (the profile loader, the runner's,
 * cli_parse) and its help is printed from them, so a key, its range, its
 * default and its help are written once. A parser reads the types its
 * tables use; the profile loader refuses any other as a bug.
 */
#ifndef PB_OPTION_H
#define PB_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

enum pb_opt_type {
	/* char *: the profile's strdup'ed, "env:NAME" resolved; the
	 * runner's points into its argv */
	PB_OPT_STR,
	PB_OPT_CHOICE, /* char *, one of choices */
	PB_OPT_UINT,   /* unsigned, min..max */
	PB_OPT_INT,    /* int, min..max (a default may be -1: "any") */
	PB_OPT_BOOL,   /* bool */
	PB_OPT_KV,     /* struct pb_kv: an object of strings */
	PB_OPT_U64,    /* uint64_t, min..max */
	/* uint64_t bytes, a size ("100G"): the profile's 0 allowed, the
	 * runner's min..max and a multiple of mult */
	PB_OPT_SIZE,
	PB_OPT_SIZE32, /* uint32_t bytes, as PB_OPT_SIZE */
	PB_OPT_ENUM,   /* unsigned: the index of its value in choices */
	PB_OPT_PCT,    /* double: a percent, min..max ("2.5") */
	/* a comma-separated list of choices, read by the parser's own code
	 * (the runner's passes[] and npasses) */
	PB_OPT_LIST,
	/* read by the loader's own code (a list of modes, a size with its
	 * note, a section of rows of its own): the row is its place in the
	 * key list and its help */
	PB_OPT_CUSTOM,
	/* a command's positional argument (const char *), or every one
	 * left (struct cli_args); a command's options are BOOL (present
	 * or not) and STR (--name VALUE) */
	PB_OPT_ARG,
	PB_OPT_ARGS,
};

/* a row's flags */
/* a profile without it is refused */
#define PB_OPT_F_REQUIRED 0x1u
/* a setting of the guest or VM (extra_config), not a place: two targets
 * on one place that differ in one are two arms of an A/B */
#define PB_OPT_F_SETTING 0x2u
/* only the raw-device modes use it (a LUN, a device): an "env:" value
 * unset is no error for a run without rdm */
#define PB_OPT_F_RDM 0x4u
/* where the disks are written (a datastore, a directory): the plan's
 * bytes are said per place; unset, place_default names it */
#define PB_OPT_F_PLACE 0x8u
/* a runner option a profile's workload may set (under key, else name) */
#define PB_OPT_F_WORKLOAD 0x10u
/* a runner option a profile's matrix may vary */
#define PB_OPT_F_MATRIX 0x20u
/* a flag whose profile key means the opposite ("direct" vs --buffered) */
#define PB_OPT_F_INVERT 0x40u
/* a command's positional after which nothing is an option (guest run
 * PROGRAM ARGS...: the program's own options are its own) */
#define PB_OPT_F_LITERAL_AFTER 0x80u
#define PB_OPT_F_HIDDEN	       0x100u /* parsed, not listed (aliases) */

struct pb_option {
	/* "repetitions"; in a backend's section "qemu.cpus"; the runner's
	 * or a command's --name, or an argument's placeholder */
	const char *name;
	const char *key; /* the profile's name for it, when not name */
	char short_name; /* -n on a command line, or 0 */
	enum pb_opt_type type;
	unsigned flags; /* PB_OPT_F_* */
	size_t off;	/* offsetof in the table's options struct */
	void *value;	/* a command's: where its value goes */
	/* signed and unsigned, as fio's minval and maxval: a profile's
	 * int may go down to -1, a runner's size up to UINT64_MAX */
	long long min;
	uint64_t max;
	uint64_t mult;	 /* a size must be a multiple of it; 0: any */
	const char *def; /* default as text; NULL: unset */
	const char *const *choices; /* NULL-terminated */
	const char *arg;  /* the value's name in usage: SIZE, N, LIST */
	const char *help; /* one line: help profile's, or --help's */
	/* the profile key's help when the key says the opposite of the
	 * option (PB_OPT_F_INVERT); NULL: help */
	const char *key_help;
	const char *place_default; /* PB_OPT_F_PLACE's when unset */
	/* a rule beyond the row's range, often across keys, checked once
	 * every row is read: false with why said (given: the key was
	 * written, not defaulted) */
	bool (*check)(const void *opts, bool given, char *why, size_t len);
};

/* pb_option_set's how: strings strdup'ed (a profile's; the field's old
 * one freed), else borrowed (an argv's) */
#define PB_OPT_SET_OWN 0x1u
/* a profile key's value: a flag's "true" or "false" said of its key,
 * which may mean the opposite (PB_OPT_F_INVERT) */
#define PB_OPT_SET_KEY 0x2u

/*
 * The one applier (option.c): text set into the field row d names in
 * opts (NULL: a command's row, into its value), as its type reads it; a
 * flag's text NULL: it was given. An error's why says what is wrong
 * with the value, never whose it was: the caller adds that. PB_OPT_LIST,
 * _KV, _CUSTOM and _ARGS are their tables' own code's
 * (PB_ERR_INTERNAL).
 */
enum pb_error pb_option_set(void *opts, const struct pb_option *d,
			    const char *text, unsigned how, char *why);

#endif
