/*
 * cmd_vsphere.c - `provbench vsphere ...`: the vSphere client's command
 * line face, like govc for the operations provbench needs. A plain table by
 * default, --json (or -json) for scripts. Each subcommand has its own
 * option table; the session is opened only once its command line is
 * good, so usage and help never need a server.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "table.h"
#include "harness_int.h"
#include "vsphere.h"

struct vctx {
	struct vs_session *s;
	bool json;
};

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

/* a subcommand's own options come first; --json is everyone's */
#define JSON_OPT(v)                                                            \
	CLI_SWITCH("json", 0, &(v)->json, "print JSON instead of a table")

/* Parse a subcommand's line, then open the session (PROVBENCH_URL...). */
static int start(struct vctx *v, const struct cli_cmd *cmd,
		 const struct pb_option *opts, int argc, char **argv)
{
	struct vs_config cfg = VS_CONFIG_INIT;
	char errbuf[PB_ERRBUF_SIZE] = "";
	enum pb_error err;
	int rc = cli_parse(cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? CLI_HELPED : rc;
	err = vs_config_from_env(&cfg, env_get, NULL, errbuf);
	if (!err)
		err = vs_session_open(&v->s, &cfg, NULL, NULL, errbuf);
	vs_config_dispose(&cfg);
	if (err)
		return pb_cli_fail(err, "vsphere", errbuf);
	return CLI_PARSED;
}

/* start()'s answer as the command's exit code */
#define STARTED(rc) ((rc) == CLI_PARSED)
#define EXIT(rc)    ((rc) == CLI_HELPED ? PB_EXIT_OK : (rc))

static int fail_session(struct vctx *v, enum pb_error err, const char *what)
{
	return pb_cli_fail(err, what, vs_session_error(v->s));
}

/* print a table and free it; its error, if any, as the exit code */
static int table_done(struct cli_table *t)
{
	enum pb_error err = cli_table_print(t, stdout);

	cli_table_dispose(t);
	return err ? pb_cli_fail(err, "table", "out of memory") : PB_EXIT_OK;
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

static int do_about(struct vctx *v, int argc, char **argv)
{
	const struct pb_option opts[] = {JSON_OPT(v), CLI_OPT_END};
	static const struct cli_cmd cmd = {
		"vsphere about", "What the server is: product, version, API.",
		NULL};
	const struct vs_about *a;
	int rc = start(v, &cmd, opts, argc, argv);

	if (!STARTED(rc))
		return EXIT(rc);
	a = vs_session_about(v->s);

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

/* strip colons and case: how a pin compares with a fingerprint */
static void bare(char *out, size_t len, const char *in)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		if (*in != ':')
			out[n++] = (char)(*in >= 'A' && *in <= 'F' ? *in + 32
								   : *in);
	out[n] = '\0';
}

/* the server's settings, with no credentials needed: the probe never
 * logs in, so a placeholder stands in for unset ones */
static const char *env_no_login(const char *name, void *arg)
{
	const char *v = getenv(name);

	(void)arg;
	if ((!v || !*v) && (!strcmp(name, "PROVBENCH_USERNAME") ||
			    !strcmp(name, "PROVBENCH_PASSWORD")))
		return "unused";
	return v;
}

/* No session: the handshake only, so it works before anything is trusted
 * and with no credentials set. */
static int do_thumbprint(struct vctx *v, int argc, char **argv)
{
	const struct pb_option opts[] = {JSON_OPT(v), CLI_OPT_END};
	static const struct cli_cmd cmd = {
		"vsphere thumbprint",
		"The server's certificate fingerprints: what "
		"PROVBENCH_THUMBPRINT "
		"takes.",
		"Only a TLS handshake is made: nothing is sent, no credentials "
		"are needed.\nCheck the fingerprint against the host's own "
		"(its console, or vCenter's\nhost summary) before pinning it."};
	struct vs_config cfg = VS_CONFIG_INIT;
	struct vs_cert_id id;
	char errbuf[PB_ERRBUF_SIZE] = "", a[160], b1[160], b2[160];
	const char *match = NULL;
	enum pb_error err;
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return rc == CLI_HELPED ? PB_EXIT_OK : rc;
	err = vs_config_from_env(&cfg, env_no_login, NULL, errbuf);
	if (!err)
		err = vs_cert_probe(&id, cfg.url, cfg.tls_legacy, errbuf);
	if (!err && cfg.thumbprint) {
		bare(a, sizeof(a), cfg.thumbprint);
		bare(b1, sizeof(b1), id.sha1);
		bare(b2, sizeof(b2), id.sha256);
		match = !strcmp(a, b1) || !strcmp(a, b2) ? "yes" : "no";
	}
	vs_config_dispose(&cfg);
	if (err)
		return pb_cli_fail(err, "vsphere thumbprint", errbuf);
	if (v->json)
		return print_json(json_pack("{s:s,s:s,s:s,s:s?}", "sha1",
					    id.sha1, "sha256", id.sha256,
					    "subject", id.subject,
					    "matches_thumbprint", match));
	printf("SHA-1:    %s\nSHA-256:  %s\nSubject:  %s\n", id.sha1, id.sha256,
	       id.subject);
	if (match)
		printf("PROVBENCH_THUMBPRINT %s\n",
		       *match == 'y' ? "matches" : "does NOT match");
	return PB_EXIT_OK;
}

static int ls_vms(struct vctx *v)
{
	struct cli_table t;
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
	cli_table_init(&t, "lllll");
	cli_table_row(&t, "NAME", "MOREF", "POWER", "TOOLS", "PATH");
	for (i = 0; i < n; i++)
		cli_table_row(&t, vms[i].name, vms[i].ref.value,
			      vms[i].power_state, vms[i].tools_status,
			      vms[i].path);
	free(vms);
	return table_done(&t);
}

static int ls_datastores(struct vctx *v)
{
	struct cli_table t;
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
	cli_table_init(&t, "lllrr");
	cli_table_row(&t, "NAME", "MOREF", "TYPE", "CAPACITY", "FREE");
	for (i = 0; i < n; i++)
		cli_table_row(&t, ds[i].name, ds[i].ref.value, ds[i].type,
			      pb_size_format(cap, sizeof(cap), ds[i].capacity),
			      pb_size_format(fr, sizeof(fr), ds[i].free_space));
	free(ds);
	return table_done(&t);
}

static int ls_hosts(struct vctx *v)
{
	struct cli_table t;
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
	cli_table_init(&t, "lllll");
	cli_table_row(&t, "NAME", "MOREF", "VERSION", "BUILD", "STATE");
	for (i = 0; i < n; i++)
		cli_table_row(&t, hs[i].name, hs[i].ref.value, hs[i].version,
			      hs[i].build, hs[i].connection_state);
	free(hs);
	return table_done(&t);
}

static int do_ls(struct vctx *v, int argc, char **argv)
{
	/* govc's singular names too */
	static const struct {
		const char *name, *alias;
		int (*fn)(struct vctx *v);
	} kinds[] = {{"vms", "vm", ls_vms},
		     {"datastores", "datastore", ls_datastores},
		     {"hosts", "host", ls_hosts}};
	const char *what = NULL;
	const struct pb_option opts[] = {
		JSON_OPT(v),
		CLI_ARG("vms|datastores|hosts", &what, "what to list",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere ls", "List the inventory's VMs, datastores or hosts.",
		NULL};
	int rc = cli_parse(&cmd, opts, argc, argv);
	size_t i;
	char why[160];

	if (rc)
		return EXIT(rc);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(what, kinds[i].name) ||
		    !strcmp(what, kinds[i].alias))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(why, sizeof(why),
			 "'%s': give one of vms, datastores, hosts", what);
		return pb_cli_fail(PB_ERR_USAGE, "vsphere ls", why);
	}
	/* the line is good: now the server */
	rc = start(v, &cmd, opts, argc, argv);
	return STARTED(rc) ? kinds[i].fn(v) : EXIT(rc);
}

/*
 * The host's LUNs that may become RDMs (what QueryConfigTarget offers, as
 * govc vm.rdm.ls lists it) and those in use (a VMFS extent, mapped by a
 * VM); the rest (the boot disk, vSAN's disks, CD-ROMs) are only counted.
 */
static int do_luns(struct vctx *v, int argc, char **argv)
{
	struct cli_table t;
	struct vs_host_info h;
	struct vs_lun *l = NULL;
	size_t n = 0, i, hidden = 0;
	enum pb_error err;
	char cap[32];
	json_t *a;
	const char *host = NULL;
	const struct pb_option opts[] = {
		JSON_OPT(v),
		CLI_ARG("HOST", &host,
			"an ESXi host: name, inventory path or moref:host-N",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere luns",
		"The host's LUNs that may become RDMs, and those in use.",
		"What QueryConfigTarget offers, as govc vm.rdm.ls lists it; a "
		"LUN in use (a VMFS\nextent, mapped by a VM) is marked; the "
		"rest (boot disks, vSAN's, CD-ROMs)\nare only counted (--json "
		"lists them)."};
	int rc = start(v, &cmd, opts, argc, argv);

	if (!STARTED(rc))
		return EXIT(rc);
	err = vs_host_find(v->s, &h, host);
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
					  "offered", l[i].offered,
					  "not_offered",
					  l[i].why[0] ? l[i].why : NULL, "vaai",
					  l[i].vaai[0] ? l[i].vaai : NULL));
		free(l);
		return print_json(a);
	}
	cli_table_init(&t, "lllrll");
	cli_table_row(&t, "CANONICAL NAME", "VENDOR", "MODEL", "CAPACITY",
		      "USED", "DEVICE PATH");
	for (i = 0; i < n; i++) {
		if (!l[i].offered && !l[i].used_by[0]) {
			hidden++;
			continue;
		}
		cli_table_row(
			&t, l[i].canonical_name, l[i].vendor, l[i].model,
			pb_size_format(cap, sizeof(cap), l[i].capacity_bytes),
			l[i].used_by[0] ? l[i].used_by : NULL,
			l[i].device_path);
	}
	if ((rc = table_done(&t))) {
		free(l);
		return rc;
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
		"key", d->key, "label", d->label, "mode", pb_mode_name(d->mode),
		"capacity", (json_int_t)d->capacity_bytes, "file", d->file,
		"uuid", d->uuid, "backing", d->backing, "thin_provisioned",
		d->thin_provisioned < 0 ? json_null()
					: json_boolean(d->thin_provisioned),
		"eagerly_scrub",
		d->eagerly_scrub < 0 ? json_null()
				     : json_boolean(d->eagerly_scrub),
		"compatibility_mode", d->compat_mode[0] ? d->compat_mode : NULL,
		"device_name", d->device_name[0] ? d->device_name : NULL,
		"controller_key", d->controller_key, "unit", d->unit);
}

