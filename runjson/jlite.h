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
	struct jl_block *spare; /* kept by jl_reset for the next item */
	char path[1024];
	const char *const *raw_keys;
	/* the stream member, its value not yet read, and where the top
	 * level's next member goes once it is */
	struct jl *pending;
	struct jl **tail;
	char **strs;
	size_t nstrs, astrs;
};

/* A point in the arena to return to: what was parsed after it goes. */
struct jl_mark {
	struct jl_block *b;
	size_t used, nstrs;
};

/* Elements of a raw array span, parsed one at a time. */
struct jl_iter {
	const char *p, *end;
	size_t index;
	bool done;
	bool stream; /* the document's stream member: resumes it at the end */
};

/*
 * Parse path. Members named in raw_keys (NULL-terminated) are not parsed:
 * they stay JL_RAW spans until jl_expand(). Errors name path:line:col.
 */
enum pb_error jl_load(struct jl_doc *d, const char *path,
		      const char *const *raw_keys, const char *stream_key,
		      char *errbuf);
/*
 * With stream_key, parsing stops at that top-level member: it is read by
 * jl_iter (which parses the rest of the document after its last element),
 * or skipped by jl_complete when members after it are needed first.
 */
enum pb_error jl_complete(struct jl_doc *d, char *errbuf);
/* Parse a raw span in place (NULL if it is not valid JSON). */
struct jl *jl_expand(struct jl_doc *d, struct jl *n);
void jl_free(struct jl_doc *d);

/*
 * Streaming over a big array: mark the arena, parse one element, use it,
 * reset to the mark; memory stays at one element's nodes, which stay in
 * cache, instead of growing with the document.
 */
void jl_mark(struct jl_doc *d, struct jl_mark *m);
void jl_reset(struct jl_doc *d, const struct jl_mark *m);
/* Start on a JL_RAW array (PB_ERR_INPUT if it is not one). */
enum pb_error jl_iter_start(struct jl_doc *d, struct jl_iter *it,
			    const struct jl *raw, char *errbuf);
/*
 * The next element into *out (NULL at the end), with members named in
 * raw_keys left raw. Errors say which element and why.
 */
enum pb_error jl_iter_next(struct jl_doc *d, struct jl_iter *it,
			   const char *const *raw_keys, struct jl **out,
			   char *errbuf);
/* Parse a span (a raw member's s, slen) into a new node; NULL if bad. */
struct jl *jl_parse_span(struct jl_doc *d, const char *s, size_t len);

struct jl *jl_get(const struct jl *obj, const char *key);
/*
 * Several members in one walk: out[i] = the member named keys[i] (or
 * NULL), for n keys. Cheaper than n jl_get calls on a wide object.
 */
void jl_pick(const struct jl *obj, const char *const *keys, size_t n,
	     struct jl **out);
double jl_num(const struct jl *n); /* NAN unless a number */
long long jl_int(const struct jl *n);
const char *jl_str(struct jl_doc *d, struct jl *n); /* "" unless a string */

#define jl_foreach(arr, it)                                                    \
	for ((it) = (arr) && ((arr)->type == JL_ARR || (arr)->type == JL_OBJ)  \
			    ? (arr)->first                                     \
			    : NULL;                                            \
	     (it); (it) = (it)->next)

#endif
