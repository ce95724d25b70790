/*
 * profile.c - experiment profiles (JSON, jansson) into plain option
 * structs; nothing past this file sees a json_t of the profile.
 *
 * Strict: unknown keys and wrong types are errors, named by file:line:col
 * for syntax and by file: key.path for content. Sizes are "8G"-style
 * strings or integers; any string may be "env:NAME".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

static const char *const mode_names[PB_MODE__COUNT] = {"thin", "lazy", "eager",
						       "rdm", "rdmp"};

const char *pb_mode_name(enum pb_mode m)
{
	return (unsigned)m < PB_MODE__COUNT ? mode_names[m] : "?";
}

bool pb_mode_parse(enum pb_mode *out, const char *s)
{
	int m;

	for (m = 0; m < PB_MODE__COUNT; m++)
		if (!strcmp(s, mode_names[m])) {
			*out = (enum pb_mode)m;
			return true;
		}
	return false;
}

struct ld {
	const char *file;
	char *errbuf;
};

static enum pb_error bad(struct ld *l, const char *path, const char *why)
{
	return pb_fail(l->errbuf, PB_ERR_INPUT, "%s: %s: %s", l->file, path,
		       why);
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
			return bad(l, p, "unknown key");
		}
	}
	return PB_OK;
}

static void join(char *out, size_t len, const char *path, const char *key)
{
	snprintf(out, len, "%s%s%s", path, *path ? "." : "", key);
}

/* A string value, with "env:NAME" read from the environment. */
static enum pb_error get_str(struct ld *l, json_t *obj, const char *path,
			     const char *key, char **out)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	char p[256];

	if (!v || json_is_null(v))
		return PB_OK;
	join(p, sizeof(p), path, key);
	if (!json_is_string(v))
		return bad(l, p, "must be a string");
	s = json_string_value(v);
	if (!strncmp(s, "env:", 4)) {
		const char *e = getenv(s + 4);

		if (!e)
			return pb_fail(l->errbuf, PB_ERR_INPUT,
				       "%s: %s: environment variable %s is "
				       "not set",
				       l->file, p, s + 4);
		s = e;
	}
	free(*out);
	*out = strdup(s);
	return *out ? PB_OK : PB_ERR_NOMEM;
}

static enum pb_error get_uint(struct ld *l, json_t *obj, const char *path,
			      const char *key, uint64_t min, uint64_t max,
			      uint64_t *out)
{
	json_t *v = json_object_get(obj, key);
	char p[256], why[128];
	char *s = NULL, *end;
	long long n;
	enum pb_error err;

	if (!v)
		return PB_OK;
	join(p, sizeof(p), path, key);
	if (json_is_string(v)) {
		/* "env:NAME" numbers */
		err = get_str(l, obj, path, key, &s);
		if (err)
			return err;
		n = strtoll(s, &end, 10);
		if (*end || !*s) {
			free(s);
			return bad(l, p, "must be a whole number");
		}
		free(s);
	} else if (json_is_integer(v)) {
		n = json_integer_value(v);
	} else {
		return bad(l, p, "must be a whole number");
	}
	if (n < 0 || (uint64_t)n < min || (uint64_t)n > max) {
		snprintf(why, sizeof(why),
			 "%lld is out of range (%llu to %llu)", n,
			 (unsigned long long)min, (unsigned long long)max);
		return bad(l, p, why);
	}
	*out = (uint64_t)n;
	return PB_OK;
}

static enum pb_error get_bool(struct ld *l, json_t *obj, const char *path,
			      const char *key, bool *out)
{
	json_t *v = json_object_get(obj, key);
	char p[256];

	if (!v)
		return PB_OK;
	join(p, sizeof(p), path, key);
	if (!json_is_boolean(v))
		return bad(l, p, "must be true or false");
	*out = json_is_true(v);
	return PB_OK;
}

