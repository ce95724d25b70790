/*
 * cmd_vsphere.c - `provbench vsphere ...`: the vSphere client's command
 * line face, like govc for the operations provbench needs. A plain table by
 * default, --json for scripts.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vsphere.h"

struct vctx {
	struct vs_session *s;
	bool json;
	int argc;
	char **argv; /* after the subcommand */
};

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

static int fail_session(struct vctx *v, enum pb_error err, const char *what)
{
	return pb_cli_fail(err, what, vs_session_error(v->s));
}

static int print_json(json_t *j)
{
	char *text =
		j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	int rc = PB_EXIT_OK;

	if (text)
		puts(text);
	else
		rc = pb_cli_fail(PB_ERR_NOMEM, "json", "out of memory");
	free(text);
	json_decref(j);
	return rc;
}

static int do_about(struct vctx *v)
{
	const struct vs_about *a = vs_session_about(v->s);

	if (v->json)
		return print_json(json_pack(
			"{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "name", a->name,
			"full_name", a->full_name, "version", a->version,
			"build", a->build, "api_type", a->api_type,
			"api_version", vs_session_api_version(v->s),
			"instance_uuid", a->instance_uuid));
	printf("Name:         %s\nFull name:    %s\nVersion:      %s\n"
	       "Build:        %s\nAPI type:     %s\nAPI version:  %s\n"
	       "UUID:         %s\n",
	       a->name, a->full_name, a->version, a->build, a->api_type,
	       vs_session_api_version(v->s), a->instance_uuid);
	return PB_EXIT_OK;
}

static int ls_vms(struct vctx *v)
{
	struct vs_vm_info *vms = NULL;
	size_t n = 0, i;
	enum pb_error err = vs_vm_list(v->s, &vms, &n);
	json_t *a;

	if (err)
		return fail_session(v, err, "vsphere ls vms");
	if (v->json) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(
				a, json_pack("{s:s,s:s,s:s,s:s,s:s}", "name",
					     vms[i].name, "moref",
					     vms[i].ref.value, "power",
					     vms[i].power_state, "tools",
					     vms[i].tools_status, "path",
					     vms[i].path));
		free(vms);
		return print_json(a);
	}
	printf("%-30s %-10s %-12s %-20s %s\n", "NAME", "MOREF", "POWER",
	       "TOOLS", "PATH");
	for (i = 0; i < n; i++)
		printf("%-30s %-10s %-12s %-20s %s\n", vms[i].name,
		       vms[i].ref.value, vms[i].power_state,
		       vms[i].tools_status, vms[i].path);
	free(vms);
	return PB_EXIT_OK;
}

static int ls_datastores(struct vctx *v)
{
	struct vs_ds_info *ds = NULL;
	size_t n = 0, i;
	enum pb_error err = vs_datastore_list(v->s, &ds, &n);
	char cap[32], fr[32];
	json_t *a;

	if (err)
		return fail_session(v, err, "vsphere ls datastores");
	if (v->json) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(
				a,
				json_pack("{s:s,s:s,s:s,s:I,s:I,s:b}", "name",
					  ds[i].name, "moref", ds[i].ref.value,
					  "type", ds[i].type, "capacity",
					  (json_int_t)ds[i].capacity, "free",
					  (json_int_t)ds[i].free_space,
					  "accessible", ds[i].accessible));
		free(ds);
		return print_json(a);
	}
	printf("%-24s %-14s %-8s %12s %12s\n", "NAME", "MOREF", "TYPE",
	       "CAPACITY", "FREE");
	for (i = 0; i < n; i++)
		printf("%-24s %-14s %-8s %12s %12s\n", ds[i].name,
		       ds[i].ref.value, ds[i].type,
		       pb_size_format(cap, sizeof(cap), ds[i].capacity),
		       pb_size_format(fr, sizeof(fr), ds[i].free_space));
	free(ds);
	return PB_EXIT_OK;
}

