/*
 * option.h - an option's row (fio's struct fio_option, parse.h): the
 * profile's own keys and each backend's section are tables of them. A
 * table is an array of rows ended by one whose name is NULL; the profile
 * loader applies the rows and `help profile` is printed from them, so a
 * key, its range, its default and its help are written once.
 */
#ifndef PB_OPTION_H
#define PB_OPTION_H

#include <stdbool.h>
#include <stddef.h>

enum pb_opt_type {
	PB_OPT_STR,    /* char *, strdup'ed; "env:NAME" resolved */
	PB_OPT_CHOICE, /* char *, one of choices */
	PB_OPT_UINT,   /* unsigned, min..max */
	PB_OPT_INT,    /* int, min..max (a default may be -1: "any") */
	PB_OPT_BOOL,   /* bool */
	PB_OPT_KV,     /* struct pb_kv: an object of strings */
	PB_OPT_U64,    /* uint64_t, min..max */
	PB_OPT_SIZE,   /* uint64_t bytes, a size ("100G"), 0 allowed */
	/* read by the loader's own code (a list of modes, a size with its
	 * note, a section of rows of its own): the row is its place in the
	 * key list and its help */
	PB_OPT_CUSTOM,
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

struct pb_option {
	const char
		*name; /* "repetitions"; in a backend's section "qemu.cpus" */
	enum pb_opt_type type;
	size_t off; /* offsetof in the backend's options struct */
	long long min, max;
	const char *const *choices; /* NULL-terminated, for PB_OPT_CHOICE */
	const char *def;	    /* default as text; NULL: unset */
	const char *help;	    /* one line, for `provbench help profile` */
	unsigned flags;		    /* PB_OPT_F_* */
	const char *place_default;  /* PB_OPT_F_PLACE's when unset */
	/* a rule beyond the row's range, often across keys, checked once
	 * every row is read: false with why said (given: the key was
	 * written, not defaulted) */
	bool (*check)(const void *opts, bool given, char *why, size_t len);
};

#endif
