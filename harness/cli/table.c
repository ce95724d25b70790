/*
 * table.c - plain tables sized to their content (table.h).
 */
#include <stdarg.h>
#include <string.h>

#include "table.h"

void cli_table_init(struct cli_table *t, const char *align)
{
	t->align = align;
	t->ncols = strlen(align);
	if (t->ncols > CLI_TABLE_MAX_COLS)
		t->ncols = CLI_TABLE_MAX_COLS;
	pb_buf_init(&t->cells, 64u << 20);
}

void cli_table_row(struct cli_table *t, ...)
{
	va_list ap;
	size_t i;

	va_start(ap, t);
	for (i = 0; i < t->ncols; i++) {
		const char *c = va_arg(ap, const char *);

		/* the buffer's errors are sticky: checked once, in print */
		(void)pb_buf_add(&t->cells, c ? c : "-",
				 strlen(c ? c : "-") + 1);
	}
	va_end(ap);
}

enum pb_error cli_table_print(struct cli_table *t, FILE *fp)
{
	size_t w[CLI_TABLE_MAX_COLS] = {0}, i, len;
	const char *p, *end;
	enum pb_error err = pb_buf_error(&t->cells);

	if (err || !t->cells.data)
		return err;
	end = t->cells.data + t->cells.len;
	for (p = t->cells.data, i = 0; p < end; p += len + 1, i++) {
		len = strlen(p);
		if (len > w[i % t->ncols])
			w[i % t->ncols] = len;
	}
	for (p = t->cells.data, i = 0; p < end; p += len + 1, i++) {
		size_t col = i % t->ncols;
		bool last = col + 1 == t->ncols;

		len = strlen(p);
		if (t->align[col] == 'r')
			fprintf(fp, "%*s", (int)w[col], p);
		else
			fprintf(fp, "%-*s", last ? 0 : (int)w[col], p);
		fputs(last ? "\n" : "  ", fp);
	}
	return PB_OK;
}

void cli_table_dispose(struct cli_table *t)
{
	pb_buf_dispose(&t->cells);
}
