/*
 * soap.c - vim25 SOAP envelopes built with libxml2's tree API (user data is
 * escaped by libxml2, never pasted into strings), replies parsed with the
 * network and entity expansion off, faults turned into errors.
 */
#include <libxml/parser.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vs_int.h"

enum pb_error vs_req_new_ns(struct vs_req *r, const char *op,
			    const struct vs_moref *this_ref, const char *ns)
{
	xmlNodePtr env, body;
	xmlNsPtr soap;

	memset(r, 0, sizeof(*r));
	r->name = op;
	r->doc = xmlNewDoc(BAD_CAST "1.0");
	if (!r->doc)
		return PB_ERR_NOMEM;
	env = xmlNewDocNode(r->doc, NULL, BAD_CAST "Envelope", NULL);
	if (!env)
		goto nomem;
	xmlDocSetRootElement(r->doc, env);
	soap = xmlNewNs(env, BAD_CAST VS_NS_SOAP, BAD_CAST "soapenv");
	r->xsi = xmlNewNs(env, BAD_CAST VS_NS_XSI, BAD_CAST "xsi");
	if (!soap || !r->xsi ||
	    !xmlNewNs(env, BAD_CAST VS_NS_XSD, BAD_CAST "xsd"))
		goto nomem;
	xmlSetNs(env, soap);
	body = xmlNewChild(env, soap, BAD_CAST "Body", NULL);
	r->op = body ? xmlNewChild(body, NULL, BAD_CAST op, NULL) : NULL;
	if (!r->op || !xmlNewNs(r->op, BAD_CAST ns, NULL))
		goto nomem;
	xmlSetNs(r->op, r->op->nsDef);
	if (this_ref && !vs_add_moref(r->op, "_this", this_ref))
		goto nomem;
	return PB_OK;
nomem:
	vs_req_dispose(r);
	return PB_ERR_NOMEM;
}

enum pb_error vs_req_new(struct vs_req *r, const char *op,
			 const struct vs_moref *this_ref)
{
	return vs_req_new_ns(r, op, this_ref, VS_NS_VIM);
}

void vs_req_dispose(struct vs_req *r)
{
	if (r->doc)
		xmlFreeDoc(r->doc);
	r->doc = NULL;
	r->op = NULL;
}

xmlNodePtr vs_add(xmlNodePtr parent, const char *name, const char *text)
{
	/* xmlNewTextChild escapes text; children inherit urn:vim25 */
	if (!parent)
		return NULL;
	return xmlNewTextChild(parent, NULL, BAD_CAST name,
			       text ? BAD_CAST text : NULL);
}

xmlNodePtr vs_addf(xmlNodePtr parent, const char *name, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return vs_add(parent, name, buf);
}

xmlNodePtr vs_add_typed(struct vs_req *r, xmlNodePtr parent, const char *name,
			const char *xsi_type, const char *text)
{
	xmlNodePtr n = vs_add(parent, name, text);

	if (n && !xmlNewNsProp(n, r->xsi, BAD_CAST "type", BAD_CAST xsi_type))
		return NULL;
	return n;
}

xmlNodePtr vs_add_moref(xmlNodePtr parent, const char *name,
			const struct vs_moref *ref)
{
	xmlNodePtr n = vs_add(parent, name, ref->value);

	if (n && !xmlNewProp(n, BAD_CAST "type", BAD_CAST ref->type))
		return NULL;
	return n;
}

/* ---- reading ---- */

bool vs_is(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE &&
	       !strcmp((const char *)n->name, name);
}

xmlNodePtr vs_next(xmlNodePtr n, const char *name)
{
	for (n = n ? n->next : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    (!name || !strcmp((const char *)n->name, name)))
			return n;
	return NULL;
}

xmlNodePtr vs_child(xmlNodePtr n, const char *name)
{
	if (!n)
		return NULL;
	for (n = n->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    (!name || !strcmp((const char *)n->name, name)))
			return n;
	return NULL;
}

char *vs_node_text(char *buf, size_t len, xmlNodePtr n)
{
	xmlChar *t = n ? xmlNodeGetContent(n) : NULL;

	snprintf(buf, len, "%s", t ? (const char *)t : "");
	xmlFree(t);
	return buf;
}

char *vs_text(char *buf, size_t len, xmlNodePtr parent, const char *name)
{
	return vs_node_text(buf, len, vs_child(parent, name));
}

uint64_t vs_u64(xmlNodePtr parent, const char *name)
{
	char b[32];

	return strtoull(vs_text(b, sizeof(b), parent, name), NULL, 10);
}

int vs_bool(xmlNodePtr parent, const char *name)
{
	char b[8];
	xmlNodePtr n = vs_child(parent, name);

	if (!n)
		return -1;
	vs_node_text(b, sizeof(b), n);
	return !strcmp(b, "true") || !strcmp(b, "1");
}

