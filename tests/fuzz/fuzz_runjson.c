/*
 * fuzz_runjson.c - libFuzzer target: a run.json (the report's only input,
 * often an old file or one edited by hand) through the streaming reader,
 * the model with its statistics, report.csv's rows, the findings (against
 * itself as the older run, so every comparison and the gate are computed),
 * every form that renders them: summary.csv, the terminal table, the HTML
 * page and report --json.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "csv.h"
#include "findings.h"
#include "html.h"
#include "json.h"
#include "analysis.h"
#include "compare.h"
#include "gate.h"
#include "model.h"
#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[PATH_MAX], path[PATH_MAX + 16];
	struct pb_buf csv = PB_BUF_INIT(1 << 24), html = PB_BUF_INIT(1 << 24);
	struct pb_buf sum = PB_BUF_INIT(1 << 24);
	struct rp_rules rules = {.gate_pct = 10};
	struct rp_csv_rows rows;
	struct rp_item_sink sink;
	struct rp_findings fs;
	struct rp_model m;
	char err[PB_ERRBUF_SIZE];
	json_t *j;
	FILE *fp;

	if (!path[0]) {
		/* in $TMPDIR, which tests/fuzz/smoke.sh points into its own
		 * work directory and removes: one a process was left in /tmp
		 * (38 after a day's runs) */
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/pb-fuzz-runjson-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			return 0;
		snprintf(path, sizeof(path), "%s/run.json", dir);
	}
	fp = fopen(path, "w");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	if (rp_csv_rows_start(&rows, &csv, &sink) == PB_OK &&
	    rp_model_load(&m, dir, "rdm", &sink, err) == PB_OK &&
	    rp_findings_build(&fs, &m, &m, &rules) == PB_OK) {
		rp_summary_csv(&m, &fs, &sum);
		rp_write_html(&m, &m, &fs, &html);
		/* both layouts: the terminal's wrapped and capped, and
		 * summary.txt's */
		rp_text_table(
			&m, &fs,
			&(struct rp_text_opts){.width = 100, .color = true},
			&sum);
		rp_text_table(&m, &fs,
			      &(struct rp_text_opts){.wide = true, .all = true},
			      &sum);
		j = rp_model_json(&m, &fs);
		json_decref(j);
		rp_findings_dispose(&fs);
	}
	rp_model_dispose(&m);
	rp_csv_rows_dispose(&rows);
	pb_buf_dispose(&csv);
	pb_buf_dispose(&html);
	pb_buf_dispose(&sum);
	return 0;
}
