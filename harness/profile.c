/*
 * profile.c - experiment profiles (JSON, jansson) into plain option
 * structs; nothing past this file sees a json_t of the profile.
 *
 * Strict: unknown keys and wrong types are errors, named by file:line:col
 * for syntax and by file: key.path for content. Sizes are "8G"-style
 * strings or integers; any string may be "env:NAME".
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "stats.h"

struct ld {
	const char *file;
	char *errbuf;
	/* every "env:NAME" whose variable is unset, said at once at the
	 * end ("vsphere.vm (PROVBENCH_VM), vsphere.lun (PROVBENCH_LUN)") */
	char unset[512];
	unsigned nunset;
	/* the same for rdm's settings (PB_OPT_F_RDM), kept apart: a run
	 * without rdm needs none of them */
	char unset_rdm[256];
	unsigned nunset_rdm;
	bool in_rdm; /* reading such a setting now */
};

static enum pb_error bad(struct ld *l, const char *path, const char *why)
{
	return pb_fail(l->errbuf, PB_ERR_INPUT, "%s: %s: %s", l->file, path,
		       why);
}

/* "unknown key", and the one a typo most likely meant, as for passes */
static enum pb_error unknown_key(struct ld *l, const char *path,
				 const char *key, const char *const *allowed)
{
	const char *near = pb_closest(key, strlen(key), allowed);
	char why[160];

	snprintf(why, sizeof(why), "unknown key%s%s%s",
		 near ? " (did you mean " : "", near ? near : "",
		 near ? "?)" : "");
	return bad(l, path, why);
}

/* Every key of obj must be in allowed. */
static enum pb_error only_keys(struct ld *l, json_t *obj, const char *path,
			       const char *const *allowed)
{
	const char *key, *const *a;
	json_t *v;
	char p[256];

	if (!json_is_object(obj))
		return bad(l, path, "must be an object");
	json_object_foreach(obj, key, v)
	{
		for (a = allowed; *a && strcmp(*a, key); a++)
			;
		if (!*a) {
			snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "",
				 key);
			(void)v;
			return unknown_key(l, p, key, allowed);
		}
	}
	return PB_OK;
}

static void join(char *out, size_t len, const char *path, const char *key)
{
	snprintf(out, len, "%s%s%s", path, *path ? "." : "", key);
}

/* A string value as the profile means it: "env:NAME" is that variable's
 * value, an unset one an error naming it. */
static enum pb_error resolve_env(struct ld *l, const char *p, const char **s)
{
	const char *e;

	if (strncmp(*s, "env:", 4))
		return PB_OK;
	e = getenv(*s + 4);
	if (!e) {
		/* noted, and the load goes on to find the others; the
		 * value stays "env:NAME" until the load fails at its end */
		char *list = l->in_rdm ? l->unset_rdm : l->unset;
		size_t cap = l->in_rdm ? sizeof(l->unset_rdm)
				       : sizeof(l->unset),
		       n = strlen(list);
		char one[300];

		/* a section is read for each target too: once each */
		snprintf(one, sizeof(one), "%s (%s)", p, *s + 4);
		if (strstr(list, one))
			return PB_OK;
		snprintf(list + n, cap - n, "%s%s", n ? ", " : "", one);
		if (l->in_rdm)
			l->nunset_rdm++;
		else
			l->nunset++;
		return PB_OK;
	}
	*s = e;
	return PB_OK;
}

/* A string value, with "env:NAME" read from the environment. */
static enum pb_error get_str(struct ld *l, json_t *obj, const char *path,
			     const char *key, char **out)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	char p[256];
	enum pb_error err;

	if (!v || json_is_null(v))
		return PB_OK;
	join(p, sizeof(p), path, key);
	if (!json_is_string(v))
		return bad(l, p, "must be a string");
	s = json_string_value(v);
	err = resolve_env(l, p, &s);
	if (err)
		return err;
	free(*out);
	*out = strdup(s);
	return *out ? PB_OK : PB_ERR_NOMEM;
}

/* A disk's size, read as vSphere and govc read one (8GB is 8 GiB);
 * *si_binary says so happened, for check to mention. */
static enum pb_error size_of(struct ld *l, json_t *v, const char *p,
			     uint64_t *out, bool *si_binary)
{
	char why[PB_ERRBUF_SIZE] = "";
	const char *s;
	enum pb_error err;

	if (json_is_integer(v)) {
		if (json_integer_value(v) <= 0)
			return bad(l, p, "must be more than 0");
		*out = (uint64_t)json_integer_value(v);
		return PB_OK;
	}
	if (!json_is_string(v))
		return bad(l, p, "must be a size like \"8G\" or a number");
	s = json_string_value(v);
	err = resolve_env(l, p, &s);
	if (err)
		return err;
	if (pb_size_parse_noted(out, s, si_binary, why))
		return bad(l, p, why);
	if (!*out)
		return bad(l, p, "must be more than 0");
	return PB_OK;
}

static enum pb_error get_disk_size(struct ld *l, json_t *obj, const char *path,
				   const char *key, uint64_t *out,
				   bool *si_binary)
{
	json_t *v = json_object_get(obj, key);
	char p[256];

	if (!v)
		return PB_OK;
	join(p, sizeof(p), path, key);
	return size_of(l, v, p, out, si_binary);
}

static enum pb_error get_kv(struct ld *l, json_t *obj, const char *path,
			    const char *key, struct pb_kv *kv)
{
	json_t *o = json_object_get(obj, key), *v;
	const char *k;
	char p[256];

	if (!o)
		return PB_OK;
	join(p, sizeof(p), path, key);
	if (!json_is_object(o))
		return bad(l, p, "must be an object of strings");
	json_object_foreach(o, k, v)
	{
		if (kv->n == PB_MAX_KV)
			return bad(l, p, "too many entries");
		if (!json_is_string(v))
			return bad(l, p, "values must be strings");
		kv->key[kv->n] = strdup(k);
		kv->val[kv->n] = strdup(json_string_value(v));
		if (!kv->key[kv->n] || !kv->val[kv->n])
			return PB_ERR_NOMEM;
		kv->n++;
	}
	return PB_OK;
}

static void kv_dispose(struct pb_kv *kv)
{
	unsigned i;

	for (i = 0; i < kv->n; i++) {
		free(kv->key[i]);
		free(kv->val[i]);
	}
	kv->n = 0;
}