void vs_moref_read(struct vs_moref *out, xmlNodePtr n)
{
	xmlChar *t = n ? xmlGetNoNsProp(n, BAD_CAST "type") : NULL;

	snprintf(out->type, sizeof(out->type), "%s", t ? (const char *)t : "");
	xmlFree(t);
	vs_node_text(out->value, sizeof(out->value), n);
}

char *vs_xsi_type(char *buf, size_t len, xmlNodePtr n)
{
	xmlChar *t =
		n ? xmlGetNsProp(n, BAD_CAST "type", BAD_CAST VS_NS_XSI) : NULL;
	const char *p = t ? strchr((const char *)t, ':') : NULL;

	snprintf(buf, len, "%s", p ? p + 1 : t ? (const char *)t : "");
	xmlFree(t);
	return buf;
}

/*
 * A soapenv:Fault: faultstring, and the type from detail's first element
 * (its xsi:type, else its name without the "Fault" suffix).
 */
static enum pb_error parse_fault(xmlNodePtr fault, char *type, size_t tlen,
				 char *errbuf)
{
	char msg[PB_ERRBUF_SIZE / 2], loc[PB_ERRBUF_SIZE / 4];
	xmlNodePtr detail = vs_child(fault, "detail"), d;
	size_t n;

	vs_text(msg, sizeof(msg), fault, "faultstring");
	type[0] = '\0';
	loc[0] = '\0';
	d = vs_child(detail, NULL);
	if (d) {
		vs_xsi_type(type, tlen, d);
		if (!type[0]) {
			snprintf(type, tlen, "%s", (const char *)d->name);
			n = strlen(type);
			if (n > 5 && !strcmp(type + n - 5, "Fault"))
				type[n - 5] = '\0';
		}
		/* a LocalizableMessage says more than faultstring */
		vs_text(loc, sizeof(loc), vs_child(d, "faultMessage"),
			"message");
	}
	if (!type[0])
		snprintf(type, tlen, "%s", "SystemError");
	pb_fail(errbuf, PB_ERR_FAULT, "%s: %s%s%s", type,
		msg[0] ? msg : "(no message)", loc[0] ? ": " : "", loc);
	if (!strcmp(type, "InvalidLogin") ||
	    !strcmp(type, "NotAuthenticated") ||
	    !strcmp(type, "InvalidGuestLogin"))
		return PB_ERR_LOGIN;
	/* the free ESXi licence: every write is refused, so no run can
	 * work there; say it as plainly as the server does not */
	if (!strcmp(type, "RestrictedVersion")) {
		size_t end = strlen(errbuf);

		snprintf(errbuf + end, PB_ERRBUF_SIZE - end,
			 " (this host's licence makes the API read-only, as "
			 "the free vSphere Hypervisor edition does: "
			 "provbench cannot create disks there)");
		return PB_ERR_LICENSE;
	}
	return PB_ERR_FAULT;
}

