/*
 * test_vsphere.c - the vSphere client's offline parts: thumbprint formats,
 * environment precedence (PROVBENCH_* over GOVC_*), URL handling, and
 * fault parsing from canned replies in tests/data/soap/, malformed and
 * truncated ones included.
 */
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
	struct fake_env g = {{"GOVC_URL", "govc-user:s3cret@esx1.lab",
			      "GOVC_INSECURE", "true", "GOVC_TLS_CA_CERTS",
			      "/etc/ca.pem", "GOVC_GUEST_LOGIN", "root:guestpw",
			      NULL}};
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
	CU_ASSERT_STRING_EQUAL(c.ca_file, "/etc/ca.pem");
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
		{{{NULL}}, "PROVBENCH_URL: not set"},
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
	enum vs_disk_mode m;
	int i;

	for (i = 0; i < VS_DISK_UNKNOWN; i++) {
		CU_ASSERT_EQUAL(
			vs_disk_mode_parse(
				&m, vs_disk_mode_name((enum vs_disk_mode)i)),
			PB_OK);
		CU_ASSERT_EQUAL(m, i);
	}
	CU_ASSERT_EQUAL(vs_disk_mode_parse(&m, "thick"), PB_ERR_INPUT);
}

static const struct pb_case cases[] = {
	PB_CASE(thumbprint_formats), PB_CASE(env_precedence),
	PB_CASE(password_file),	     PB_CASE(bad_environments),
	PB_CASE(canned_replies),     PB_CASE(every_truncation),
	PB_CASE(disk_modes),	     PB_CASES_END,
};

const struct pb_suite suite_vsphere = {"vsphere", NULL, NULL, cases};
