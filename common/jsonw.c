/*
 * jsonw.c - a streaming JSON writer over a pb_buf, for documents that are
 * only ever written (the runner's). It lays text out as jansson's
 * JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10) does, so
 * the runner's document reads the same whichever way it was built, and
 * needs no JSON library: the Windows runner links only the system's DLLs.
 *
 * Errors are sticky, as the buffer's: a writer calls freely and checks
 * pb_jw_finish() once.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

void pb_jw_init(struct pb_jw *w, struct pb_buf *b)
{
	memset(w, 0, sizeof(*w));
	w->b = b;
	w->first[0] = true;
}

/* the comma, newline and indent before a value, and its key */
static void item(struct pb_jw *w, const char *key)
{
	unsigned i;

	if (w->err)
		return;
	if (w->depth) {
		if (!w->first[w->depth])
			pb_buf_addstr(w->b, ",");
		pb_buf_addstr(w->b, "\n");
		for (i = 0; i < w->depth; i++)
			pb_buf_addstr(w->b, "  ");
	}
	w->first[w->depth] = false;
	if (key) {
		pb_jw_quoted(w->b, key);
		pb_buf_addstr(w->b, ": ");
	}
}

static void container_open(struct pb_jw *w, const char *key, const char *brace)
{
	item(w, key);
	if (w->err)
		return;
	if (w->depth + 1 >= PB_JW_MAX_DEPTH) {
		w->err = PB_ERR_INTERNAL;
		return;
	}
	pb_buf_addstr(w->b, brace);
	w->first[++w->depth] = true;
}

static void container_close(struct pb_jw *w, const char *brace)
{
	unsigned i;

	if (w->err)
		return;
	if (!w->depth) {
		w->err = PB_ERR_INTERNAL;
		return;
	}
	/* an empty container stays on its line: [] and {} */
	if (!w->first[w->depth]) {
		pb_buf_addstr(w->b, "\n");
		for (i = 1; i < w->depth; i++)
			pb_buf_addstr(w->b, "  ");
	}
	w->depth--;
	pb_buf_addstr(w->b, brace);
}

void pb_jw_obj_open(struct pb_jw *w, const char *key)
{
	container_open(w, key, "{");
}

void pb_jw_obj_close(struct pb_jw *w)
{
	container_close(w, "}");
}

void pb_jw_arr_open(struct pb_jw *w, const char *key)
{
	container_open(w, key, "[");
}

void pb_jw_arr_close(struct pb_jw *w)
{
	container_close(w, "]");
}

/* the length of a valid UTF-8 sequence at s, or 0 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned c = s[0];
	uint32_t cp;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	cp = c & (0x3f >> (n - 1));
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are not text */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void pb_jw_quoted(struct pb_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	pb_buf_addstr(b, "\"");
	while (*p) {
		size_t n;

		switch (*p) {
		case '"':
			pb_buf_addstr(b, "\\\"");
			break;
		case '\\':
			pb_buf_addstr(b, "\\\\");
			break;
		case '\b':
			pb_buf_addstr(b, "\\b");
			break;
		case '\f':
			pb_buf_addstr(b, "\\f");
			break;
		case '\n':
			pb_buf_addstr(b, "\\n");
			break;
		case '\r':
			pb_buf_addstr(b, "\\r");
			break;
		case '\t':
			pb_buf_addstr(b, "\\t");
			break;
		default:
			if (*p < 0x20) {
				pb_buf_printf(b, "\\u%04x", *p);
			} else if (*p < 0x80) {
				pb_buf_add(b, p, 1);
			} else if ((n = utf8_len(p))) {
				pb_buf_add(b, p, n);
				p += n;
				continue;
			} else {
				/* a command's output is not always text:
				 * a byte that is not UTF-8 reads as U+FFFD */
				pb_buf_addstr(b, "\\ufffd");
			}
		}
		p++;
	}
	pb_buf_addstr(b, "\"");
}

void pb_jw_str(struct pb_jw *w, const char *key, const char *s)
{
	if (!s) {
		pb_jw_null(w, key);
		return;
	}
	item(w, key);
	if (!w->err)
		pb_jw_quoted(w->b, s);
}

void pb_jw_int(struct pb_jw *w, const char *key, int64_t v)
{
	item(w, key);
	if (!w->err)
		pb_buf_printf(w->b, "%lld", (long long)v);
}

void pb_jw_real(struct pb_jw *w, const char *key, double v)
{
	char num[40], *e;

	if (!isfinite(v)) {
		/* JSON has no NaN: a figure that does not exist is null */
		pb_jw_null(w, key);
		return;
	}
	item(w, key);
	if (w->err)
		return;
	snprintf(num, sizeof(num), "%.10g", v);
	/* a real keeps its point, so a reader does not take it for an
	 * integer; exponents lose their '+' and leading zeros (jansson) */
	if (!strpbrk(num, ".e"))
		strcat(num, ".0");
	if ((e = strchr(num, 'e'))) {
		char *d = e + 1, *z;

		if (*d == '+')
			memmove(d, d + 1, strlen(d));
		else if (*d == '-')
			d++;
		for (z = d; *z == '0' && z[1]; z++)
			;
		memmove(d, z, strlen(z) + 1);
	}
	pb_buf_addstr(w->b, num);
}

void pb_jw_bool(struct pb_jw *w, const char *key, bool v)
{
	item(w, key);
	if (!w->err)
		pb_buf_addstr(w->b, v ? "true" : "false");
}

void pb_jw_null(struct pb_jw *w, const char *key)
{
	item(w, key);
	if (!w->err)
		pb_buf_addstr(w->b, "null");
}

enum pb_error pb_jw_finish(struct pb_jw *w)
{
	if (!w->err && w->depth)
		w->err = PB_ERR_INTERNAL; /* a container left open */
	if (!w->err)
		pb_buf_addstr(w->b, "\n");
	return w->err ? w->err : pb_buf_error(w->b);
}
