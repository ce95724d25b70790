/*
 * inventory.c - the property collector (RetrievePropertiesEx with
 * ContinueRetrievePropertiesEx paging), ContainerView listings, and
 * finding a VM by inventory path (SearchIndex) or unique name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vs_int.h"

#define PAGE_OBJECTS "500"

xmlNodePtr vs_prop(const struct vs_objcontent *oc, const char *name)
{
	char buf[256];
	xmlNodePtr p;

	for (p = oc->props; p; p = vs_next(p, "propSet"))
		if (!strcmp(vs_text(buf, sizeof(buf), p, "name"), name))
			return vs_child(p, "val");
	return NULL;
}

enum pb_error vs_each_object(struct vs_session *s, xmlNodePtr rv,
			     vs_object_fn fn, void *arg)
{
	struct vs_objcontent oc;
	xmlNodePtr o;
	enum pb_error err;

	for (o = vs_child(rv, "objects"); o; o = vs_next(o, "objects")) {
		vs_moref_read(&oc.obj, vs_child(o, "obj"));
		oc.props = vs_child(o, "propSet");
		err = fn(s, &oc, arg);
		if (err)
			return err;
	}
	return PB_OK;
}

/* Properties a server may leave out of a VM without meaning a fault
 * (govmomi's ignoreMissingProperty: a template's environmentBrowser, a
 * vApp child's alarmActionsEnabled). */
static bool missing_ok(const struct vs_moref *obj, const char *path)
{
	return !strcmp(obj->type, "VirtualMachine") &&
	       (!strcmp(path, "environmentBrowser") ||
		!strcmp(path, "alarmActionsEnabled"));
}

/*
 * A property the server could not give is in the object's missingSet with
 * its fault (NoPermission, NotAuthenticated when the session is gone: the
 * simulator answers so, and govmomi's ObjectContentToType returns the
 * first such fault as the call's): an error naming object and property,
 * never an empty answer the caller would read as "none".
 */
static enum pb_error missing_faults(struct vs_session *s, xmlNodePtr rv)
{
	char path[256], type[128];
	struct vs_moref obj;
	xmlNodePtr o, m;

	for (o = vs_child(rv, "objects"); o; o = vs_next(o, "objects"))
		for (m = vs_child(o, "missingSet"); m;
		     m = vs_next(m, "missingSet")) {
			vs_moref_read(&obj, vs_child(o, "obj"));
			vs_text(path, sizeof(path), m, "path");
			if (missing_ok(&obj, path))
				continue;
			vs_xsi_type(type, sizeof(type),
				    vs_child(vs_child(m, "fault"), "fault"));
			if (!type[0])
				snprintf(type, sizeof(type), "SystemError");
			snprintf(s->fault, sizeof(s->fault), "%s", type);
			pb_fail(s->errbuf, PB_ERR_FAULT, "%s %s: %s: %s",
				obj.type, obj.value, path, type);
			return strcmp(type, "NotAuthenticated") ? PB_ERR_FAULT
								: PB_ERR_LOGIN;
		}
	return PB_OK;
}

/* Call RetrievePropertiesEx, then ContinueRetrievePropertiesEx per page. */
static enum pb_error retrieve(struct vs_session *s, struct vs_req *r,
			      vs_object_fn fn, void *arg)
{
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv;
	char token[256];
	enum pb_error err;
	struct vs_req c;
	bool first = true;

	err = vs_call(s, r, true, &doc, &ret);
	while (!err) {
		rv = vs_child(ret, "returnval");
		err = missing_faults(s, rv);
		/* the session went between the call and its properties:
		 * once more, logged in again, before anything was told */
		if (err == PB_ERR_LOGIN && first && s->logged_in) {
			xmlFreeDoc(doc);
			doc = NULL;
			s->errbuf[0] = '\0';
			err = vs_session_renew(s);
			if (!err)
				err = vs_call(s, r, true, &doc, &ret);
			if (!err)
				err = missing_faults(
					s, rv = vs_child(ret, "returnval"));
		}
		first = false;
		if (!err)
			err = vs_each_object(s, rv, fn, arg);
		vs_text(token, sizeof(token), rv, "token");
		xmlFreeDoc(doc);
		doc = NULL;
		if (err || !token[0])
			break;
		err = vs_req_new(&c, "ContinueRetrievePropertiesEx",
				 &s->sc.property_collector);
		if (!err && !vs_add(c.op, "token", token))
			err = PB_ERR_NOMEM;
		if (!err)
			err = vs_call(s, &c, true, &doc, &ret);
		vs_req_dispose(&c);
	}
	xmlFreeDoc(doc);
	return err;
}