/*
 * A JSON value as the text the runner's option table reads: a string as
 * it is ("env:NAME" resolved), a number in decimal, true or false, a list
 * of strings joined by commas ("passes"). The same text a matrix point is
 * named by.
 */
static enum pb_error json_text(struct ld *l, json_t *v, const char *p,
			       char *out, size_t len)
{
	size_t i, n = 0;
	json_t *e;

	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		enum pb_error err = resolve_env(l, p, &s);

		if (err)
			return err;
		if (strlen(s) >= len)
			return bad(l, p, "value too long");
		snprintf(out, len, "%s", s);
	} else if (json_is_integer(v)) {
		snprintf(out, len, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		snprintf(out, len, "%.17g", json_real_value(v));
	} else if (json_is_boolean(v)) {
		snprintf(out, len, "%s", json_is_true(v) ? "true" : "false");
	} else if (json_is_array(v)) {
		out[0] = '\0';
		json_array_foreach(v, i, e)
		{
			if (!json_is_string(e))
				return bad(l, p, "must be a list of names");
			n += (size_t)snprintf(out + n, n < len ? len - n : 0,
					      "%s%s", i ? "," : "",
					      json_string_value(e));
		}
		if (n >= len)
			return bad(l, p, "list too long");
	} else {
		return bad(l, p,
			   "must be a string, a number, true or false, "
			   "or a list");
	}
	return PB_OK;
}

/* One workload key's value (also used for matrix values): through the
 * runner's own option table, so a profile is valid exactly when the
 * runner accepts its arguments. text gets the value as written. */
static enum pb_error workload_key(struct ld *l, struct pb_profile *pr,
				  struct runner_opts *w, const char *key,
				  json_t *v, const char *p, char *text,
				  size_t tlen)
{
	const struct pb_option *opt = runner_option_by_key(key);
	char why[PB_ERRBUF_SIZE] = "";
	enum pb_error err;

	if (!opt) {
		const char *keys[96];
		size_t n = 0;

		for (opt = runner_options; opt->name && n < 95; opt++)
			if (opt->flags & PB_OPT_F_WORKLOAD)
				keys[n++] = runner_option_key(opt);
		keys[n] = NULL;
		return unknown_key(l, p, key, keys);
	}
	err = json_text(l, v, p, text, tlen);
	if (err)
		return err;
	if (!strcmp(key, "command")) {
		/* shell text run in the guest: from the profile only, kept
		 * by the profile, shown verbatim in the report */
		if (!json_is_string(v) || !*text)
			return bad(l, p, "must be a command line");
		free(pr->command);
		pr->command = strdup(text);
		return pr->command ? PB_OK : PB_ERR_NOMEM;
	}
	if (opt->type == PB_OPT_BOOL && !json_is_boolean(v))
		return bad(l, p, "must be true or false");
	if (opt->type == PB_OPT_SIZE || opt->type == PB_OPT_SIZE32) {
		uint64_t ignored;
		bool si = false;

		if (!pb_size_parse_noted(&ignored, text, &si, why))
			pr->disk_size_si |= si;
	}
	if (runner_option_set(w, opt, text, why))
		/* "workload.passes[1]: unknown pass ..." */
		return pb_fail(l->errbuf, PB_ERR_INPUT, "%s: %s%s%s", l->file,
			       p, why[0] == '[' ? "" : ": ", why);
	return PB_OK;
}

static enum pb_error load_workload(struct ld *l, json_t *o,
				   struct pb_profile *pr)
{
	const char *key;
	json_t *v;
	char p[256], text[4096];
	enum pb_error err = PB_OK;

	if (!o)
		return PB_OK;
	if (!json_is_object(o))
		return bad(l, "workload", "must be an object");
	json_object_foreach(o, key, v)
	{
		join(p, sizeof(p), "workload", key);
		err = workload_key(l, pr, &pr->points[0], key, v, p, text,
				   sizeof(text));
		if (err)
			break;
	}
	return err;
}

/* "bs=64K, passes=first-write,rewrite": the description of a point */
static enum pb_error describe(char **desc, const char *key, const char *text)
{
	size_t n = *desc ? strlen(*desc) : 0;
	char *d = realloc(*desc, n + strlen(key) + strlen(text) + 4);

	if (!d)
		return PB_ERR_NOMEM;
	sprintf(d + n, "%s%s=%s", n ? " " : "", key, text);
	*desc = d;
	return PB_OK;
}

/* The backend's option named key, or NULL. */
static const struct pb_option *backend_opt(const struct pb_backend_ops *be,
					   const char *key)
{
	const struct pb_option *d;

	for (d = be->options; d && d->name; d++)
		if (!strcmp(d->name, key))
			return d;
	return NULL;
}

/* A matrix value of disk_size: the point's own disk, named as written. */
static enum pb_error matrix_disk(struct ld *l, struct pb_profile *p,
				 unsigned point, json_t *v, const char *vp,
				 char *text, size_t len)
{
	bool si = false;
	enum pb_error err = size_of(l, v, vp, &p->point_disk[point], &si);

	if (err)
		return err;
	p->disk_size_si |= si;
	if (json_is_string(v))
		snprintf(text, len, "%s", json_string_value(v));
	else
		snprintf(text, len, "%lld", (long long)json_integer_value(v));
	return PB_OK;
}

/* matrix: {"bs": ["64K", "1M"], "qd": [1, 32]} -> cartesian points, each
 * described in full by the values that name it; disk_size gives each
 * point its own disk */
static enum pb_error load_matrix(struct ld *l, json_t *m, struct pb_profile *p)
{
	const struct pb_option *opt;
	const char *key;
	json_t *vals;
	char path[256], text[4096];
	unsigned n, i, k;
	enum pb_error err;

