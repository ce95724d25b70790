/*
 * jlite.c - a small JSON reader for run.json, built for reports of tens
 * of thousands of repetitions: one pass over the text into arena nodes
 * that point into it (strings and numbers decoded only when asked), and
 * the values of chosen keys (the long throughput series) kept as unparsed
 * spans, skipped at memory speed and expanded only when a report needs
 * them. jansson builds a hash table per object and a node per number,
 * which is what made big reports slow.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jlite.h"

#define BLOCK 65536
#define HUGE  (2u << 20)

struct jl_block {
	struct jl_block *next;
	size_t used;
	struct jl nodes[BLOCK];
};

struct jl_parser {
	struct jl_doc *doc;
	const char *p, *end;
	const char *const *raw_keys;
	const char *err;
	const char *stop_key; /* a top-level member left for jl_iter */
	bool stopped;
};

static struct jl *node_new(struct jl_doc *d)
{
	struct jl_block *b = d->blocks;

	if ((!b || b->used == BLOCK) && d->spare) {
		b = d->spare;
		d->spare = NULL;
		b->used = 0;
		b->next = d->blocks;
		d->blocks = b;
	}
	if (!b || b->used == BLOCK) {
		/* 2 MiB-aligned and huge-page backed where the kernel allows:
		 * a big run.json makes millions of nodes, and faulting them
		 * in 4 KiB at a time was half the time of a report */
		b = aligned_alloc(HUGE, (sizeof(*b) + HUGE - 1) / HUGE * HUGE);
		if (!b)
			return NULL;
		madvise(b, sizeof(*b), MADV_HUGEPAGE);
		b->used = 0;
		b->next = d->blocks;
		d->blocks = b;
	}
	memset(&b->nodes[b->used], 0, sizeof(struct jl));
	return &b->nodes[b->used++];
}

/* characters that continue a number, and those that end a bare value */
static bool numc[256], endc[256], structc[256];

static void tables(void)
{
	const char *c;

	if (numc['0'])
		return;
	for (c = "+-0123456789.eE"; *c; c++)
		numc[(unsigned char)*c] = true;
	for (c = ",]} \n\r\t"; *c; c++)
		endc[(unsigned char)*c] = true;
	for (c = "\"[]{}"; *c; c++)
		structc[(unsigned char)*c] = true;
}

/* Locals, not ps->p, in the loops: a char read may alias the pointer,
 * which would make the compiler reload it for every byte. */
static void ws(struct jl_parser *ps)
{
	const char *p = ps->p, *end = ps->end;

	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	ps->p = p;
}

/* Past the closing quote of the string whose opening quote is at p;
 * NULL if it is not closed. */
static const char *string_end(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		if (*p == '\\')
			p++;
	return p < end ? p + 1 : NULL;
}

static bool skip_string(struct jl_parser *ps)
{
	const char *q = string_end(ps->p, ps->end);

	if (!q)
		return false;
	ps->p = q;
	return true;
}

/*
 * The next character at or after p that matters to a skipped value:
 * inside a string a quote or a backslash, outside one a quote or a
 * bracket. Sixteen bytes at a time with SSE2 where there is one (a long
 * series is most of a big run.json, a structural character every ten
 * bytes or so), else a byte at a time. end when there is none.
 */
#ifdef __SSE2__
#include <emmintrin.h>

static const char *next_struct(const char *p, const char *end, bool in_str)
{
	const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	const __m128i fold = _mm_set1_epi8(0x20);
	const __m128i op = _mm_set1_epi8('{'), cl = _mm_set1_epi8('}');

	while (end - p >= 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_cmpeq_epi8(x, q);
		int bits;

		if (in_str) {
			m = _mm_or_si128(m, _mm_cmpeq_epi8(x, bs));
		} else {
			/* OR 0x20 folds '[' onto '{' and ']' onto '}' */
			__m128i y = _mm_or_si128(x, fold);

			m = _mm_or_si128(m, _mm_cmpeq_epi8(y, op));
			m = _mm_or_si128(m, _mm_cmpeq_epi8(y, cl));
		}
		bits = _mm_movemask_epi8(m);
		if (bits)
			return p + __builtin_ctz((unsigned)bits);
		p += 16;
	}
	for (; p < end; p++)
		if (*p == '"' ||
		    (in_str ? *p == '\\' : structc[(unsigned char)*p]))
			return p;
	return end;
}
#else
static const char *next_struct(const char *p, const char *end, bool in_str)
{
	for (; p < end; p++)
		if (*p == '"' ||
		    (in_str ? *p == '\\' : structc[(unsigned char)*p]))
			return p;
	return end;
}
#endif