static void disk_header(struct cli_table *t)
{
	cli_table_init(t, "lllrll");
	cli_table_row(t, "KEY", "LABEL", "MODE", "SIZE", "UUID", "FILE");
}

static void disk_row(struct cli_table *t, const struct vs_disk *d)
{
	char cap[32], key[16];

	snprintf(key, sizeof(key), "%d", d->key);
	cli_table_row(t, key, d->label, pb_mode_name(d->mode),
		      pb_size_format(cap, sizeof(cap), d->capacity_bytes),
		      d->uuid[0] ? d->uuid : NULL, d->file);
}

/* The VM a disk or guest subcommand names. */
static int find_vm(struct vctx *v, struct vs_vm_info *vm, const char *name,
		   const char *what)
{
	enum pb_error err = vs_vm_find(v->s, vm, name);

	return err ? fail_session(v, err, what) : PB_EXIT_OK;
}

#define VM_ARG(var)                                                            \
	CLI_ARG("VM", &(var),                                                  \
		"the VM: inventory path, unique name or moref:vm-N",           \
		PB_OPT_F_REQUIRED)

static int disk_ls(struct vctx *v, int argc, char **argv)
{
	struct cli_table t;
	const char *vmname = NULL;
	const struct pb_option opts[] = {JSON_OPT(v), VM_ARG(vmname),
					 CLI_OPT_END};
	static const struct cli_cmd cmd = {
		"vsphere disk ls",
		"The VM's disks: key, label, mode as read back, size, uuid, "
		"file.",
		NULL};
	struct vs_vm_info vm;
	struct vs_disk *d = NULL;
	size_t n = 0, i;
	enum pb_error err;
	json_t *a;
	int rc = start(v, &cmd, opts, argc, argv);

	if (!STARTED(rc))
		return EXIT(rc);
	if ((rc = find_vm(v, &vm, vmname, "vsphere disk ls")))
		return rc;
	err = vs_disk_list(v->s, &vm.ref, &d, &n);
	if (err)
		return fail_session(v, err, "vsphere disk ls");
	if (v->json) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(a, disk_json(&d[i]));
		free(d);
		return print_json(a);
	}
	disk_header(&t);
	for (i = 0; i < n; i++)
		disk_row(&t, &d[i]);
	free(d);
	return table_done(&t);
}

