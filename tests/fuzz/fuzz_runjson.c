/*
 * fuzz_runjson.c - libFuzzer target: a run.json (the report's only input,
 * often an old file or one edited by hand) through the streaming reader,
 * the model with its statistics, report.csv's rows, the comparison and
 * the HTML page.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "report_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[] = "/tmp/pb-fuzz-runjson-XXXXXX";
	static char path[64];
	struct pb_buf csv = PB_BUF_INIT(1 << 24), html = PB_BUF_INIT(1 << 24);
	struct rp_model m;
	struct rp_change c;
	char err[PB_ERRBUF_SIZE];
	FILE *fp;
	size_t i;

	if (!path[0]) {
		if (!mkdtemp(dir))
			return 0;
		snprintf(path, sizeof(path), "%s/run.json", dir);
	}
	fp = fopen(path, "w");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	if (rp_model_load(&m, dir, "rdm", &csv, err) == PB_OK) {
		rp_write_html(&m, &m, &html);
		for (i = 0; i < m.ng; i++)
			rp_compare(&c, &m, &m.g[i]);
	}
	rp_model_dispose(&m);
	pb_buf_dispose(&csv);
	pb_buf_dispose(&html);
	return 0;
}