enum pb_error vs_reply_parse(xmlDocPtr *doc, xmlNodePtr *ret, const char *body,
			     size_t len, char *fault_type, size_t ftlen,
			     char *errbuf)
{
	xmlNodePtr env, b, first;

	*doc = NULL;
	*ret = NULL;
	fault_type[0] = '\0';
	if (!len || len > INT32_MAX)
		return pb_fail(errbuf, PB_ERR_PROTOCOL, "empty reply");
	*doc = xmlReadMemory(body, (int)len, "reply.xml", NULL,
			     XML_PARSE_NONET | XML_PARSE_NOERROR |
				     XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
	if (!*doc)
		/* the body need not end in a NUL: bounded by len */
		return pb_fail(errbuf, PB_ERR_PROTOCOL,
			       "reply is not XML (%zu bytes, starts '%.*s')",
			       len, (int)(len < 40 ? len : 40), body);
	env = xmlDocGetRootElement(*doc);
	if (!vs_is(env, "Envelope"))
		return pb_fail(errbuf, PB_ERR_PROTOCOL,
			       "reply is not a SOAP envelope");
	b = vs_child(env, "Body");
	first = vs_child(b, NULL);
	if (!first)
		return pb_fail(errbuf, PB_ERR_PROTOCOL, "reply has no body");
	if (vs_is(first, "Fault"))
		return parse_fault(first, fault_type, ftlen, errbuf);
	*ret = first;
	return PB_OK;
}

/* every SOAP call of the process, for trace file names */
static unsigned trace_calls;

static enum pb_error call_once(struct vs_session *s, struct vs_req *r,
			       bool idempotent, xmlDocPtr *reply,
			       xmlNodePtr *ret)
{
	struct pb_buf body = PB_BUF_INIT(VS_REPLY_CAP);
	struct pb_buf res = PB_BUF_INIT(VS_REPLY_CAP);
	char url[1100];
	xmlChar *mem = NULL;
	int memlen = 0;
	long code = 0;
	enum pb_error err;

	xmlDocDumpMemoryEnc(r->doc, &mem, &memlen, "UTF-8");
	if (!mem)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	/* numbered across the process: sessions sharing a login write
	 * into one trace directory, in the order the calls went */
	s->trace_seq = __atomic_add_fetch(&trace_calls, 1, __ATOMIC_RELAXED);
	vs_trace(s, r->name, "req", (const char *)mem, (size_t)memlen);
	if (s->hook)
		s->hook(r->name, (const char *)mem, (size_t)memlen,
			s->hook_arg);
	if (r->pbm) {
		/* https://vc/sdk -> https://vc/pbm (govc and pyVmomi's
		 * path for SPBM) */
		size_t n = strlen(s->sdk_url);

		snprintf(url, sizeof(url), "%.*s/pbm",
			 (int)(n > 4 && !strcmp(s->sdk_url + n - 4, "/sdk")
				       ? n - 4
				       : n),
			 s->sdk_url);
	}
	s->fresh = r->once;
	err = vs_http(s, r->pbm ? url : NULL, r->name,
		      r->pbm ? "urn:pbm/2.0" : NULL, (const char *)mem,
		      (size_t)memlen, idempotent, &res, &code);
	/* a Login body holds the password: no copy lingers in freed memory */
	explicit_bzero(mem, (size_t)memlen);
	xmlFree(mem);
	s->no_reply = err == PB_ERR_CONNECT || err == PB_ERR_TIMEOUT;
	if (err)
		goto out;
	vs_trace(s, r->name, "res", res.data, res.len);
	/* a fault comes with 500; any other non-2xx is the HTTP layer's */
	if (code >= 300 && code < 400) {
		/* never followed: a SOAP call is not resent elsewhere
		 * unseen; where it leads is for PROVBENCH_URL */
		char *to = NULL;

		curl_easy_getinfo(s->curl, CURLINFO_REDIRECT_URL, &to);
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "%s: HTTP %ld from %s, redirected to %s", r->name,
			      code, s->sdk_url, to ? to : "(nowhere)");
		goto out;
	}
	if ((code < 200 || code >= 300) && code != 500) {
		err = pb_fail(s->errbuf,
			      code == 401 || code == 403 ? PB_ERR_LOGIN
							 : PB_ERR_PROTOCOL,
			      "%s: HTTP %ld from %s", r->name, code,
			      s->sdk_url);
		goto out;
	}
	s->fault[0] = '\0';
	err = vs_reply_parse(reply, ret, res.data, res.len, s->fault,
			     sizeof(s->fault), s->errbuf);
	if (err && code == 500 && err == PB_ERR_PROTOCOL) {
		s->errbuf[0] = '\0';
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "%s: HTTP 500 without a SOAP fault", r->name);
	}
out:
	pb_buf_dispose(&body);
	pb_buf_dispose(&res);
	return err;
}

enum pb_error vs_call(struct vs_session *s, struct vs_req *r, bool idempotent,
		      xmlDocPtr *reply, xmlNodePtr *ret)
{
	enum pb_error err;

	*reply = NULL;
	s->errbuf[0] = '\0';
	err = call_once(s, r, idempotent, reply, ret);
	if (err == PB_ERR_LOGIN && s->logged_in && s->renew &&
	    !strcmp(s->fault, "NotAuthenticated")) {
		/* the session expired under us: log in once more, retry */
		xmlFreeDoc(*reply);
		*reply = NULL;
		s->errbuf[0] = '\0';
		err = s->renew(s);
		if (!err && r->session_bound) {
			*ret = NULL; /* the caller sees the new login */
			return PB_OK;
		}
		if (!err) {
			s->errbuf[0] = '\0';
			err = call_once(s, r, idempotent, reply, ret);
		}
	}
	if (err) {
		xmlFreeDoc(*reply);
		*reply = NULL;
		*ret = NULL;
	}
	return err;
}

enum pb_error vs_call_cleanup(struct vs_session *s, struct vs_req *r)
{
	char saved[PB_ERRBUF_SIZE], fault[sizeof(s->fault)];
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	/* a cleanup call must not wipe the error that made it necessary */
	memcpy(saved, s->errbuf, sizeof(saved));
	memcpy(fault, s->fault, sizeof(fault));
	err = vs_call(s, r, false, &doc, &ret);
	xmlFreeDoc(doc);
	if (saved[0]) {
		memcpy(s->errbuf, saved, sizeof(saved));
		memcpy(s->fault, fault, sizeof(fault));
	}
	return err;
}
