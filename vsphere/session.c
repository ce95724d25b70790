/*
 * session.c - open a vim25 session: API version from vimServiceVersions.xml
 * (fallback about.apiVersion), RetrieveServiceContent, Login with the
 * environment's credentials; Logout when freed.
 */
#include <libxml/parser.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vs_int.h"

static enum pb_error copy_str(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return PB_OK;
	*dst = strdup(src);
	return *dst ? PB_OK : PB_ERR_NOMEM;
}

static enum pb_error config_copy(struct vs_config *d, const struct vs_config *c)
{
	enum pb_error err;

	*d = *c;
	d->url = d->username = d->password = d->thumbprint = NULL;
	d->ca_file = d->guest_username = d->guest_password = NULL;
	d->guest_transfer_host = d->debug_dir = NULL;
	err = copy_str(&d->url, c->url);
	if (!err)
		err = copy_str(&d->username, c->username);
	if (!err)
		err = copy_str(&d->password, c->password);
	if (!err)
		err = copy_str(&d->thumbprint, c->thumbprint);
	if (!err)
		err = copy_str(&d->ca_file, c->ca_file);
	if (!err)
		err = copy_str(&d->guest_username, c->guest_username);
	if (!err)
		err = copy_str(&d->guest_password, c->guest_password);
	if (!err)
		err = copy_str(&d->guest_transfer_host, c->guest_transfer_host);
	if (!err)
		err = copy_str(&d->debug_dir, c->debug_dir);
	return err;
}

/* The newest vim25 version provbench has been checked against: what it
 * asks for from a server that offers more (vCenter 8.0.3 offers 8.0.3.0). */
#define VS_API_NEWEST "8.0.3.0"

/* -1, 0, 1 for dotted versions ("8.0.2.0" > "8.0.1.0" > "7.0.3.2"). */
static int version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		long x = strtol(a, (char **)&a, 10),
		     y = strtol(b, (char **)&b, 10);

		if (x != y)
			return x < y ? -1 : 1;
		if (*a == '.')
			a++;
		if (*b == '.')
			b++;
	}
	return 0;
}

static bool dotted(const char *v)
{
	return v[0] >= '0' && v[0] <= '9' &&
	       strspn(v, "0123456789.") == strlen(v);
}

bool vs_api_at_least(const struct vs_session *s, const char *version)
{
	return dotted(s->api_version) &&
	       version_cmp(s->api_version, version) >= 0;
}

/* v, when it is dotted, known and newer than what out holds */
static void consider(char *out, size_t len, xmlNodePtr v)
{
	char ver[32];

	vs_node_text(ver, sizeof(ver), v);
	if (v && dotted(ver) && version_cmp(ver, VS_API_NEWEST) <= 0 &&
	    (!out[0] || version_cmp(ver, out) > 0))
		snprintf(out, len, "%s", ver);
}

