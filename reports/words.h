/*
 * words.h - the one wording of each finding and figure (words.c).
 */
#ifndef PB_RP_WORDS_H
#define PB_RP_WORDS_H

#include "findings.h"
#include "phrase.h"

struct rp_findings;
struct rp_finding;

/* "2 of 3 settled, median 64 MiB", "too short to tell (12 intervals)",
 * "never settled (3 reps)", or "" when there is nothing to say: the
 * within-pass settling, the table's cell. */
void rp_steady_text(char *out, size_t len, const struct rp_group *g);

/* The same as a table's cell: "4/5 at 544 MiB", "never (4/5)", "too
 * noisy", "too short" (the notes and docs say the rest). */
void rp_steady_cell(char *out, size_t len, const struct rp_model *m,
		    const struct rp_group *g);
/* A precision-form run's mode, why it stopped, as a cell: "above 5%
 * after 3", "open at the most, 10" (rp_stop_say says it in full); ""
 * for a fixed count. */
void rp_stop_cell(char *out, size_t len, const struct rp_model *m,
		  const struct rp_group *g);

/* targets at once: fleet.c builds the rows with the model, these say
 * them, findings.c concludes of them, each renderer lays them out */
/* "812.4 MiB/s [790.1-830.2] over 0.31 s", or why there is none */
void rp_fleet_agg_text(char *out, size_t len, const struct rp_model *m,
		       const struct rp_fleet_row *r);

/* "rewrite (pass 2)" */
void rp_fleet_pass_name(char *out, size_t len, const struct rp_fleet_row *r);

/* How a wave's passes were put on one clock, for the tables' notes. */
const char *rp_fleet_clock_note(const struct rp_fleet *f);

/* a change's figures then and now: "55.0 -> 44.0 MiB/s", or for
 * RP_METRIC_VS_LATER "0.44x -> 0.31x (penalty 127% -> 223%)" */
void rp_change_then_now(char *out, size_t len, const struct rp_model *m,
			const struct rp_finding *f);

/* The one wording of a finding (words.c). */
void rp_finding_text(char *out, size_t len, const struct rp_model *m,
		     const struct rp_finding *f);

/* What was measured, from the profile the run recorded: "1G disks;
 * first-write, rewrite, rewrite; seq 1M writes at qd 4, direct; 5
 * repetitions; baseline rdm". */
void rp_measured_text(char *out, size_t len, const struct rp_model *m);

/* Its rule's name, as docs/reports.md lists it. */
const char *rp_finding_rule(const struct rp_finding *f);

/* a significance in words: "beyond noise", "within noise", ... */
const char *rp_sig_name(enum rp_sig s);

/* A finding as data, for report --json and the exports. */
json_t *rp_finding_json(const struct rp_model *m, const struct rp_finding *f);

#endif