static enum pb_error size_of(struct ld *l, json_t *v, const char *p,
			     uint64_t *out)
{
	char why[PB_ERRBUF_SIZE] = "";
	const char *s;

	if (json_is_integer(v)) {
		if (json_integer_value(v) <= 0)
			return bad(l, p, "must be more than 0");
		*out = (uint64_t)json_integer_value(v);
		return PB_OK;
	}
	if (!json_is_string(v))
		return bad(l, p, "must be a size like \"8G\" or a number");
	s = json_string_value(v);
	if (!strncmp(s, "env:", 4)) {
		s = getenv(s + 4);
		if (!s)
			return bad(l, p, "its environment variable is not set");
	}
	if (pb_size_parse(out, s, why))
		return bad(l, p, why);
	if (!*out)
		return bad(l, p, "must be more than 0");
	return PB_OK;
}

static enum pb_error get_size(struct ld *l, json_t *obj, const char *path,
			      const char *key, uint64_t *out)
{
	json_t *v = json_object_get(obj, key);
	char p[256];

	if (!v)
		return PB_OK;
	join(p, sizeof(p), path, key);
	return size_of(l, v, p, out);
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

/* One workload key's value (also used for matrix values). */
static enum pb_error workload_key(struct ld *l, struct pb_workload *w,
				  const char *key, json_t *v, const char *p)
{
	uint64_t n;

	if (!strcmp(key, "bs")) {
		enum pb_error err = size_of(l, v, p, &n);

		if (err)
			return err;
		if (n < 512 || n > (64u << 20) || n % 512)
			return bad(l, p, "must be a multiple of 512 up to 64M");
		w->bs = (uint32_t)n;
	} else if (!strcmp(key, "qd")) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > 1024)
			return bad(l, p, "must be a number from 1 to 1024");
		w->qd = (unsigned)json_integer_value(v);
	} else if (!strcmp(key, "pattern")) {
		const char *s = json_string_value(v);

		if (s && !strcmp(s, "seq"))
			w->pattern = RUNNER_PATTERN_SEQ;
		else if (s && !strcmp(s, "rand"))
			w->pattern = RUNNER_PATTERN_RAND;
		else
			return bad(l, p, "must be \"seq\" or \"rand\"");
	} else if (!strcmp(key, "engine")) {
		const char *s = json_string_value(v);

		if (s && !strcmp(s, "io_uring"))
			w->engine = RUNNER_ENGINE_IO_URING;
		else if (s && !strcmp(s, "psync"))
			w->engine = RUNNER_ENGINE_PSYNC;
		else if (s && !strcmp(s, "auto"))
			w->engine = RUNNER_ENGINE_AUTO;
		else
			return bad(l, p,
				   "must be \"io_uring\", \"psync\" or "
				   "\"auto\"");
	} else if (!strcmp(key, "direct") || !strcmp(key, "verify")) {
		if (!json_is_boolean(v))
			return bad(l, p, "must be true or false");
		if (key[0] == 'd')
			w->direct = json_is_true(v);
		else
			w->verify = json_is_true(v);
	} else if (!strcmp(key, "interval_ms")) {
		if (!json_is_integer(v) || json_integer_value(v) < 10)
			return bad(l, p, "must be a number of at least 10");
		w->interval_ms = (unsigned)json_integer_value(v);
	} else if (!strcmp(key, "filesystem")) {
		const char *s = json_string_value(v);

		if (s && !strcmp(s, "ext4"))
			w->filesystem = RUNNER_FS_EXT4;
		else if (s && !strcmp(s, "xfs"))
			w->filesystem = RUNNER_FS_XFS;
		else if (s && !strcmp(s, "none"))
			w->filesystem = RUNNER_FS_NONE;
		else
			return bad(l, p,
				   "must be \"ext4\", \"xfs\" or \"none\"");
	} else if (!strcmp(key, "file_size")) {
		enum pb_error err = size_of(l, v, p, &n);

		if (err)
			return err;
		if (!n)
			return bad(l, p, "must be more than 0");
		w->file_size = n;
	} else if (!strcmp(key, "passes")) {
		size_t i;
		json_t *e;
		bool seen_write = false;

		if (!json_is_array(v) || !json_array_size(v) ||
		    json_array_size(v) > PB_MAX_PASSES)
			return bad(l, p, "must be a list of passes");
		w->npasses = 0;
		json_array_foreach(v, i, e)
		{
			const char *s = json_string_value(e);
			unsigned k;

			for (k = 0; s && k <= RUNNER_PASS_COMMAND; k++)
				if (!strcmp(s,
					    runner_pass_name(
						    (enum runner_pass_kind)k)))
					break;
			if (!s || k > RUNNER_PASS_COMMAND)
				return bad(l, p,
					   "passes are first-write, "
					   "rewrite, read, fsync-write, "
					   "command");
			if (k == RUNNER_PASS_FIRST_WRITE && seen_write)
				return bad(l, p,
					   "first-write must be the "
					   "first write pass");
			if (runner_pass_writes((enum runner_pass_kind)k))
				seen_write = true;
			w->passes[w->npasses++] = (enum runner_pass_kind)k;
		}
	} else {
		return bad(l, p, "unknown key");
	}
	return PB_OK;
}