	if (!m)
		return PB_OK;
	if (!json_is_object(m))
		return bad(l, "matrix", "must be an object");
	json_object_foreach(m, key, vals)
	{
		bool disk = !strcmp(key, "disk_size");

		join(path, sizeof(path), "matrix", key);
		if (backend_opt(p->backend, key) ||
		    !strcmp(key, "guest_sysctl"))
			continue; /* a target key: load_targets' */
		opt = disk ? NULL : runner_option_by_key(key);
		if (!disk && (!opt || !(opt->flags & PB_OPT_F_MATRIX)))
			return bad(l, path,
				   opt ? "cannot vary in a matrix"
				       : "unknown key");
		if (!json_is_array(vals) || !json_array_size(vals))
			return bad(l, path, "must be a non-empty list");
		n = p->npoints;
		if (n * json_array_size(vals) > PB_MAX_POINTS)
			return bad(l, path,
				   "too many matrix points (64 at most)");
		/* every existing point times every value of this key */
		for (k = 1; k < json_array_size(vals); k++)
			for (i = 0; i < n; i++) {
				p->points[k * n + i] = p->points[i];
				p->point_disk[k * n + i] = p->point_disk[i];
				p->point_desc[k * n + i] =
					p->point_desc[i]
						? strdup(p->point_desc[i])
						: NULL;
				if (p->point_desc[i] &&
				    !p->point_desc[k * n + i])
					return PB_ERR_NOMEM;
			}
		p->npoints = n * (unsigned)json_array_size(vals);
		for (k = 0; k < json_array_size(vals); k++) {
			json_t *v = json_array_get(vals, k);
			char vp[300];

			snprintf(vp, sizeof(vp), "%s[%u]", path, k);
			for (i = 0; i < n; i++) {
				err = disk ? matrix_disk(l, p, k * n + i, v, vp,
							 text, sizeof(text))
					   : workload_key(l, p,
							  &p->points[k * n + i],
							  key, v, vp, text,
							  sizeof(text));
				if (!err)
					err = describe(
						&p->point_desc[k * n + i], key,
						text);
				if (err)
					return err;
			}
		}
	}
	return PB_OK;
}

/* ---- a backend's section, through its option table ---- */

#define FIELD(opts, d, type) ((type *)((char *)(opts) + (d)->off))

/* One key's value from text (a default, or "env:"-resolved JSON), by the
 * one applier (common/option.c); an object's and the loader's own rows
 * are read where they are (get_kv, the custom keys). */
static enum pb_error opt_set_text(struct ld *l, void *opts,
				  const struct pb_option *d, const char *p,
				  const char *text)
{
	char why[PB_ERRBUF_SIZE] = "";
	enum pb_error err;

	if (d->type == PB_OPT_KV || d->type == PB_OPT_CUSTOM)
		return PB_OK;
	err = pb_option_set(opts, d, text, PB_OPT_SET_OWN | PB_OPT_SET_KEY,
			    why);
	if (err == PB_ERR_USAGE)
		return bad(l, p, why);
	if (err)
		return pb_fail(l->errbuf, err, "%s: %s", p, why);
	return PB_OK;
}

static enum pb_error opt_from_json(struct ld *l, void *opts,
				   const struct pb_option *d, json_t *sec,
				   const char *name)
{
	json_t *v = json_object_get(sec, d->name);
	char p[256], text[4096];
	enum pb_error err;

	join(p, sizeof(p), name, d->name);
	if (json_is_null(v))
		return PB_OK;
	switch (d->type) {
	case PB_OPT_CUSTOM:
		return PB_OK;
	case PB_OPT_KV:
		return get_kv(l, sec, name, d->name,
			      FIELD(opts, d, struct pb_kv));
	case PB_OPT_BOOL:
		if (!json_is_boolean(v))
			return bad(l, p, "must be true or false");
		*FIELD(opts, d, bool) = json_is_true(v);
		return PB_OK;
	case PB_OPT_UINT:
	case PB_OPT_INT:
	case PB_OPT_U64:
		if (!json_is_integer(v) && !json_is_string(v))
			return bad(l, p, "must be a whole number");
		break;
	case PB_OPT_STR:
	case PB_OPT_CHOICE:
		if (!json_is_string(v))
			return bad(l, p, "must be a string");
		break;
	case PB_OPT_PCT:
		if (!json_is_number(v) && !json_is_string(v))
			return bad(l, p, "must be a number");
		break;
	case PB_OPT_SIZE:
		if (!json_is_string(v) && !json_is_integer(v))
			return bad(l, p,
				   "must be a size like \"8G\" or a "
				   "number");
		break;
	default: /* the runner's types: the applier refuses them */
		break;
	}
	err = json_text(l, v, p, text, sizeof(text));
	return err ? err : opt_set_text(l, opts, d, p, text);
}

/* What rows put in opts (strings, objects), freed. */
static void rows_dispose(const struct pb_option *rows, void *opts)
{
	const struct pb_option *d;

	for (d = rows; opts && d && d->name; d++)
		if (d->type == PB_OPT_STR || d->type == PB_OPT_CHOICE)
			free(*FIELD(opts, d, char *));
		else if (d->type == PB_OPT_KV)
			kv_dispose(FIELD(opts, d, struct pb_kv));
}

static void opts_dispose(const struct pb_backend_ops *be, void *opts)
{
	if (!opts)
		return;
	rows_dispose(be->options, opts);
	free(opts);
}

/*
 * One options struct: the table's defaults, then the section, then a
 * target's own keys (tgt, at path tpath), then the matrix's backend
 * values for it (mx), each checked by the table; then, with rules, the
 * backend's own rules. *out is allocated here and the caller's, even on
 * failure.
 */
static enum pb_error fill_opts(struct ld *l, const struct pb_profile *p,
			       const struct pb_backend_ops *be, json_t *sec,
			       json_t *tgt, const char *tpath, json_t *mx,
			       bool rules, void **out)
{
	const struct pb_option *d;
	char why[PB_ERRBUF_SIZE] = "";
	enum pb_error err = PB_OK;

	*out = calloc(1, be->options_size ? be->options_size : 1);
	if (!*out)
		return PB_ERR_NOMEM;
	for (d = be->options; !err && d && d->name; d++) {
		char path[256];

		join(path, sizeof(path), be->name, d->name);
		if (d->def)
			err = opt_set_text(l, *out, d, path, d->def);
	}
	for (d = be->options; !err && d && d->name; d++) {
		l->in_rdm = d->flags & PB_OPT_F_RDM;
		if (sec && json_object_get(sec, d->name))
			err = opt_from_json(l, *out, d, sec, be->name);
		if (!err && tgt && json_object_get(tgt, d->name))
			err = opt_from_json(l, *out, d, tgt, tpath);
		if (!err && mx && json_object_get(mx, d->name))
			err = opt_from_json(l, *out, d, mx, "matrix");
		l->in_rdm = false;
	}
	if (!err && rules && be->options_check) {
		err = be->options_check(*out, p, why);
		if (err && tgt)
			pb_fail(l->errbuf, err, "%s: %s: %s", l->file, tpath,
				why);
		else if (err)
			pb_fail(l->errbuf, err, "%s: %s", l->file, why);
	}
	return err;
}

