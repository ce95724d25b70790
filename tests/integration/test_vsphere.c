/*
 * test_vsphere.c - the vSphere client against govmomi's vCenter simulator
 * (tests/vcsim). Every request the client sends is validated against
 * VMware's vim25 schema (vim-messages.xsd in PROVBENCH_VIM25_DIR, by
 * default ../shared/vim25 beside the checkout when it is there): real ESXi
 * and vCenter reject what the lenient simulator would accept. Without the
 * schema the client's cases still run, and the case that judges every
 * request, requests_valid_vim25, is reported skipped.
 */
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "it.h"
#include "unit.h"
#include "vs_int.h"

/* where the schema is unless PROVBENCH_VIM25_DIR says */
#define SCHEMA_DIR "../shared/vim25"

static xmlSchemaPtr schema;
static char schema_why[1200];
static unsigned validated, invalid;
/* requests holding watch_for, counted (what a server must not be sent) */
static const char *watch_for;
static unsigned watch_hits;

static int setup(void)
{
	const char *dir = getenv("PROVBENCH_VIM25_DIR");
	char path[1024];
	xmlSchemaParserCtxtPtr pc;
	struct stat st;

	/* read in place, never copied into the project */
	snprintf(path, sizeof(path), "%s/vim-messages.xsd",
		 dir && *dir ? dir : SCHEMA_DIR);
	if (stat(path, &st)) {
		/* named explicitly and not there is a mistake; the default
		 * missing only means a clone without ../shared beside it */
		snprintf(schema_why, sizeof(schema_why),
			 "no vim25 schema at %s (set PROVBENCH_VIM25_DIR)",
			 path);
		if (dir && *dir) {
			fprintf(stderr, "\n%s\n", schema_why);
			return 1;
		}
		return 0;
	}
	pc = xmlSchemaNewParserCtxt(path);
	schema = pc ? xmlSchemaParse(pc) : NULL; /* ~0.1 s: once */
	xmlSchemaFreeParserCtxt(pc);
	if (!schema)
		fprintf(stderr, "\n%s: not a schema libxml2 can read\n", path);
	return schema ? 0 : 1;
}

/*
 * Every request every case above sent, judged by the schema: run last.
 * (Each case also checks its own requests, so a failure names its case.)
 */
static unsigned pbm_requests;

static void requests_valid_vim25(void)
{
	if (!schema)
		PB_SKIP(schema_why);
	CU_ASSERT(validated > 50);
	CU_ASSERT_EQUAL(invalid, 0);
}

static int teardown(void)
{
	xmlSchemaFree(schema);
	return 0;
}

static void on_schema_error(void *arg, xmlErrorPtr e)
{
	fprintf(stderr, "\n  schema: %s: %s", (const char *)arg,
		e && e->message ? e->message : "?");
}

/* The request hook: the Body's child, as its own document, must validate. */
static void validate(const char *op, const char *body, size_t len, void *arg)
{
	xmlDocPtr doc, one;
	xmlNodePtr root, req, copy;
	xmlSchemaValidCtxtPtr vc;

	(void)arg;
	if (watch_for && memmem(body, len, watch_for, strlen(watch_for)))
		watch_hits++;
	/* SPBM's requests are counted whatever the schema: lab_calls
	 * checks they were sent */
	if (memmem(body, len, "urn:pbm", 7))
		pbm_requests++;
	if (!schema)
		return; /* requests_valid_vim25 says skipped */
	doc = xmlReadMemory(body, (int)len, "req.xml", NULL, XML_PARSE_NONET);
	root = doc ? xmlDocGetRootElement(doc) : NULL;
	one = xmlNewDoc(BAD_CAST "1.0");
	vc = xmlSchemaNewValidCtxt(schema);
	req = vs_child(vs_child(root, "Body"), NULL);
	if (!req) {
		invalid++;
		goto out;
	}
	/* SPBM's requests are urn:pbm: not vim25's schema to judge */
	if (req->ns && !strcmp((const char *)req->ns->href, "urn:pbm"))
		goto out;
	copy = xmlDocCopyNode(req, one, 1);
	xmlDocSetRootElement(one, copy);
	/* xsi:type values such as "xsd:string" need their prefixes here */
	xmlNewNs(copy, BAD_CAST VS_NS_XSI, BAD_CAST "xsi");
	xmlNewNs(copy, BAD_CAST VS_NS_XSD, BAD_CAST "xsd");
	xmlReconciliateNs(one, copy);
	xmlSchemaSetValidStructuredErrors(vc, on_schema_error, (void *)op);
	if (xmlSchemaValidateDoc(vc, one))
		invalid++;
	else
		validated++;
out:
	xmlSchemaFreeValidCtxt(vc);
	xmlFreeDoc(one);
	xmlFreeDoc(doc);
}

static enum pb_error open_session(struct vs_session **s, const struct vcsim *v,
				  const char *password)
{
	struct vs_config c = VS_CONFIG_INIT;
	char tp[80], err[PB_ERRBUF_SIZE] = "";
	enum pb_error e;

	c.url = (char *)v->url;
	c.username = (char *)"user";
	c.password = (char *)password;
	vs_thumbprint_normalize(tp, sizeof(tp), v->thumbprint, err);
	c.thumbprint = tp;
	e = vs_session_open(s, &c, validate, NULL, err);
	if (e && strcmp(password, "secret"))
		return e;
	if (e)
		fprintf(stderr, "\n  %s\n", err);
	return e;
}

#define START(v, ...)                                                          \
	do {                                                                   \
		const char *const flags_[] = {__VA_ARGS__};                    \
		CU_ASSERT_EQUAL_FATAL(vcsim_start(v, flags_), 0);              \
	} while (0)

static void login_about_logout(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	unsigned before = invalid;

	START(&v, NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_about(s)->name, "vCenter"));
	CU_ASSERT_STRING_EQUAL(vs_session_api_version(s), "6.5");
	/* versions file, RetrieveServiceContent, Login */
	CU_ASSERT_EQUAL(vs_session_round_trips(s), 3);
	vs_session_free(s);
	vcsim_stop(&v);
	CU_ASSERT_EQUAL(invalid, before);
	CU_ASSERT(!schema || validated >= 3);
}

static void wrong_password_refused(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;

	START(&v, NULL);
	CU_ASSERT_EQUAL(open_session(&s, &v, "wrong"), PB_ERR_LOGIN);
	CU_ASSERT_PTR_NULL(s);
	vcsim_stop(&v);
}

static const char *disk_file_path(struct vs_session *s, const char *file,
				  char *out, size_t len)
{
	struct vs_ds_info *ds = NULL;
	size_t n = 0;
	const char *rel = strchr(file, ']');

	/* the simulator's datastore moref is "<local dir>@folder-N" */
	if (vs_datastore_list(s, &ds, &n) || !n || !rel) {
		free(ds);
		return NULL;
	}
	snprintf(out, len, "%.*s/%s",
		 (int)(strchr(ds[0].ref.value, '@') - ds[0].ref.value),
		 ds[0].ref.value, rel + 2);
	free(ds);
	return out;
}

/* vs_datastore_files' callback: is the path looked for among them? */
static const char *file_wanted;
static unsigned file_hits, file_count;

static void count_file(const char *path, void *arg)
{
	(void)arg;
	file_count++;
	if (file_wanted && !strcmp(path, file_wanted))
		file_hits++;
}