/* what a matrix may vary; the workload also takes "command" */
static const char *const workload_keys[] = {
	"bs",	       "qd",	 "pattern",    "passes",    "direct", "engine",
	"interval_ms", "verify", "filesystem", "file_size", NULL};

static enum pb_error load_workload(struct ld *l, json_t *o,
				   struct pb_workload *w, char **command)
{
	static const char *const keys[] = {
		"bs",	      "qd",	   "pattern",	  "passes",
		"direct",     "engine",	   "interval_ms", "verify",
		"filesystem", "file_size", "command",	  NULL};
	const char *key;
	json_t *v;
	char p[256];
	enum pb_error err;

	if (!o)
		return PB_OK;
	err = only_keys(l, o, "workload", keys);
	json_object_foreach(o, key, v)
	{
		if (err)
			break;
		join(p, sizeof(p), "workload", key);
		if (!strcmp(key, "command")) {
			/* shell text run in the guest: from the profile only,
			 * shown verbatim in the report */
			if (!json_is_string(v) || !*json_string_value(v))
				return bad(l, p, "must be a command line");
			*command = strdup(json_string_value(v));
			if (!*command)
				return PB_ERR_NOMEM;
			continue;
		}
		err = workload_key(l, w, key, v, p);
	}
	return err;
}

/* matrix: {"bs": ["64K", "1M"], "qd": [1, 32]} -> cartesian points */
static enum pb_error load_matrix(struct ld *l, json_t *m, struct pb_profile *p)
{
	const char *key;
	json_t *vals;
	char path[256];
	unsigned n, i, k;
	enum pb_error err;

	if (!m)
		return PB_OK;
	err = only_keys(l, m, "matrix", workload_keys);
	if (err)
		return err;
	json_object_foreach(m, key, vals)
	{
		join(path, sizeof(path), "matrix", key);
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
				memcpy(p->point_names[k * n + i],
				       p->point_names[i],
				       sizeof(p->point_names[i]));
			}
		for (k = 0; k < json_array_size(vals); k++) {
			json_t *v = json_array_get(vals, k);
			char label[32];

			if (json_is_string(v))
				snprintf(label, sizeof(label), "%s",
					 json_string_value(v));
			else if (json_is_integer(v))
				snprintf(label, sizeof(label), "%lld",
					 (long long)json_integer_value(v));
			else
				snprintf(label, sizeof(label), "%s",
					 json_is_true(v) ? "true" : "false");
			for (i = 0; i < n; i++) {
				char *nm = p->point_names[k * n + i];
				size_t len = strlen(nm);

				err = workload_key(l, &p->points[k * n + i],
						   key, v, path);
				if (err)
					return err;
				snprintf(nm + len, 64 - len, "%s%s=%s",
					 len ? "," : "", key, label);
			}
		}
		p->npoints = n * (unsigned)json_array_size(vals);
	}
	return PB_OK;
}