/* "datastore=nfs01 vm=lab-2": a target named by the keys that make it */
static enum pb_error target_name(char **out, json_t *tgt, json_t *mx)
{
	json_t *parts[2] = {tgt, mx}, *v;
	const char *key;
	char text[512];
	enum pb_error err = PB_OK;

	for (unsigned i = 0; !err && i < 2; i++)
		json_object_foreach(parts[i], key, v)
		{
			if (!strcmp(key, "name"))
				continue;
			if (json_is_object(v)) {
				/* settings: "vm.dirty_ratio=10 vm.swappiness=0" */
				const char *k2;
				json_t *v2;

				json_object_foreach(v, k2, v2)
				{
					if (!err)
						err = describe(
							out, k2,
							json_is_string(v2)
								? json_string_value(
									  v2)
								: "?");
				}
				continue;
			}
			if (json_is_string(v))
				snprintf(text, sizeof(text), "%s",
					 json_string_value(v));
			else if (json_is_boolean(v))
				snprintf(text, sizeof(text), "%s",
					 json_is_true(v) ? "true" : "false");
			else
				snprintf(text, sizeof(text), "%lld",
					 (long long)json_integer_value(v));
			err = describe(out, key, text);
		}
	if (!err && !*out)
		*out = strdup("");
	return *out ? err : PB_ERR_NOMEM;
}

/*
 * The targets: each of "targets" (or the section alone) times every
 * combination of the matrix's backend keys ("matrix": {"datastore":
 * [...]}), in that order; each named by its "name" or by the keys that
 * make it, names unique.
 */
static enum pb_error load_targets(struct ld *l, struct pb_profile *p,
				  json_t *root, json_t *sec)
{
	const struct pb_backend_ops *be = p->backend;
	json_t *list = json_object_get(root, "targets");
	json_t *matrix = json_object_get(root, "matrix"), *combos, *vals, *t;
	const char *keys[66], *key;
	char path[64];
	enum pb_error err = PB_OK;
	size_t n = 0, i, k, c;
	const struct pb_option *d;

	for (d = be->options; d && d->name && n < 63; d++)
		keys[n++] = d->name;
	keys[n++] = "name";
	keys[n++] = "guest_sysctl";
	keys[n] = NULL;
	if (list && (!json_is_array(list) || !json_array_size(list)))
		return bad(l, "targets", "must be a non-empty list of objects");
	/* the matrix's backend keys, as a list of {key: value} objects */
	combos = json_array();
	if (!combos)
		return PB_ERR_NOMEM;
	json_array_append_new(combos, json_object());
	json_object_foreach(matrix, key, vals)
	{
		json_t *next;

		if (!backend_opt(be, key) && strcmp(key, "guest_sysctl"))
			continue;
		if (!json_is_array(vals) || !json_array_size(vals)) {
			char mp[128];

			join(mp, sizeof(mp), "matrix", key);
			err = bad(l, mp, "must be a non-empty list");
			goto out;
		}
		next = json_array();
		json_array_foreach(combos, c, t)
		{
			json_t *v;

			json_array_foreach(vals, k, v)
			{
				json_t *o = json_deep_copy(t);

				json_object_set(o, key, v);
				json_array_append_new(next, o);
			}
		}
		json_decref(combos);
		combos = next;
	}
	n = list ? json_array_size(list) : 1;
	if (n * json_array_size(combos) > PB_MAX_TARGETS) {
		err = bad(l, list ? "targets" : "matrix",
			  "too many targets (64 at most)");
		goto out;
	}
	for (i = 0; !err && i < n; i++) {
		json_t *tgt = list ? json_array_get(list, i) : NULL;
		json_t *name;

		snprintf(path, sizeof(path), "targets[%zu]", i);
		if (tgt)
			err = only_keys(l, tgt, path, keys);
		name = tgt ? json_object_get(tgt, "name") : NULL;
		if (!err && name &&
		    (!json_is_string(name) || !*json_string_value(name) ||
		     strlen(json_string_value(name)) > 64)) {
			char np[80];

			snprintf(np, sizeof(np), "%s.name", path);
			err = bad(l, np,
				  "must be a string of 1 to 64 characters");
		}
		json_array_foreach(combos, c, t)
		{
			struct pb_target *to = &p->targets[p->ntargets++];

			if (err)
				break;
			err = fill_opts(l, p, p->backend, sec, tgt, path, t,
					true, &to->bopts);
			/* the guest's settings of this arm: the target's, the
			 * matrix's, else the profile's */
			if (!err)
				err = get_kv(l, tgt, path, "guest_sysctl",
					     &to->sysctl);
			if (!err && !to->sysctl.n)
				err = get_kv(l, t, "matrix", "guest_sysctl",
					     &to->sysctl);
			to->has_sysctl = to->sysctl.n > 0;
			/* what makes it, to tell two arms on one place */
			if (!err) {
				to->spec = json_deep_copy(t);
				if (tgt)
					json_object_update(to->spec, tgt);
				if (to->spec)
					json_object_del(to->spec, "name");
				else
					err = PB_ERR_NOMEM;
			}
			if (!err && name && json_array_size(combos) > 1) {
				/* "nfs datastore=nfs01" */
				to->name = strdup(json_string_value(name));
				err = to->name ? target_name(&to->name, NULL, t)
					       : PB_ERR_NOMEM;
			} else if (!err && name) {
				to->name = strdup(json_string_value(name));
				err = to->name ? PB_OK : PB_ERR_NOMEM;
			} else if (!err) {
				err = target_name(&to->name, tgt, t);
			}
		}
	}
	for (i = 0; !err && i < p->ntargets; i++)
		for (k = 0; k < i; k++)
			if (!strcmp(p->targets[i].name, p->targets[k].name)) {
				char why[200];

				snprintf(why, sizeof(why),
					 "two targets are both named '%s'",
					 p->targets[i].name);
				err = bad(l, "targets", why);
				break;
			}
out:
	json_decref(combos);
	return err;
}