static void every_mode_added_read_back_removed(void)
{
	static const struct {
		enum pb_mode mode;
		const char *lun;
	} modes[] = {
		{PB_MODE_THIN, NULL},
		{PB_MODE_LAZY, NULL},
		{PB_MODE_EAGER, NULL},
		{PB_MODE_RDM, "naa.6000c290000000000000000000000001"},
		{PB_MODE_RDMP, "naa.6000c290000000000000000000000002"},
	};
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk *orig = NULL, *now = NULL, d;
	size_t norig = 0, nnow = 0, i;
	char path[1024];
	struct stat st;
	unsigned before = invalid;

	START(&v, NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "/DC0/vm/DC0_H0_VM1"), PB_OK);
	CU_ASSERT_STRING_EQUAL(vm.name, "DC0_H0_VM1");
	CU_ASSERT_EQUAL_FATAL(vs_disk_list(s, &vm.ref, &orig, &norig), PB_OK);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct vs_disk_spec sp = VS_DISK_SPEC_INIT;

		sp.mode = modes[i].mode;
		sp.size_bytes = 64 << 20;
		sp.lun = modes[i].lun;
		CU_ASSERT_EQUAL_FATAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
		CU_ASSERT_EQUAL(d.mode, modes[i].mode);
		CU_ASSERT(strlen(d.uuid) >= 32);
		CU_ASSERT(d.unit != 7);
		/* unit 1 of the SCSI controller holds a CD-ROM */
		CU_ASSERT(d.unit != 1);
		if (modes[i].mode == PB_MODE_RDMP ||
		    modes[i].mode == PB_MODE_RDM)
			CU_ASSERT_STRING_EQUAL(d.lun_name, modes[i].lun);
		switch (modes[i].mode) {
		case PB_MODE_THIN:
			CU_ASSERT_EQUAL(d.thin_provisioned, 1);
			CU_ASSERT_EQUAL(d.capacity_bytes, 64 << 20);
			break;
		case PB_MODE_LAZY:
			CU_ASSERT_EQUAL(d.thin_provisioned, 0);
			CU_ASSERT_EQUAL(d.eagerly_scrub, 0);
			break;
		case PB_MODE_EAGER:
			CU_ASSERT_EQUAL(d.eagerly_scrub, 1);
			break;
		case PB_MODE_RDM:
		case PB_MODE_RDMP:
			CU_ASSERT_STRING_EQUAL(d.compat_mode,
					       modes[i].mode == PB_MODE_RDM
						       ? "virtualMode"
						       : "physicalMode");
			CU_ASSERT_PTR_NOT_NULL(
				strstr(d.device_name, modes[i].lun));
			CU_ASSERT(d.capacity_bytes >= 8ull << 30);
			break;
		default:
			break;
		}
		CU_ASSERT_PTR_NOT_NULL_FATAL(
			disk_file_path(s, d.file, path, sizeof(path)));
		CU_ASSERT_EQUAL(stat(path, &st), 0);
		/* the datastore's listing names it as the disk says, once */
		file_wanted = d.file;
		file_hits = file_count = 0;
		CU_ASSERT_EQUAL(vs_datastore_files(s, "LocalDS_0", "*.vmdk",
						   count_file, NULL),
				PB_OK);
		CU_ASSERT_EQUAL(file_hits, 1);
		CU_ASSERT(file_count >= 1);
		CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);
		/* destroyed: the file is gone from the datastore */
		CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
		file_hits = 0;
		CU_ASSERT_EQUAL(vs_datastore_files(s, "LocalDS_0", "*.vmdk",
						   count_file, NULL),
				PB_OK);
		CU_ASSERT_EQUAL(file_hits, 0);
	}
	/* exactly the original disks remain */
	CU_ASSERT_EQUAL(vs_disk_list(s, &vm.ref, &now, &nnow), PB_OK);
	CU_ASSERT_EQUAL(nnow, norig);
	for (i = 0; i < nnow && i < norig; i++)
		CU_ASSERT_EQUAL(now[i].key, orig[i].key);
	free(orig);
	free(now);
	vs_session_free(s);
	vcsim_stop(&v);
	CU_ASSERT_EQUAL(invalid, before);
}

static void rdm_lun_checks(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm, other;
	struct vs_host_info h;
	struct vs_lun *l = NULL;
	struct vs_disk d, d2;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	size_t n = 0, i, used = 0;
	char path[1024];
	struct stat st;

	START(&v, NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_host_find(s, &h, "DC0_H0"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_host_luns(s, &h.ref, &l, &n), PB_OK);
	for (i = 0; i < n; i++) {
		if (!strcmp(l[i].canonical_name,
			    "naa.6000c290000000000000000000000003")) {
			CU_ASSERT_STRING_EQUAL(l[i].used_by,
					       "vmfs:provbench-vmfs");
			CU_ASSERT_EQUAL(l[i].capacity_bytes, 24ull << 30);
			CU_ASSERT_FALSE(l[i].offered);
			used++;
		}
		/* what QueryConfigTarget never offers, and why */
		if (!strcmp(l[i].canonical_name,
			    "naa.6000c290000000000000000000000004"))
			CU_ASSERT_STRING_EQUAL(l[i].why, "claimed by vSAN");
		if (!strcmp(l[i].canonical_name,
			    "naa.6000c290000000000000000000000005"))
			CU_ASSERT_PTR_NOT_NULL(strstr(l[i].why, "local disk"));
		if (!strcmp(l[i].lun_type, "cdrom"))
			CU_ASSERT_PTR_NOT_NULL(strstr(l[i].why, "cdrom"));
		if (!strcmp(l[i].canonical_name,
			    "naa.6000c290000000000000000000000001")) {
			CU_ASSERT_TRUE(l[i].offered);
			CU_ASSERT_STRING_EQUAL(l[i].vendor, "PROVBNCH");
		}
	}
	CU_ASSERT_EQUAL(used, 1);
	free(l);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	sp.mode = PB_MODE_RDMP;
	sp.lun = "naa.6000c290000000000000000000000004";
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "vSAN"));
	sp.lun = "naa.6000c290000000000000000000000005";
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "local disk"));
	sp.mode = PB_MODE_RDM;
	sp.lun = "naa.6000c290000000000000000000000003";
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "in use"));
	sp.lun = "naa.600000000000000000000000000000ff";
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_NOTFOUND);
	/* a LUN mapped into one VM is in use for every other */
	sp.lun = "naa.6000c290000000000000000000000001";
	CU_ASSERT_EQUAL_FATAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	CU_ASSERT_EQUAL(vs_host_luns(s, &h.ref, &l, &n), PB_OK);
	for (i = 0; i < n; i++)
		if (!strcmp(l[i].canonical_name, sp.lun))
			CU_ASSERT_PTR_NOT_NULL(strstr(l[i].used_by, "rdm:"));
	free(l);
	CU_ASSERT_EQUAL(vs_vm_find(s, &other, "DC0_H0_VM1"), PB_OK);
	CU_ASSERT_EQUAL(vs_disk_add(s, &other.ref, &sp, &d2), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "rdm:"));
	/* removed, keeping the mapping file: the LUN is free again */
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, true), PB_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(
		disk_file_path(s, d.file, path, sizeof(path)));
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(vs_disk_add(s, &other.ref, &sp, &d2), PB_OK);
	CU_ASSERT_EQUAL(vs_disk_remove(s, &other.ref, &d2, false), PB_OK);
	sp.lun = NULL;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_INPUT);
	CU_ASSERT_EQUAL(vs_vm_find(s, &vm, "no-such-vm"), PB_ERR_NOTFOUND);
	CU_ASSERT_EQUAL(vs_vm_find(s, &vm, "/DC0/vm/no-such-vm"),
			PB_ERR_NOTFOUND);
	vs_session_free(s);
	vcsim_stop(&v);
}

static void failed_task_reports_fault(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d, *disks = NULL;
	size_t n0 = 0, n1 = 0;

	START(&v, "-fail-mode", "eager", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_disk_list(s, &vm.ref, &disks, &n0), PB_OK);
	free(disks);
	sp.mode = PB_MODE_EAGER;
	sp.size_bytes = 16 << 20;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_FAULT);
	CU_ASSERT_STRING_EQUAL(vs_session_fault(s), "InsufficientStorageSpace");
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "task"));
	CU_ASSERT_EQUAL(vs_disk_list(s, &vm.ref, &disks, &n1), PB_OK);
	CU_ASSERT_EQUAL(n1, n0);
	free(disks);
	/* other modes still work on the same session */
	sp.mode = PB_MODE_LAZY;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);
	vs_session_free(s);
	vcsim_stop(&v);
}

/* Call 3 (the first after Login) finds its session gone. */
static void session_expiry_survived(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info *vms = NULL;
	size_t n = 0;

	START(&v, "-expire-after", "3", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_list(s, &vms, &n), PB_OK);
	CU_ASSERT_EQUAL(n, 4);
	free(vms);
	/* 3 to log in; NotAuthenticated, Login, then the view's 3 calls */
	CU_ASSERT_EQUAL(vs_session_round_trips(s), 8);
	vs_session_free(s);
	vcsim_stop(&v);
}

static void dropped_connection(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info *vms = NULL;
	size_t n = 0;

	/*
	 * libcurl itself resends once when a reused connection dies before
	 * any reply; two drops in a row get past it. Calls 4 and 5 are
	 * RetrievePropertiesEx, idempotent: retried with backoff.
	 */
	START(&v, "-drop-after", "4", "-drop-count", "2", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_list(s, &vms, &n), PB_OK);
	CU_ASSERT_EQUAL(n, 4);
	free(vms);
	vs_session_free(s);
	vcsim_stop(&v);

	/* call 3 is CreateContainerView, which creates: never repeated */
	START(&v, "-drop-after", "3", "-drop-count", "2", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_list(s, &vms, &n), PB_ERR_CONNECT);
	CU_ASSERT_PTR_NULL(vms);
	vs_session_free(s);
	vcsim_stop(&v);
}

struct extra_seen {
	unsigned hits;
};

static enum pb_error on_extra(struct vs_session *s,
			      const struct vs_objcontent *oc, void *arg)
{
	struct extra_seen *e = arg;
	xmlNodePtr ov;
	char k[64], val[64];

	(void)s;
	for (ov = vs_child(vs_prop(oc, "config.extraConfig"), NULL); ov;
	     ov = vs_next(ov, NULL)) {
		vs_text(k, sizeof(k), ov, "key");
		vs_text(val, sizeof(val), ov, "value");
		if ((!strcmp(k, "disk.EnableUUID") && !strcmp(val, "TRUE")) ||
		    (!strcmp(k, "provbench.test") && !strcmp(val, "<a&b>")))
			e->hits++;
	}
	return PB_OK;
}