static int disk_add(struct vctx *v, int argc, char **argv)
{
	struct cli_table t;
	const char *vmname = NULL, *mode = NULL, *size = NULL, *ctl = NULL;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	const struct pb_option opts[] = {
		JSON_OPT(v),
		CLI_VALUE("mode", 0, &mode, "MODE",
			  "thin, lazy, eager, rdm or rdmp (required)"),
		CLI_VALUE("size", 0, &size, "SIZE",
			  "8G and the like (required but for rdm / rdmp)"),
		CLI_VALUE("datastore", 0, &sp.datastore, "DS",
			  "where the disk goes (default: the VM's)"),
		CLI_VALUE("lun", 0, &sp.lun, "NAME",
			  "the LUN's canonical name, for rdm / rdmp"),
		CLI_VALUE("host", 0, &sp.host, "HOST",
			  "the host whose LUN it is (default: the VM's)"),
		CLI_VALUE("controller", 0, &ctl, "KEY",
			  "the SCSI controller's device key (default: any with "
			  "room)"),
		VM_ARG(vmname),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere disk add",
		"Create a disk of a mode and attach it to the VM.", NULL};
	struct vs_vm_info vm;
	struct vs_disk d;
	char errbuf[PB_ERRBUF_SIZE] = "", why[PB_ERRBUF_SIZE];
	enum pb_error err;
	char *end;
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return EXIT(rc);
	/* the whole line is checked before the server is asked anything */
	if (!mode)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere disk add",
				   "--mode is required");
	if (!pb_mode_parse(&sp.mode, mode)) {
		char hint[256];

		snprintf(why, sizeof(why), "'%s': not a mode (%s)", mode,
			 pb_choices_hint(hint, sizeof(hint), mode, strlen(mode),
					 pb_mode_names()));
		return pb_cli_fail(PB_ERR_USAGE, "--mode", why);
	}
	if (size && pb_size_parse(&sp.size_bytes, size, errbuf))
		return pb_cli_fail(PB_ERR_USAGE, "--size", errbuf);
	if (!pb_mode_is_raw_mapping(sp.mode) && !size)
		return pb_cli_fail(PB_ERR_USAGE, "vsphere disk add",
				   "--size is required");
	if (ctl) {
		long k = strtol(ctl, &end, 10);

		if (*end || !*ctl || k < 0 || k > 1000000) {
			snprintf(why, sizeof(why),
				 "'%s': a device key, like 1000", ctl);
			return pb_cli_fail(PB_ERR_USAGE, "--controller", why);
		}
		sp.controller_key = (int)k;
	}
	rc = start(v, &cmd, opts, argc, argv);
	if (!STARTED(rc))
		return EXIT(rc);
	if ((rc = find_vm(v, &vm, vmname, "vsphere disk add")))
		return rc;
	err = vs_disk_add(v->s, &vm.ref, &sp, &d);
	if (err)
		return fail_session(v, err, "vsphere disk add");
	if (v->json)
		return print_json(disk_json(&d));
	disk_header(&t);
	disk_row(&t, &d);
	if ((rc = table_done(&t)))
		return rc;
	if (d.mode != sp.mode)
		fprintf(stderr,
			"provbench: warning: asked for %s, the server "
			"applied %s\n",
			pb_mode_name(sp.mode), pb_mode_name(d.mode));
	return PB_EXIT_OK;
}