/*
 * "host_baseline": each target gets a twin, the host backend on the place
 * its disks are backed by (the backend says where: host_twin), measured
 * with the same workload just before it (the plan puts each twin's item
 * first). The seeds' question, hdparm on the host against the guest: what
 * does virtualization cost here.
 */
static enum pb_error load_twins(struct ld *l, struct pb_profile *p,
				json_t *root)
{
	const struct pb_backend_ops *host = pb_backend_find("host");
	json_t *v = json_object_get(root, "host_baseline");
	unsigned n = p->ntargets, i;
	enum pb_error err = PB_OK;
	char why[PB_ERRBUF_SIZE] = "";

	if (v && !json_is_boolean(v))
		return bad(l, "host_baseline", "must be true or false");
	if (!json_is_true(v))
		return PB_OK;
	if (!p->backend->host_twin) {
		snprintf(why, sizeof(why),
			 "backend %s has no host beside it to measure (qemu "
			 "has; the host backend is the host alone)",
			 p->backend->name);
		return bad(l, "host_baseline", why);
	}
	if (p->concurrency > 1)
		return bad(l, "host_baseline",
			   "with concurrency 1 only: the host's passes and "
			   "the guest's would share the disks' filesystem");
	if (2 * n > PB_MAX_TARGETS)
		return bad(l, "host_baseline", "too many targets (32 at most)");
	p->host_baseline = true;
	for (i = 0; !err && i < n; i++) {
		struct pb_target *g = &p->targets[i], *to = &p->targets[n + i];
		json_t *sec = json_object();
		char name[160];

		if (!sec)
			return PB_ERR_NOMEM;
		err = p->backend->host_twin(g->bopts, sec, why);
		if (err)
			err = pb_fail(l->errbuf, err, "%s: host_baseline: %s",
				      l->file, why);
		if (!err)
			err = fill_opts(l, p, host, sec, NULL, NULL, NULL,
					false, &to->bopts);
		json_decref(sec);
		if (err)
			break;
		/* "guest" and "host", or "fast guest" and "fast host" */
		if (!*g->name) {
			free(g->name);
			g->name = strdup("guest");
		}
		snprintf(name, sizeof(name), "%s%shost",
			 strcmp(g->name, "guest") ? g->name : "",
			 strcmp(g->name, "guest") ? " " : "");
		to->name = strdup(name);
		to->backend = host;
		to->twin = true;
		to->twin_of = i;
		p->ntargets++;
		p->ntwins++;
		if (!g->name || !to->name)
			err = PB_ERR_NOMEM;
	}
	return err;
}

/*
 * The backend's section: its defaults, then the profile's values, each
 * checked by its table, then the backend's own rules; then the targets.
 * Another backend's section is an error (it would silently not apply),
 * and so is a mode or a setting this backend cannot honour.
 */
static enum pb_error load_backend(struct ld *l, struct pb_profile *p,
				  json_t *root)
{
	const struct pb_backend_ops *be = p->backend, *const * all;
	const struct pb_option *d;
	json_t *sec = json_object_get(root, be->name);
	const char *keys[64];
	char why[PB_ERRBUF_SIZE] = "", made[128] = "";
	enum pb_error err = PB_OK;
	size_t n = 0, k = 0;
	unsigned i;

	for (all = pb_backend_list(); *all; all++)
		if (*all != be && json_object_get(root, (*all)->name)) {
			snprintf(why, sizeof(why), "only for backend %s",
				 (*all)->name);
			return bad(l, (*all)->name, why);
		}
	if (!sec && be->section_required) {
		snprintf(why, sizeof(why), "required for backend %s", be->name);
		return bad(l, be->name, why);
	}
	for (i = 0; i < PB_MODE__COUNT; i++)
		if (be->modes & PB_MODE_BIT(i))
			k += (size_t)snprintf(
				made + k,
				k < sizeof(made) ? sizeof(made) - k : 0, "%s%s",
				k ? ", " : "", pb_mode_name((enum pb_mode)i));
	for (i = 0; i < p->nmodes; i++)
		if (!(be->modes & PB_MODE_BIT(p->modes[i]))) {
			snprintf(why, sizeof(why),
				 "%s: backend %s cannot make it (it makes %s)",
				 pb_mode_name(p->modes[i]), be->name, made);
			return bad(l, "modes", why);
		}
	if ((p->sysctl.n || json_object_get(json_object_get(root, "matrix"),
					    "guest_sysctl")) &&
	    !(be->caps & PB_CAP_GUEST_SYSCTL)) {
		snprintf(why, sizeof(why), "backend %s cannot apply it",
			 be->name);
		return bad(l, "guest_sysctl", why);
	}
	for (d = be->options; d && d->name; d++)
		if (n < sizeof(keys) / sizeof(keys[0]) - 1)
			keys[n++] = d->name;
	keys[n] = NULL;
	if (sec)
		err = only_keys(l, sec, be->name, keys);
	/* the section alone; the backend's rules across keys are the
	 * targets' to meet (with targets, each may name its own VM) */
	if (!err)
		err = fill_opts(l, p, be, sec, NULL, NULL, NULL, false,
				&p->bopts);
	if (!err)
		err = load_targets(l, p, root, sec);
	for (i = 0; !err && i < p->ntargets; i++)
		if (p->targets[i].has_sysctl &&
		    !(be->caps & PB_CAP_GUEST_SYSCTL)) {
			snprintf(why, sizeof(why), "backend %s cannot apply it",
				 be->name);
			err = bad(l, "guest_sysctl", why);
		}
	return err ? err : load_twins(l, p, root);
}

#undef FIELD