enum pb_error vs_versions_pick(char *out, size_t len, const char *xml,
			       size_t xlen)
{
	xmlDocPtr doc;
	xmlNodePtr ns, v;
	char name[64];

	out[0] = '\0';
	if (!xlen || xlen > INT32_MAX)
		return PB_ERR_PROTOCOL;
	doc = xmlReadMemory(xml, (int)xlen, "versions.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	if (!doc)
		return PB_ERR_PROTOCOL;
	for (ns = vs_child(xmlDocGetRootElement(doc), "namespace"); ns;
	     ns = vs_next(ns, "namespace")) {
		if (strcmp(vs_text(name, sizeof(name), ns, "name"),
			   "urn:vim25"))
			continue;
		/* vCenter 8.0.2+ names its newest an internal id (uA046D008)
		 * and lists the dotted ones among priorVersions: the newest
		 * dotted one provbench knows is what it speaks */
		consider(out, len, vs_child(ns, "version"));
		for (v = vs_child(vs_child(ns, "priorVersions"), "version"); v;
		     v = vs_next(v, "version"))
			consider(out, len, v);
	}
	xmlFreeDoc(doc);
	return out[0] ? PB_OK : PB_ERR_NOTFOUND;
}

/*
 * GET /sdk/vimServiceVersions.xml: the version to speak. Older ESXi lack
 * the file; about.apiVersion covers them later.
 */
static enum pb_error discover_version(struct vs_session *s)
{
	struct pb_buf res = PB_BUF_INIT(1u << 20);
	char url[1100];
	long code = 0;
	enum pb_error err;

	snprintf(url, sizeof(url), "%s/vimServiceVersions.xml", s->sdk_url);
	err = vs_http(s, url, "vimServiceVersions", NULL, NULL, 0, true, &res,
		      &code);
	if (!err && code == 200)
		vs_versions_pick(s->api_version, sizeof(s->api_version),
				 res.data, res.len);
	pb_buf_dispose(&res);
	/* a server that does not answer at all is said now, not after a
	 * second wait for RetrieveServiceContent */
	if (err == PB_ERR_CONNECT || err == PB_ERR_TLS || err == PB_ERR_TIMEOUT)
		return err;
	s->errbuf[0] = '\0'; /* not having the file is not an error */
	return PB_OK;
}

/*
 * The first contact failed: whatever answered (or did not) is not a
 * vSphere API provbench can reach, which README's exit 3 is for. The
 * detail stays; the code says the cause's class.
 */
static enum pb_error first_contact_failed(struct vs_session *s,
					  enum pb_error err)
{
	char d[PB_ERRBUF_SIZE];

	if (err != PB_ERR_PROTOCOL && err != PB_ERR_TIMEOUT &&
	    err != PB_ERR_FAULT && err != PB_ERR_TOO_LARGE)
		return err;
	if (err == PB_ERR_TIMEOUT) {
		memcpy(d, s->errbuf, sizeof(d));
		s->errbuf[0] = '\0';
		return pb_fail(s->errbuf, PB_ERR_CONNECT, "%s", d);
	}
	snprintf(d, sizeof(d), "%s", s->errbuf);
	s->errbuf[0] = '\0';
	if (strstr(d, "HTTP 503"))
		/* vpxd answers so while its services start or stop */
		return pb_fail(s->errbuf, PB_ERR_CONNECT,
			       "%s: HTTP 503 Service Unavailable, three times: "
			       "the server is there, its API is not (vCenter's "
			       "services starting or stopped?)",
			       s->sdk_url);
	{
		/* the URL is said once, in front */
		char from[1100], *p;

		snprintf(from, sizeof(from), " from %s", s->sdk_url);
		if ((p = strstr(d, from)))
			memmove(p, p + strlen(from),
				strlen(p + strlen(from)) + 1);
	}
	return pb_fail(
		s->errbuf, PB_ERR_CONNECT,
		"%s does not answer as vSphere's API (%s); "
		"PROVBENCH_URL names a vCenter or ESXi, https://host/sdk",
		s->sdk_url, d);
}

static void set_action(struct vs_session *s)
{
	snprintf(s->soap_action, sizeof(s->soap_action), "urn:vim25/%s",
		 s->api_version[0] ? s->api_version : "6.0");
}

static enum pb_error retrieve_service_content(struct vs_session *s)
{
	static const struct vs_moref si = {"ServiceInstance",
					   "ServiceInstance"};
	struct {
		const char *name;
		struct vs_moref *ref;
	} refs[] = {
		{"rootFolder", &s->sc.root_folder},
		{"propertyCollector", &s->sc.property_collector},
		{"viewManager", &s->sc.view_manager},
		{"sessionManager", &s->sc.session_manager},
		{"searchIndex", &s->sc.search_index},
		{"fileManager", &s->sc.file_manager},
		{"virtualDiskManager", &s->sc.virtual_disk_manager},
		{"guestOperationsManager", &s->sc.guest_operations_manager},
		{"licenseManager", &s->sc.license_manager},
		{"datastoreNamespaceManager", &s->sc.namespace_manager},
		{"perfManager", &s->sc.perf_manager},
	};
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv, about;
	enum pb_error err;
	size_t i;

	err = vs_req_new(&r, "RetrieveServiceContent", &si);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (err)
		return err;
	rv = vs_child(ret, "returnval");
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++)
		vs_moref_read(refs[i].ref, vs_child(rv, refs[i].name));
	about = vs_child(rv, "about");
	vs_text(s->about.name, sizeof(s->about.name), about, "name");
	vs_text(s->about.full_name, sizeof(s->about.full_name), about,
		"fullName");
	vs_text(s->about.version, sizeof(s->about.version), about, "version");
	vs_text(s->about.build, sizeof(s->about.build), about, "build");
	vs_text(s->about.api_type, sizeof(s->about.api_type), about, "apiType");
	vs_text(s->about.api_version, sizeof(s->about.api_version), about,
		"apiVersion");
	vs_text(s->about.instance_uuid, sizeof(s->about.instance_uuid), about,
		"instanceUuid");
	if (!s->sc.property_collector.value[0] ||
	    !s->sc.session_manager.value[0])
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "RetrieveServiceContent: no property collector "
			      "or session manager in the reply");
	xmlFreeDoc(doc);
	return err;
}

/*
 * A login several sessions share: the session cookie (as curl's cookie
 * list holds it), which of its logins it is, how many sessions hold it.
 * Taken again under the mutex, by the first session that finds it gone.
 */
struct vs_login {
	pthread_mutex_t mu;
	char cookies[4096]; /* lines of CURLINFO_COOKIELIST */
	unsigned gen;
	unsigned refs;
};