/* Past one whole value without building anything. */
static bool skip_value(struct jl_parser *ps)
{
	const char *p, *end = ps->end;
	int depth = 0;

	ws(ps);
	p = ps->p;
	if (p >= end)
		return false;
	if (*p == '"')
		return skip_string(ps);
	if (*p != '[' && *p != '{') {
		while (p < end && !endc[(unsigned char)*p])
			p++;
		ps->p = p;
		return true;
	}
	/* only quotes, backslashes in strings, and brackets matter inside a
	 * skipped value */
	for (bool in_str = false;;) {
		p = next_struct(p, end, in_str);
		if (p >= end)
			break;
		if (in_str) {
			if (*p == '\\')
				p++; /* the escaped character, whatever it is */
			else
				in_str = false;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if (--depth == 0) {
			ps->p = p + 1;
			return true;
		}
		p++;
	}
	return false;
}

static bool raw_key(struct jl_parser *ps, const struct jl *n)
{
	const char *const *k;

	/* first character and length before memcmp: this runs for every
	 * member of a document of millions */
	for (k = ps->raw_keys; k && *k; k++)
		if ((*k)[0] == n->key[0] &&
		    strnlen(*k, n->klen + 1) == n->klen &&
		    !memcmp(*k, n->key, n->klen))
			return true;
	return false;
}

static bool value(struct jl_parser *ps, struct jl *n, int depth);

static bool member_loop(struct jl_parser *ps, struct jl *n, struct jl **tail,
			int depth, bool object, bool after_value);

static bool members(struct jl_parser *ps, struct jl *n, int depth, bool object)
{
	char close = object ? '}' : ']';

	ps->p++;
	ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return true;
	}
	return member_loop(ps, n, &n->first, depth, object, false);
}

static bool is_key(const struct jl *n, const char *k)
{
	return strlen(k) == n->klen && !memcmp(k, n->key, n->klen);
}

/*
 * Members until the closing bracket, appended at tail. after_value: the
 * parser stands just past a member's value (resuming a stopped parse).
 */
static bool member_loop(struct jl_parser *ps, struct jl *n, struct jl **tail,
			int depth, bool object, bool after_value)
{
	char close = object ? '}' : ']';

	if (after_value)
		goto separator;
	for (;;) {
		struct jl *c = node_new(ps->doc);

		if (!c) {
			ps->err = "out of memory";
			return false;
		}
		ws(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"') {
				ps->err = "expected a key";
				return false;
			}
			c->key = ps->p + 1;
			if (!skip_string(ps)) {
				ps->err = "unterminated key";
				return false;
			}
			c->klen = (uint32_t)(ps->p - 1 - c->key);
			ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				ps->err = "expected ':'";
				return false;
			}
			ps->p++;
		}
		if (object && depth == 0 && ps->stop_key &&
		    is_key(c, ps->stop_key)) {
			/* left here: jl_iter reads it element by element,
			 * then the rest of the object is parsed */
			ws(ps);
			c->type = JL_RAW;
			c->s = ps->p;
			c->slen = 0;
			*tail = c;
			n->n++;
			ps->doc->pending = c;
			ps->doc->tail = &c->next;
			ps->stopped = true;
			return true;
		}
		if (object && raw_key(ps, c)) {
			ws(ps);
			c->type = JL_RAW;
			c->s = ps->p;
			if (!skip_value(ps)) {
				ps->err = "unterminated value";
				return false;
			}
			c->slen = (uint32_t)(ps->p - c->s);
		} else if (!value(ps, c, depth + 1)) {
			return false;
		}
		*tail = c;
		tail = &c->next;
		n->n++;
	separator:
		ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return true;
		}
		ps->err =
			object ? "expected ',' or '}'" : "expected ',' or ']'";
		return false;
	}
}