/* "backend": the one named, or the registry's first (the local one). */
static enum pb_error backend_named(struct ld *l, struct pb_profile *p,
				   json_t *root)
{
	const struct pb_backend_ops *const *be;
	char *name = NULL, why[PB_ERRBUF_SIZE];
	enum pb_error err;
	size_t k;

	err = get_str(l, root, "", "backend", &name);
	if (err)
		goto out;
	p->backend = name ? pb_backend_find(name) : pb_backend_list()[0];
	if (p->backend)
		goto out;
	/* a long name is cut: the list of backends must fit after it */
	k = (size_t)snprintf(why, sizeof(why), "%.64s: unknown backend (",
			     name);
	for (be = pb_backend_list(); *be && k < sizeof(why); be++)
		k += (size_t)snprintf(
			why + k, k < sizeof(why) ? sizeof(why) - k : 0, "%s%s",
			be == pb_backend_list() ? ""
			: be[1]			? ", "
						: " or ",
			(*be)->name);
	snprintf(why + strlen(why), sizeof(why) - strlen(why), ")");
	err = bad(l, "backend", why);
out:
	free(name);
	return err;
}

/*
 * A table's rows over one object: their defaults, the object's values,
 * then the required ones and each row's rule. CUSTOM rows are the
 * caller's to read.
 */
static enum pb_error rows_apply(struct ld *l, const struct pb_option *rows,
				void *opts, json_t *obj, const char *path)
{
	const struct pb_option *d;
	char p[256], why[PB_ERRBUF_SIZE];
	enum pb_error err = PB_OK;

	for (d = rows; !err && d->name; d++) {
		join(p, sizeof(p), path, d->name);
		if (d->def && d->type != PB_OPT_CUSTOM)
			err = opt_set_text(l, opts, d, p, d->def);
	}
	for (d = rows; !err && d->name; d++)
		if (json_object_get(obj, d->name))
			err = opt_from_json(l, opts, d, obj, path);
	for (d = rows; !err && d->name; d++) {
		json_t *v = json_object_get(obj, d->name);

		join(p, sizeof(p), path, d->name);
		if ((d->flags & PB_OPT_F_REQUIRED) && (!v || json_is_null(v)))
			err = bad(l, p, "required");
		else if (d->check && d->type != PB_OPT_CUSTOM &&
			 !d->check(opts, v != NULL, why, sizeof(why)))
			err = bad(l, p, why);
	}
	return err;
}

/* "modes": a list of distinct modes */
static enum pb_error load_modes(struct ld *l, struct pb_profile *p,
				json_t *modes)
{
	json_t *v;
	size_t i;

	if (!json_is_array(modes) || !json_array_size(modes))
		return bad(l, "modes",
			   "required: a list of thin, lazy, eager, "
			   "rdm, rdmp");
	json_array_foreach(modes, i, v)
	{
		enum pb_mode m;
		unsigned j;

		if (!json_is_string(v) ||
		    !pb_mode_parse(&m, json_string_value(v))) {
			const char *w =
				json_is_string(v) ? json_string_value(v) : "";
			char hint[256];

			return pb_fail(l->errbuf, PB_ERR_INPUT,
				       "%s: modes[%zu]: unknown mode '%s' (%s)",
				       l->file, i, w,
				       pb_choices_hint(hint, sizeof(hint), w,
						       strlen(w),
						       pb_mode_names()));
		}
		for (j = 0; j < p->nmodes; j++)
			if (p->modes[j] == m)
				return pb_fail(l->errbuf, PB_ERR_INPUT,
					       "%s: modes[%zu]: '%s' is listed "
					       "twice",
					       l->file, i, pb_mode_name(m));
		p->modes[p->nmodes++] = m;
	}
	return PB_OK;
}

/* "baseline": one of modes */
static enum pb_error load_baseline(struct ld *l, struct pb_profile *p,
				   json_t *v)
{
	enum pb_mode bm;
	unsigned bi;

	if (!v)
		return PB_OK;
	if (!json_is_string(v) || !pb_mode_parse(&bm, json_string_value(v)))
		return bad(l, "baseline", "must be a mode");
	for (bi = 0; bi < p->nmodes && p->modes[bi] != bm; bi++)
		;
	if (bi == p->nmodes)
		return bad(l, "baseline", "must be one of modes");
	p->baseline = bm;
	p->has_baseline = true;
	return PB_OK;
}

/*
 * The precision form's keys across each other: asked by precision_pct
 * or threshold_pct, repetitions then the most a mode runs, and each
 * look from min_repetitions to it one the sequential rule can take
 * (rp_seq_look_alpha's).
 */
static enum pb_error load_adaptive(struct ld *l, struct pb_profile *p,
				   json_t *root)
{
	char why[256];

	p->threshold_set = json_object_get(root, "threshold_pct") != NULL;
	p->gate_set = json_object_get(root, "gate_pct") != NULL;
	p->adaptive = p->precision_pct > 0 || p->threshold_set;
	if (!p->adaptive && p->gate_set)
		return bad(l, "gate_pct",
			   "needs precision_pct or threshold_pct: the gate's "
			   "question goes with a mode's own");
	if (!p->adaptive) {
		if (json_object_get(root, "min_repetitions"))
			return bad(l, "min_repetitions",
				   "needs precision_pct or threshold_pct, "
				   "the question that stops a mode early");
		p->min_repetitions = p->repetitions;
		return PB_OK;
	}
	if (p->repetitions < p->min_repetitions) {
		snprintf(why, sizeof(why),
			 "%u is under min_repetitions (%u): with "
			 "precision_pct or threshold_pct it is the most a "
			 "mode runs",
			 p->repetitions, p->min_repetitions);
		return bad(l, "repetitions", why);
	}
	if (p->repetitions - p->min_repetitions + 1 > RP_SEQ_MAX_LOOKS) {
		snprintf(why, sizeof(why),
			 "%u: at most %u more than min_repetitions (%u) "
			 "with precision_pct or threshold_pct",
			 p->repetitions, RP_SEQ_MAX_LOOKS - 1,
			 p->min_repetitions);
		return bad(l, "repetitions", why);
	}
	return PB_OK;
}

/* p999_target_ms asks a latency at a rate: a point must offer one */
static enum pb_error load_target(struct ld *l, const struct pb_profile *p)
{
	unsigned i;

	if (!(p->p999_target_ms > 0))
		return PB_OK;
	for (i = 0; i < p->npoints; i++)
		if (p->points[i].rate_iops)
			return PB_OK;
	return bad(l, "p999_target_ms",
		   "needs an offered rate (workload.rate_iops or "
		   "matrix.rate_iops): a closed loop's latency is not the one "
		   "a rate's p99.9 asks about");
}

/* room for the profile's own keys (pb_profile_options) and every
 * backend's section */
#define TOP_KEYS 64