static void extra_config_set(void)
{
	static const char *const keys[] = {"disk.EnableUUID", "provbench.test"};
	static const char *const vals[] = {"TRUE", "<a&b>"};
	static const char *const paths[] = {"config.extraConfig", NULL};
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct extra_seen seen = {0};
	unsigned before = invalid;

	START(&v, NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_set_extra_config(s, &vm.ref, keys, vals, 2),
			PB_OK);
	/* read back: both keys, the markup in the value intact */
	CU_ASSERT_EQUAL(vs_retrieve_one(s, &vm.ref, paths, on_extra, &seen),
			PB_OK);
	CU_ASSERT_EQUAL(seen.hits, 2);
	CU_ASSERT_EQUAL(invalid, before);
	vs_session_free(s);
	vcsim_stop(&v);
}

/* A session with guest credentials, pinned to the server's thumbprint,
 * with extra settings from the caller (a transfer host, say). */
static enum pb_error guest_session(struct vs_session **s, const struct vcsim *v,
				   const char *transfer_host)
{
	struct vs_config c = VS_CONFIG_INIT;
	char tp[80], err[PB_ERRBUF_SIZE] = "";
	enum pb_error e;

	c.url = (char *)v->url;
	c.username = (char *)"user";
	c.password = (char *)"secret";
	vs_thumbprint_normalize(tp, sizeof(tp), v->thumbprint, err);
	c.thumbprint = tp;
	c.guest_username = (char *)"bench";
	c.guest_password = (char *)"guestpw";
	c.guest_transfer_host = (char *)transfer_host;
	e = vs_session_open(s, &c, validate, NULL, err);
	if (e)
		fprintf(stderr, "\n  %s\n", err);
	return e;
}

/*
 * Upload the static runner, run it in the guest sandbox, fetch its JSON:
 * from vCenter (the URL names the VM's ESXi host, which serves with its
 * own certificate and whose inventory name does not resolve) and from a
 * standalone ESXi (the URL says "*"), with no transfer-host override.
 */
static void guest_upload_run_download(void)
{
	static const struct {
		const char *mode, *vm, *note;
	} servers[] = {
		{NULL, "DC0_H0_VM0",
		 "DC0_H0 does not resolve: its management vmknic 127.0.0.1, "
		 "pinned to the host's certificate"},
		{"-esx", "ha-host_VM0", "(the URL said *: the server called)"},
	};
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	char root[512], local[600], script[600];
	int64_t pid = 0;
	int code = -1;
	unsigned before = invalid;
	json_t *doc;
	size_t k;
	FILE *fp;

	for (k = 0; k < sizeof(servers) / sizeof(servers[0]); k++) {
		snprintf(root, sizeof(root), "%s/guest%zu", it_dir(), k);
		CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s'", root), 0);
		if (servers[k].mode)
			START(&v, "-guest-root", root, servers[k].mode, NULL);
		else
			START(&v, "-guest-root", root, NULL);
		CU_ASSERT_EQUAL_FATAL(guest_session(&s, &v, NULL), PB_OK);
		CU_ASSERT_EQUAL(vs_session_is_vcenter(s), !servers[k].mode);
		CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, servers[k].vm), PB_OK);
		CU_ASSERT_EQUAL(vs_guest_mkdir(s, &vm, "/opt/provbench", true),
				PB_OK);
		CU_ASSERT_EQUAL(
			vs_guest_upload(s, &vm,
					it_bin("provbench-runner-static"),
					"/opt/provbench/runner", 0700, true),
			PB_OK);
		if (!strstr(vs_session_transfer_note(s), servers[k].note)) {
			fprintf(stderr, "\n  transfer: %s",
				vs_session_transfer_note(s));
			CU_FAIL("transfer note");
		}
		/* overwrite=false on an existing file is the guest's fault */
		CU_ASSERT_EQUAL(
			vs_guest_upload(s, &vm,
					it_bin("provbench-runner-static"),
					"/opt/provbench/runner", 0700, false),
			PB_ERR_FAULT);
		CU_ASSERT_EQUAL(
			vs_guest_start(
				s, &vm, "/opt/provbench/runner",
				"--target /opt/provbench/t.img --size 4M "
				"--bs 64K -q -o /opt/provbench/out.json",
				"/opt/provbench", &pid),
			PB_OK);
		CU_ASSERT(pid > 0);
		CU_ASSERT_EQUAL(vs_guest_wait(s, &vm, pid, 60, NULL, &code),
				PB_OK);
		CU_ASSERT_EQUAL(code, 0);
		snprintf(local, sizeof(local), "%s/out.json", it_dir());
		CU_ASSERT_EQUAL(vs_guest_download(s, &vm,
						  "/opt/provbench/out.json",
						  local),
				PB_OK);
		doc = json_load_file(local, 0, NULL);
		CU_ASSERT_PTR_NOT_NULL(doc);
		CU_ASSERT_EQUAL(
			json_integer_value(json_object_get(
				json_array_get(json_object_get(doc, "passes"),
					       0),
				"bytes")),
			4 << 20);
		json_decref(doc);

		/* a program that fails: its exit status comes back */
		snprintf(script, sizeof(script), "%s/fail.sh", it_dir());
		fp = fopen(script, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
		fputs("#!/bin/sh\nexit 3\n", fp);
		fclose(fp);
		CU_ASSERT_EQUAL(vs_guest_upload(s, &vm, script,
						"/opt/provbench/f.sh", 0700,
						true),
				PB_OK);
		CU_ASSERT_EQUAL(vs_guest_start(s, &vm, "/opt/provbench/f.sh",
					       "", NULL, &pid),
				PB_OK);
		CU_ASSERT_EQUAL(vs_guest_wait(s, &vm, pid, 60, NULL, &code),
				PB_OK);
		CU_ASSERT_EQUAL(code, 3);
		CU_ASSERT_EQUAL(
			vs_guest_download(s, &vm, "/opt/provbench/none", local),
			PB_ERR_FAULT);
		CU_ASSERT_EQUAL(vs_guest_remove(s, &vm, "/opt/provbench", true),
				PB_OK);
		CU_ASSERT_EQUAL(it_sh("test -e '%s/opt/provbench'", root), 1);
		vs_session_free(s);
		vcsim_stop(&v);
	}
	CU_ASSERT_EQUAL(invalid, before);
}

/* The wrong guest password: a login error (exit 3 on the CLI). */
static void guest_login_refused(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_config c = VS_CONFIG_INIT;
	struct vs_vm_info vm;
	char root[512], tp[80], err[PB_ERRBUF_SIZE] = "";

	snprintf(root, sizeof(root), "%s/guest-login", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s'", root), 0);
	START(&v, "-guest-root", root, NULL);
	c.url = v.url;
	c.username = (char *)"user";
	c.password = (char *)"secret";
	vs_thumbprint_normalize(tp, sizeof(tp), v.thumbprint, err);
	c.thumbprint = tp;
	c.guest_username = (char *)"bench";
	c.guest_password = (char *)"nope";
	CU_ASSERT_EQUAL_FATAL(vs_session_open(&s, &c, validate, NULL, err),
			      PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_guest_mkdir(s, &vm, "/x", true), PB_ERR_LOGIN);
	CU_ASSERT_STRING_EQUAL(vs_session_fault(s), "InvalidGuestLogin");
	vs_session_free(s);
	vcsim_stop(&v);
}

/*
 * Where transfers go: a host whose inventory name resolves is reached by
 * it; PROVBENCH_GUEST_TRANSFER_HOST overrides the address (and may carry a
 * port) but not the pin; a reply with a body is read into the transfer's
 * own buffer and reported as HTTP <code>: <first line>.
 */
static void transfer_routes_and_errors(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	char root[512], port[16], over[64];
	const char *p;

	snprintf(root, sizeof(root), "%s/guest-routes", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s/opt'", root), 0);

	/* vCenter knows the host by a name that resolves */
	START(&v, "-guest-root", root, "-host-name", "localhost", NULL);
	CU_ASSERT_EQUAL_FATAL(guest_session(&s, &v, NULL), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_guest_upload(s, &vm, it_bin("provbench-runner"),
					"/opt/r", 0700, true),
			PB_OK);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(vs_session_transfer_note(s), "localhost (resolves)"));
	vs_session_free(s);
	vcsim_stop(&v);

	/* a standalone host through an override with a port: the session's
	 * pin holds, the address is the override's */
	START(&v, "-guest-root", root, "-esx", NULL);
	p = strrchr(v.url, ':');
	snprintf(port, sizeof(port), "%.*s", (int)strcspn(p + 1, "/"), p + 1);
	snprintf(over, sizeof(over), "localhost:%s", port);
	CU_ASSERT_EQUAL_FATAL(guest_session(&s, &v, over), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "ha-host_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_guest_upload(s, &vm, it_bin("provbench-runner"),
					"/opt/r", 0700, true),
			PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_transfer_note(s), over));
	vs_session_free(s);
	/* an override that leads nowhere: said, with where */
	CU_ASSERT_EQUAL_FATAL(guest_session(&s, &v, "127.0.0.1:1"), PB_OK);
	CU_ASSERT_EQUAL(vs_guest_upload(s, &vm, it_bin("provbench-runner"),
					"/opt/r", 0700, true),
			PB_ERR_CONNECT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "127.0.0.1:1"));
	/* the ticket in the URL is never in a message */
	CU_ASSERT_PTR_NULL(strstr(vs_session_error(s), "token"));
	vs_session_free(s);
	vcsim_stop(&v);

	/* an upload answered with an error page, from the host itself */
	START(&v, "-guest-root", root, "-upload-error", NULL);
	CU_ASSERT_EQUAL_FATAL(guest_session(&s, &v, NULL), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_guest_upload(s, &vm, it_bin("provbench-runner"),
					"/opt/r", 0700, true),
			PB_ERR_PROTOCOL);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s),
				      "HTTP 500: 500 Internal Server Error"));
	CU_ASSERT_PTR_NULL(strstr(vs_session_error(s), "token"));
	/* the session still works, and so do downloads */
	CU_ASSERT_EQUAL(vs_guest_mkdir(s, &vm, "/opt/d", true), PB_OK);
	vs_session_free(s);
	vcsim_stop(&v);
}