static int ls_hosts(struct vctx *v)
{
	struct vs_host_info *hs = NULL;
	size_t n = 0, i;
	enum pb_error err = vs_host_list(v->s, &hs, &n);
	json_t *a;

	if (err)
		return fail_session(v, err, "vsphere ls hosts");
	if (v->json) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(
				a,
				json_pack("{s:s,s:s,s:s,s:s,s:s}", "name",
					  hs[i].name, "moref", hs[i].ref.value,
					  "version", hs[i].version, "build",
					  hs[i].build, "state",
					  hs[i].connection_state));
		free(hs);
		return print_json(a);
	}
	printf("%-30s %-12s %-10s %-10s %s\n", "NAME", "MOREF", "VERSION",
	       "BUILD", "STATE");
	for (i = 0; i < n; i++)
		printf("%-30s %-12s %-10s %-10s %s\n", hs[i].name,
		       hs[i].ref.value, hs[i].version, hs[i].build,
		       hs[i].connection_state);
	free(hs);
	return PB_EXIT_OK;
}

static int do_ls(struct vctx *v)
{
	if (v->argc != 1)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere ls",
				   "give one of vms, datastores, hosts");
	if (!strcmp(v->argv[0], "vms"))
		return ls_vms(v);
	if (!strcmp(v->argv[0], "datastores"))
		return ls_datastores(v);
	if (!strcmp(v->argv[0], "hosts"))
		return ls_hosts(v);
	return pb_cli_fail(PB_ERR_USAGE, "vsphere ls",
			   "give one of vms, datastores, hosts");
}

/*
 * The host's LUNs that may become RDMs (what QueryConfigTarget offers, as
 * govc vm.rdm.ls lists it) and those in use (a VMFS extent, mapped by a
 * VM); the rest (the boot disk, vSAN's disks, CD-ROMs) are only counted.
 */
static int do_luns(struct vctx *v)
{
	struct vs_host_info h;
	struct vs_lun *l = NULL;
	size_t n = 0, i, hidden = 0;
	enum pb_error err;
	char cap[32];
	json_t *a;

	if (v->argc != 1)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere luns", "give a HOST");
	err = vs_host_find(v->s, &h, v->argv[0]);
	if (!err)
		err = vs_host_luns(v->s, &h.ref, &l, &n);
	if (err)
		return fail_session(v, err, "vsphere luns");
	if (v->json) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(
				a,
				json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:I,"
					  "s:s?,s:b,s:s?,s:s?}",
					  "canonical_name", l[i].canonical_name,
					  "display_name", l[i].display_name,
					  "uuid", l[i].uuid, "device_path",
					  l[i].device_path, "type",
					  l[i].lun_type, "vendor", l[i].vendor,
					  "model", l[i].model, "capacity",
					  (json_int_t)l[i].capacity_bytes,
					  "used_by",
					  l[i].used_by[0] ? l[i].used_by : NULL,
					  "offered", l[i].offered, "not_offered",
					  l[i].why[0] ? l[i].why : NULL, "vaai",
					  l[i].vaai[0] ? l[i].vaai : NULL));
		free(l);
		return print_json(a);
	}
	printf("%-36s %-10s %-18s %10s %-24s %s\n", "CANONICAL NAME", "VENDOR",
	       "MODEL", "CAPACITY", "USED", "DEVICE PATH");
	for (i = 0; i < n; i++) {
		if (!l[i].offered && !l[i].used_by[0]) {
			hidden++;
			continue;
		}
		printf("%-36s %-10s %-18s %10s %-24s %s\n",
		       l[i].canonical_name, l[i].vendor, l[i].model,
		       pb_size_format(cap, sizeof(cap), l[i].capacity_bytes),
		       l[i].used_by[0] ? l[i].used_by : "-", l[i].device_path);
	}
	if (hidden)
		printf("(%zu more devices not offered for RDM: boot or local "
		       "disks, vSAN's, CD-ROMs; --json lists them)\n",
		       hidden);
	free(l);
	return PB_EXIT_OK;
}

