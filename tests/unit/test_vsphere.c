/*
 * test_vsphere.c - the vSphere client's offline parts: thumbprint formats,
 * environment precedence (PROVBENCH_* over GOVC_*), URL handling, and
 * fault parsing from canned replies in tests/data/soap/, malformed and
 * truncated ones included.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "vs_int.h"

/* ---- a fake environment ---- */

struct fake_env {
	const char *kv[32]; /* name, value, name, value, ..., NULL */
};

static const char *fake_get(const char *name, void *arg)
{
	const struct fake_env *e = arg;
	unsigned i;

	for (i = 0; e->kv[i]; i += 2)
		if (!strcmp(e->kv[i], name))
			return e->kv[i + 1];
	return NULL;
}

static void thumbprint_formats(void)
{
	static const struct {
		const char *in, *out;
	} good[] = {
		{"2C:11:ED:D7:13:87:7D:B5:74:18:B8:1C:42:C2:56:1F:0D:B9:5B:B9",
		 "2c11edd713877db57418b81c42c2561f0db95bb9"},
		{"2c11edd713877db57418b81c42c2561f0db95bb9",
		 "2c11edd713877db57418b81c42c2561f0db95bb9"},
		{"2C11EDD713877DB57418B81C42C2561F0DB95BB9",
		 "2c11edd713877db57418b81c42c2561f0db95bb9"},
		{"AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:"
		 "23:"
		 "45:67:89:AB:CD:EF:01:23:45:67:89",
		 "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456"
		 "78"
		 "9"},
	};
	static const char *const bad[] = {
		"",
		"2C:11",
		"zz11edd713877db57418b81c42c2561f0db95bb9",
		"2c11edd713877db57418b81c42c2561f0db95bb9aa",
		"2c11edd713877db57418b81c42c2561f0db95bb",
		"sha1:2c11ed"};
	char out[80], err[PB_ERRBUF_SIZE];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(vs_thumbprint_normalize(out, sizeof(out),
							good[i].in, err),
				PB_OK);
		CU_ASSERT_STRING_EQUAL(out, good[i].out);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(
			vs_thumbprint_normalize(out, sizeof(out), bad[i], err),
			PB_ERR_INPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "PROVBENCH_THUMBPRINT"));
	}
}

static enum pb_error load(struct vs_config *c, struct fake_env *e, char *err)
{
	*c = (struct vs_config)VS_CONFIG_INIT;
	err[0] = '\0';
	return vs_config_from_env(c, fake_get, e, err);
}

static void env_precedence(void)
{
	struct fake_env e = {{"PROVBENCH_URL", "https://vc.lab/sdk", "GOVC_URL",
			      "https://other/sdk", "PROVBENCH_USERNAME",
			      "bench", "GOVC_USERNAME", "govc-user",
			      "PROVBENCH_PASSWORD", "pw1", "GOVC_PASSWORD",
			      "pw2", "GOVC_INSECURE", "1", "PROVBENCH_INSECURE",
			      "0", NULL}};
	/* a CA file that exists: its absence is an error now */
	struct fake_env g = {{"GOVC_URL", "govc-user:s3cret@esx1.lab",
			      "GOVC_INSECURE", "true", "GOVC_TLS_CA_CERTS",
			      "tests/data/soap/service-content.xml",
			      "GOVC_GUEST_LOGIN", "root:guestpw", NULL}};
	struct vs_config c;
	char err[PB_ERRBUF_SIZE];

	CU_ASSERT_EQUAL_FATAL(load(&c, &e, err), PB_OK);
	CU_ASSERT_STRING_EQUAL(c.url, "https://vc.lab/sdk");
	CU_ASSERT_STRING_EQUAL(c.username, "bench");
	CU_ASSERT_STRING_EQUAL(c.password, "pw1");
	CU_ASSERT_FALSE(c.insecure); /* PROVBENCH_INSECURE=0 wins */
	vs_config_dispose(&c);

	/* govc's variables alone, credentials in the URL */
	CU_ASSERT_EQUAL_FATAL(load(&c, &g, err), PB_OK);
	CU_ASSERT_STRING_EQUAL(c.url, "https://esx1.lab/sdk");
	CU_ASSERT_STRING_EQUAL(c.username, "govc-user");
	CU_ASSERT_STRING_EQUAL(c.password, "s3cret");
	CU_ASSERT_TRUE(c.insecure);
	CU_ASSERT_STRING_EQUAL(c.ca_file,
			       "tests/data/soap/service-content.xml");
	CU_ASSERT_STRING_EQUAL(c.guest_username, "root");
	CU_ASSERT_STRING_EQUAL(c.guest_password, "guestpw");
	vs_config_dispose(&c);
	CU_ASSERT_PTR_NULL(c.password);
}