static struct vs_login *login_new(void)
{
	struct vs_login *l = calloc(1, sizeof(*l));

	if (l) {
		pthread_mutex_init(&l->mu, NULL);
		l->refs = 1;
	}
	return l;
}

/* Drop one hold; true when it was the last (then it is freed). */
static bool login_drop(struct vs_login *l)
{
	unsigned left;

	if (!l)
		return true;
	pthread_mutex_lock(&l->mu);
	left = --l->refs;
	pthread_mutex_unlock(&l->mu);
	if (left)
		return false;
	explicit_bzero(l->cookies, sizeof(l->cookies));
	pthread_mutex_destroy(&l->mu);
	free(l);
	return true;
}

/* The session's cookies into l (after a login on s's connection). */
static void cookies_save(struct vs_login *l, struct vs_session *s)
{
	struct curl_slist *list = NULL, *c;
	size_t len = 0;

	l->cookies[0] = '\0';
	if (curl_easy_getinfo(s->curl, CURLINFO_COOKIELIST, &list) != CURLE_OK)
		return;
	for (c = list; c; c = c->next)
		if (len + strlen(c->data) + 2 < sizeof(l->cookies))
			len += (size_t)snprintf(l->cookies + len,
						sizeof(l->cookies) - len,
						"%s\n", c->data);
	curl_slist_free_all(list);
}

/* l's cookies onto s's connection, in place of its own. */
static void cookies_take(struct vs_session *s, const struct vs_login *l)
{
	char line[sizeof(l->cookies)];
	const char *p = l->cookies, *nl;

	curl_easy_setopt(s->curl, CURLOPT_COOKIELIST, "ALL");
	while ((nl = strchr(p, '\n'))) {
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		curl_easy_setopt(s->curl, CURLOPT_COOKIELIST, line);
		p = nl + 1;
	}
	explicit_bzero(line, sizeof(line));
}

enum pb_error vs_login(struct vs_session *s)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, pw = NULL;
	enum pb_error err;

	err = vs_req_new(&r, "Login", &s->sc.session_manager);
	if (!err && (!vs_add(r.op, "userName", s->cfg.username) ||
		     !(pw = vs_add(r.op, "password", s->cfg.password))))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
	else
		pb_fail(s->errbuf, err, "out of memory");
	/* the request's copy of the password, wiped before it is freed */
	if (pw && pw->children && pw->children->content)
		explicit_bzero(pw->children->content,
			       strlen((char *)pw->children->content));
	vs_req_dispose(&r);
	if (err == PB_ERR_NOMEM)
		return err;
	xmlFreeDoc(doc);
	if (err == PB_ERR_LOGIN || err == PB_ERR_FAULT) {
		char why[PB_ERRBUF_SIZE];

		snprintf(why, sizeof(why), "%s", s->errbuf);
		s->errbuf[0] = '\0';
		return pb_fail(s->errbuf, PB_ERR_LOGIN,
			       "login as %s at %s refused: %s", s->cfg.username,
			       s->sdk_url, why);
	}
	if (!err) {
		s->logged_in = true;
		s->logins++;
		if (s->login) {
			cookies_save(s->login, s);
			s->login_gen = ++s->login->gen;
		}
	}
	return err;
}

/* A collector of the session's own, for its filters and waits. */
static enum pb_error create_collector(struct vs_session *s)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	err = vs_req_new(&r, "CreatePropertyCollector",
			 &s->sc.property_collector);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	err = vs_call(s, &r, false, &doc, &ret);
	vs_req_dispose(&r);
	if (!err) {
		vs_moref_read(&s->collector, vs_child(ret, "returnval"));
		if (!s->collector.value[0])
			err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
				      "CreatePropertyCollector: no collector "
				      "in the reply");
	}
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_session_renew(struct vs_session *s)
{
	struct vs_login *l = s->login;
	enum pb_error err = PB_OK;

	s->logged_in = false;
	if (!l) {
		curl_easy_setopt(s->curl, CURLOPT_COOKIELIST, "ALL");
		return vs_login(s);
	}
	pthread_mutex_lock(&l->mu);
	if (l->gen == s->login_gen) {
		/* the first to find it gone: the old cookie names a dead
		 * session; a new login for all */
		curl_easy_setopt(s->curl, CURLOPT_COOKIELIST, "ALL");
		err = vs_login(s);
	} else {
		/* another session logged in again already: take that */
		cookies_take(s, l);
		s->login_gen = l->gen;
		s->logged_in = true;
		s->logins++;
	}
	pthread_mutex_unlock(&l->mu);
	/* a collector goes with the session it was made in */
	if (!err && s->own_collector)
		err = create_collector(s);
	return err;
}