/* DISK is a key, a label ("Hard disk 2") or a backing file. */
static int disk_rm(struct vctx *v, int argc, char **argv)
{
	const char *vmname = NULL, *which = NULL;
	bool keep = false;
	const struct pb_option opts[] = {
		CLI_SWITCH("keep-file", 0, &keep,
			   "detach only; the file stays on the datastore"),
		VM_ARG(vmname),
		CLI_ARG("DISK", &which,
			"its key, its label (\"Hard disk 2\") or its file",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere disk rm", "Detach a disk from the VM and delete it.",
		NULL};
	struct vs_vm_info vm;
	struct vs_disk *d = NULL;
	size_t n = 0, i;
	enum pb_error err;
	char *end;
	long key;
	int rc = start(v, &cmd, opts, argc, argv);

	if (!STARTED(rc))
		return EXIT(rc);
	if ((rc = find_vm(v, &vm, vmname, "vsphere disk rm")))
		return rc;
	err = vs_disk_list(v->s, &vm.ref, &d, &n);
	if (err)
		return fail_session(v, err, "vsphere disk rm");
	key = strtol(which, &end, 10);
	for (i = 0; i < n; i++)
		if ((!*end && d[i].key == key) || !strcmp(d[i].label, which) ||
		    !strcmp(d[i].file, which))
			break;
	if (i == n) {
		free(d);
		return pb_cli_fail(PB_ERR_NOTFOUND, which,
				   "no such disk on the VM (see disk ls)");
	}
	err = vs_disk_remove(v->s, &vm.ref, &d[i], keep);
	free(d);
	if (err)
		return fail_session(v, err, "vsphere disk rm");
	return PB_EXIT_OK;
}

static int guest_put(struct vctx *v, int argc, char **argv)
{
	const char *vmname = NULL, *local = NULL, *gpath = NULL;
	const struct pb_option opts[] = {
		VM_ARG(vmname),
		CLI_ARG("LOCAL", &local, "the file to send", PB_OPT_F_REQUIRED),
		CLI_ARG("GUEST_PATH", &gpath,
			"where it goes in the guest (mode 0700)",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere guest put",
		"Copy a file into the guest through VMware Tools.", NULL};
	struct vs_vm_info vm;
	enum pb_error err;
	int rc = start(v, &cmd, opts, argc, argv);

	if (!STARTED(rc))
		return EXIT(rc);
	if ((rc = find_vm(v, &vm, vmname, "vsphere guest put")))
		return rc;
	err = vs_guest_upload(v->s, &vm, local, gpath, 0700, true);
	return err ? fail_session(v, err, "vsphere guest put") : PB_EXIT_OK;
}

static int guest_get(struct vctx *v, int argc, char **argv)
{
	const char *vmname = NULL, *local = NULL, *gpath = NULL;
	const struct pb_option opts[] = {
		VM_ARG(vmname),
		CLI_ARG("GUEST_PATH", &gpath, "the guest's file",
			PB_OPT_F_REQUIRED),
		CLI_ARG("LOCAL", &local, "where it goes here",
			PB_OPT_F_REQUIRED),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere guest get",
		"Copy a file out of the guest through VMware Tools.", NULL};
	struct vs_vm_info vm;
	enum pb_error err;
	int rc = start(v, &cmd, opts, argc, argv);

	if (!STARTED(rc))
		return EXIT(rc);
	if ((rc = find_vm(v, &vm, vmname, "vsphere guest get")))
		return rc;
	err = vs_guest_download(v->s, &vm, gpath, local);
	return err ? fail_session(v, err, "vsphere guest get") : PB_EXIT_OK;
}

/* run waits and exits 0 when the program did, 1 otherwise */
static int guest_run(struct vctx *v, int argc, char **argv)
{
	const char *vmname = NULL, *program = NULL, *dir = NULL,
		   *timeout_s = NULL;
	struct cli_args rest = {0};
	const struct pb_option opts[] = {
		JSON_OPT(v),
		CLI_VALUE("timeout", 0, &timeout_s, "S",
			  "give up after S seconds (default 3600)"),
		CLI_VALUE("dir", 0, &dir, "DIR",
			  "the program's working directory in the guest"),
		VM_ARG(vmname),
		CLI_ARG("PROGRAM", &program, "the guest program, a full path",
			PB_OPT_F_REQUIRED | PB_OPT_F_LITERAL_AFTER),
		CLI_ARGS("ARGS", &rest, "its arguments, as they are", 0),
		CLI_OPT_END,
	};
	static const struct cli_cmd cmd = {
		"vsphere guest run",
		"Run a program in the guest through VMware Tools and wait for "
		"it.",
		"Exit 0 when the program exited 0, else 1."};
	struct pb_buf args = PB_BUF_INIT(64 * 1024);
	struct vs_vm_info vm;
	long timeout = 3600;
	int64_t pid = 0;
	int code = -1, k;
	enum pb_error err;
	char *end, why[160];
	int rc = cli_parse(&cmd, opts, argc, argv);

	if (rc)
		return EXIT(rc);
	if (timeout_s) {
		timeout = strtol(timeout_s, &end, 10);
		if (*end || !*timeout_s || timeout <= 0) {
			snprintf(why, sizeof(why), "'%s': a number of seconds",
				 timeout_s);
			return pb_cli_fail(PB_ERR_USAGE, "--timeout", why);
		}
	}
	for (k = 0; k < rest.argc; k++)
		pb_buf_printf(&args, "%s%s", k ? " " : "", rest.argv[k]);
	if (pb_buf_error(&args)) {
		pb_buf_dispose(&args);
		return pb_cli_fail(PB_ERR_USAGE, "vsphere guest run",
				   "arguments too long");
	}
	memset(&rest, 0, sizeof(rest));
	rc = start(v, &cmd, opts, argc, argv);
	if (!STARTED(rc) ||
	    (rc = find_vm(v, &vm, vmname, "vsphere guest run"))) {
		pb_buf_dispose(&args);
		return EXIT(rc);
	}
	err = vs_guest_start(v->s, &vm, program, args.data ? args.data : "",
			     dir, &pid);
	pb_buf_dispose(&args);
	if (!err)
		err = vs_guest_wait(v->s, &vm, pid, timeout, NULL, &code);
	if (err)
		return fail_session(v, err, "vsphere guest run");
	if (v->json)
		return print_json(json_pack("{s:I,s:i}", "pid", (json_int_t)pid,
					    "exit_code", code));
	if (code)
		fprintf(stderr, "provbench: guest program %s exited %d\n",
			program, code);
	return code == 0 ? PB_EXIT_OK : PB_EXIT_FAILED;
}

/* every subcommand: "disk ls" is group "disk", name "ls" */
static const struct {
	const char *group, *name;
	int (*fn)(struct vctx *v, int argc, char **argv);
	const char *summary;
} subs[] = {
	{NULL, "about", do_about, "what the server is"},
	{NULL, "thumbprint", do_thumbprint,
	 "the server certificate's SHA-1 and SHA-256"},
	{NULL, "ls", do_ls, "list VMs, datastores or hosts"},
	{NULL, "luns", do_luns, "a host's LUNs that may become RDMs"},
	{"disk", "ls", disk_ls, "a VM's disks"},
	{"disk", "add", disk_add, "create a disk of a mode on a VM"},
	{"disk", "rm", disk_rm, "detach and delete a VM's disk"},
	{"guest", "put", guest_put, "copy a file into the guest"},
	{"guest", "get", guest_get, "copy a file out of the guest"},
	{"guest", "run", guest_run, "run a guest program and wait"},
};

#define NSUBS (sizeof(subs) / sizeof(subs[0]))

static void vsphere_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: provbench vsphere [--json] COMMAND [ARGS]\n\n"
		    "commands (provbench vsphere COMMAND --help for each):\n");
	for (i = 0; i < NSUBS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%s%s%s",
			 subs[i].group ? subs[i].group : "",
			 subs[i].group ? " " : "", subs[i].name);
		fprintf(fp, "  %-12s %s\n", name, subs[i].summary);
	}
	fprintf(fp, "\nThe server and credentials come from the environment: "
		    "PROVBENCH_URL,\nPROVBENCH_USERNAME, PROVBENCH_PASSWORD or "
		    "PROVBENCH_PASSWORD_FILE,\nPROVBENCH_THUMBPRINT or "
		    "PROVBENCH_CA_FILE (GOVC_URL and friends too).\n");
}

