/*
 * json.h - report --json (json.c).
 */
#ifndef PB_RP_JSON_H
#define PB_RP_JSON_H

#include "model.h"

struct rp_findings;
struct rp_finding;

/* the targets-at-once rows of report --json */
json_t *rp_fleet_json(const struct rp_model *m);

/* The summary model as JSON (report --json; format RP_JSON_FORMAT): the
 * groups' figures, the headline's words and every finding as data. 2:
 * "headline" and "findings" as objects replace format 1's "verdict" and
 * "findings" lines. */
#define RP_JSON_FORMAT 2

json_t *rp_model_json(const struct rp_model *m, const struct rp_findings *fs);

#endif