static bool value(struct jl_parser *ps, struct jl *n, int depth)
{
	ws(ps);
	if (depth > 200) {
		ps->err = "nested too deeply";
		return false;
	}
	if (ps->p >= ps->end) {
		ps->err = "unexpected end";
		return false;
	}
	n->s = ps->p;
	switch (*ps->p) {
	case '{':
		n->type = JL_OBJ;
		return members(ps, n, depth, true);
	case '[':
		n->type = JL_ARR;
		return members(ps, n, depth, false);
	case '"':
		n->type = JL_STR;
		n->s = ps->p + 1;
		if (!skip_string(ps)) {
			ps->err = "unterminated string";
			return false;
		}
		n->slen = (uint32_t)(ps->p - 1 - n->s);
		return true;
	case 't':
	case 'f':
	case 'n':
		if (ps->end - ps->p >= 4 && !memcmp(ps->p, "true", 4)) {
			n->type = JL_TRUE;
			ps->p += 4;
		} else if (ps->end - ps->p >= 5 && !memcmp(ps->p, "false", 5)) {
			n->type = JL_FALSE;
			ps->p += 5;
		} else if (ps->end - ps->p >= 4 && !memcmp(ps->p, "null", 4)) {
			n->type = JL_NULL;
			ps->p += 4;
		} else {
			ps->err = "unknown literal";
			return false;
		}
		return true;
	default:
		if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9')) {
			ps->err = "unexpected character";
			return false;
		}
		n->type = JL_NUM;
		{
			const char *q = ps->p, *end = ps->end;

			while (q < end && numc[(unsigned char)*q])
				q++;
			ps->p = q;
		}
		n->slen = (uint32_t)(ps->p - n->s);
		return true;
	}
}

/* The error at ps->p, as file:line:col. */
static enum pb_error parse_error(const struct jl_parser *ps, const char *s,
				 char *errbuf, const char *name)
{
	const char *q;
	int line = 1, col = 1;

	for (q = s; q < ps->p && q < ps->end; q++, col++)
		if (*q == '\n') {
			line++;
			col = 0;
		}
	return pb_fail(errbuf,
		       ps->err && !strcmp(ps->err, "out of memory")
			       ? PB_ERR_NOMEM
			       : PB_ERR_INPUT,
		       "%s:%d:%d: %s", name, line, col,
		       ps->err ? ps->err : "invalid JSON");
}

static enum pb_error parse(struct jl_doc *d, struct jl *into, const char *s,
			   size_t len, const char *const *raw_keys,
			   const char *stop_key, char *errbuf, const char *name)
{
	struct jl_parser ps = {d, s, s + len, raw_keys, NULL, stop_key, false};

	tables();
	if (value(&ps, into, 0)) {
		if (ps.stopped)
			return PB_OK;
		ws(&ps);
		if (ps.p == ps.end)
			return PB_OK;
		ps.err = "trailing text";
	}
	return parse_error(&ps, s, errbuf, name);
}

/* Past the stream member's value at p: the rest of the top level. */
static enum pb_error resume(struct jl_doc *d, const char *p, char *errbuf)
{
	struct jl_parser ps = {
		d, p, d->text + d->text_len, d->raw_keys, NULL, NULL, false};

	d->pending->slen = (uint32_t)(p - d->pending->s);
	d->pending = NULL;
	if (member_loop(&ps, d->root, d->tail, 0, true, true)) {
		ws(&ps);
		if (ps.p == ps.end)
			return PB_OK;
		ps.err = "trailing text";
	}
	return parse_error(&ps, d->text, errbuf, d->path);
}

enum pb_error jl_complete(struct jl_doc *d, char *errbuf)
{
	struct jl_parser ps = {d,    NULL, d->text + d->text_len, NULL, NULL,
			       NULL, false};

	if (!d->pending)
		return PB_OK;
	ps.p = d->pending->s;
	if (!skip_value(&ps)) {
		ps.err = "unterminated value";
		return parse_error(&ps, d->text, errbuf, d->path);
	}
	return resume(d, ps.p, errbuf);
}

enum pb_error jl_load(struct jl_doc *d, const char *path,
		      const char *const *raw_keys, const char *stream_key,
		      char *errbuf)
{
	struct stat st;
	size_t len;
	void *m;
	int fd;

	memset(d, 0, sizeof(*d));
	/* mapped, not read: a 200 MB run.json is then neither copied nor
	 * grown by doubling on the way in */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: cannot read", path);
	}
	len = (size_t)st.st_size;
	if (!len) {
		close(fd);
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: empty", path);
	}
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: cannot map", path);
	d->text = m;
	d->text_len = len;
	d->root = node_new(d);
	if (!d->root)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->raw_keys = raw_keys;
	return parse(d, d->root, d->text, len, raw_keys, stream_key, errbuf,
		     path);
}