int cmd_vsphere(int argc, char **argv)
{
	struct vctx v = {NULL, false};
	const char *group = NULL;
	size_t i;
	int a = 1, rc;

	/* a --json before the subcommand counts for it */
	while (a < argc &&
	       (!strcmp(argv[a], "--json") || !strcmp(argv[a], "-json"))) {
		v.json = true;
		a++;
	}
	if (a >= argc) {
		vsphere_usage(stderr);
		return PB_EXIT_USAGE;
	}
	if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help") ||
	    !strcmp(argv[a], "help")) {
		vsphere_usage(stdout);
		return PB_EXIT_OK;
	}
	for (i = 0; i < NSUBS; i++)
		if (subs[i].group && !strcmp(argv[a], subs[i].group))
			group = subs[i].group;
	for (i = 0; i < NSUBS; i++)
		if (group ? subs[i].group && !strcmp(subs[i].group, group) &&
				    a + 1 < argc &&
				    !strcmp(argv[a + 1], subs[i].name)
			  : !subs[i].group && !strcmp(argv[a], subs[i].name))
			break;
	if (i == NSUBS) {
		bool first = true;

		fprintf(stderr,
			"provbench: vsphere: '%s%s%s': unknown command (",
			argv[a], group && a + 1 < argc ? " " : "",
			group && a + 1 < argc ? argv[a + 1] : "");
		for (i = 0; i < NSUBS; i++) {
			if (group &&
			    (!subs[i].group || strcmp(subs[i].group, group)))
				continue;
			fprintf(stderr, "%s%s%s%s", first ? "" : ", ",
				subs[i].group ? subs[i].group : "",
				subs[i].group ? " " : "", subs[i].name);
			first = false;
		}
		fprintf(stderr, ")\n");
		return PB_EXIT_USAGE;
	}
	/* the subcommand sees itself as argv[0] */
	a += group ? 1 : 0;
	rc = subs[i].fn(&v, argc - a, argv + a);
	vs_session_free(v.s);
	return rc;
}
