/*
 * pbm.c - vCenter's storage policy service (SPBM), as far as provbench
 * needs it: a policy by name, a datastore's default, and the policy a
 * disk has. SPBM is a SOAP service of its own beside vim25: the /pbm
 * endpoint, namespace urn:pbm, and the vim25 session's cookie both as the
 * HTTP cookie and in the SOAP header's vcSessionCookie (what govc's
 * storage.policy and pyVmomi's pbm stub send). A standalone ESXi host has
 * none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vs_int.h"

#define VS_NS_PBM "urn:pbm"

/* The session cookie's value, from curl's list ("" when none). */
static void session_cookie(struct vs_session *s, char *out, size_t len)
{
	struct curl_slist *list = NULL, *c;

	out[0] = '\0';
	if (curl_easy_getinfo(s->curl, CURLINFO_COOKIELIST, &list) != CURLE_OK)
		return;
	for (c = list; c; c = c->next) {
		/* Netscape format: domain, flag, path, secure, expiry,
		 * name, value, tab-separated */
		const char *p = c->data, *name = NULL, *val = NULL;
		int field = 0;

		for (; *p; p++)
			if (*p == '\t' && ++field == 5)
				name = p + 1;
			else if (*p == '\t' && field == 6)
				val = p + 1;
		if (name && val && !strncmp(name, "vmware_soap_session\t", 20))
			snprintf(out, len, "%s", val);
	}
	curl_slist_free_all(list);
}

enum pb_error vs_req_new_pbm(struct vs_session *s, struct vs_req *r,
			     const char *op, const struct vs_moref *this_ref)
{
	char cookie[512];
	xmlNodePtr env, hdr;
	enum pb_error err;

	err = vs_req_new_ns(r, op, this_ref, VS_NS_PBM);
	if (err)
		return err;
	r->pbm = true;
	session_cookie(s, cookie, sizeof(cookie));
	env = xmlDocGetRootElement(r->doc);
	hdr = xmlNewNode(env->ns, BAD_CAST "Header");
	if (!hdr || !xmlAddPrevSibling(env->children, hdr) ||
	    !xmlNewTextChild(hdr, NULL, BAD_CAST "vcSessionCookie",
			     BAD_CAST cookie)) {
		explicit_bzero(cookie, sizeof(cookie));
		vs_req_dispose(r);
		return PB_ERR_NOMEM;
	}
	explicit_bzero(cookie, sizeof(cookie));
	return PB_OK;
}

/* SPBM's profile manager, from its service content (once a session). */
static enum pb_error profile_manager(struct vs_session *s)
{
	static const struct vs_moref si = {"PbmServiceInstance",
					   "ServiceInstance"};
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	if (s->pbm_profiles.value[0])
		return PB_OK;
	if (!vs_session_is_vcenter(s))
		return pb_fail(s->errbuf, PB_ERR_UNSUPPORTED,
			       "%s is a standalone host: storage policies "
			       "are vCenter's",
			       s->sdk_url);
	err = vs_req_new_pbm(s, &r, "PbmRetrieveServiceContent", &si);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (!err)
		vs_moref_read(
			&s->pbm_profiles,
			vs_child(vs_child(ret, "returnval"), "profileManager"));
	if (!err && !s->pbm_profiles.value[0])
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "PbmRetrieveServiceContent: no profile manager");
	xmlFreeDoc(doc);
	return err;
}

/* A PbmCapabilityProfile: its id, name and vSAN space reservation. */
static void profile_read(struct vs_policy *p, xmlNodePtr prof)
{
	xmlNodePtr sub, cap, con, prop;
	char ns[32], id[64];

	memset(p, 0, sizeof(*p));
	p->reserve = -1;
	vs_text(p->id, sizeof(p->id), vs_child(prof, "profileId"), "uniqueId");
	vs_text(p->name, sizeof(p->name), prof, "name");
	for (sub = vs_child(vs_child(prof, "constraints"), "subProfiles"); sub;
	     sub = vs_next(sub, "subProfiles"))
		for (cap = vs_child(sub, "capability"); cap;
		     cap = vs_next(cap, "capability")) {
			vs_text(ns, sizeof(ns), vs_child(cap, "id"),
				"namespace");
			vs_text(id, sizeof(id), vs_child(cap, "id"), "id");
			if (strcmp(ns, "VSAN") ||
			    strcmp(id, "proportionalCapacity"))
				continue;
			for (con = vs_child(cap, "constraint"); con;
			     con = vs_next(con, "constraint"))
				for (prop = vs_child(con, "propertyInstance");
				     prop;
				     prop = vs_next(prop, "propertyInstance")) {
					char v[16];

					vs_text(v, sizeof(v), prop, "value");
					if (v[0])
						p->reserve = atoi(v);
				}
		}
}