static enum pb_error load_vsphere(struct ld *l, json_t *o,
				  struct pb_vsphere_opts *v)
{
	static const char *const keys[] = {
		"vm",		"datastore",	  "host",	 "lun",
		"controller",	"guest_dir",	  "runner",	 "by_id_dir",
		"extra_config", "task_timeout_s", "power_cycle", NULL};
	uint64_t ctl = 0;
	enum pb_error err;

	if (!o)
		return PB_OK;
	err = only_keys(l, o, "vsphere", keys);
	if (!err)
		err = get_str(l, o, "vsphere", "vm", &v->vm);
	if (!err)
		err = get_str(l, o, "vsphere", "datastore", &v->datastore);
	if (!err)
		err = get_str(l, o, "vsphere", "host", &v->host);
	if (!err)
		err = get_str(l, o, "vsphere", "lun", &v->lun);
	if (!err)
		err = get_str(l, o, "vsphere", "guest_dir", &v->guest_dir);
	if (!err)
		err = get_str(l, o, "vsphere", "runner", &v->runner);
	if (!err)
		err = get_str(l, o, "vsphere", "by_id_dir", &v->by_id_dir);
	if (!err && json_object_get(o, "controller")) {
		err = get_uint(l, o, "vsphere", "controller", 0, 1000000, &ctl);
		v->controller = (int)ctl;
	}
	if (!err)
		err = get_kv(l, o, "vsphere", "extra_config", &v->extra_config);
	if (!err)
		err = get_bool(l, o, "vsphere", "power_cycle", &v->power_cycle);
	if (!err && json_object_get(o, "task_timeout_s")) {
		err = get_uint(l, o, "vsphere", "task_timeout_s", 1, 7 * 86400,
			       &ctl);
		v->task_timeout_s = (long)ctl;
	}
	return err;
}

static enum pb_error load_qemu(struct ld *l, json_t *o, struct pb_qemu_opts *q)
{
	static const char *const keys[] = {"dir",   "accel",  "rdm_device",
					   "guest", "binary", "memory_mib",
					   "cpus",  NULL};
	uint64_t v;
	enum pb_error err;

	if (!o)
		return PB_OK;
	err = only_keys(l, o, "qemu", keys);
	if (!err)
		err = get_str(l, o, "qemu", "dir", &q->dir);
	if (!err)
		err = get_str(l, o, "qemu", "accel", &q->accel);
	if (!err)
		err = get_str(l, o, "qemu", "rdm_device", &q->rdm_device);
	if (!err)
		err = get_str(l, o, "qemu", "guest", &q->guest);
	if (!err)
		err = get_str(l, o, "qemu", "binary", &q->binary);
	if (!err && json_object_get(o, "memory_mib")) {
		err = get_uint(l, o, "qemu", "memory_mib", 64, 65536, &v);
		q->memory_mib = (unsigned)v;
	}
	if (!err && json_object_get(o, "cpus")) {
		err = get_uint(l, o, "qemu", "cpus", 1, 64, &v);
		q->cpus = (unsigned)v;
	}
	if (!err && q->accel && strcmp(q->accel, "auto") &&
	    strcmp(q->accel, "kvm") && strcmp(q->accel, "tcg"))
		return bad(l, "qemu.accel", "auto, kvm or tcg");
	return err;
}

static enum pb_error set_default(char **s, const char *def)
{
	if (*s)
		return PB_OK;
	*s = strdup(def);
	return *s ? PB_OK : PB_ERR_NOMEM;
}