static enum pb_error add_propset(xmlNodePtr spec, const char *type,
				 const char *const *paths)
{
	xmlNodePtr ps = vs_add(spec, "propSet", NULL);

	if (!vs_add(ps, "type", type))
		return PB_ERR_NOMEM;
	for (; *paths; paths++)
		if (!vs_add(ps, "pathSet", *paths))
			return PB_ERR_NOMEM;
	return PB_OK;
}

enum pb_error vs_retrieve_one(struct vs_session *s, const struct vs_moref *obj,
			      const char *const *paths, vs_object_fn fn,
			      void *arg)
{
	struct vs_req r;
	xmlNodePtr spec, os;
	enum pb_error err;

	err = vs_req_new(&r, "RetrievePropertiesEx", &s->sc.property_collector);
	spec = err ? NULL : vs_add(r.op, "specSet", NULL);
	if (!spec || add_propset(spec, obj->type, paths))
		err = PB_ERR_NOMEM;
	os = err ? NULL : vs_add(spec, "objectSet", NULL);
	if (!err &&
	    (!vs_add_moref(os, "obj", obj) || !vs_add(os, "skip", "false") ||
	     !vs_add(vs_add(r.op, "options", NULL), "maxObjects",
		     PAGE_OBJECTS)))
		err = PB_ERR_NOMEM;
	if (!err)
		err = retrieve(s, &r, fn, arg);
	else
		pb_fail(s->errbuf, err, "out of memory");
	vs_req_dispose(&r);
	return err;
}

static enum pb_error destroy_view(struct vs_session *s,
				  const struct vs_moref *view)
{
	struct vs_req r;
	enum pb_error err;

	err = vs_req_new(&r, "DestroyView", view);
	if (!err)
		err = vs_call_cleanup(s, &r);
	vs_req_dispose(&r);
	return err;
}

/* fn's calls counted: a listing is tried again only when none was told */
struct counted {
	vs_object_fn fn;
	void *arg;
	unsigned n;
};

static enum pb_error count_one(struct vs_session *s,
			       const struct vs_objcontent *oc, void *arg)
{
	struct counted *c = arg;

	c->n++;
	return c->fn(s, oc, c->arg);
}

static enum pb_error retrieve_view(struct vs_session *s, const char *type,
				   const char *const *paths, vs_object_fn fn,
				   void *arg)
{
	struct vs_moref view = {"ContainerView", ""};
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, spec, os, sel;
	unsigned logins = 0;
	enum pb_error err, err2;

	err = vs_req_new(&r, "CreateContainerView", &s->sc.view_manager);
	if (!err &&
	    (!vs_add_moref(r.op, "container", &s->sc.root_folder) ||
	     !vs_add(r.op, "type", type) || !vs_add(r.op, "recursive", "true")))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
	vs_req_dispose(&r);
	if (err)
		goto out;
	vs_node_text(view.value, sizeof(view.value),
		     vs_child(ret, "returnval"));
	logins = s->logins; /* the session the view belongs to */
	xmlFreeDoc(doc);
	doc = NULL;

	err = vs_req_new(&r, "RetrievePropertiesEx", &s->sc.property_collector);
	spec = err ? NULL : vs_add(r.op, "specSet", NULL);
	if (!spec || add_propset(spec, type, paths))
		err = PB_ERR_NOMEM;
	os = err ? NULL : vs_add(spec, "objectSet", NULL);
	if (!err &&
	    (!vs_add_moref(os, "obj", &view) || !vs_add(os, "skip", "true")))
		err = PB_ERR_NOMEM;
	sel = err ? NULL
		  : vs_add_typed(&r, os, "selectSet", "TraversalSpec", NULL);
	if (!err &&
	    (!vs_add(sel, "name", "view") ||
	     !vs_add(sel, "type", "ContainerView") ||
	     !vs_add(sel, "path", "view") || !vs_add(sel, "skip", "false") ||
	     !vs_add(vs_add(r.op, "options", NULL), "maxObjects",
		     PAGE_OBJECTS)))
		err = PB_ERR_NOMEM;
	if (!err)
		err = retrieve(s, &r, fn, arg);
	vs_req_dispose(&r);
	/* a view left behind costs the server memory until logout; one a
	 * lost session took along is gone already */
	if (s->logins == logins) {
		err2 = destroy_view(s, &view);
		/* lost while destroying it: gone with its session */
		if (!err && s->logins == logins)
			err = err2;
	}
out:
	if (err == PB_ERR_NOMEM)
		pb_fail(s->errbuf, err, "out of memory");
	xmlFreeDoc(doc);
	return err;
}