static void password_file(void)
{
	char path[] = "/tmp/pb-pw-XXXXXX", err[PB_ERRBUF_SIZE];
	struct fake_env e = {{"PROVBENCH_URL", "vc.lab:8443",
			      "PROVBENCH_USERNAME", "u",
			      "PROVBENCH_PASSWORD_FILE", path, NULL}};
	struct vs_config c;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "from-file\n", 10), 10);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(load(&c, &e, err), PB_OK);
	CU_ASSERT_STRING_EQUAL(c.password, "from-file");
	CU_ASSERT_STRING_EQUAL(c.url, "https://vc.lab:8443/sdk");
	vs_config_dispose(&c);
	unlink(path);
	/* unreadable: a clear error naming the variable */
	CU_ASSERT_EQUAL(load(&c, &e, err), PB_ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "PROVBENCH_PASSWORD_FILE"));
	vs_config_dispose(&c);
}

static void bad_environments(void)
{
	static const struct {
		struct fake_env e;
		const char *msg;
	} cases[] = {
		{{{NULL}},
		 "PROVBENCH_URL, PROVBENCH_USERNAME, PROVBENCH_PASSWORD: not "
		 "set"},
		/* govc's user:password@host is the login */
		{{{"PROVBENCH_URL", "https://u@vc/sdk", NULL}},
		 "PROVBENCH_PASSWORD: not set"},
		{{{"PROVBENCH_URL", "ftp://vc/sdk", "PROVBENCH_USERNAME", "u",
		   "PROVBENCH_PASSWORD", "p", NULL}},
		 "only https"},
		{{{"PROVBENCH_URL", "https:///sdk", "PROVBENCH_USERNAME", "u",
		   "PROVBENCH_PASSWORD", "p", NULL}},
		 "names no host"},
		{{{"PROVBENCH_URL", "https://vc/sdk", NULL}},
		 "PROVBENCH_USERNAME"},
		{{{"PROVBENCH_URL", "https://vc/sdk", "PROVBENCH_USERNAME", "u",
		   "PROVBENCH_PASSWORD", "p", "PROVBENCH_THUMBPRINT", "12:34",
		   NULL}},
		 "PROVBENCH_THUMBPRINT"},
	};
	struct vs_config c;
	char err[PB_ERRBUF_SIZE];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_env e = cases[i].e;

		CU_ASSERT_EQUAL(load(&c, &e, err), PB_ERR_INPUT);
		if (!strstr(err, cases[i].msg))
			CU_FAIL(cases[i].msg);
		vs_config_dispose(&c);
	}
}

/* ---- canned replies ---- */

static const struct {
	const char *file;
	enum pb_error err;
	const char *fault; /* expected fault type, "" for none */
	const char *msg;   /* substring of the message */
} replies[] = {
	{"service-content.xml", PB_OK, "", ""},
	{"fault-invalid-login.xml", PB_ERR_LOGIN, "InvalidLogin",
	 "Login failure"},
	{"fault-not-authenticated.xml", PB_ERR_LOGIN, "NotAuthenticated",
	 "NotAuthenticated"},
	{"fault-file-exists-localized.xml", PB_ERR_FAULT, "FileAlreadyExists",
	 "The disk file already exists"},
	{"fault-no-detail.xml", PB_ERR_FAULT, "SystemError",
	 "general system error"},
	{"fault-untyped-detail.xml", PB_ERR_FAULT, "InvalidDeviceSpec",
	 "Invalid configuration"},
	{"truncated.xml", PB_ERR_PROTOCOL, "", "not XML"},
	{"not-xml.html", PB_ERR_PROTOCOL, "", "not a SOAP envelope"},
	{"empty-body.xml", PB_ERR_PROTOCOL, "", "no body"},
	{"not-envelope.xml", PB_ERR_PROTOCOL, "", "not a SOAP envelope"},
	{"empty.xml", PB_ERR_PROTOCOL, "", "empty"},
	/* the free ESXi licence: a fault of its own, said plainly */
	{"fault-restricted-version.xml", PB_ERR_LICENSE, "RestrictedVersion",
	 "read-only"},
};

