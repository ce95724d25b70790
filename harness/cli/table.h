/*
 * table.h - the commands' plain tables: columns as wide as their widest
 * cell (a name longer than a guess is never cut or run into the next
 * column), left or right aligned, the last column unpadded.
 */
#ifndef PB_CLI_TABLE_H
#define PB_CLI_TABLE_H

#include <stdio.h>

#include "common.h"

#define CLI_TABLE_MAX_COLS 8

struct cli_table {
	const char *align; /* one 'l' or 'r' per column */
	size_t ncols;
	struct pb_buf cells; /* each cell NUL-terminated, row by row */
};

void cli_table_init(struct cli_table *t, const char *align);
/* One row: exactly ncols strings (NULL prints as "-"). Errors are the
 * buffer's, sticky, and reported by cli_table_print. */
void cli_table_row(struct cli_table *t, ...);
enum pb_error cli_table_print(struct cli_table *t, FILE *fp);
void cli_table_dispose(struct cli_table *t);

#endif
