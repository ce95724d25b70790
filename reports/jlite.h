/*
 * jlite.h - the small JSON reader behind big reports (jlite.c).
 */
#ifndef PB_JLITE_H
#define PB_JLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

enum jl_type {
	JL_NULL,
	JL_FALSE,
	JL_TRUE,
	JL_NUM,
	JL_STR,
	JL_ARR,
	JL_OBJ,
	JL_RAW
};

/* A value; strings, numbers and raw spans point into the text. */
struct jl {
	enum jl_type type;
	uint32_t klen, slen;
	uint32_t n;	 /* children */
	const char *key; /* member name, as written */
	const char *s;	 /* string (no quotes), number, or raw span */
	char *dec;	 /* the decoded string, once asked for */
	struct jl *first, *next;
};

struct jl_block;

struct jl_doc {
	char *text; /* the file, mapped read-only */
	size_t text_len;
	struct jl *root;
	struct jl_block *blocks;
	char **strs;
	size_t nstrs, astrs;
};

/*
 * Parse path. Members named in raw_keys (NULL-terminated) are not parsed:
 * they stay JL_RAW spans until jl_expand(). Errors name path:line:col.
 */
enum pb_error jl_load(struct jl_doc *d, const char *path,
		      const char *const *raw_keys, char *errbuf);
/* Parse a raw span in place (NULL if it is not valid JSON). */
struct jl *jl_expand(struct jl_doc *d, struct jl *n);
void jl_free(struct jl_doc *d);

struct jl *jl_get(const struct jl *obj, const char *key);
double jl_num(const struct jl *n); /* NAN unless a number */
long long jl_int(const struct jl *n);
const char *jl_str(struct jl_doc *d, struct jl *n); /* "" unless a string */

#define jl_foreach(arr, it)                                                    \
	for ((it) = (arr) && ((arr)->type == JL_ARR || (arr)->type == JL_OBJ)  \
			    ? (arr)->first                                     \
			    : NULL;                                            \
	     (it); (it) = (it)->next)

#endif