/* Pages of one object: the token is followed to the last page. */
static void paging_followed(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info *vms = NULL;
	size_t n = 0, i, j;
	unsigned rt;

	START(&v, "-page-size", "1", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	rt = vs_session_round_trips(s);
	CU_ASSERT_EQUAL(vs_vm_list(s, &vms, &n), PB_OK);
	CU_ASSERT_EQUAL(n, 4);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			CU_ASSERT_STRING_NOT_EQUAL(vms[i].name, vms[j].name);
	/* view, first page, three continuations, destroy */
	CU_ASSERT_EQUAL(vs_session_round_trips(s) - rt, 6);
	free(vms);
	vs_session_free(s);
	vcsim_stop(&v);
}

struct progress_log {
	int max_percent;
	unsigned calls;
	char last_state[16];
};

static void on_progress(const char *task, const char *state, int percent,
			void *arg)
{
	struct progress_log *p = arg;

	(void)task;
	p->calls++;
	if (percent > p->max_percent)
		p->max_percent = percent;
	snprintf(p->last_state, sizeof(p->last_state), "%s", state);
}

/* A task still running when its call returns: waited for with
 * WaitForUpdatesEx, progress reported, failure and timeout too. */
static void slow_tasks_waited_for(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d;
	struct progress_log log = {-1, 0, ""};
	unsigned before = invalid;
	uint64_t t0;

	START(&v, "-task-delay", "600ms", "-fail-mode", "thin", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	vs_session_set_progress(s, on_progress, &log);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	sp.mode = PB_MODE_EAGER;
	sp.size_bytes = 16 << 20;
	t0 = pb_now_ns();
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	CU_ASSERT(pb_now_ns() - t0 >= 500000000ull);
	CU_ASSERT_EQUAL(d.mode, PB_MODE_EAGER);
	CU_ASSERT_EQUAL(log.max_percent, 50);
	CU_ASSERT_STRING_EQUAL(log.last_state, "success");
	CU_ASSERT(log.calls >= 3); /* queued or running, 50%, success */
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);

	/* thin fails in this fixture: the fault arrives after the wait */
	sp.mode = PB_MODE_THIN;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_FAULT);
	CU_ASSERT_STRING_EQUAL(vs_session_fault(s), "InsufficientStorageSpace");

	vs_session_free(s);
	s = NULL;
	vcsim_stop(&v);

	/* a task that outlives the timeout */
	START(&v, "-task-delay", "3s", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	vs_session_set_task_timeout(s, 1);
	sp.mode = PB_MODE_LAZY;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_TIMEOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "not done after"));
	vs_session_free(s);
	vcsim_stop(&v);
	CU_ASSERT_EQUAL(invalid, before);
}

/*
 * The version spoken: vCenter 8.0.2+ lists an internal id first and the
 * dotted versions after it; ESXi 5.1 knows no capacityInBytes, which is
 * then never sent.
 */
static void api_versions_spoken(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d;

	START(&v, "-versions", "tests/data/soap/versions-vcenter8.xml", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_STRING_EQUAL(vs_session_api_version(s), "8.0.2.0");
	/* the server's own word stays on record beside it */
	CU_ASSERT_STRING_EQUAL(vs_session_about(s)->api_version, "6.5");
	vs_session_free(s);
	vcsim_stop(&v);

	START(&v, "-versions", "tests/data/soap/versions-esxi51.xml", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_STRING_EQUAL(vs_session_api_version(s), "5.1");
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	watch_for = "capacityInBytes";
	watch_hits = 0;
	sp.mode = PB_MODE_THIN;
	sp.size_bytes = 8 << 20;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	CU_ASSERT_EQUAL(watch_hits, 0);
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);
	watch_for = NULL;
	vs_session_free(s);
	vcsim_stop(&v);
}

/*
 * A session that expires while a task is waited for: the property filter
 * went with it, so it is made anew and the task read again, instead of
 * waiting out WaitForUpdatesEx's 60 s, call after call, until the task
 * timeout. The task's times are the server's.
 */
static void task_wait_survives_expiry(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d;
	const struct vs_task_times *tt;
	uint64_t t0;

	START(&v, "-task-delay", "2s", "-fault-op", "WaitForUpdatesEx",
	      "-fault", "expire", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	vs_session_set_task_timeout(s, 100);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	sp.mode = PB_MODE_EAGER;
	sp.size_bytes = 8 << 20;
	t0 = pb_now_ns();
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	CU_ASSERT(pb_now_ns() - t0 < 20000000000ull);
	tt = vs_session_last_task(s);
	CU_ASSERT_TRUE(tt->have_server);
	/* the server's 2 s, not the client's wait around it */
	CU_ASSERT(tt->server_s >= 1.9 && tt->server_s < 4);
	CU_ASSERT(tt->wall_s >= tt->server_s - 0.1);
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);
	vs_session_free(s);
	vcsim_stop(&v);
}

/* The free ESXi licence: reads work, writes fault RestrictedVersion, and
 * both say plainly what that means (exit 3 on the command line). */
static void free_license_said_plainly(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d;
	char edition[128];

	START(&v, "-esx", "-license", "free", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL(vs_license_check(s, edition, sizeof(edition)),
			PB_ERR_LICENSE);
	CU_ASSERT_STRING_EQUAL(edition, "VMware vSphere 7 Hypervisor");
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "read-only"));
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "ha-host_VM0"), PB_OK);
	sp.mode = PB_MODE_THIN;
	sp.size_bytes = 8 << 20;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_LICENSE);
	CU_ASSERT_STRING_EQUAL(vs_session_fault(s), "RestrictedVersion");
	vs_session_free(s);
	vcsim_stop(&v);
	/* an evaluation (the simulator's own licence) is not free */
	START(&v, "-esx", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL(vs_license_check(s, edition, sizeof(edition)), PB_OK);
	vs_session_free(s);
	vcsim_stop(&v);
}

/* A moref the journal kept of a VM deleted since: not found, not a fault. */
static void gone_vm_not_found(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;

	START(&v, NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_find(s, &vm, "moref:vm-99999"), PB_ERR_NOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "not found"));
	vs_session_free(s);
	vcsim_stop(&v);
}

/*
 * disk.EnableUUID takes effect at power-on: set on a running VM, a new
 * disk still has no serial the guest can see; after a power cycle (a
 * shutdown through Tools, the setting, a power-on, Tools again) it has.
 * A physical RDM shows the LUN's own NAA id either way.
 */
static void enable_uuid_needs_power_cycle(void)
{
	static const char *const keys[] = {"disk.EnableUUID"};
	static const char *const vals[] = {"TRUE"};
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_vm_state st;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d, r;
	char root[512], hex[80], got[1][256];
	size_t i, k = 0;

	snprintf(root, sizeof(root), "%s/guest-uuid", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s'", root), 0);
	START(&v, "-guest-root", root, NULL);
	CU_ASSERT_EQUAL_FATAL(guest_session(&s, &v, NULL), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_extra_config_get(s, &vm.ref, keys, got, 1),
			PB_OK);
	CU_ASSERT_STRING_EQUAL(got[0], "");
	CU_ASSERT_EQUAL(vs_vm_set_extra_config(s, &vm.ref, keys, vals, 1),
			PB_OK);
	sp.mode = PB_MODE_THIN;
	sp.size_bytes = 8 << 20;
	CU_ASSERT_EQUAL_FATAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	for (i = 0; d.uuid[i] && k + 1 < sizeof(hex); i++)
		if (d.uuid[i] != '-')
			hex[k++] = (char)(d.uuid[i] | 0x20);
	hex[k] = '\0';
	/* configured, not live */
	CU_ASSERT_EQUAL(
		it_sh("test -e '%s/dev/disk/by-id/wwn-0x%s'", root, hex), 1);
	{
		struct vs_power_cycle pc = {.name = vm.name, .timeout_s = 30};

		CU_ASSERT_EQUAL(
			vs_vm_power_cycle(s, &vm.ref, keys, vals, 1, &pc),
			PB_OK);
		CU_ASSERT(pc.went_off && pc.on_again);
	}
	CU_ASSERT_EQUAL(vs_vm_state_get(s, &vm.ref, &st), PB_OK);
	CU_ASSERT_STRING_EQUAL(st.power_state, "poweredOn");
	CU_ASSERT_STRING_EQUAL(st.tools, "guestToolsRunning");
	CU_ASSERT_EQUAL(
		it_sh("test -e '%s/dev/disk/by-id/wwn-0x%s'", root, hex), 0);
	/* physical RDM: the LUN's identity */
	sp.mode = PB_MODE_RDMP;
	sp.lun = "naa.6000c290000000000000000000000002";
	CU_ASSERT_EQUAL_FATAL(vs_disk_add(s, &vm.ref, &sp, &r), PB_OK);
	CU_ASSERT_EQUAL(it_sh("test -e '%s/dev/disk/by-id/"
			      "wwn-0x6000c290000000000000000000000002'",
			      root),
			0);
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &r, false), PB_OK);
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);
	vs_session_free(s);
	vcsim_stop(&v);
}