static void canned_replies(void)
{
	char path[256], fault[64], err[PB_ERRBUF_SIZE];
	xmlDocPtr doc;
	xmlNodePtr ret;
	size_t i, len;
	char *body;

	for (i = 0; i < sizeof(replies) / sizeof(replies[0]); i++) {
		snprintf(path, sizeof(path), "tests/data/soap/%s",
			 replies[i].file);
		body = pb_slurp_file(path, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(body);
		err[0] = '\0';
		CU_ASSERT_EQUAL(vs_reply_parse(&doc, &ret, body, len, fault,
					       sizeof(fault), err),
				replies[i].err);
		CU_ASSERT_STRING_EQUAL(fault, replies[i].fault);
		if (!strstr(err, replies[i].msg))
			CU_FAIL(replies[i].file);
		if (replies[i].err == PB_OK)
			CU_ASSERT(vs_is(ret, "RetrieveServiceContentResponse"));
		if (replies[i].err != PB_OK)
			CU_ASSERT_EQUAL(pb_exit_code(replies[i].err),
					replies[i].err == PB_ERR_LICENSE ? 3
					: replies[i].err == PB_ERR_LOGIN ? 3
									 : 1);
		xmlFreeDoc(doc);
		free(body);
	}
}

/* Every prefix of a real reply: an error or a success, never a crash. */
static void every_truncation(void)
{
	char fault[64], err[PB_ERRBUF_SIZE];
	xmlDocPtr doc;
	xmlNodePtr ret;
	size_t len, n, ok = 0;
	char *body = pb_slurp_file(
		"tests/data/soap/fault-file-exists-localized.xml", &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	for (n = 0; n < len; n++) {
		err[0] = '\0';
		if (vs_reply_parse(&doc, &ret, body, n, fault, sizeof(fault),
				   err) == PB_ERR_FAULT)
			ok++;
		xmlFreeDoc(doc);
	}
	/* only the complete document (give or take the newline) parses */
	CU_ASSERT(ok <= 2);
	free(body);
}

static void disk_modes(void)
{
	enum pb_mode m;
	int i;

	for (i = 0; i < PB_MODE__COUNT; i++) {
		CU_ASSERT_TRUE(
			pb_mode_parse(&m, pb_mode_name((enum pb_mode)i)));
		CU_ASSERT_EQUAL(m, i);
		CU_ASSERT_EQUAL(pb_mode_is_raw_mapping(m),
				m == PB_MODE_RDM || m == PB_MODE_RDMP);
	}
	CU_ASSERT_FALSE(pb_mode_parse(&m, "thick"));
	CU_ASSERT_FALSE(pb_mode_parse(&m, "unknown"));
	CU_ASSERT_STRING_EQUAL(pb_mode_name(PB_MODE_UNKNOWN), "unknown");
}

/* GOVC_URL as govc (Go's url.Parse) reads it: the last '@' ends the
 * credentials, the first ':' splits them, both percent-decoded. */
static void govc_url_credentials(void)
{
	static const struct {
		const char *url, *user, *pass, *clean;
	} cases[] = {
		{"administrator@vsphere.local:pw@vc.lab",
		 "administrator@vsphere.local", "pw", "https://vc.lab/sdk"},
		{"administrator%40vsphere.local:pw@vc.lab",
		 "administrator@vsphere.local", "pw", "https://vc.lab/sdk"},
		{"https://u:p%3Aa%40ss@vc.lab:8443/sdk", "u", "p:a@ss",
		 "https://vc.lab:8443/sdk"},
		{"https://u:pa:ss@vc.lab/sdk", "u", "pa:ss",
		 "https://vc.lab/sdk"},
		{"u@esx1/sdk", "u", NULL, "https://esx1/sdk"},
	};
	char err[PB_ERRBUF_SIZE];
	struct vs_config c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_env e = {{"GOVC_URL", cases[i].url,
				      "PROVBENCH_PASSWORD", "from-env", NULL}};

		CU_ASSERT_EQUAL_FATAL(load(&c, &e, err), PB_OK);
		CU_ASSERT_STRING_EQUAL(c.username, cases[i].user);
		/* the environment's password wins over the URL's */
		CU_ASSERT_STRING_EQUAL(c.password, "from-env");
		CU_ASSERT_STRING_EQUAL(c.url, cases[i].clean);
		vs_config_dispose(&c);
		if (!cases[i].pass)
			continue;
		e.kv[2] = NULL;
		CU_ASSERT_EQUAL_FATAL(load(&c, &e, err), PB_OK);
		CU_ASSERT_STRING_EQUAL(c.password, cases[i].pass);
		vs_config_dispose(&c);
	}
}

/* GOVC_TLS_CA_CERTS is a ':'-separated list; every file must be there */
static void ca_file_list(void)
{
	char a[] = "/tmp/pb-ca-a-XXXXXX", b[] = "/tmp/pb-ca-b-XXXXXX";
	char list[128], err[PB_ERRBUF_SIZE];
	struct vs_config c;
	int fa = mkstemp(a), fb = mkstemp(b);

	CU_ASSERT_FATAL(fa >= 0 && fb >= 0);
	close(fa);
	close(fb);
	snprintf(list, sizeof(list), "%s:%s", a, b);
	{
		struct fake_env e = {{"GOVC_URL", "u:p@vc", "GOVC_TLS_CA_CERTS",
				      list, NULL}};

		CU_ASSERT_EQUAL(load(&c, &e, err), PB_OK);
		CU_ASSERT_STRING_EQUAL(c.ca_file, list);
		vs_config_dispose(&c);
		unlink(b);
		CU_ASSERT_EQUAL(load(&c, &e, err), PB_ERR_INPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "GOVC_TLS_CA_CERTS"));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, b));
		vs_config_dispose(&c);
	}
	unlink(a);
}

