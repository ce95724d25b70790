/*
 * null.c - the example backend (fio's engines/null.c): every op a backend
 * must have, none of the work. Its run writes a runner's document of known
 * figures (passes at null.mib_per_s, thin's and lazy's first write
 * null.cost_pct% longer): the harness and reports against a known answer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

struct null_opts { /* its profile section, "null" */
	unsigned cost_pct, mib_per_s, noise_pct;
};

/* what the harness holds: its part first, the backend's after it */
struct nb {
	struct pb_backend base;
	const struct null_opts *o;
	uint64_t disk_size;
	char key[32]; /* the target's name for its lock and journal */
};

/* its options: rows of the one option table type, as every backend's */
#define ROW(n, f)                                                              \
	.name = n, .type = PB_OPT_UINT, .off = offsetof(struct null_opts, f)
static const struct pb_option null_options[] = {
	{ROW("cost_pct", cost_pct), .max = 1000, .def = "50",
	 .help = "thin's and lazy's first write's cost, % of a rewrite"},
	{ROW("mib_per_s", mib_per_s), .min = 1, .max = 1000000, .def = "1000",
	 .help = "every other pass's rate, MiB/s"},
	{ROW("noise_pct", noise_pct), .max = 100,
	 .help = "each pass's time off by this much, log-normal, seeded by "
		 "the disk: a known answer with a device's noise"},
	{.name = NULL},
};

static enum pb_error null_open(struct pb_backend **out,
			       const struct pb_profile *p, unsigned target,
			       char *errbuf)
{
	struct nb *b = calloc(1, sizeof(*b));

	*out = &b->base;
	if (!b)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	b->o = p->targets[target].bopts;
	b->disk_size = p->disk_size;
	snprintf(b->key, sizeof(b->key), "null:%u", target);
	return PB_OK;
}

/* check, prepare, create and destroy: nothing to do, no op (NULL) */
static enum pb_error null_describe(struct pb_backend *be, json_t *env,
				   char *errbuf)
{
	(void)be, (void)errbuf;
	json_object_set_new(env, "backend", json_string("null"));
	return PB_OK;
}

static enum pb_error null_disk(struct pb_backend *be, enum pb_mode mode,
			       unsigned seq, struct pb_disk *d, json_t *j,
			       char *errbuf)
{
	(void)j, (void)errbuf;
	d->mode = mode;
	d->size = ((struct nb *)be)->disk_size;
	d->provision_source = "none";
	snprintf(d->id, sizeof(d->id), "null-%u", seq);
	return PB_OK;
}

/* Each pass --passes names, at the known rates, as the runner says it. */
static enum pb_error null_run(struct pb_backend *be, const struct pb_disk *d,
			      const char *args, long timeout_s,
			      const struct pb_run_ctx *ctx,
			      const char *local_out, char *errbuf)
{
	const struct null_opts *o = ((struct nb *)be)->o;
	const char *at = strstr(args, "--passes ");
	char list[256] = "", *name, *save = NULL;
	json_t *doc, *passes = json_array();
	enum pb_error err = PB_OK;
	unsigned i = 0;
	uint64_t s = strtoull(d->id + 5, NULL, 10) * 0x2545f4914f6cdd1dull;

	(void)timeout_s, (void)ctx; /* its disk's seq in id: its noise */
	if (at)
		sscanf(at + 9, "%255s", list);
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save), i++) {
		double rate = o->mib_per_s;

		if (!strcmp(name, "first-write") &&
		    (d->mode == PB_MODE_THIN || d->mode == PB_MODE_LAZY))
			rate /= 1.0 + o->cost_pct / 100.0;
		if (o->noise_pct)
			rate *= exp(o->noise_pct / 100.0 * pb_normal(&s));
		json_array_append_new(
			passes,
			json_pack("{s:s,s:I,s:b,s:I,s:f,s:f}", "name", name,
				  "index", (json_int_t)i, "complete", 1,
				  "bytes", (json_int_t)d->size, "seconds",
				  (double)d->size / 1048576.0 / rate,
				  "mib_per_s", rate));
	}
	doc = json_pack("{s:s,s:s,s:o,s:b}", "tool", "provbench-runner",
			"version", "null", "passes", passes, "interrupted", 0);
	if (!doc || json_dump_file(doc, local_out, 0))
		err = pb_fail(errbuf, PB_ERR_IO, "%s: cannot write", local_out);
	json_decref(doc);
	return err;
}

static enum pb_error null_cleanup(struct pb_backend *be, json_t *entry,
				  bool mine, char *errbuf)
{
	(void)be, (void)entry, (void)mine, (void)errbuf;
	return PB_ERR_NOTFOUND; /* a leftover it made: never */
}

static const char *null_key(struct pb_backend *be)
{
	return ((struct nb *)be)->key;
}

static void null_close(struct pb_backend *be)
{
	free(be); /* all it holds */
}

const struct pb_backend_ops null_backend = {
	.name = "null",
	.help = "no disk, no guest: a runner's document of known figures",
	.modes = PB_MODE_BIT(PB_MODE_THIN) | PB_MODE_BIT(PB_MODE_LAZY) |
		 PB_MODE_BIT(PB_MODE_EAGER) | PB_MODE_BIT(PB_MODE_RDM),
	.options = null_options,
	.options_size = sizeof(struct null_opts),
	.open = null_open,
	.describe = null_describe,
	.plan_disk = null_disk,
	.run = null_run,
	.cleanup = null_cleanup,
	.target_key = null_key,
	.close = null_close,
};
