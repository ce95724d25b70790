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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jlite.h"

#define BLOCK 65536

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
};

static struct jl *node_new(struct jl_doc *d)
{
	struct jl_block *b = d->blocks;

	if (!b || b->used == BLOCK) {
		b = malloc(sizeof(*b));
		if (!b)
			return NULL;
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

static void ws(struct jl_parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' ||
				   *ps->p == '\r' || *ps->p == '\t'))
		ps->p++;
}

/* Past a string's closing quote; p is on the opening one. */
static bool skip_string(struct jl_parser *ps)
{
	const char *q = ps->p + 1;

	while (q < ps->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= ps->end)
		return false;
	ps->p = q + 1;
	return true;
}

/* Past one whole value without building anything. */
static bool skip_value(struct jl_parser *ps)
{
	int depth = 0;

	ws(ps);
	if (ps->p >= ps->end)
		return false;
	if (*ps->p != '[' && *ps->p != '{') {
		if (*ps->p == '"')
			return skip_string(ps);
		while (ps->p < ps->end && !endc[(unsigned char)*ps->p])
			ps->p++;
		return true;
	}
	while (ps->p < ps->end) {
		char c;

		/* only quotes and brackets matter inside a skipped value */
		while (ps->p < ps->end && !structc[(unsigned char)*ps->p])
			ps->p++;
		if (ps->p >= ps->end)
			break;
		c = *ps->p;
		if (c == '"') {
			if (!skip_string(ps))
				return false;
			continue;
		}
		if (c == '[' || c == '{')
			depth++;
		else if ((c == ']' || c == '}') && --depth == 0) {
			ps->p++;
			return true;
		}
		ps->p++;
	}
	return false;
}

static bool raw_key(struct jl_parser *ps, const struct jl *n)
{
	const char *const *k;

	for (k = ps->raw_keys; k && *k; k++)
		if (strlen(*k) == n->klen && !memcmp(*k, n->key, n->klen))
			return true;
	return false;
}

static bool value(struct jl_parser *ps, struct jl *n, int depth);

static bool members(struct jl_parser *ps, struct jl *n, int depth, bool object)
{
	struct jl **tail = &n->first;
	char close = object ? '}' : ']';

	ps->p++;
	ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return true;
	}
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
		if (!strchr("-0123456789", *ps->p)) {
			ps->err = "unexpected character";
			return false;
		}
		n->type = JL_NUM;
		while (ps->p < ps->end && numc[(unsigned char)*ps->p])
			ps->p++;
		n->slen = (uint32_t)(ps->p - n->s);
		return true;
	}
}

static enum pb_error parse(struct jl_doc *d, struct jl *into, const char *s,
			   size_t len, const char *const *raw_keys,
			   char *errbuf, const char *name)
{
	struct jl_parser ps = {d, s, s + len, raw_keys, NULL};
	const char *q;
	int line = 1, col = 1;

	tables();
	if (value(&ps, into, 0)) {
		ws(&ps);
		if (ps.p == ps.end)
			return PB_OK;
		ps.err = "trailing text";
	}
	for (q = s; q < ps.p && q < ps.end; q++, col++)
		if (*q == '\n') {
			line++;
			col = 0;
		}
	return pb_fail(errbuf,
		       ps.err && !strcmp(ps.err, "out of memory")
			       ? PB_ERR_NOMEM
			       : PB_ERR_INPUT,
		       "%s:%d:%d: %s", name, line, col,
		       ps.err ? ps.err : "invalid JSON");
}

enum pb_error jl_load(struct jl_doc *d, const char *path,
		      const char *const *raw_keys, char *errbuf)
{
	struct stat st;
	size_t len;
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
	if (len) {
		void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			       fd, 0);

		if (m == MAP_FAILED) {
			close(fd);
			return pb_fail(errbuf, PB_ERR_INPUT, "%s: cannot map",
				       path);
		}
		d->text = m;
		d->text_len = len;
	}
	close(fd);
	d->root = node_new(d);
	if (!d->root)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	return parse(d, d->root, d->text, len, raw_keys, errbuf, path);
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
	if (parse(d, &tmp, n->s, n->slen, NULL, err, "span"))
		return NULL;
	tmp.next = n->next;
	*n = tmp;
	return n;
}

void jl_free(struct jl_doc *d)
{
	struct jl_block *b, *next;

	size_t i;

	for (b = d->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
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
		if (c->klen == k && !memcmp(c->key, key, k))
			return c;
	return NULL;
}

double jl_num(const struct jl *n)
{
	char buf[64];

	if (!n || n->type != JL_NUM || n->slen >= sizeof(buf))
		return NAN;
	memcpy(buf, n->s, n->slen);
	buf[n->slen] = '\0';
	return strtod(buf, NULL);
}

long long jl_int(const struct jl *n)
{
	double v = jl_num(n);

	return isnan(v) ? 0 : (long long)v;
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
