/*
 * columns.h - the summary's columns, one table for every format (columns.c).
 */
#ifndef PB_RP_COLUMNS_H
#define PB_RP_COLUMNS_H

#include "model.h"

struct rp_findings;
struct rp_finding;

enum rp_unit {
	RP_UNIT_RATE,  /* MiB/s */
	RP_UNIT_PCT,   /* a fraction shown as a whole percent */
	RP_UNIT_RATIO, /* against the baseline: 0.65x */
	RP_UNIT_S,
	RP_UNIT_US,
	RP_UNIT_BYTES,
	RP_UNIT_COUNT,
	RP_UNIT_PASS, /* 0: the first write, k: rewrite k */
};

#define RP_COL_CSV	  0x1u
#define RP_COL_TEXT	  0x2u
#define RP_COL_HTML	  0x4u
#define RP_COL_ALL	  (RP_COL_CSV | RP_COL_TEXT | RP_COL_HTML)
#define RP_COL_AFTER_NOTE 0x8u /* summary.csv: after the note column */

/* how report --json writes a column's figure in each group */
enum rp_json_form {
	RP_JSON_NONE,	/* not there, or within an object json.c makes */
	RP_JSON_NUMBER, /* the figure alone, null where none */
	RP_JSON_MEDIAN, /* {"median": v, "lo": lo, "hi": hi} */
	RP_JSON_VALUE,	/* {"value": v, "lo": lo, "hi": hi} */
};

struct rp_column {
	const char *csv, *csv_lo, *csv_hi; /* summary.csv's names */
	const char *head;		   /* the pages' heading */
	enum rp_unit unit;
	unsigned show;	   /* RP_COL_* */
	int csv_decimals;  /* in summary.csv */
	int page_decimals; /* on the pages */
	/* the figure, its interval's ends (NaN: none) */
	void (*get)(double v[3], const struct rp_model *m,
		    const struct rp_group *g);
	/* on the pages only when it says something (NULL: always) */
	bool (*any)(const struct rp_model *m);
	/* a column of words rather than a figure (get NULL) */
	void (*text)(char *out, size_t len, const struct rp_model *m,
		     const struct rp_group *g);
	/* report --json's member of each group, named as summary.csv's
	 * column: a figure added here is in every format at once */
	enum rp_json_form json_form;
};

extern const struct rp_column rp_columns[]; /* NULL-ended, CSV order */
/* Has any group a first write after a reclaim (the "again" column)? */
bool rp_any_rewarm(const struct rp_model *m);
bool rp_column_shown(const struct rp_column *c, const struct rp_model *m,
		     unsigned where);

const char *rp_unit_name(enum rp_unit u);

/* a cell as the pages print it: "1803.6", "24%", "0.65x", "rewrite 1";
 * a column of words says its own (rp_cell) */
void rp_cell_text(char *out, size_t len, const struct rp_column *c,
		  const double v[3]);

/* the cell of any column: its figure's text and its interval's */
void rp_cell(char *out, size_t len, char *iv, size_t ivlen,
	     const struct rp_column *c, const struct rp_model *m,
	     const struct rp_group *g);

/* its interval: "[1776.9-1830.3]", "[-21 to 34%]", or "" */
void rp_cell_interval(char *out, size_t len, const struct rp_column *c,
		      const double v[3]);

#endif