struct jl *jl_expand(struct jl_doc *d, struct jl *n)
{
	char err[PB_ERRBUF_SIZE] = "";
	struct jl tmp;

	if (!n || n->type != JL_RAW)
		return n;
	memset(&tmp, 0, sizeof(tmp));
	tmp.key = n->key;
	tmp.klen = n->klen;
	if (parse(d, &tmp, n->s, n->slen, NULL, NULL, err, "span"))
		return NULL;
	tmp.next = n->next;
	*n = tmp;
	return n;
}

void jl_mark(struct jl_doc *d, struct jl_mark *m)
{
	m->b = d->blocks;
	m->used = d->blocks ? d->blocks->used : 0;
	m->nstrs = d->nstrs;
}

void jl_reset(struct jl_doc *d, const struct jl_mark *m)
{
	while (d->blocks && d->blocks != m->b) {
		struct jl_block *b = d->blocks;

		d->blocks = b->next;
		if (!d->spare)
			d->spare = b;
		else
			free(b);
	}
	if (d->blocks)
		d->blocks->used = m->used;
	while (d->nstrs > m->nstrs)
		free(d->strs[--d->nstrs]);
}

enum pb_error jl_iter_start(struct jl_doc *d, struct jl_iter *it,
			    const struct jl *raw, char *errbuf)
{
	struct jl_parser ps;

	memset(it, 0, sizeof(*it));
	if (!raw || raw->type != JL_RAW || raw->s[0] != '[' ||
	    (!raw->slen && raw != d->pending))
		return pb_fail(errbuf, PB_ERR_INPUT, "not an array");
	/* the stream member's end is found by reading it */
	it->stream = raw == d->pending;
	ps.p = raw->s + 1;
	ps.end = it->stream ? d->text + d->text_len : raw->s + raw->slen;
	ws(&ps);
	it->p = ps.p;
	it->end = ps.end;
	it->done = it->p < it->end && *it->p == ']';
	/* an empty stream member: the members after it are read now, as
	 * its last element would have had them read */
	if (it->done && it->stream)
		return resume(d, it->p + 1, errbuf);
	return PB_OK;
}

enum pb_error jl_iter_next(struct jl_doc *d, struct jl_iter *it,
			   const char *const *raw_keys, struct jl **out,
			   char *errbuf)
{
	struct jl_parser ps = {d, it->p, it->end, raw_keys, NULL, NULL, false};
	struct jl *n;

	*out = NULL;
	if (it->done)
		return PB_OK;
	n = node_new(d);
	if (!n)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	if (!value(&ps, n, 1))
		return pb_fail(errbuf, PB_ERR_INPUT, "element %zu: %s",
			       it->index, ps.err ? ps.err : "invalid JSON");
	ws(&ps);
	if (ps.p < ps.end && *ps.p == ',') {
		ps.p++;
		ws(&ps);
	} else if (ps.p < ps.end && *ps.p == ']') {
		it->done = true;
		if (it->stream) {
			enum pb_error err = resume(d, ps.p + 1, errbuf);

			if (err)
				return err;
		}
	} else {
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "element %zu: expected ',' or ']'", it->index);
	}
	it->p = ps.p;
	it->index++;
	*out = n;
	return PB_OK;
}

struct jl *jl_parse_span(struct jl_doc *d, const char *s, size_t len)
{
	struct jl *n = node_new(d);

	if (!n)
		return NULL;
	n->type = JL_RAW;
	n->s = s;
	n->slen = (uint32_t)len;
	return jl_expand(d, n);
}