/*
 * The lab around the VM, through the library (every request validated
 * against vim25 where the schema is there): controllers and their free
 * units, a host entering maintenance mode, a datastore cluster and its
 * members, a vSAN datastore's capabilities and namespace folder, a disk
 * made under a storage policy and its policy read back through SPBM,
 * vSAN's disks on vSphere 8, and a slow task cancelled.
 */
/*
 * The server's counters: the keys this server gives the counters a pass
 * needs (vCenter's own numbering), its clock, and a QueryPerf of the last
 * two minutes in csv: samples on the 20 s marks, the newest at least the
 * server's lag old, the VM's aggregate CPU there, an instance the VM does
 * not have absent; the LUN under LocalDS_0 named by its extent; a
 * standalone ESXi's own numbering found by name too. Every request valid
 * against the vim25 schema.
 */
static void perf_counters_read(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_ds_detail ds;
	struct vs_perf_counters pc;
	struct vs_perf_samples *smp = calloc(1, sizeof(*smp));
	const char *inst[VS_PC__COUNT] = {0};
	double now = NAN;
	unsigned before = invalid, offered = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(smp);
	START(&v, NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_perf_counters_get(s, &pc), PB_OK);
	for (unsigned k = 0; k < VS_PC__COUNT; k++)
		if (!pc.key[k])
			CU_FAIL(vs_pc_name(k));
	CU_ASSERT_EQUAL(vs_server_time(s, &now), PB_OK);
	CU_ASSERT(fabs(now - (double)time(NULL)) < 5);
	/* what each entity offers at 20 s: the VM its disks' and its CPU's,
	 * the host its LUNs' and datastores', not each other's */
	CU_ASSERT_EQUAL(vs_perf_available(s, &vm.ref, &pc, &offered), PB_OK);
	CU_ASSERT(offered & (1u << VS_PC_VD_WRITE_MS));
	CU_ASSERT(offered & (1u << VS_PC_CPU_USED));
	CU_ASSERT_FALSE(offered & (1u << VS_PC_DISK_DEVICE_MS));
	CU_ASSERT_EQUAL(vs_perf_available(s, &vm.host, &pc, &offered), PB_OK);
	CU_ASSERT(offered & (1u << VS_PC_DISK_DEVICE_MS));
	CU_ASSERT(offered & (1u << VS_PC_DS_WRITE_MS));
	CU_ASSERT_FALSE(offered & (1u << VS_PC_VD_WRITE_MS));
	inst[VS_PC_CPU_USED] = "";
	inst[VS_PC_VD_WRITES] = "scsi9:9";
	CU_ASSERT_EQUAL(
		vs_perf_query(s, &vm.ref, &pc, inst, now - 120, now, smp),
		PB_OK);
	CU_ASSERT(smp->n >= 3 && smp->n <= 5);
	CU_ASSERT_EQUAL(smp->interval_s, 20);
	for (unsigned i = 0; i < smp->n; i++)
		CU_ASSERT_EQUAL((long long)smp->t[i] % 20, 0);
	if (smp->n) {
		CU_ASSERT(smp->t[smp->n - 1] <= now - 20);
		CU_ASSERT(!isnan(smp->v[VS_PC_CPU_USED][0]));
		CU_ASSERT(isnan(smp->v[VS_PC_VD_WRITES][0]));
	}
	/* the newest minute of a window is not there yet */
	CU_ASSERT_EQUAL(
		vs_perf_query(s, &vm.ref, &pc, inst, now - 10, now, smp),
		PB_OK);
	CU_ASSERT_EQUAL(smp->n, 0);
	CU_ASSERT_EQUAL(vs_datastore_detail(s, &vm.host, "LocalDS_0", &ds),
			PB_OK);
	CU_ASSERT_STRING_EQUAL(ds.lun, "naa.6000c290000000000000000000000005");
	CU_ASSERT_EQUAL(strncmp(ds.uuid, "5f1e2d3c-", 9), 0);
	vs_session_free(s);
	vcsim_stop(&v);

	/* standalone ESXi numbers its counters its own way: every one
	 * found by name all the same, cpu.used under another key */
	{
		struct vs_perf_counters esx;

		START(&v, "-esx", NULL);
		CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
		CU_ASSERT_EQUAL(vs_perf_counters_get(s, &esx), PB_OK);
		for (unsigned k = 0; k < VS_PC__COUNT; k++)
			if (!esx.key[k])
				CU_FAIL(vs_pc_name(k));
		CU_ASSERT_NOT_EQUAL(esx.key[VS_PC_CPU_USED],
				    pc.key[VS_PC_CPU_USED]);
		vs_session_free(s);
		vcsim_stop(&v);
	}
	CU_ASSERT_EQUAL(invalid, before);
	free(smp);
}

static void lab_calls(void)
{
	struct vcsim v;
	struct vs_session *s = NULL;
	struct vs_vm_info vm;
	struct vs_vm_hw hw;
	struct vs_host_state hs;
	struct vs_ds_detail ds;
	struct vs_policy pol, got;
	struct vs_disk_spec sp = VS_DISK_SPEC_INIT;
	struct vs_disk d;
	struct vs_lun *luns = NULL;
	char members[256];
	size_t n = 0, i;
	bool made = true;
	unsigned before = invalid, pbm_before = pbm_requests;

	START(&v, "-datastores", "3", "-vsan", "LocalDS_1", "-pod",
	      "-maintenance", "DC0_H0_VM0", "-esx8", "-task-delay", "2s", NULL);
	CU_ASSERT_EQUAL_FATAL(open_session(&s, &v, "secret"), PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_vm_find(s, &vm, "DC0_H0_VM0"), PB_OK);
	CU_ASSERT_EQUAL(vs_vm_controllers(s, &vm.ref, &hw), PB_OK);
	CU_ASSERT_EQUAL(hw.nctl, 1);
	/* 16 units but 7 and the controller's own; a CD-ROM holds one */
	CU_ASSERT_EQUAL(hw.ctl[0].units, 14);
	CU_ASSERT_EQUAL(hw.ctl[0].free, 13);
	CU_ASSERT_EQUAL(vs_host_state_get(s, &vm.host, &hs), PB_OK);
	CU_ASSERT(hs.entering_maintenance && !hs.in_maintenance);
	CU_ASSERT_EQUAL(
		vs_storage_pod_find(s, "DC0_POD0", members, sizeof(members)),
		PB_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(members, "LocalDS_1"));
	CU_ASSERT_EQUAL(
		vs_storage_pod_find(s, "LocalDS_0", members, sizeof(members)),
		PB_ERR_NOTFOUND);
	CU_ASSERT_EQUAL(vs_datastore_detail(s, &vm.host, "LocalDS_1", &ds),
			PB_OK);
	CU_ASSERT_STRING_EQUAL(ds.type, "vsan");
	CU_ASSERT(!ds.top_level_dirs && !ds.rdm_files);
	CU_ASSERT_EQUAL(vs_datastore_namespace(s, &ds, "provbench", &made),
			PB_OK);
	CU_ASSERT(made);
	CU_ASSERT_EQUAL(vs_datastore_namespace(s, &ds, "provbench", &made),
			PB_OK);
	CU_ASSERT(!made); /* there already: FileAlreadyExists */
	CU_ASSERT_EQUAL(vs_pbm_policy_find(s, "Thick 100%", &pol), PB_OK);
	CU_ASSERT_EQUAL(pol.reserve, 100);
	CU_ASSERT_EQUAL(vs_pbm_policy_find(s, "Gold", &got), PB_ERR_NOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "\"Thick 100%\""));
	CU_ASSERT_EQUAL(vs_pbm_default_policy(s, &ds.ref, &got), PB_OK);
	CU_ASSERT_EQUAL(got.reserve, 0);
	sp.mode = PB_MODE_LAZY;
	sp.size_bytes = 1 << 20;
	sp.datastore = "LocalDS_1";
	sp.file = "[LocalDS_1] provbench/provbench-lab-1.vmdk";
	sp.policy_id = pol.id;
	CU_ASSERT_EQUAL_FATAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_OK);
	CU_ASSERT_EQUAL(vs_pbm_disk_policy(s, &vm.ref, d.key, &got), PB_OK);
	CU_ASSERT_STRING_EQUAL(got.name, "Thick 100%");
	CU_ASSERT_EQUAL(vs_disk_remove(s, &vm.ref, &d, false), PB_OK);
	/* vSAN keeps no file at its top level */
	sp.file = "[LocalDS_1] provbench-lab-2.vmdk";
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_FAULT);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(vs_session_error(s), "Function not implemented"));
	/* vSphere 8: vSAN's disk told by QueryDisksForVsan */
	CU_ASSERT_EQUAL(vs_host_luns(s, &vm.host, &luns, &n), PB_OK);
	for (i = 0; i < n; i++)
		if (!strcmp(luns[i].canonical_name,
			    "naa.6000c290000000000000000000000004"))
			CU_ASSERT_STRING_EQUAL(luns[i].why, "claimed by vSAN");
	free(luns);
	/* a task past its time: cancelled, nothing left */
	vs_session_set_task_timeout(s, 1);
	sp.mode = PB_MODE_THIN;
	sp.datastore = NULL;
	sp.policy_id = NULL;
	sp.file = NULL;
	CU_ASSERT_EQUAL(vs_disk_add(s, &vm.ref, &sp, &d), PB_ERR_TIMEOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(vs_session_error(s), "cancelled"));
	vs_session_free(s);
	vcsim_stop(&v);
	CU_ASSERT_EQUAL(invalid, before);
	CU_ASSERT(pbm_requests > pbm_before);
}

