/*
 * dynbuf.c - growable, capped, NUL-terminated byte buffer (after curl's
 * lib/dynbuf.c). Used for JSON, SOAP bodies, HTTP replies, CSV and HTML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <malloc.h>
#endif

#include "common.h"

#define MIN_ALLOC 64

void pb_buf_init(struct pb_buf *b, size_t cap)
{
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
	b->cap = cap;
	b->err = PB_OK;
}

void pb_buf_dispose(struct pb_buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
}

void pb_buf_reset(struct pb_buf *b)
{
	b->len = 0;
	b->err = PB_OK;
	if (b->data)
		b->data[0] = '\0';
}

enum pb_error pb_buf_error(const struct pb_buf *b)
{
	return b->err;
}

/* Make room for len more bytes plus the terminating NUL; a failure
 * sticks. */
static enum pb_error grow(struct pb_buf *b, size_t len)
{
	size_t need, a;
	char *p;

	if (b->err)
		return b->err;
	if (len > b->cap || b->len > b->cap - len)
		return b->err = PB_ERR_TOO_LARGE;
	need = b->len + len + 1;
	if (need <= b->alloc)
		return PB_OK;
	a = b->alloc ? b->alloc : MIN_ALLOC;
	while (a < need)
		a = a > SIZE_MAX / 2 ? need : a * 2;
	if (a > b->cap + 1)
		a = b->cap + 1;
	p = realloc(b->data, a);
	if (!p)
		return b->err = PB_ERR_NOMEM;
	b->data = p;
	b->alloc = a;
	return PB_OK;
}

enum pb_error pb_buf_add(struct pb_buf *b, const void *mem, size_t len)
{
	enum pb_error err = grow(b, len);

	if (err)
		return err;
	if (len)
		memcpy(b->data + b->len, mem, len);
	b->len += len;
	b->data[b->len] = '\0';
	return PB_OK;
}

enum pb_error pb_buf_addstr(struct pb_buf *b, const char *s)
{
	return pb_buf_add(b, s, strlen(s));
}

enum pb_error pb_buf_vprintf(struct pb_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	enum pb_error err;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return b->err = b->err ? b->err : PB_ERR_INTERNAL;
	err = grow(b, (size_t)n);
	if (err)
		return err;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return PB_OK;
}

enum pb_error pb_buf_printf(struct pb_buf *b, const char *fmt, ...)
{
	va_list ap;
	enum pb_error err;

	va_start(ap, fmt);
	err = pb_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return err;
}

char *pb_buf_steal(struct pb_buf *b, size_t *len)
{
	char *p = b->data;

	if (len)
		*len = b->len;
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
	b->err = PB_OK;
	return p;
}

enum pb_error pb_buf_add_wrapped(struct pb_buf *b, const char *text, size_t col,
				 size_t indent, size_t width)
{
	const char *p = text;
	bool space = false; /* a word on this line already */
	size_t w;

	for (;;) {
		p += strspn(p, " ");
		w = strcspn(p, " ");
		if (!w)
			break;
		if (space && col + 1 + w > width) {
			pb_buf_printf(b, "\n%*s", (int)indent, "");
			col = indent;
			space = false;
		}
		if (space) {
			pb_buf_add(b, " ", 1);
			col++;
		}
		pb_buf_add(b, p, w);
		col += w;
		p += w;
		space = true;
	}
	return b->err;
}

enum pb_error pb_array_grow(void *arrp, size_t *cap, size_t n, size_t elem)
{
	size_t want = *cap ? *cap * 2 : 8;
	void *old, *q;

	if (n < *cap)
		return PB_OK;
	if (want > SIZE_MAX / elem)
		return PB_ERR_NOMEM;
	/* the caller's T * is read and written as bytes: any T */
	memcpy(&old, arrp, sizeof(old));
	q = realloc(old, want * elem);
	if (!q)
		return PB_ERR_NOMEM;
	memset((char *)q + *cap * elem, 0, (want - *cap) * elem);
	memcpy(arrp, &q, sizeof(q));
	*cap = want;
	return PB_OK;
}

void *pb_aligned_alloc(size_t align, size_t size)
{
#ifdef _WIN32
	return _aligned_malloc(size ? size : 1, align);
#else
	void *p = NULL;

	return posix_memalign(&p, align, size ? size : 1) ? NULL : p;
#endif
}

void pb_aligned_free(void *p)
{
#ifdef _WIN32
	_aligned_free(p);
#else
	free(p);
#endif
}

void pb_tail_add(char *tail, size_t *tlen, size_t cap, const char *s, size_t n)
{
	if (n >= cap) {
		memcpy(tail, s + n - cap, cap);
		*tlen = cap;
		return;
	}
	if (*tlen + n > cap) {
		size_t drop = *tlen + n - cap;

		memmove(tail, tail + drop, *tlen - drop);
		*tlen -= drop;
	}
	memcpy(tail + *tlen, s, n);
	*tlen += n;
}