static enum pb_error load(struct ld *l, struct pb_profile *p, json_t *root)
{
	static const char *const keys[] = {
		"name",	    "description", "backend",	   "vsphere",
		"qemu",	    "disk_size",   "modes",	   "repetitions",
		"order",    "seed",	   "cooldown_s",   "timeout_s",
		"workload", "matrix",	   "guest_sysctl", NULL};
	json_t *modes, *v;
	char *order = NULL;
	uint64_t n;
	size_t i;
	enum pb_error err;

	err = only_keys(l, root, "", keys);
	if (!err)
		err = get_str(l, root, "", "name", &p->name);
	if (!err)
		err = get_str(l, root, "", "description", &p->description);
	if (!err)
		err = get_str(l, root, "", "backend", &p->backend);
	if (err)
		return err;
	if (!p->name)
		return bad(l, "name", "required");
	if (strspn(p->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
			    "WXYZ0123456789-_.") != strlen(p->name) ||
	    p->name[0] == '.')
		return bad(l, "name",
			   "letters, digits, '-', '_' and '.' only "
			   "(it names the results directory)");
	err = set_default(&p->backend, "qemu");
	if (err)
		return err;
	if (!pb_backend_find(p->backend))
		return bad(l, "backend", "unknown backend (vsphere, qemu)");

	err = get_size(l, root, "", "disk_size", &p->disk_size);
	if (err)
		return err;
	if (!p->disk_size)
		return bad(l, "disk_size", "required");

	modes = json_object_get(root, "modes");
	if (!json_is_array(modes) || !json_array_size(modes))
		return bad(l, "modes",
			   "required: a list of thin, lazy, eager, "
			   "rdm, rdmp");
	json_array_foreach(modes, i, v)
	{
		enum pb_mode m;
		unsigned k;

		if (!json_is_string(v) ||
		    !pb_mode_parse(&m, json_string_value(v)))
			return bad(l, "modes",
				   "unknown mode (thin, lazy, "
				   "eager, rdm, rdmp)");
		for (k = 0; k < p->nmodes; k++)
			if (p->modes[k] == m)
				return bad(l, "modes",
					   "a mode is listed twice");
		p->modes[p->nmodes++] = m;
	}

	n = p->repetitions;
	err = get_uint(l, root, "", "repetitions", 1, 10000, &n);
	p->repetitions = (unsigned)n;
	if (!err)
		err = get_str(l, root, "", "order", &order);
	if (!err && order) {
		if (!strcmp(order, "shuffle"))
			p->shuffle = true;
		else if (strcmp(order, "fixed"))
			err = bad(l, "order",
				  "must be \"fixed\" or \"shuffle\"");
	}
	free(order);
	if (!err && json_object_get(root, "seed")) {
		err = get_uint(l, root, "", "seed", 0, INT64_MAX, &p->seed);
		p->seed_set = true;
	}
	n = p->cooldown_s;
	if (!err)
		err = get_uint(l, root, "", "cooldown_s", 0, 86400, &n);
	p->cooldown_s = (unsigned)n;
	n = (uint64_t)p->timeout_s;
	if (!err)
		err = get_uint(l, root, "", "timeout_s", 1, 7 * 86400, &n);
	p->timeout_s = (long)n;
	if (!err)
		err = load_workload(l, json_object_get(root, "workload"),
				    &p->points[0], &p->command);
	if (!err)
		err = load_matrix(l, json_object_get(root, "matrix"), p);
	if (!err)
		err = get_kv(l, root, "", "guest_sysctl", &p->sysctl);
	if (!err)
		err = load_vsphere(l, json_object_get(root, "vsphere"),
				   &p->vsphere);
	if (err)
		return err;
	for (i = 0; i < p->npoints; i++) {
		struct pb_workload *w = &p->points[i];

		if (p->disk_size % w->bs)
			return bad(l, "disk_size",
				   "must be a multiple of workload.bs");
		if (pb_workload_has_command(w) && !p->command)
			return bad(l, "workload.command",
				   "required for a command pass");
		if (w->filesystem == RUNNER_FS_NONE) {
			if (w->file_size)
				return bad(l, "workload.file_size",
					   "only with workload.filesystem");
			continue;
		}
		/* the file leaves room for the filesystem's own data */
		if (!w->file_size)
			w->file_size = p->disk_size / 4 * 3 / w->bs * w->bs;
		if (!w->file_size || w->file_size % w->bs ||
		    w->file_size > p->disk_size / 10 * 9)
			return bad(l, "workload.file_size",
				   "must be a multiple of workload.bs and at "
				   "most 90% of disk_size");
		if (w->filesystem == RUNNER_FS_XFS &&
		    p->disk_size < (300u << 20))
			return bad(l, "disk_size",
				   "xfs needs a disk of at least 300M");
	}
	if (p->command) {
		bool any = false;

		for (i = 0; i < p->npoints; i++)
			any |= pb_workload_has_command(&p->points[i]);
		if (!any)
			return bad(l, "workload.command",
				   "no command pass in workload.passes");
	}