static enum pb_error load(struct ld *l, struct pb_profile *p, json_t *root)
{
	const struct pb_backend_ops *const *be;
	const struct pb_option *d;
	const char *keys[TOP_KEYS];
	char why[PB_ERRBUF_SIZE];
	size_t nk = 0;
	uint64_t n;
	size_t i;
	enum pb_error err;

	for (d = pb_profile_options; d->name && nk < TOP_KEYS - 1; d++)
		keys[nk++] = d->name;
	for (be = pb_backend_list(); *be && nk < TOP_KEYS - 1; be++)
		keys[nk++] = (*be)->name;
	keys[nk] = NULL;
	if (d->name || *be)
		return pb_fail(l->errbuf, PB_ERR_INTERNAL,
			       "more than %d top-level profile keys",
			       TOP_KEYS - 1);
	err = only_keys(l, root, "", keys);
	if (!err)
		err = rows_apply(l, pb_profile_options, p, root, "");
	if (!err)
		err = backend_named(l, p, root);
	if (!err)
		err = get_disk_size(l, root, "", "disk_size", &p->disk_size,
				    &p->disk_size_si);
	if (err)
		return err;
	if (!p->disk_size &&
	    !json_object_get(json_object_get(root, "matrix"), "disk_size"))
		return bad(l, "disk_size", "required");
	err = load_modes(l, p, json_object_get(root, "modes"));
	if (!err)
		err = load_baseline(l, p, json_object_get(root, "baseline"));
	if (err)
		return err;
	p->shuffle = !strcmp(p->order, "shuffle");
	p->seed_set = json_object_get(root, "seed") != NULL;
	err = load_adaptive(l, p, root);
	if (!err)
		err = load_workload(l, json_object_get(root, "workload"), p);
	if (!err)
		err = load_matrix(l, json_object_get(root, "matrix"), p);
	if (!err)
		err = load_backend(l, p, root);
	if (err)
		return err;
	/* each point's disk: its matrix value, else the profile's; the
	 * largest is what space checks need */
	for (i = 0, n = 0; i < p->npoints; i++) {
		if (!p->point_disk[i])
			p->point_disk[i] = p->disk_size;
		n = p->point_disk[i] > n ? p->point_disk[i] : n;
	}
	p->disk_size = n;
	err = load_target(l, p);
	if (err)
		return err;
	for (i = 0; i < p->npoints; i++) {
		struct runner_opts *w = &p->points[i], chk;
		uint64_t disk = p->point_disk[i];

		char ds[32], bs[32], fs[32];

		pb_size_format(ds, sizeof(ds), disk);
		pb_size_format(bs, sizeof(bs), w->bs);
		if (disk % w->bs)
			return pb_fail(
				l->errbuf, PB_ERR_INPUT,
				"%s: disk_size: %s (%llu bytes) is not a "
				"whole number of workload.bs blocks "
				"(%s)",
				l->file, ds, (unsigned long long)disk, bs);
		if (w->filesystem == RUNNER_FS_NONE) {
			if (w->size)
				return bad(l, "workload.file_size",
					   "only with workload.filesystem");
			/* a raw workload covers the disk */
			w->size = disk;
		} else {
			/* the file leaves room for the filesystem's data */
			if (!w->size)
				w->size = disk / 4 * 3 / w->bs * w->bs;
			pb_size_format(fs, sizeof(fs), w->size);
			if (w->size < w->bs)
				return pb_fail(l->errbuf, PB_ERR_INPUT,
					       "%s: workload.file_size: %s is "
					       "less than one workload.bs "
					       "block (%s)",
					       l->file, fs, bs);
			if (w->size % w->bs) {
				/* whole blocks: what dd count= would write */
				char to[32], line[256];
				size_t at = strlen(p->notes);
				uint64_t was = w->size;

				w->size = w->size / w->bs * w->bs;
				snprintf(
					line, sizeof(line),
					"workload.file_size %s (%llu bytes) "
					"rounded down to %s (%llu bytes), "
					"whole workload.bs blocks of %s\n",
					fs, (unsigned long long)was,
					pb_size_format(to, sizeof(to), w->size),
					(unsigned long long)w->size, bs);
				if (!strstr(p->notes, line))
					snprintf(p->notes + at,
						 sizeof(p->notes) - at, "%s",
						 line);
				pb_size_format(fs, sizeof(fs), w->size);
			}
			if (w->size > disk / 10 * 9)
				return pb_fail(l->errbuf, PB_ERR_INPUT,
					       "%s: workload.file_size: %s "
					       "(%llu bytes) is more than 90%% "
					       "of disk_size %s: the "
					       "filesystem needs the rest",
					       l->file, fs,
					       (unsigned long long)w->size, ds);
			if (w->filesystem == RUNNER_FS_XFS &&
			    disk < (300u << 20))
				return bad(l, "disk_size",
					   "xfs needs a disk of at least 300M");
		}
		w->command = pb_workload_has_command(w) ? p->command : NULL;
		/* the runner's own rules, as the runner will apply them */
		chk = *w;
		chk.target = "uuid:0";
		why[0] = '\0';
		if (runner_opts_check(&chk, true, why))
			return pb_fail(l->errbuf, PB_ERR_INPUT, "%s: %s",
				       l->file, why);
	}
	if (p->command) {
		bool any = false;

		for (i = 0; i < p->npoints; i++)
			any |= pb_workload_has_command(&p->points[i]);
		if (!any)
			return bad(l, "workload.command",
				   "no command pass in workload.passes");
	}

	return PB_OK;
}

#undef TOP_KEYS

/* A profile from text: name is what messages call it (a path, or where in
 * a run.json it came from). */
/* "; nor the vSphere settings: PROVBENCH_URL, ..." when the backend lacks
 * settings of its own, else "" */
static void connection_unset(char *out, size_t len, const struct pb_profile *p)
{
	char conn[320];

	out[0] = '\0';
	if (p->backend && p->backend->settings_unset &&
	    p->backend->settings_unset(conn, sizeof(conn)))
		snprintf(out, len, "; nor the vSphere settings: %s", conn);
}