static json_t *disk_json(const struct vs_disk *d)
{
	return json_pack(
		"{s:i,s:s,s:s,s:I,s:s,s:s,s:s,s:o,s:o,s:s?,s:s?,"
		"s:i,s:i}",
		"key", d->key, "label", d->label, "mode",
		pb_mode_name(d->mode), "capacity",
		(json_int_t)d->capacity_bytes, "file", d->file, "uuid", d->uuid,
		"backing", d->backing, "thin_provisioned",
		d->thin_provisioned < 0 ? json_null()
					: json_boolean(d->thin_provisioned),
		"eagerly_scrub",
		d->eagerly_scrub < 0 ? json_null()
				     : json_boolean(d->eagerly_scrub),
		"compatibility_mode", d->compat_mode[0] ? d->compat_mode : NULL,
		"device_name", d->device_name[0] ? d->device_name : NULL,
		"controller_key", d->controller_key, "unit", d->unit);
}

static void disk_row(const struct vs_disk *d)
{
	char cap[32];

	printf("%-6d %-14s %-6s %10s %-38s %s\n", d->key, d->label,
	       pb_mode_name(d->mode),
	       pb_size_format(cap, sizeof(cap), d->capacity_bytes),
	       d->uuid[0] ? d->uuid : "-", d->file);
}

static int disk_ls(struct vctx *v, const struct vs_vm_info *vm)
{
	struct vs_disk *d = NULL;
	size_t n = 0, i;
	enum pb_error err = vs_disk_list(v->s, &vm->ref, &d, &n);
	json_t *a;

	if (err)
		return fail_session(v, err, "vsphere disk ls");
	if (v->json) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(a, disk_json(&d[i]));
		free(d);
		return print_json(a);
	}
	printf("%-6s %-14s %-6s %10s %-38s %s\n", "KEY", "LABEL", "MODE",
	       "SIZE", "UUID", "FILE");
	for (i = 0; i < n; i++)
		disk_row(&d[i]);
	free(d);
	return PB_EXIT_OK;
}

static int disk_add(struct vctx *v, const struct vs_vm_info *vm)
{
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d;
	char errbuf[PB_ERRBUF_SIZE] = "";
	bool have_mode = false, have_size = false;
	enum pb_error err;
	int i;

	/* options come in pairs: --name value */
	for (i = 1; i < v->argc; i += 2) {
		const char *opt = v->argv[i], *val = v->argv[i + 1];

		if (i + 1 >= v->argc)
			return pb_cli_fail(PB_ERR_USAGE, opt, "needs a value");
		if (!strcmp(opt, "--mode")) {
			if (!pb_mode_parse(&sp.mode, val))
				return pb_cli_fail(PB_ERR_USAGE, "--mode",
						   "use thin, lazy, eager, rdm "
						   "or rdmp");
			have_mode = true;
		} else if (!strcmp(opt, "--size")) {
			if (pb_size_parse(&sp.size_bytes, val, errbuf))
				return pb_cli_fail(PB_ERR_USAGE, "--size",
						   errbuf);
			have_size = true;
		} else if (!strcmp(opt, "--datastore")) {
			sp.datastore = val;
		} else if (!strcmp(opt, "--lun")) {
			sp.lun = val;
		} else if (!strcmp(opt, "--host")) {
			sp.host = val;
		} else if (!strcmp(opt, "--controller")) {
			sp.controller_key = atoi(val);
		} else {
			return pb_cli_fail(PB_ERR_USAGE, opt,
					   "unknown option for disk add");
		}
	}
	if (!have_mode)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere disk add",
				   "--mode is required");
	if (!pb_mode_is_raw_mapping(sp.mode) && !have_size)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere disk add",
				   "--size is required");
	err = vs_disk_add(v->s, &vm->ref, &sp, &d);
	if (err)
		return fail_session(v, err, "vsphere disk add");
	if (v->json)
		return print_json(disk_json(&d));
	disk_row(&d);
	if (d.mode != sp.mode)
		fprintf(stderr,
			"provbench: warning: asked for %s, the server "
			"applied %s\n",
			pb_mode_name(sp.mode), pb_mode_name(d.mode));
	return PB_EXIT_OK;
}