/* ---- the command line: exit codes, TLS, the trace ---- */

static int cli(struct it_result *r, const struct vcsim *v, const char *pw,
	       const char *tp, const char *extra_env, const char *a1,
	       const char *a2)
{
	char e_url[300], e_pw[64], e_tp[160], e_extra[300];
	char *envp[8] = {NULL}, *argv[6] = {NULL};
	int n = 0;

	snprintf(e_url, sizeof(e_url), "PROVBENCH_URL=%s", v->url);
	snprintf(e_pw, sizeof(e_pw), "PROVBENCH_PASSWORD=%s", pw);
	envp[n++] = e_url;
	envp[n++] = (char *)"PROVBENCH_USERNAME=user";
	envp[n++] = e_pw;
	if (tp) {
		snprintf(e_tp, sizeof(e_tp), "PROVBENCH_THUMBPRINT=%s", tp);
		envp[n++] = e_tp;
	}
	if (extra_env) {
		snprintf(e_extra, sizeof(e_extra), "%s", extra_env);
		envp[n++] = e_extra;
	}
	argv[0] = (char *)it_bin("provbench");
	argv[1] = (char *)"vsphere";
	argv[2] = (char *)a1;
	argv[3] = (char *)a2;
	return it_run_env(r, argv, envp, 0, 0);
}

static void cli_exit_codes_and_tls(void)
{
	struct vcsim v;
	struct it_result r;
	char sha1[64];
	unsigned i, k = 0;

	START(&v, NULL);
	CU_ASSERT_EQUAL(
		cli(&r, &v, "secret", v.thumbprint, NULL, "about", NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "VMware vCenter Server"));
	it_result_dispose(&r);

	CU_ASSERT_EQUAL(cli(&r, &v, "wrong", v.thumbprint, NULL, "about", NULL),
			3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "InvalidLogin"));
	CU_ASSERT_PTR_NULL(strstr(r.err, "wrong")); /* no password echoed */
	it_result_dispose(&r);

	/* a pin that does not match: refused, both fingerprints shown */
	CU_ASSERT_EQUAL(cli(&r, &v, "secret",
			    "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:"
			    "00:11:22:33",
			    NULL, "about", NULL),
			3);
	for (i = 0; v.thumbprint[i] && k + 1 < sizeof(sha1); i++)
		if (v.thumbprint[i] != ':')
			sha1[k++] = (char)(v.thumbprint[i] | 0x20);
	sha1[k] = '\0';
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "mismatch"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, sha1));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(r.err, "00112233445566778899aabbccddeeff"));
	it_result_dispose(&r);

	/* no pin, no CA: the self-signed certificate is refused, and the
	 * message shows its fingerprints as vCenter does */
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, NULL, "about", NULL), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "not trusted"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, v.thumbprint));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "SHA-256 "));
	it_result_dispose(&r);

	/* what to pin: no trust and no login needed; a pin is compared */
	{
		char url[300];
		char *envp[] = {url, NULL};
		char *argv[] = {(char *)it_bin("provbench"), "vsphere",
				"thumbprint", NULL};

		snprintf(url, sizeof(url), "PROVBENCH_URL=%s", v.url);
		CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 0);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "SHA-1:    "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, v.thumbprint));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "SHA-256:  "));
	CU_ASSERT_PTR_NULL(strstr(r.out, "match"));
	if (!strstr(r.out, v.thumbprint))
		fprintf(stderr, "\n%s%s", r.out, r.err);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		cli(&r, &v, "secret", v.thumbprint, NULL, "thumbprint", NULL),
		0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "PROVBENCH_THUMBPRINT matches"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret",
			    "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:"
			    "00:11:22:33",
			    NULL, "thumbprint", NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "does NOT match"));
	it_result_dispose(&r);

	/* the explicit opt-out works, with a warning */
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, "PROVBENCH_INSECURE=1",
			    "about", NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "warning"));
	it_result_dispose(&r);

	CU_ASSERT_EQUAL(
		cli(&r, &v, "secret", v.thumbprint, NULL, "ls", "bogus"), 2);
	it_result_dispose(&r);
	vcsim_stop(&v);

	/* nothing listening: exit 3 */
	CU_ASSERT_EQUAL(
		cli(&r, &v, "secret", v.thumbprint, NULL, "about", NULL), 3);
	it_result_dispose(&r);
}

/*
 * The trace keeps what diagnosis needs and loses the secrets only: no
 * password, no session key, no transfer ticket; device keys and
 * extraConfig keys stay.
 */
static void debug_trace_redacted(void)
{
	struct vcsim v;
	struct it_result r;
	char e_url[300], e_tp[160], e_dir[600], dir[512], root[512];
	char *envp[10], *argv[8];
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/trace", it_dir());
	snprintf(root, sizeof(root), "%s/guest-trace", it_dir());
	CU_ASSERT_EQUAL_FATAL(it_sh("mkdir -p '%s/opt'", root), 0);
	START(&v, "-guest-root", root, NULL);
	snprintf(e_url, sizeof(e_url), "PROVBENCH_URL=%s", v.url);
	snprintf(e_tp, sizeof(e_tp), "PROVBENCH_THUMBPRINT=%s", v.thumbprint);
	snprintf(e_dir, sizeof(e_dir), "PROVBENCH_DEBUG_DIR=%s", dir);
	envp[n++] = e_url;
	envp[n++] = e_tp;
	envp[n++] = e_dir;
	envp[n++] = (char *)"PROVBENCH_USERNAME=user";
	envp[n++] = (char *)"PROVBENCH_PASSWORD=secret";
	envp[n++] = (char *)"PROVBENCH_GUEST_USERNAME=bench";
	envp[n++] = (char *)"PROVBENCH_GUEST_PASSWORD=guestpw";
	envp[n] = NULL;
	argv[0] = (char *)it_bin("provbench");
	argv[1] = (char *)"vsphere";
	argv[2] = (char *)"disk";
	argv[3] = (char *)"ls";
	argv[4] = (char *)"DC0_H0_VM0";
	argv[5] = NULL;
	CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 0);
	it_result_dispose(&r);
	/* the second command's trace in a directory of its own */
	snprintf(e_dir, sizeof(e_dir), "PROVBENCH_DEBUG_DIR=%s/put", dir);
	argv[2] = (char *)"guest";
	argv[3] = (char *)"put";
	argv[5] = (char *)it_bin("provbench-runner");
	argv[6] = (char *)"/opt/r";
	argv[7] = NULL;
	CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0), 0);
	it_result_dispose(&r);
	vcsim_stop(&v);
	CU_ASSERT_EQUAL(it_sh("test -s '%s/0002-Login.req.xml'", dir), 0);
	CU_ASSERT_EQUAL(it_sh("grep -q '<password>\\*\\*\\*</password>' "
			      "'%s/0002-Login.req.xml'",
			      dir),
			0);
	/* Login's reply: the session key is gone */
	CU_ASSERT_EQUAL(it_sh("grep -q '<key>\\*\\*\\*</key>' "
			      "'%s'/0002-Login.res.xml",
			      dir),
			0);
	CU_ASSERT_EQUAL(it_sh("grep -rqE 'secret|guestpw' '%s'", dir), 1);
	/* device keys stay: they say which device a reply was about */
	CU_ASSERT_EQUAL(
		it_sh("cat '%s'/*RetrievePropertiesEx.res.xml | grep -q "
		      "'<key>[0-9][0-9]*</key>'",
		      dir),
		0);
	/* the transfer URL is there, its ticket not */
	CU_ASSERT_EQUAL(it_sh("grep -q 'token=\\*\\*\\*' "
			      "'%s'/put/*InitiateFileTransferToGuest.res.xml",
			      dir),
			0);
	CU_ASSERT_EQUAL(it_sh("grep -rqE 'token=[0-9a-f]{8}' '%s'", dir), 1);
	CU_ASSERT_EQUAL(it_sh("grep -rqE 'secret|guestpw' '%s'", dir), 1);
}