static enum pb_error load_text(struct pb_profile *p, const char *name,
			       size_t len, bool defer, char *errbuf)
{
	struct ld l = {.file = name, .errbuf = errbuf};
	json_error_t je;
	json_t *root;
	enum pb_error err;

	root = json_loadb(p->text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s:%d:%d: %s", name,
			       je.line, je.column, je.text);
	err = load(&l, p, root);
	json_decref(root);
	if (err == PB_ERR_NOMEM)
		pb_fail(errbuf, err, "out of memory");
	/* the unset variables are the cause: whatever their "env:" values
	 * made fail after them is not said; rdm's are named with them, and
	 * the backend's own settings the environment lacks after them */
	else if (l.nunset && !(defer && !err)) {
		char more[400];

		connection_unset(more, sizeof(more), p);
		err = pb_fail(errbuf, PB_ERR_INPUT,
			      "%s: %s%s%s: environment variable%s not set%s",
			      name, l.unset, l.nunset_rdm ? ", " : "",
			      l.unset_rdm,
			      l.nunset + l.nunset_rdm > 1 ? "s" : "", more);
	} else if ((!err && l.nunset_rdm &&
		    !(p->rdm_unset = strdup(l.unset_rdm))) ||
		   (!err && l.nunset && !(p->unset = strdup(l.unset))))
		err = pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	return err;
}

static void profile_init(struct pb_profile *p)
{
	memset(p, 0, sizeof(*p));
	runner_opts_init(&p->points[0]);
	p->npoints = 1;
}

enum pb_error pb_profile_load(struct pb_profile *p, const char *path,
			      char *errbuf)
{
	size_t len;

	profile_init(p);
	p->path = strdup(path);
	p->text = pb_slurp_file(path, &len);
	if (!p->path || !p->text)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: cannot read: %s",
			       path, strerror(errno ? errno : EIO));
	return load_text(p, path, len, true, errbuf);
}

enum pb_error pb_profile_load_json(struct pb_profile *p, const char *name,
				   const json_t *profile, char *errbuf)
{
	profile_init(p);
	p->path = strdup(name);
	p->text = json_dumps(profile, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!p->path || !p->text)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	return load_text(p, name, strlen(p->text), false, errbuf);
}

const struct pb_kv *pb_target_sysctl(const struct pb_profile *p, unsigned t)
{
	return t < p->ntargets && p->targets[t].has_sysctl
		       ? &p->targets[t].sysctl
		       : &p->sysctl;
}

void pb_profile_target_dispose(struct pb_profile *p, struct pb_target *t)
{
	if (p->backend)
		opts_dispose(t->backend ? t->backend : p->backend, t->bopts);
	t->bopts = NULL;
	kv_dispose(&t->sysctl);
	json_decref(t->spec);
	t->spec = NULL;
}

enum pb_error pb_profile_settle(struct pb_profile *p, char *errbuf)
{
	const struct pb_option *d;
	unsigned i, t;

	const char *rdm = NULL;
	char why[600] = "", more[200];

	for (i = 0; p->rdm_unset && i < p->nmodes && !rdm; i++)
		if (pb_mode_is_raw_mapping(p->modes[i]))
			rdm = pb_mode_name(p->modes[i]);
	/* rdm's alone as themselves; after the others, a clause of their
	 * own, so that "it" is never a list */
	if (rdm && p->unset)
		snprintf(why, sizeof(why),
			 "; mode %s needs %s too (--modes without it does "
			 "not)",
			 rdm, p->rdm_unset);
	else if (rdm)
		snprintf(why, sizeof(why),
			 " (mode %s needs %s; --modes without it does not)",
			 rdm, strchr(p->rdm_unset, ',') ? "them" : "it");
	if (p->unset || rdm) {
		const char *list = p->unset ? p->unset : p->rdm_unset;

		connection_unset(more, sizeof(more), p);
		return pb_fail(errbuf, PB_ERR_INPUT,
			       "%s: %s: environment variable%s not set%s%s",
			       p->path, list, strchr(list, ',') ? "s" : "", why,
			       more);
	}
	if (!p->rdm_unset)
		return PB_OK;
	/* never given, as far as the run is concerned */
	for (t = 0; t <= p->ntargets; t++) {
		const struct pb_backend_ops *be =
			t < p->ntargets && p->targets[t].backend
				? p->targets[t].backend
				: p->backend;
		void *o = t < p->ntargets ? p->targets[t].bopts : p->bopts;

		for (d = be && o ? be->options : NULL; d && d->name; d++) {
			char **s = (char **)((char *)o + d->off);

			if ((d->flags & PB_OPT_F_RDM) &&
			    d->type == PB_OPT_STR && *s &&
			    !strncmp(*s, "env:", 4)) {
				free(*s);
				*s = NULL;
			}
		}
	}
	free(p->rdm_unset);
	p->rdm_unset = NULL;
	return PB_OK;
}

void pb_profile_dispose(struct pb_profile *p)
{
	free(p->rdm_unset);
	free(p->unset);
	free(p->path);
	free(p->text);
	rows_dispose(pb_profile_options, p);
	if (p->backend)
		opts_dispose(p->backend, p->bopts);
	for (unsigned i = 0; i < p->ntargets; i++)
		pb_profile_target_dispose(p, &p->targets[i]);
	for (unsigned i = 0; i < p->ntargets; i++)
		free(p->targets[i].name);
	free(p->command);
	for (unsigned i = 0; i < PB_MAX_POINTS; i++)
		free(p->point_desc[i]);
	memset(p, 0, sizeof(*p));
}

enum pb_error pb_workload_args(struct pb_buf *out, const struct runner_opts *w,
			       uint64_t seed)
{
	/* the runner's own serialiser: what was validated is what runs */
	enum pb_error err = runner_opts_format(out, w, PB_OPT_F_WORKLOAD);

	return err ? err
		   : pb_buf_printf(out, " --seed %llu",
				   (unsigned long long)seed);
}

bool pb_profile_has_pass(const struct pb_profile *p, unsigned kind)
{
	unsigned i, k;

	for (i = 0; i < p->npoints; i++)
		for (k = 0; k < p->points[i].npasses; k++)
			if (p->points[i].passes[k] == kind)
				return true;
	return false;
}

bool pb_workload_has_command(const struct runner_opts *w)
{
	unsigned i;

	for (i = 0; i < w->npasses; i++)
		if (w->passes[i] == RUNNER_PASS_COMMAND)
			return true;
	return false;
}