/*
 * A view lives in the session that made it (vSphere API reference,
 * ViewManager: "views ... are destroyed when the session ends"): when the
 * session was lost between CreateContainerView and its use, the call is
 * retried logged in again, but the view it names is gone
 * (ManagedObjectNotFound). So the whole listing is made again, once, in
 * the new session, when nothing of it was told yet.
 */
enum pb_error vs_retrieve_all(struct vs_session *s, const char *type,
			      const char *const *paths, vs_object_fn fn,
			      void *arg)
{
	struct counted c = {fn, arg, 0};
	unsigned logins = s->logins;
	enum pb_error err;

	err = retrieve_view(s, type, paths, count_one, &c);
	if (err && s->logins != logins && !c.n) {
		s->errbuf[0] = '\0';
		s->fault[0] = '\0';
		err = retrieve_view(s, type, paths, count_one, &c);
	}
	return err;
}

/* ---- typed listings ---- */

struct growable {
	void *items;
	size_t n, alloc, size;
};

static void *grow_one(struct growable *g)
{
	void *p;

	if (g->n == g->alloc) {
		size_t a = g->alloc ? g->alloc * 2 : 16;

		p = realloc(g->items, a * g->size);
		if (!p)
			return NULL;
		g->items = p;
		g->alloc = a;
	}
	p = (char *)g->items + g->n++ * g->size;
	memset(p, 0, g->size);
	return p;
}

/* Every object of type, one item of size bytes each, filled in by fn. */
static enum pb_error list_all(struct vs_session *s, const char *type,
			      const char *const *paths, vs_object_fn fn,
			      size_t size, void **out, size_t *n)
{
	struct growable g = {NULL, 0, 0, size};
	enum pb_error err = vs_retrieve_all(s, type, paths, fn, &g);

	if (err) {
		free(g.items);
		g.items = NULL;
		g.n = 0;
	}
	*out = g.items;
	*n = g.n;
	return err;
}

static const char *const vm_paths[] = {"name",
				       "runtime.powerState",
				       "runtime.host",
				       "guest.toolsRunningStatus",
				       "summary.config.vmPathName",
				       NULL};

static void vm_read(struct vs_vm_info *v, const struct vs_objcontent *oc)
{
	v->ref = oc->obj;
	vs_node_text(v->name, sizeof(v->name), vs_prop(oc, "name"));
	vs_node_text(v->power_state, sizeof(v->power_state),
		     vs_prop(oc, "runtime.powerState"));
	vs_node_text(v->tools_status, sizeof(v->tools_status),
		     vs_prop(oc, "guest.toolsRunningStatus"));
	vs_moref_read(&v->host, vs_prop(oc, "runtime.host"));
	vs_node_text(v->path, sizeof(v->path),
		     vs_prop(oc, "summary.config.vmPathName"));
}

static enum pb_error on_vm(struct vs_session *s, const struct vs_objcontent *oc,
			   void *arg)
{
	struct vs_vm_info *v = grow_one(arg);

	if (!v)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	vm_read(v, oc);
	return PB_OK;
}

enum pb_error vs_vm_list(struct vs_session *s, struct vs_vm_info **out,
			 size_t *n)
{
	return list_all(s, "VirtualMachine", vm_paths, on_vm, sizeof(**out),
			(void **)out, n);
}

static enum pb_error on_ds(struct vs_session *s, const struct vs_objcontent *oc,
			   void *arg)
{
	struct vs_ds_info *d = grow_one(arg);
	char b[32];

	if (!d)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	d->ref = oc->obj;
	vs_node_text(d->name, sizeof(d->name), vs_prop(oc, "name"));
	vs_node_text(d->type, sizeof(d->type), vs_prop(oc, "summary.type"));
	d->capacity = strtoull(
		vs_node_text(b, sizeof(b), vs_prop(oc, "summary.capacity")),
		NULL, 10);
	d->free_space = strtoull(
		vs_node_text(b, sizeof(b), vs_prop(oc, "summary.freeSpace")),
		NULL, 10);
	d->accessible = !strcmp(
		vs_node_text(b, sizeof(b), vs_prop(oc, "summary.accessible")),
		"true");
	return PB_OK;
}

enum pb_error vs_datastore_list(struct vs_session *s, struct vs_ds_info **out,
				size_t *n)
{
	static const char *const paths[] = {"name",
					    "summary.type",
					    "summary.capacity",
					    "summary.freeSpace",
					    "summary.accessible",
					    NULL};
	return list_all(s, "Datastore", paths, on_ds, sizeof(**out),
			(void **)out, n);
}