/* The CLI end to end under memcheck: a disk added and removed, no leak. */
static void cli_no_leaks_under_valgrind(void)
{
	struct vcsim v;
	char env[1024];

	IT_SKIP_IF_FAST();
	START(&v, NULL);
	snprintf(env, sizeof(env),
		 "PROVBENCH_URL='%s' PROVBENCH_USERNAME=user "
		 "PROVBENCH_PASSWORD=secret PROVBENCH_THUMBPRINT='%s'",
		 v.url, v.thumbprint);
	CU_ASSERT_EQUAL(
		it_sh("env %s valgrind -q --leak-check=full "
		      "--errors-for-leak-kinds=definite,indirect "
		      "--error-exitcode=9 '%s' vsphere disk add DC0_H0_VM0 "
		      "--mode eager --size 8M >/dev/null && env %s valgrind -q "
		      "--leak-check=full --errors-for-leak-kinds=definite,"
		      "indirect --error-exitcode=9 '%s' vsphere disk rm "
		      "DC0_H0_VM0 disk-202-2",
		      env, it_plain_bin("provbench"), env,
		      it_plain_bin("provbench")),
		0);
	vcsim_stop(&v);
}

/*
 * Trust is explicit: a server whose certificate a lab CA signed is refused
 * with no CA file, and with another CA's; it is accepted with the lab CA's
 * file, or a pin, or the explicit PROVBENCH_INSECURE opt-out (warned).
 */
static void tls_trust_is_explicit(void)
{
	struct vcsim v;
	struct it_result r;
	char crt[600], key[600], lab[600], other[600], env[700];
	const char *d = it_dir();

	snprintf(crt, sizeof(crt), "%s/tls-srv.pem", d);
	snprintf(key, sizeof(key), "%s/tls-srv.key", d);
	snprintf(lab, sizeof(lab), "%s/tls-lab-ca.pem", d);
	snprintf(other, sizeof(other), "%s/tls-other-ca.pem", d);
	CU_ASSERT_EQUAL_FATAL(
		it_sh("(cd '%s' && for ca in lab other; do openssl req -x509 "
		      "-newkey rsa:2048 -nodes -subj /CN=$ca-ca -keyout "
		      "tls-$ca-ca.key -out tls-$ca-ca.pem -days 2 -addext "
		      "basicConstraints=critical,CA:TRUE -addext "
		      "keyUsage=keyCertSign,cRLSign; done && openssl req "
		      "-newkey rsa:2048 -nodes -subj /CN=vcenter -keyout "
		      "tls-srv.key -out tls-srv.csr && printf "
		      "'subjectAltName=IP:127.0.0.1\\n' > tls-srv.ext && "
		      "openssl x509 -req -in tls-srv.csr -CA tls-lab-ca.pem "
		      "-CAkey tls-lab-ca.key -CAcreateserial -days 2 -extfile "
		      "tls-srv.ext -out tls-srv.pem) >/dev/null 2>&1",
		      d),
		0);
	START(&v, "-tls-cert", crt, "-tls-key", key, NULL);

	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, NULL, "about", NULL), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "not trusted"));
	it_result_dispose(&r);
	snprintf(env, sizeof(env), "PROVBENCH_CA_FILE=%s", other);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, env, "about", NULL), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "not trusted"));
	it_result_dispose(&r);
	snprintf(env, sizeof(env), "PROVBENCH_CA_FILE=%s", lab);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, env, "about", NULL), 0);
	CU_ASSERT_PTR_NULL(strstr(r.err, "warning"));
	it_result_dispose(&r);
	/* govc's list form: the lab CA second of two */
	snprintf(env, sizeof(env), "GOVC_TLS_CA_CERTS=%s:%s", other, lab);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, env, "about", NULL), 0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(
		cli(&r, &v, "secret", v.thumbprint, NULL, "about", NULL), 0);
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, "PROVBENCH_INSECURE=1",
			    "about", NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "warning"));
	it_result_dispose(&r);
	/* anything but an explicit yes keeps verification on */
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", NULL, "PROVBENCH_INSECURE=0",
			    "about", NULL),
			3);
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/*
 * ESXi 5.0 and 5.1 speak TLS 1.0 only, which OpenSSL 3 refuses: said as
 * that (not as an untrusted certificate), and allowed only when asked for
 * with PROVBENCH_TLS_LEGACY=1, warned like PROVBENCH_INSECURE. A server
 * that offers HTTP/2 is spoken to in HTTP/1.1 all the same.
 */
static void old_tls_and_http_versions(void)
{
	struct vcsim v;
	struct it_result r;

	START(&v, "-tls-max", "1.0", NULL);
	CU_ASSERT_EQUAL(
		cli(&r, &v, "secret", v.thumbprint, NULL, "about", NULL), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "only TLS 1.0/1.1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "PROVBENCH_TLS_LEGACY=1"));
	it_result_dispose(&r);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", v.thumbprint,
			    "PROVBENCH_TLS_LEGACY=1", "about", NULL),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "warning: PROVBENCH_TLS_LEGACY"));
	it_result_dispose(&r);
	vcsim_stop(&v);

	START(&v, "-offer-h2", NULL);
	CU_ASSERT_EQUAL(cli(&r, &v, "secret", v.thumbprint, NULL, "ls", "vms"),
			0);
	it_result_dispose(&r);
	vcsim_stop(&v);
}

/* Bad connection settings: one line naming the setting, the documented
 * exit code, nothing sent with a bad one. */
static const struct {
	const char *name, *env[4], *msg;
	int code;
} bad_envs[] = {
	{"no-url",
	 {NULL},
	 "PROVBENCH_URL, PROVBENCH_USERNAME, PROVBENCH_PASSWORD: not set",
	 2},
	{"ftp-url", {"PROVBENCH_URL=ftp://vc/sdk", NULL}, "PROVBENCH_URL", 2},
	{"no-host", {"PROVBENCH_URL=https:///sdk", NULL}, "PROVBENCH_URL", 2},
	{"no-password",
	 {"PROVBENCH_URL=https://127.0.0.1:1/sdk", "PROVBENCH_USERNAME=u",
	  NULL},
	 "PROVBENCH_PASSWORD: not set",
	 2},
	{"password-file-missing",
	 {"PROVBENCH_URL=https://127.0.0.1:1/sdk", "PROVBENCH_USERNAME=u",
	  "PROVBENCH_PASSWORD_FILE=/nonexistent/pw", NULL},
	 "PROVBENCH_PASSWORD_FILE: /nonexistent/pw: No such file",
	 2},
	{"password-file-a-directory",
	 {"PROVBENCH_URL=https://127.0.0.1:1/sdk", "PROVBENCH_USERNAME=u",
	  "PROVBENCH_PASSWORD_FILE=/", NULL},
	 "PROVBENCH_PASSWORD_FILE: /: not a regular file",
	 2},
	{"reply-timeout-not-seconds",
	 {"PROVBENCH_URL=https://127.0.0.1:1/sdk", "PROVBENCH_USERNAME=u",
	  "PROVBENCH_PASSWORD=p", "PROVBENCH_REPLY_TIMEOUT=soon"},
	 "PROVBENCH_REPLY_TIMEOUT: 'soon' is not a number of seconds",
	 2},
	{"thumbprint-not-hex",
	 {"PROVBENCH_URL=https://127.0.0.1:1/sdk", "PROVBENCH_USERNAME=u",
	  "PROVBENCH_PASSWORD=p", "PROVBENCH_THUMBPRINT=zz:11:22"},
	 "PROVBENCH_THUMBPRINT: 'z' is not a hex digit",
	 2},
	{"nothing-listening",
	 {"PROVBENCH_URL=https://127.0.0.1:1/sdk", "PROVBENCH_USERNAME=u",
	  "PROVBENCH_PASSWORD=p", NULL},
	 "127.0.0.1:1",
	 3},
};

static void bad_environments(void)
{
	struct it_result r;
	char *envp[6];
	size_t i, k;

	for (i = 0; i < sizeof(bad_envs) / sizeof(bad_envs[0]); i++) {
		char *argv[] = {(char *)it_bin("provbench"), "vsphere", "about",
				NULL};

		for (k = 0; k < 4 && bad_envs[i].env[k]; k++)
			envp[k] = (char *)bad_envs[i].env[k];
		envp[k] = NULL;
		CU_ASSERT_EQUAL(it_run_env(&r, argv, envp, 0, 0),
				bad_envs[i].code);
		if (!strstr(r.err, bad_envs[i].msg) ||
		    strncmp(r.err, "provbench: ", 11) ||
		    strchr(r.err, '\n') != r.err + strlen(r.err) - 1) {
			fprintf(stderr, "\n  %s: %s", bad_envs[i].name, r.err);
			CU_FAIL(bad_envs[i].name);
		}
		it_result_dispose(&r);
	}
}

