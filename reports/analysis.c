/*
 * analysis.c - the analysis floor's entry: a model loaded from one run or
 * several merged ones (refused, naming why, when they differ), read by
 * the floor below (read.c), each group's statistics taken (group.c),
 * the groups ordered as the page shows them and set against each other
 * (cross.c), the warm-up across passes judged: the report's model, which
 * every format renders.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "compare.h"
#include "model.h"
#include "read.h"

/* The order of the page and the files: by point, then in the profile's
 * "modes" order, so rows and colours stay put however the plan was
 * shuffled. */
static int mode_rank(const struct rp_model *m, enum pb_mode mode)
{
	json_t *modes = json_object_get(m->rd.resolved, "modes"), *v;
	size_t i;

	json_array_foreach(modes, i, v)
	{
		enum pb_mode pm;

		if (json_is_string(v) &&
		    pb_mode_parse(&pm, json_string_value(v)) && pm == mode)
			return (int)i;
	}
	return PB_MODE__COUNT + (int)mode; /* not in the profile: after */
}

static int group_cmp(const void *a, const void *b, void *model)
{
	const struct rp_group *x = a, *y = b;
	int rx = mode_rank(model, x->pmode);
	int ry = mode_rank(model, y->pmode);

	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	if (x->point != y->point)
		return x->point < y->point ? -1 : 1;
	if (strcmp(x->workload, y->workload))
		return strcmp(x->workload, y->workload);
	return rx < ry ? -1 : rx > ry;
}

enum pb_error rp_model_load(struct rp_model *m, const char *dir,
			    const char *baseline,
			    const struct rp_item_sink *sink, char *errbuf)
{
	return rp_model_load_many(m, &dir, 1, false, baseline, sink, errbuf);
}

enum pb_error rp_model_load_many(struct rp_model *m, const char *const *dirs,
				 size_t ndirs, bool force, const char *baseline,
				 const struct rp_item_sink *sink, char *errbuf)
{
	enum pb_error err;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (ndirs > 1) {
		m->more = calloc(ndirs - 1, sizeof(*m->more));
		if (!m->more)
			return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = rj_reader_open(&m->rd, dirs[0], errbuf);
	/* every run is checked against the first before anything is read:
	 * a merge of different experiments is refused, naming why */
	for (i = 1; !err && i < ndirs; i++) {
		char differ[1024];

		err = rj_reader_open(&m->more[i - 1], dirs[i], errbuf);
		if (err)
			break;
		m->nmore = i;
		rp_runs_differ(differ, sizeof(differ), &m->rd, &m->more[i - 1],
			       false);
		if (differ[0] && !force)
			err = pb_fail(errbuf, PB_ERR_INPUT,
				      "will not merge %s with %s: %s (--force "
				      "merges anyway)",
				      m->more[i - 1].run, m->rd.run, differ);
		else if (differ[0])
			rp_list_add(m->merge_note, sizeof(m->merge_note),
				    "%s: %s", m->more[i - 1].run, differ);
	}
	if (!err)
		err = rp_read_runs(m, baseline, sink, errbuf);
	if (err)
		goto out;
	for (i = 0; i < m->ng; i++)
		rp_group_finish(&m->g[i]);
	if (m->ng > 1)
		qsort_r(m->g, m->ng, sizeof(*m->g), group_cmp, m);
	rp_model_cross(m);
	rp_model_headroom(m);
	rp_model_warmup(m, NULL);
	/* one place (a target and workload point): sentences and tables
	 * need not name it in every line */
	for (i = 1; i < m->ng; i++)
		if (!rp_same_place(&m->g[i], m->g[0].target, m->g[0].point,
				   m->g[0].workload))
			break;
	if (m->ng && i == m->ng)
		for (i = 0; i < m->ng; i++)
			m->g[i].where[0] = '\0';
	err = rp_fleet_build(&m->fleet, m->ntinfo);
	if (err)
		pb_fail(errbuf, err, "out of memory");
out:
	/* a model that failed to load holds nothing */
	if (err)
		rp_model_dispose(m);
	return err;
}