/* vimServiceVersions.xml: the newest dotted version provbench knows */
static void api_version_choice(void)
{
	static const struct {
		const char *file, *want;
	} cases[] = {
		/* vCenter 8.0.3 names an internal id first */
		{"versions-vcenter8.xml", "8.0.2.0"},
		/* newer than provbench knows: the newest it does */
		{"versions-vcenter9-newer.xml", "8.0.3.0"},
		{"versions-esxi51.xml", "5.1"},
	};
	char path[256], out[32];
	size_t i, len;
	char *xml;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "tests/data/soap/%s",
			 cases[i].file);
		xml = pb_slurp_file(path, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
		CU_ASSERT_EQUAL(vs_versions_pick(out, sizeof(out), xml, len),
				PB_OK);
		CU_ASSERT_STRING_EQUAL(out, cases[i].want);
		free(xml);
	}
	CU_ASSERT_NOT_EQUAL(vs_versions_pick(out, sizeof(out), "<x/>", 4),
			    PB_OK);
}

/* A CD-ROM on the disk controller takes its unit as a disk does. */
static void free_unit_counts_every_device(void)
{
	char fault[64], err[PB_ERRBUF_SIZE] = "";
	struct vs_session s;
	xmlDocPtr doc;
	xmlNodePtr ret;
	size_t len;
	char *body = pb_slurp_file("tests/data/soap/devices-cdrom-on-scsi.xml",
				   &len);
	int ctl = -1, unit = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	memset(&s, 0, sizeof(s));
	CU_ASSERT_EQUAL_FATAL(vs_reply_parse(&doc, &ret, body, len, fault,
					     sizeof(fault), err),
			      PB_OK);
	CU_ASSERT_EQUAL(vs_devices_free_unit(&s, vs_child(ret, "returnval"), -1,
					     &ctl, &unit),
			PB_OK);
	CU_ASSERT_EQUAL(ctl, 1000);
	/* 0 and 2 are disks, 1 the CD-ROM, 7 the controller's own */
	CU_ASSERT_EQUAL(unit, 3);
	CU_ASSERT_EQUAL(vs_devices_free_unit(&s, vs_child(ret, "returnval"),
					     200, &ctl, &unit),
			PB_ERR_NOTFOUND); /* IDE is not a SCSI controller */
	xmlFreeDoc(doc);
	free(body);
}

/*
 * A QueryPerf reply as vCenter gives it in csv (canned: keys as vCenter
 * 7 numbers them, cpu.used 6, virtualDisk.numberWriteAveraged 173,
 * totalWriteLatency 178): only the series asked for, by counter and
 * instance (another disk's and one vCPU's left alone), -1 read as no
 * value. A pass's window holds the samples wholly in it: a 60 s pass
 * from 10:00:05 has the two ending 10:00:40 and 10:01:00; a 30 s pass
 * is too short; CPU per write is the CPU summed over the writes the
 * samples saw.
 */
