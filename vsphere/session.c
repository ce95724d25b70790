/*
 * session.c - open a vim25 session: API version from vimServiceVersions.xml
 * (fallback about.apiVersion), RetrieveServiceContent, Login with the
 * environment's credentials; Logout when freed.
 */
#include <libxml/parser.h>
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

/*
 * GET /sdk/vimServiceVersions.xml: the newest urn:vim25 version the server
 * speaks. Older ESXi lack the file; about.apiVersion covers them later.
 */
static void discover_version(struct vs_session *s)
{
	struct pb_buf res = PB_BUF_INIT(1u << 20);
	char url[1100], name[64];
	xmlDocPtr doc = NULL;
	xmlNodePtr ns;
	long code = 0;

	snprintf(url, sizeof(url), "%s/vimServiceVersions.xml", s->sdk_url);
	if (vs_http(s, url, "vimServiceVersions", NULL, 0, true, &res, &code) ||
	    code != 200)
		goto out;
	doc = xmlReadMemory(res.data, (int)res.len, "versions.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	for (ns = vs_child(xmlDocGetRootElement(doc), "namespace"); ns;
	     ns = vs_next(ns, "namespace")) {
		if (strcmp(vs_text(name, sizeof(name), ns, "name"),
			   "urn:vim25"))
			continue;
		vs_text(s->api_version, sizeof(s->api_version), ns, "version");
	}
out:
	s->errbuf[0] = '\0'; /* not having the file is not an error */
	if (doc)
		xmlFreeDoc(doc);
	pb_buf_dispose(&res);
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
	if (!err)
		s->logged_in = true;
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
	err = vs_transport_init(s);
	if (!err) {
		discover_version(s);
		set_action(s);
		err = retrieve_service_content(s);
	}
	if (!err && !s->api_version[0]) {
		snprintf(s->api_version, sizeof(s->api_version), "%s",
			 s->about.api_version);
		set_action(s);
	}
	if (!err)
		err = vs_login(s);
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

void vs_session_free(struct vs_session *s)
{
	struct vs_req r;

	if (!s)
		return;
	if (s->logged_in && !vs_req_new(&r, "Logout", &s->sc.session_manager)) {
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