static enum pb_error on_host(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	struct vs_host_info *h = grow_one(arg);

	if (!h)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	h->ref = oc->obj;
	vs_node_text(h->name, sizeof(h->name), vs_prop(oc, "name"));
	vs_node_text(h->version, sizeof(h->version),
		     vs_prop(oc, "summary.config.product.version"));
	vs_node_text(h->build, sizeof(h->build),
		     vs_prop(oc, "summary.config.product.build"));
	vs_node_text(h->connection_state, sizeof(h->connection_state),
		     vs_prop(oc, "runtime.connectionState"));
	return PB_OK;
}

static const char *const host_paths[] = {
	"name", "summary.config.product.version",
	"summary.config.product.build", "runtime.connectionState", NULL};

enum pb_error vs_host_list(struct vs_session *s, struct vs_host_info **out,
			   size_t *n)
{
	return list_all(s, "HostSystem", host_paths, on_host, sizeof(**out),
			(void **)out, n);
}

enum pb_error vs_host_find(struct vs_session *s, struct vs_host_info *out,
			   const char *name)
{
	struct vs_host_info *hs = NULL;
	enum pb_error err;
	size_t n = 0, i, hits = 0;

	err = vs_host_list(s, &hs, &n);
	for (i = 0; !err && i < n; i++) {
		if (strcmp(hs[i].name, name) && strcmp(hs[i].ref.value, name))
			continue;
		*out = hs[i];
		hits++;
	}
	free(hs);
	if (!err && !hits)
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "host '%s': not found", name);
	return err;
}

static enum pb_error on_one_vm(struct vs_session *s,
			       const struct vs_objcontent *oc, void *arg)
{
	(void)s;
	vm_read(arg, oc);
	return PB_OK;
}

static enum pb_error find_by_path(struct vs_session *s, struct vs_vm_info *out,
				  const char *path)
{
	struct vs_req r;
	struct vs_moref ref;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv;
	enum pb_error err;

	err = vs_req_new(&r, "FindByInventoryPath", &s->sc.search_index);
	if (!err && !vs_add(r.op, "inventoryPath", path))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, true, &doc, &ret);
	vs_req_dispose(&r);
	if (err)
		goto out;
	rv = vs_child(ret, "returnval");
	vs_moref_read(&ref, rv);
	if (!rv || strcmp(ref.type, "VirtualMachine")) {
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "VM '%s': no virtual machine at that inventory "
			      "path",
			      path);
		goto out;
	}
	memset(out, 0, sizeof(*out));
	err = vs_retrieve_one(s, &ref, vm_paths, on_one_vm, out);
out:
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_vm_find(struct vs_session *s, struct vs_vm_info *out,
			 const char *name)
{
	struct vs_vm_info *vms = NULL;
	struct pb_buf cands = PB_BUF_INIT(400);
	size_t n = 0, i, hits = 0;
	enum pb_error err;

	if (!strncmp(name, "moref:", 6)) {
		/* the journal knows VMs by moref: names may have changed */
		struct vs_moref ref = {"VirtualMachine", ""};

		snprintf(ref.value, sizeof(ref.value), "%s", name + 6);
		memset(out, 0, sizeof(*out));
		err = vs_retrieve_one(s, &ref, vm_paths, on_one_vm, out);
		/* a VM deleted since (a journal entry's, say): vCenter and
		 * ESXi fault ManagedObjectNotFound for its moref */
		if (err == PB_ERR_FAULT &&
		    !strcmp(s->fault, "ManagedObjectNotFound")) {
			s->errbuf[0] = '\0';
			err = PB_ERR_NOTFOUND;
		}
		if ((!err && !out->name[0]) || err == PB_ERR_NOTFOUND)
			err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
				      "VM %s: not found (deleted?)", name + 6);
		return err;
	}
	if (strchr(name, '/'))
		return find_by_path(s, out, name);
	err = vs_vm_list(s, &vms, &n);
	for (i = 0; !err && i < n; i++) {
		if (strcmp(vms[i].name, name))
			continue;
		if (!hits)
			*out = vms[i];
		hits++;
		/* a full list may be cut at the cap: still one line */
		pb_buf_printf(&cands, "%s%s (%s)", hits > 1 ? ", " : "",
			      vms[i].ref.value, vms[i].path);
	}
	if (!err && !hits)
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND, "VM '%s': not found",
			      name);
	else if (!err && hits > 1)
		err = pb_fail(s->errbuf, PB_ERR_INPUT,
			      "VM '%s': %zu VMs have that name: %s; give an "
			      "inventory path like /DC0/vm/%s",
			      name, hits, cands.data ? cands.data : "", name);
	pb_buf_dispose(&cands);
	free(vms);
	return err;
}