/*
 * The fault matrix (issue 56): every way a lab's URL can lead somewhere
 * that is not vSphere's API, served by tests/integration/faultsrv.py
 * with bounds of 2 s, answered within 30 s with exit 3 and one line
 * that names the cause. The ways are a lab's: a host that accepts and
 * never handshakes (a firewall's tarpit), a portal's web page, a proxy's
 * 500 page, vpxd's 503 while its services start, a reply cut or
 * trickling, a redirect loop, a CA-signed certificate for another name.
 */
static const struct fault_case {
	const char *name, *mode; /* mode NULL: no server (url given) */
	const char *url;
	bool ca;	   /* trust by PROVBENCH_CA_FILE, not a pin */
	const char *reply; /* PROVBENCH_REPLY_TIMEOUT, default "2" */
	const char *msg;
} faults[] = {
	{"refused", NULL, "https://127.0.0.1:1/sdk", false, NULL,
	 "Failed to connect to 127.0.0.1 port 1"},
	{"unknown host", NULL, "https://no-such-host.invalid/sdk", false, NULL,
	 "resolve host"},
	{"accepts, silent", "silent-tcp", NULL, false, NULL,
	 "no connection in 2 s (PROVBENCH_CONNECT_TIMEOUT)"},
	{"TLS, silent", "silent-tls", NULL, false, NULL,
	 "no reply from 127.0.0.1:"},
	{"TLS, silent, said", "silent-tls", NULL, false, "6",
	 /* said once the silence passes 5 s: when, to curl's second */
	 "s so far; given up at 6 s, PROVBENCH_REPLY_TIMEOUT)"},
	{"a web page", "page", NULL, false, NULL,
	 "does not answer as vSphere's API (reply is not a SOAP envelope)"},
	{"404", "404", NULL, false, NULL,
	 "does not answer as vSphere's API (RetrieveServiceContent: HTTP "
	 "404)"},
	{"500 with HTML", "500html", NULL, false, NULL,
	 "HTTP 500 without a SOAP fault"},
	{"503 forever", "503", NULL, false, NULL,
	 "HTTP 503 Service Unavailable, three times"},
	{"closes mid-reply", "close", NULL, false, NULL,
	 "transfer closed with 4900 bytes remaining"},
	{"trickles", "trickle", NULL, false, NULL, "reply stalled"},
	{"redirect loop", "redirect", NULL, false, NULL, "redirected to https"},
	{"certificate for another name", "ok-tls", NULL, true, NULL,
	 "the certificate is for another name"},
};

struct faultsrv {
	pid_t pid;
	int in; /* its stdin: closed, it ends */
	unsigned port;
};

static int faultsrv_start(struct faultsrv *f, const char *mode, const char *dir)
{
	int in[2], out[2];
	char line[32] = "";
	ssize_t n;

	f->pid = -1;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		return -1;
	f->pid = fork();
	if (f->pid == 0) {
		char cert[600], key[600];

		snprintf(cert, sizeof(cert), "%s/cert.pem", dir);
		snprintf(key, sizeof(key), "%s/key.pem", dir);
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl("tests/integration/faultsrv.py", "faultsrv.py", mode,
		      cert, key, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	f->in = in[1];
	/* its whole line: it dies of a broken pipe if closed mid-way */
	for (n = 0; n < (ssize_t)sizeof(line) - 1 && !strchr(line, '\n');) {
		ssize_t k = read(out[0], line + n, sizeof(line) - 1 - n);

		if (k <= 0)
			break;
		n += k;
		line[n] = '\0';
	}
	close(out[0]);
	f->port = strchr(line, '\n') ? (unsigned)strtoul(line, NULL, 10) : 0;
	return f->port ? 0 : -1;
}

static void faultsrv_stop(struct faultsrv *f)
{
	if (f->pid <= 0)
		return;
	close(f->in);
	kill(f->pid, SIGTERM);
	waitpid(f->pid, NULL, 0);
}

/* the lines of stderr that are not warnings: the error's, one */
static unsigned error_lines(const char *err)
{
	unsigned n = 0;
	const char *p;

	for (p = err; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, "provbench: warning:", 19) &&
		    strncmp(p, "provbench: waiting for", 22) && *p != '\n')
			n++;
	return n;
}

static void one_fault(const struct fault_case *c, const char *dir,
		      const char *sha1)
{
	struct faultsrv f = {.pid = -1};
	struct it_result r;
	char e_url[300], e_trust[700], e_reply[64];
	char *argv[] = {(char *)it_bin("provbench"), "vsphere", "about", NULL};
	char *envp[] = {
		e_url,	 "PROVBENCH_USERNAME=u",	"PROVBENCH_PASSWORD=p",
		e_trust, "PROVBENCH_CONNECT_TIMEOUT=2", e_reply,
		NULL};
	uint64_t t0;
	double took;

	if (c->mode && faultsrv_start(&f, c->mode, dir)) {
		CU_FAIL("faultsrv.py did not start");
		faultsrv_stop(&f);
		return;
	}
	if (c->mode)
		snprintf(e_url, sizeof(e_url),
			 "PROVBENCH_URL=https://127.0.0.1:%u/sdk", f.port);
	else
		snprintf(e_url, sizeof(e_url), "PROVBENCH_URL=%s", c->url);
	if (c->ca)
		snprintf(e_trust, sizeof(e_trust),
			 "PROVBENCH_CA_FILE=%s/cert.pem", dir);
	else
		snprintf(e_trust, sizeof(e_trust), "PROVBENCH_THUMBPRINT=%s",
			 sha1);
	snprintf(e_reply, sizeof(e_reply), "PROVBENCH_REPLY_TIMEOUT=%s",
		 c->reply ? c->reply : "2");
	t0 = pb_now_ns();
	it_run_env(&r, argv, envp, 0, 0);
	took = (double)(pb_now_ns() - t0) / 1e9;
	if (r.status != 3 || took >= 30 || !strstr(r.err, c->msg) ||
	    error_lines(r.err) != 1) {
		fprintf(stderr, "\n  %s: exit %d in %.1f s: %s", c->name,
			r.status, took, r.err);
		CU_FAIL(c->name);
	}
	it_result_dispose(&r);
	faultsrv_stop(&f);
}

static void every_wrong_server_answered(void)
{
	char dir[600], sha1[128] = "";
	FILE *fp;
	size_t i;

	snprintf(dir, sizeof(dir), "%s/faults", it_dir());
	/* a certificate for another name than 127.0.0.1 */
	CU_ASSERT_EQUAL_FATAL(
		it_sh("mkdir -p '%s' && openssl req -x509 -newkey rsa:2048 "
		      "-nodes -keyout '%s/key.pem' -out '%s/cert.pem' -days 2 "
		      "-subj /CN=other.example -addext "
		      "subjectAltName=DNS:other.example 2>/dev/null && "
		      "openssl x509 -in '%s/cert.pem' -noout -fingerprint "
		      "-sha1 | cut -d= -f2 > '%s/sha1'",
		      dir, dir, dir, dir, dir),
		0);
	snprintf(sha1, sizeof(sha1), "%s/sha1", dir);
	fp = fopen(sha1, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	if (!fgets(sha1, sizeof(sha1), fp))
		sha1[0] = '\0';
	fclose(fp);
	sha1[strcspn(sha1, "\n")] = '\0';
	CU_ASSERT_FATAL(strlen(sha1) == 59);
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		one_fault(&faults[i], dir, sha1);
}

static const struct pb_case cases[] = {
	PB_CASE(login_about_logout),
	PB_CASE(wrong_password_refused),
	PB_CASE(every_mode_added_read_back_removed),
	PB_CASE(rdm_lun_checks),
	PB_CASE(failed_task_reports_fault),
	PB_CASE(session_expiry_survived),
	PB_CASE(dropped_connection),
	PB_CASE(extra_config_set),
	PB_CASE(paging_followed),
	PB_CASE(slow_tasks_waited_for),
	PB_CASE(api_versions_spoken),
	PB_CASE(task_wait_survives_expiry),
	PB_CASE(free_license_said_plainly),
	PB_CASE(gone_vm_not_found),
	PB_CASE(enable_uuid_needs_power_cycle),
	PB_CASE(lab_calls),
	PB_CASE(guest_upload_run_download),
	PB_CASE(guest_login_refused),
	PB_CASE(transfer_routes_and_errors),
	PB_CASE(cli_exit_codes_and_tls),
	PB_CASE(tls_trust_is_explicit),
	PB_CASE(old_tls_and_http_versions),
	PB_CASE(bad_environments),
	PB_CASE(every_wrong_server_answered),
	PB_CASE(debug_trace_redacted),
	PB_CASE(perf_counters_read),
	PB_CASE(cli_no_leaks_under_valgrind),
	PB_CASE(requests_valid_vim25),
	PB_CASES_END,
};

const struct pb_suite suite_vsphere_it = {"vsphere", setup, teardown, cases};