	if (!strcmp(p->backend, "vsphere")) {
		if (!json_object_get(root, "vsphere"))
			return bad(l, "vsphere",
				   "required for backend vsphere");
		if (!p->vsphere.vm)
			return bad(l, "vsphere.vm", "required");
		for (i = 0; i < p->nmodes; i++)
			if ((p->modes[i] == PB_MODE_RDM ||
			     p->modes[i] == PB_MODE_RDMP) &&
			    !p->vsphere.lun)
				return bad(l, "vsphere.lun",
					   "required for mode rdm / rdmp");
		err = set_default(&p->vsphere.guest_dir, "/tmp/provbench");
		if (!err)
			err = set_default(&p->vsphere.by_id_dir,
					  "/dev/disk/by-id");
		/* PROVBENCH_RUNNER, else where make install put it */
		if (!err)
			err = set_default(&p->vsphere.runner,
					  getenv("PROVBENCH_RUNNER")
						  ? getenv("PROVBENCH_RUNNER")
						  : PB_RUNNER_STATIC_PATH);
	} else if (json_object_get(root, "vsphere")) {
		return bad(l, "vsphere", "only for backend vsphere");
	}
	if (!strcmp(p->backend, "qemu")) {
		for (i = 0; i < p->nmodes; i++)
			if (p->modes[i] == PB_MODE_RDMP)
				return bad(l, "modes",
					   "rdmp needs vSphere; backend qemu "
					   "maps raw devices one way only "
					   "(rdm)");
		err = load_qemu(l, json_object_get(root, "qemu"), &p->qemu);
		if (!err)
			err = set_default(&p->qemu.accel, "auto");
		if (!err)
			err = set_default(&p->qemu.binary,
					  "qemu-system-x86_64");
	} else if (json_object_get(root, "qemu")) {
		return bad(l, "qemu", "only for backend qemu");
	}
	return err;
}

enum pb_error pb_profile_load(struct pb_profile *p, const char *path,
			      char *errbuf)
{
	struct ld l = {path, errbuf};
	json_error_t je;
	json_t *root;
	enum pb_error err;
	size_t len;

	memset(p, 0, sizeof(*p));
	p->repetitions = 1;
	p->timeout_s = 6 * 3600;
	p->vsphere.controller = -1;
	p->vsphere.task_timeout_s = 3600;
	p->qemu.memory_mib = 256;
	p->qemu.cpus = 1;
	p->points[0] = (struct pb_workload)PB_WORKLOAD_INIT;
	p->npoints = 1;
	p->path = strdup(path);
	p->text = pb_slurp_file(path, &len);
	if (!p->text)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s: cannot read: %s",
			       path, strerror(errno ? errno : EIO));
	root = json_loadb(p->text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return pb_fail(errbuf, PB_ERR_INPUT, "%s:%d:%d: %s", path,
			       je.line, je.column, je.text);
	err = load(&l, p, root);
	json_decref(root);
	if (err == PB_ERR_NOMEM)
		pb_fail(errbuf, err, "out of memory");
	return err;
}