/* DISK is a key, a label ("Hard disk 2") or a backing file. */
static int disk_rm(struct vctx *v, const struct vs_vm_info *vm)
{
	struct vs_disk *d = NULL;
	size_t n = 0, i;
	bool keep = false;
	enum pb_error err;
	char *end;
	long key;

	if (v->argc < 2 || v->argc > 3 ||
	    (v->argc == 3 && strcmp(v->argv[2], "--keep-file")))
		return pb_cli_fail(PB_ERR_USAGE, "vsphere disk rm",
				   "usage: disk rm VM DISK [--keep-file]");
	keep = v->argc == 3;
	err = vs_disk_list(v->s, &vm->ref, &d, &n);
	if (err)
		return fail_session(v, err, "vsphere disk rm");
	key = strtol(v->argv[1], &end, 10);
	for (i = 0; i < n; i++)
		if ((!*end && d[i].key == key) ||
		    !strcmp(d[i].label, v->argv[1]) ||
		    !strcmp(d[i].file, v->argv[1]))
			break;
	if (i == n) {
		free(d);
		return pb_cli_fail(PB_ERR_NOTFOUND, v->argv[1],
				   "no such disk on the VM (see disk ls)");
	}
	err = vs_disk_remove(v->s, &vm->ref, &d[i], keep);
	free(d);
	if (err)
		return fail_session(v, err, "vsphere disk rm");
	return PB_EXIT_OK;
}

static int do_disk(struct vctx *v)
{
	struct vs_vm_info vm;
	enum pb_error err;
	const char *sub;

	if (v->argc < 2)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere disk",
				   "usage: disk ls|add|rm VM ...");
	sub = v->argv[0];
	if (strcmp(sub, "ls") && strcmp(sub, "add") && strcmp(sub, "rm"))
		return pb_cli_fail(PB_ERR_USAGE, sub,
				   "unknown disk command (ls, add, rm)");
	err = vs_vm_find(v->s, &vm, v->argv[1]);
	if (err)
		return fail_session(v, err, "vsphere disk");
	v->argc--;
	v->argv++;
	if (!strcmp(sub, "ls"))
		return disk_ls(v, &vm);
	if (!strcmp(sub, "add"))
		return disk_add(v, &vm);
	return disk_rm(v, &vm);
}

/*
 * guest put VM LOCAL GUEST_PATH | guest get VM GUEST_PATH LOCAL |
 * guest run VM [--timeout S] [--dir DIR] PROGRAM [ARGS...]
 * run waits and exits 0 when the program did, 1 otherwise.
 */