/* PbmRetrieveContent of ids; fn-less: every profile into out (max n). */
static enum pb_error retrieve_content(struct vs_session *s, char (*ids)[64],
				      size_t nids, struct vs_policy *out,
				      size_t max, size_t *n)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv;
	enum pb_error err;
	size_t i;

	*n = 0;
	err = vs_req_new_pbm(s, &r, "PbmRetrieveContent", &s->pbm_profiles);
	for (i = 0; !err && i < nids; i++)
		if (!vs_add(vs_add(r.op, "profileIds", NULL), "uniqueId",
			    ids[i]))
			err = PB_ERR_NOMEM;
	if (err) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, err, "out of memory");
	}
	err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	for (rv = err ? NULL : vs_child(ret, "returnval"); rv && *n < max;
	     rv = vs_next(rv, "returnval"))
		profile_read(&out[(*n)++], rv);
	xmlFreeDoc(doc);
	return err;
}

/* The uniqueIds of a reply's returnval list (PbmProfileId). */
static size_t read_ids(xmlNodePtr ret, char (*ids)[64], size_t max)
{
	xmlNodePtr rv;
	size_t n = 0;

	for (rv = vs_child(ret, "returnval"); rv && n < max;
	     rv = vs_next(rv, "returnval"))
		vs_text(ids[n++], sizeof(ids[0]), rv, "uniqueId");
	return n;
}

#define MAX_POLICIES 256

enum pb_error vs_pbm_policy_find(struct vs_session *s, const char *name,
				 struct vs_policy *out)
{
	char(*ids)[64] = calloc(MAX_POLICIES, sizeof(*ids));
	struct vs_policy *all = calloc(MAX_POLICIES, sizeof(*all));
	struct vs_req r = {0};
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rt;
	size_t nids = 0, n = 0, i, at = 0;
	enum pb_error err;
	char names[1024] = "";

	memset(out, 0, sizeof(*out));
	err = !ids || !all ? pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory")
			   : profile_manager(s);
	if (!err)
		err = vs_req_new_pbm(s, &r, "PbmQueryProfile",
				     &s->pbm_profiles);
	if (!err && (!(rt = vs_add(r.op, "resourceType", NULL)) ||
		     !vs_add(rt, "resourceType", "STORAGE") ||
		     !vs_add(r.op, "profileCategory", "REQUIREMENT")))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (!err)
		nids = read_ids(ret, ids, MAX_POLICIES);
	xmlFreeDoc(doc);
	if (!err && nids)
		err = retrieve_content(s, ids, nids, all, MAX_POLICIES, &n);
	for (i = 0; !err && i < n; i++) {
		if (!strcmp(all[i].name, name)) {
			*out = all[i];
			break;
		}
		if (at < sizeof(names))
			at += (size_t)snprintf(names + at, sizeof(names) - at,
					       "%s\"%s\"", at ? ", " : "",
					       all[i].name);
	}
	if (!err && i == n)
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "no storage policy \"%s\"; there are %s", name,
			      names[0] ? names : "none");
	free(ids);
	free(all);
	return err;
}

/* One id from a call that answers one PbmProfileId (or several). */
static enum pb_error policy_of_ids(struct vs_session *s, xmlNodePtr ret,
				   const char *what, struct vs_policy *out)
{
	char ids[4][64];
	size_t nids = read_ids(ret, ids, 4), n = 0;

	if (!nids)
		return pb_fail(s->errbuf, PB_ERR_NOTFOUND, "%s: no policy",
			       what);
	return retrieve_content(s, ids, 1, out, 1, &n);
}

enum pb_error vs_pbm_default_policy(struct vs_session *s,
				    const struct vs_moref *datastore,
				    struct vs_policy *out)
{
	struct vs_req r = {0};
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, hub;
	enum pb_error err;

	memset(out, 0, sizeof(*out));
	err = profile_manager(s);
	if (!err)
		err = vs_req_new_pbm(s, &r, "PbmQueryDefaultRequirementProfile",
				     &s->pbm_profiles);
	if (!err && (!(hub = vs_add(r.op, "hub", NULL)) ||
		     !vs_add(hub, "hubType", "Datastore") ||
		     !vs_add(hub, "hubId", datastore->value)))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (!err)
		err = policy_of_ids(s, ret, "the datastore's default", out);
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_pbm_disk_policy(struct vs_session *s,
				 const struct vs_moref *vm, int disk_key,
				 struct vs_policy *out)
{
	struct vs_req r = {0};
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, ent;
	enum pb_error err;

	memset(out, 0, sizeof(*out));
	err = profile_manager(s);
	if (!err)
		err = vs_req_new_pbm(s, &r, "PbmQueryAssociatedProfile",
				     &s->pbm_profiles);
	/* a disk is "virtualDiskId" "<vm moref>:<device key>" */
	if (!err && (!(ent = vs_add(r.op, "entity", NULL)) ||
		     !vs_add(ent, "objectType", "virtualDiskId") ||
		     !vs_addf(ent, "key", "%s:%d", vm->value, disk_key) ||
		     !vs_add(ent, "serverUuid", s->about.instance_uuid)))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (!err)
		err = policy_of_ids(s, ret, "the disk", out);
	xmlFreeDoc(doc);
	return err;
}