static void perf_samples_and_windows(void)
{
	char fault[64], err[PB_ERRBUF_SIZE] = "";
	struct vs_session s;
	struct vs_perf_counters pc = {{0}, 0};
	struct vs_perf_samples *smp = calloc(1, sizeof(*smp));
	struct vs_perf_window w;
	const char *inst[VS_PC__COUNT] = {0};
	double t0 = vs_datetime("2026-12-03T10:00:05Z");
	xmlDocPtr doc;
	xmlNodePtr ret;
	size_t len;
	char *body = pb_slurp_file("tests/data/soap/queryperf-csv.xml", &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	CU_ASSERT_PTR_NOT_NULL_FATAL(smp);
	memset(&s, 0, sizeof(s));
	pc.key[VS_PC_CPU_USED] = 6;
	pc.key[VS_PC_VD_WRITES] = 173;
	pc.key[VS_PC_VD_WRITE_MS] = 178;
	inst[VS_PC_CPU_USED] = "";
	inst[VS_PC_VD_WRITES] = inst[VS_PC_VD_WRITE_MS] = "scsi0:1";
	CU_ASSERT_EQUAL_FATAL(vs_reply_parse(&doc, &ret, body, len, fault,
					     sizeof(fault), err),
			      PB_OK);
	CU_ASSERT_EQUAL_FATAL(vs_perf_read(&s, ret, &pc, inst, smp), PB_OK);
	CU_ASSERT_EQUAL(smp->n, 4);
	CU_ASSERT_EQUAL(smp->interval_s, 20);
	CU_ASSERT_DOUBLE_EQUAL(smp->t[1] - t0, 35, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(smp->v[VS_PC_CPU_USED][0], 1200, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(smp->v[VS_PC_VD_WRITES][2], 210, 1e-9);
	CU_ASSERT(isnan(smp->v[VS_PC_VD_WRITES][3]));
	CU_ASSERT(isnan(smp->v[VS_PC_CPU_READY][0])); /* not asked */

	vs_perf_window(&w, smp, t0, t0 + 60);
	CU_ASSERT_FALSE(w.too_short);
	CU_ASSERT_EQUAL(w.samples, 2);
	CU_ASSERT_DOUBLE_EQUAL(w.first, t0 + 15, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w.last, t0 + 55, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w.v[VS_PC_VD_WRITES], 205, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w.v[VS_PC_VD_WRITE_MS], 6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w.v[VS_PC_CPU_USED], 1620, 1e-9);
	/* 1620 ms of CPU over 205 writes/s for 40 s */
	CU_ASSERT_DOUBLE_EQUAL(w.cpu_ms_per_write, 1620.0 / (205.0 * 40), 1e-9);
	CU_ASSERT_EQUAL(w.nv[VS_PC_DISK_DEVICE_MS], 0);

	vs_perf_window(&w, smp, t0, t0 + 30);
	CU_ASSERT(w.too_short);
	CU_ASSERT_EQUAL(w.samples, 0);
	/* 40 s exactly: long enough, one whole sample wherever it falls */
	vs_perf_window(&w, smp, t0 + 15, t0 + 55);
	CU_ASSERT_FALSE(w.too_short);
	CU_ASSERT_EQUAL(w.samples, 2);
	vs_perf_window(&w, smp, t0 + 16, t0 + 56);
	CU_ASSERT_EQUAL(w.samples, 1);

	/* no samples in the window: no returnval, n 0 */
	CU_ASSERT_EQUAL(vs_perf_read(&s, NULL, &pc, inst, smp), PB_OK);
	CU_ASSERT_EQUAL(smp->n, 0);
	xmlFreeDoc(doc);
	free(body);
	free(smp);
}

static void datetimes(void)
{
	CU_ASSERT_DOUBLE_EQUAL(vs_datetime("1970-01-01T00:01:40Z"), 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(vs_datetime("2023-12-14T06:53:33.763524Z") -
				       vs_datetime("2023-12-14T06:53:30Z"),
			       3.763524, 1e-6);
	/* an offset: the same instant */
	CU_ASSERT_DOUBLE_EQUAL(vs_datetime("2023-12-14T08:53:33+02:00"),
			       vs_datetime("2023-12-14T06:53:33Z"), 1e-9);
	CU_ASSERT(isnan(vs_datetime("yesterday")));
	CU_ASSERT(isnan(vs_datetime("")));
}

static const struct pb_case cases[] = {
	PB_CASE(thumbprint_formats),
	PB_CASE(env_precedence),
	PB_CASE(password_file),
	PB_CASE(bad_environments),
	PB_CASE(canned_replies),
	PB_CASE(every_truncation),
	PB_CASE(disk_modes),
	PB_CASE(govc_url_credentials),
	PB_CASE(ca_file_list),
	PB_CASE(api_version_choice),
	PB_CASE(free_unit_counts_every_device),
	PB_CASE(datetimes),
	PB_CASE(perf_samples_and_windows),
	PB_CASES_END,
};

const struct pb_suite suite_vsphere = {"vsphere", NULL, NULL, cases};