static int do_guest(struct vctx *v)
{
	struct vs_vm_info vm;
	struct pb_buf args = PB_BUF_INIT(64 * 1024);
	const char *sub, *dir = NULL;
	long timeout = 3600;
	int64_t pid = 0;
	int code = -1, i, rc;
	enum pb_error err;

	if (v->argc < 3)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere guest",
				   "usage: guest put|get|run VM ...");
	sub = v->argv[0];
	if (strcmp(sub, "put") && strcmp(sub, "get") && strcmp(sub, "run"))
		return pb_cli_fail(PB_ERR_USAGE, sub,
				   "unknown guest command (put, get, run)");
	if (strcmp(sub, "run") && v->argc != 4)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere guest",
				   "usage: guest put VM LOCAL GUEST_PATH | "
				   "guest get VM GUEST_PATH LOCAL");
	err = vs_vm_find(v->s, &vm, v->argv[1]);
	if (err)
		return fail_session(v, err, "vsphere guest");
	if (!strcmp(sub, "put")) {
		err = vs_guest_upload(v->s, &vm, v->argv[2], v->argv[3], 0700,
				      true);
		return err ? fail_session(v, err, "vsphere guest put")
			   : PB_EXIT_OK;
	}
	if (!strcmp(sub, "get")) {
		err = vs_guest_download(v->s, &vm, v->argv[2], v->argv[3]);
		return err ? fail_session(v, err, "vsphere guest get")
			   : PB_EXIT_OK;
	}
	for (i = 2; i + 1 < v->argc && v->argv[i][0] == '-'; i += 2) {
		if (!strcmp(v->argv[i], "--timeout"))
			timeout = atol(v->argv[i + 1]);
		else if (!strcmp(v->argv[i], "--dir"))
			dir = v->argv[i + 1];
		else
			return pb_cli_fail(PB_ERR_USAGE, v->argv[i],
					   "unknown option for guest run");
	}
	if (i >= v->argc || timeout <= 0)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere guest run",
				   "usage: guest run VM [--timeout S] [--dir "
				   "DIR] PROGRAM [ARGS...]");
	for (int k = i + 1; k < v->argc; k++)
		if (pb_buf_printf(&args, "%s%s", k > i + 1 ? " " : "",
				  v->argv[k])) {
			pb_buf_dispose(&args);
			return pb_cli_fail(PB_ERR_USAGE, "vsphere guest run",
					   "arguments too long");
		}
	err = vs_guest_start(v->s, &vm, v->argv[i], args.data, dir, &pid);
	pb_buf_dispose(&args);
	if (!err)
		err = vs_guest_wait(v->s, &vm, pid, timeout, NULL, &code);
	if (err)
		return fail_session(v, err, "vsphere guest run");
	if (v->json)
		return print_json(json_pack("{s:I,s:i}", "pid", (json_int_t)pid,
					    "exit_code", code));
	rc = code == 0 ? PB_EXIT_OK : PB_EXIT_FAILED;
	if (code)
		fprintf(stderr, "provbench: guest program %s exited %d\n",
			v->argv[i], code);
	return rc;
}

static const struct {
	const char *name;
	int (*fn)(struct vctx *v);
	const char *usage;
} subs[] = {
	{"about", do_about, "about"},
	{"ls", do_ls, "ls vms|datastores|hosts"},
	{"luns", do_luns, "luns HOST"},
	{"disk", do_disk,
	 "disk ls VM | disk add VM --mode thin|lazy|eager|rdm|rdmp "
	 "--size SIZE [--datastore DS] [--lun NAME] | disk rm VM DISK"},
	{"guest", do_guest,
	 "guest put VM LOCAL GUEST_PATH | guest get VM GUEST_PATH LOCAL | "
	 "guest run VM [--timeout S] [--dir DIR] PROGRAM [ARGS...]"},
};

int cmd_vsphere(int argc, char **argv)
{
	struct vs_config cfg = VS_CONFIG_INIT;
	struct vctx v = {NULL, false, 0, NULL};
	char errbuf[PB_ERRBUF_SIZE] = "";
	enum pb_error err;
	size_t i;
	int rc, a = 1;

	if (a < argc && !strcmp(argv[a], "--json")) {
		v.json = true;
		a++;
	}
	for (i = 0; a < argc && i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[a], subs[i].name))
			break;
	if (a < argc && i == sizeof(subs) / sizeof(subs[0])) {
		fprintf(stderr, "provbench: vsphere: '%s': unknown command (",
			argv[a]);
		for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			fprintf(stderr, "%s%s", i ? ", " : "", subs[i].name);
		fprintf(stderr, ")\n");
		return PB_EXIT_USAGE;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: provbench vsphere [--json] COMMAND\n");
		for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			fprintf(stderr, "  %s\n", subs[i].usage);
		return PB_EXIT_USAGE;
	}
	v.argc = argc - a - 1;
	v.argv = argv + a + 1;
	/* trailing --json works too */
	if (v.argc && !strcmp(v.argv[v.argc - 1], "--json")) {
		v.json = true;
		v.argc--;
	}
	err = vs_config_from_env(&cfg, env_get, NULL, errbuf);
	if (!err)
		err = vs_session_open(&v.s, &cfg, NULL, NULL, errbuf);
	vs_config_dispose(&cfg);
	if (err)
		return pb_cli_fail(err, "vsphere", errbuf);
	rc = subs[i].fn(&v);
	vs_session_free(v.s);
	return rc;
}