void jl_free(struct jl_doc *d)
{
	struct jl_block *b, *next;

	size_t i;

	for (b = d->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(d->spare);
	for (i = 0; i < d->nstrs; i++)
		free(d->strs[i]);
	free(d->strs);
	if (d->text)
		munmap(d->text, d->text_len);
	memset(d, 0, sizeof(*d));
}

struct jl *jl_get(const struct jl *o, const char *key)
{
	size_t k = strlen(key);
	struct jl *c;

	if (!o || o->type != JL_OBJ)
		return NULL;
	for (c = o->first; c; c = c->next)
		if (c->klen == k && (!k || c->key[0] == key[0]) &&
		    !memcmp(c->key, key, k))
			return c;
	return NULL;
}

void jl_pick(const struct jl *o, const char *const *keys, size_t n,
	     struct jl **out)
{
	struct jl *c;
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = NULL;
	if (!o || o->type != JL_OBJ)
		return;
	for (c = o->first; c; c = c->next)
		for (i = 0; i < n; i++)
			if (!out[i] && c->klen == strlen(keys[i]) &&
			    !memcmp(c->key, keys[i], c->klen)) {
				out[i] = c;
				break;
			}
}

/*
 * The exact fast path (Clinger's): a decimal of at most 15 significant
 * digits and no exponent is its digits as an integer, exact in a double,
 * over a power of ten up to 1e22, exact too, so their quotient is
 * correctly rounded, as strtod would give it. Anything else: strtod.
 */
static bool fast_num(double *out, const char *s, size_t len)
{
	static const double p10[] = {1e0,  1e1,	 1e2,  1e3,  1e4,  1e5,
				     1e6,  1e7,	 1e8,  1e9,  1e10, 1e11,
				     1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
				     1e18, 1e19, 1e20, 1e21, 1e22};
	uint64_t m = 0;
	unsigned digits = 0, frac = 0;
	bool neg = false, dot = false;
	size_t i = 0;

	if (i < len && s[i] == '-') {
		neg = true;
		i++;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		char c = s[i];

		if (c == '.' && !dot) {
			dot = true;
			continue;
		}
		if (c < '0' || c > '9')
			return false; /* an exponent, or not a number */
		if (m || c != '0')
			digits++;
		if (digits > 15)
			return false;
		m = m * 10 + (uint64_t)(c - '0');
		frac += dot;
	}
	if (frac > 22)
		return false;
	*out = (double)m / p10[frac];
	if (neg)
		*out = -*out;
	return true;
}

double jl_num(const struct jl *n)
{
	char buf[64];
	double v;

	if (!n || n->type != JL_NUM || n->slen >= sizeof(buf))
		return NAN;
	if (fast_num(&v, n->s, n->slen))
		return v;
	memcpy(buf, n->s, n->slen);
	buf[n->slen] = '\0';
	return strtod(buf, NULL);
}

long long jl_int(const struct jl *n)
{
	double v = jl_num(n);

	/* out of range is undefined for the cast: clamp */
	if (isnan(v))
		return 0;
	if (v >= 9.2e18)
		return LLONG_MAX;
	if (v <= -9.2e18)
		return LLONG_MIN;
	return (long long)v;
}

/* Decode a string's escapes into the document's string store. */
const char *jl_str(struct jl_doc *d, struct jl *n)
{
	const char *s, *e;
	char *out, *o;

	if (!n || n->type != JL_STR)
		return "";
	if (n->dec)
		return n->dec;
	out = malloc(n->slen + 1);
	if (!out)
		return "";
	for (s = n->s, e = n->s + n->slen, o = out; s < e; s++) {
		unsigned cp;

		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		if (++s >= e)
			break;
		switch (*s) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'u':
			if (e - s < 5 || sscanf(s + 1, "%4x", &cp) != 1) {
				*o++ = '?';
				break;
			}
			s += 4;
			/* UTF-8 for the basic plane; surrogates as '?' */
			if (cp < 0x80) {
				*o++ = (char)cp;
			} else if (cp < 0x800) {
				*o++ = (char)(0xc0 | (cp >> 6));
				*o++ = (char)(0x80 | (cp & 0x3f));
			} else if (cp >= 0xd800 && cp < 0xe000) {
				*o++ = '?';
			} else {
				*o++ = (char)(0xe0 | (cp >> 12));
				*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
				*o++ = (char)(0x80 | (cp & 0x3f));
			}
			break;
		default: /* \" \\ \/ */
			*o++ = *s;
		}
	}
	*o = '\0';
	/* keep it for the document's lifetime, and for jl_free */
	if (d->nstrs == d->astrs) {
		size_t a = d->astrs ? d->astrs * 2 : 1024;
		char **p = realloc(d->strs, a * sizeof(*p));

		if (!p) {
			free(out);
			return "";
		}
		d->strs = p;
		d->astrs = a;
	}
	d->strs[d->nstrs++] = out;
	n->dec = out;
	return out;
}