void pb_profile_dispose(struct pb_profile *p)
{
	free(p->path);
	free(p->text);
	free(p->name);
	free(p->description);
	free(p->backend);
	free(p->vsphere.vm);
	free(p->vsphere.datastore);
	free(p->vsphere.host);
	free(p->vsphere.lun);
	free(p->vsphere.guest_dir);
	free(p->vsphere.runner);
	free(p->vsphere.by_id_dir);
	kv_dispose(&p->vsphere.extra_config);
	free(p->qemu.dir);
	free(p->qemu.accel);
	free(p->qemu.rdm_device);
	free(p->qemu.guest);
	free(p->qemu.binary);
	kv_dispose(&p->sysctl);
	free(p->command);
	memset(p, 0, sizeof(*p));
}

enum pb_error pb_workload_args(struct pb_buf *out, const struct pb_workload *w,
			       uint64_t size, uint64_t seed)
{
	static const char *const engines[] = {"auto", "io_uring", "psync"};
	enum pb_error err = PB_OK;
	unsigned i;

	/* on a filesystem the passes cover the file, not the disk */
	if (w->filesystem != RUNNER_FS_NONE) {
		err = pb_buf_printf(out, "--filesystem %s ",
				    w->filesystem == RUNNER_FS_EXT4 ? "ext4"
								    : "xfs");
		size = w->file_size;
	}
	if (!err)
		err = pb_buf_printf(
			out,
			"--size %llu --bs %u --qd %u --pattern %s "
			"--engine %s --interval-ms %u --seed %llu%s%s "
			"--passes ",
			(unsigned long long)size, w->bs, w->qd,
			w->pattern == RUNNER_PATTERN_RAND ? "rand" : "seq",
			engines[w->engine], w->interval_ms,
			(unsigned long long)seed,
			w->direct ? "" : " --buffered",
			w->verify ? " --verify" : "");
	for (i = 0; !err && i < w->npasses; i++)
		err = pb_buf_printf(out, "%s%s", i ? "," : "",
				    runner_pass_name(w->passes[i]));
	return err;
}

bool pb_workload_has_command(const struct pb_workload *w)
{
	unsigned i;

	for (i = 0; i < w->npasses; i++)
		if (w->passes[i] == RUNNER_PASS_COMMAND)
			return true;
	return false;
}

/* ---- plan ---- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

enum pb_error pb_plan_build(struct pb_plan *plan, const struct pb_profile *p,
			    char *errbuf)
{
	size_t per = (size_t)p->nmodes * p->npoints, r, k, i;
	uint64_t s;

	plan->n = per * p->repetitions;
	plan->items = calloc(plan->n ? plan->n : 1, sizeof(*plan->items));
	if (!plan->items)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	plan->seed = p->seed_set ? p->seed : (uint64_t)pb_now_ns() >> 1;
	s = plan->seed;
	for (r = 0; r < p->repetitions; r++) {
		struct pb_plan_item *it = &plan->items[r * per];

		for (k = 0; k < per; k++) {
			it[k].rep = (unsigned)r + 1;
			it[k].point = (unsigned)(k / p->nmodes);
			it[k].mode = p->modes[k % p->nmodes];
		}
		/* within a repetition, a seeded Fisher-Yates shuffle: a fixed
		 * order biases results through caches and thermal state */
		for (i = per; p->shuffle && i > 1; i--) {
			size_t j = (size_t)(splitmix(&s) % i);
			struct pb_plan_item t = it[i - 1];

			it[i - 1] = it[j];
			it[j] = t;
		}
	}
	return PB_OK;
}

void pb_plan_dispose(struct pb_plan *plan)
{
	free(plan->items);
	plan->items = NULL;
	plan->n = 0;
}
