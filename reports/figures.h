/*
 * figures.h - the figures read straight from each pass of a group's
 * items, one row each: the model keeps every repetition's value and
 * their median (model.c) and the summary's columns, summary.csv's and
 * report --json's, are made from the same row (columns.c). A new figure
 * of this kind is one row here, at the end of RP_FIGURES_AFTER_NOTE; a
 * figure of another kind is written out in model.c and columns.c
 * (CONTRIBUTING.md, "Adding a report figure").
 *
 * X(ID, PASS, READ, CSV, UNIT, DECIMALS, JSON):
 *   ID        its index: RP_FIG_ID
 *   PASS      the passes it is read from: RP_FIG_FIRST, an item's first
 *             write; RP_FIG_LATER, each of its later writes (rewrites, or
 *             recreates: rp_later_name), RP_MAX_REWRITES at most
 *   READ      its value, an expression of const struct rj_pass *ps
 *             (runjson.h); NaN where the pass does not say it
 *   CSV       its summary.csv column and report --json member
 *   UNIT      enum rp_unit (columns.h)
 *   DECIMALS  in summary.csv
 *   JSON      enum rp_json_form (columns.h)
 */
#ifndef PB_RP_FIGURES_H
#define PB_RP_FIGURES_H

/* clang-format off */
/* summary.csv's columns before its note, where they have always been */
#define RP_FIGURES_BEFORE_NOTE(X)                                              \
	X(P99_FIRST, RP_FIG_FIRST, jl_num(ps->lat[RJ_L_P99]),                  \
	  "p99_first_us", RP_UNIT_US, 0, RP_JSON_NUMBER)                       \
	X(P99_REWRITE, RP_FIG_LATER, jl_num(ps->lat[RJ_L_P99]),                \
	  "p99_rewrite_us", RP_UNIT_US, 0, RP_JSON_NUMBER)

/* appended after the note and every other column, in this order (scripts
 * read summary.csv by name or by position): a new figure goes last */
#define RP_FIGURES_AFTER_NOTE(X)                                               \
	X(P50_FIRST, RP_FIG_FIRST, jl_num(ps->lat[RJ_L_P50]),                  \
	  "p50_first_us", RP_UNIT_US, 0, RP_JSON_NUMBER)                       \
	X(P50_REWRITE, RP_FIG_LATER, jl_num(ps->lat[RJ_L_P50]),                \
	  "p50_rewrite_us", RP_UNIT_US, 0, RP_JSON_NUMBER)
/* clang-format on */

#define RP_FIGURES(X) RP_FIGURES_BEFORE_NOTE(X) RP_FIGURES_AFTER_NOTE(X)

enum rp_fig_pass {
	RP_FIG_FIRST, /* an item's first write */
	RP_FIG_LATER, /* each of its later writes */
};

#define RP_FIG_ENUM_(id, pass, read, csv, unit, decimals, json) RP_FIG_##id,
enum rp_fig { RP_FIGURES(RP_FIG_ENUM_) RP_FIG__COUNT };
#undef RP_FIG_ENUM_

#endif