enum pb_error vs_session_open(struct vs_session **out,
			      const struct vs_config *cfg, vs_request_hook hook,
			      void *hook_arg, char *errbuf)
{
	struct vs_session *s;
	enum pb_error err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	s->hook = hook;
	s->hook_arg = hook_arg;
	s->renew = vs_session_renew;
	s->task_timeout_s = 6 * 3600;
	err = config_copy(&s->cfg, cfg);
	if (err) {
		pb_fail(errbuf, err, "out of memory");
		goto fail;
	}
	snprintf(s->sdk_url, sizeof(s->sdk_url), "%s", s->cfg.url);
	if (s->cfg.insecure)
		fprintf(stderr, "provbench: warning: PROVBENCH_INSECURE: the "
				"server's certificate is not verified\n");
	if (s->cfg.tls_legacy)
		fprintf(stderr, "provbench: warning: PROVBENCH_TLS_LEGACY: TLS "
				"1.0/1.1 and SHA-1 signatures are allowed\n");
	err = vs_transport_init(s);
	if (!err)
		err = discover_version(s);
	if (!err) {
		set_action(s);
		err = retrieve_service_content(s);
	}
	if (err)
		err = first_contact_failed(s, err);
	if (!err && !s->api_version[0] && dotted(s->about.api_version)) {
		snprintf(s->api_version, sizeof(s->api_version), "%s",
			 s->about.api_version);
		set_action(s);
	}
	if (!err && !(s->login = login_new()))
		err = pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	if (!err)
		err = vs_login(s);
	s->collector = s->sc.property_collector;
	if (err) {
		pb_fail(errbuf, err, "%s", s->errbuf);
		goto fail;
	}
	*out = s;
	return PB_OK;
fail:
	vs_session_free(s);
	return err;
}

enum pb_error vs_session_open_shared(struct vs_session **out,
				     struct vs_session *with, char *errbuf)
{
	struct vs_session *s;
	enum pb_error err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	s->hook = with->hook;
	s->hook_arg = with->hook_arg;
	s->task_timeout_s = with->task_timeout_s;
	err = config_copy(&s->cfg, &with->cfg);
	if (err) {
		pb_fail(errbuf, err, "out of memory");
		free(s);
		return err;
	}
	/* what with found out once: no round trips for it again */
	memcpy(s->sdk_url, with->sdk_url, sizeof(s->sdk_url));
	memcpy(s->soap_action, with->soap_action, sizeof(s->soap_action));
	memcpy(s->api_version, with->api_version, sizeof(s->api_version));
	s->sc = with->sc;
	s->about = with->about;
	err = vs_transport_init(s);
	if (!err) {
		pthread_mutex_lock(&with->login->mu);
		with->login->refs++;
		s->login = with->login;
		cookies_take(s, s->login);
		s->login_gen = s->login->gen;
		pthread_mutex_unlock(&with->login->mu);
		s->logged_in = true;
		s->logins = 1;
		s->own_collector = true;
		err = create_collector(s);
	}
	if (err) {
		pb_fail(errbuf, err, "%s", s->errbuf);
		vs_session_free(s);
		return err;
	}
	*out = s;
	return PB_OK;
}

void vs_session_free(struct vs_session *s)
{
	struct vs_req r;

	if (!s)
		return;
	if (s->logged_in && s->own_collector && s->collector.value[0] &&
	    !vs_req_new(&r, "DestroyPropertyCollector", &s->collector)) {
		vs_call_cleanup(s, &r);
		vs_req_dispose(&r);
	}
	/* the session on the server is the last holder's to end */
	if (login_drop(s->login) && s->logged_in &&
	    !vs_req_new(&r, "Logout", &s->sc.session_manager)) {
		s->login = NULL;
		vs_call_cleanup(s, &r);
		vs_req_dispose(&r);
	}
	vs_transport_cleanup(s);
	vs_config_dispose(&s->cfg);
	free(s);
}

void vs_session_set_progress(struct vs_session *s, vs_progress_fn fn, void *arg)
{
	s->progress = fn;
	s->progress_arg = arg;
}

void vs_session_set_task_timeout(struct vs_session *s, long seconds)
{
	s->task_timeout_s = seconds > 0 ? seconds : 1;
}

const char *vs_session_error(const struct vs_session *s)
{
	return s->errbuf;
}

const char *vs_session_fault(const struct vs_session *s)
{
	return s->fault;
}

const struct vs_about *vs_session_about(const struct vs_session *s)
{
	return &s->about;
}

const char *vs_session_api_version(const struct vs_session *s)
{
	return s->api_version;
}

unsigned vs_session_round_trips(const struct vs_session *s)
{
	return s->round_trips;
}

bool vs_session_is_vcenter(const struct vs_session *s)
{
	return !strcmp(s->about.api_type, "VirtualCenter");
}

const struct vs_task_times *vs_session_last_task(const struct vs_session *s)
{
	return &s->last_task;
}
