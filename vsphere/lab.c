/*
 * lab.c - the lab around the test VM, as a run depends on it: whether its
 * host is in (or entering) maintenance mode, a datastore cluster named
 * where a datastore belongs, and folders on datastores whose folders are
 * namespace objects (vSAN, vVols).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vs_int.h"

/* ---- hosts ---- */

struct host_read {
	struct vs_host_state *out;
	struct vs_moref tasks[32];
	size_t ntasks;
};

static enum pb_error on_host(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	struct host_read *h = arg;
	xmlNodePtr t;
	char b[16];

	(void)s;
	vs_node_text(h->out->name, sizeof(h->out->name), vs_prop(oc, "name"));
	vs_node_text(h->out->connection, sizeof(h->out->connection),
		     vs_prop(oc, "runtime.connectionState"));
	h->out->in_maintenance =
		!strcmp(vs_node_text(b, sizeof(b),
				     vs_prop(oc, "runtime.inMaintenanceMode")),
			"true");
	for (t = vs_child(vs_prop(oc, "recentTask"), NULL);
	     t && h->ntasks < sizeof(h->tasks) / sizeof(h->tasks[0]);
	     t = vs_next(t, NULL))
		vs_moref_read(&h->tasks[h->ntasks++], t);
	return PB_OK;
}

static enum pb_error on_task(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	struct vs_host_state *out = arg;
	char id[96], state[16];

	(void)s;
	vs_node_text(id, sizeof(id), vs_prop(oc, "info.descriptionId"));
	vs_node_text(state, sizeof(state), vs_prop(oc, "info.state"));
	/* inMaintenanceMode turns true only once every VM is off or gone:
	 * until then the host is entering it, and a VM powered off there
	 * cannot be powered on again */
	if (!strcmp(id, "HostSystem.enterMaintenanceMode") &&
	    (!strcmp(state, "running") || !strcmp(state, "queued")))
		out->entering_maintenance = true;
	return PB_OK;
}

enum pb_error vs_host_state_get(struct vs_session *s,
				const struct vs_moref *host,
				struct vs_host_state *out)
{
	static const char *const paths[] = {"name", "runtime.connectionState",
					    "runtime.inMaintenanceMode",
					    "recentTask", NULL};
	static const char *const tpaths[] = {"info.descriptionId", "info.state",
					     NULL};
	struct host_read h = {.out = out};
	enum pb_error err;
	size_t i;

	memset(out, 0, sizeof(*out));
	err = vs_retrieve_one(s, host, paths, on_host, &h);
	/* a task finished since is gone from the server: not an error */
	for (i = 0; !err && i < h.ntasks; i++)
		if (vs_retrieve_one(s, &h.tasks[i], tpaths, on_task, out))
			s->errbuf[0] = '\0';
	return err;
}

/* ---- datastore clusters ---- */

struct pod_find {
	const char *name;
	struct vs_moref members[64];
	size_t n;
	bool found;
};

static enum pb_error on_pod(struct vs_session *s,
			    const struct vs_objcontent *oc, void *arg)
{
	struct pod_find *f = arg;
	char name[256];
	xmlNodePtr c;

	(void)s;
	if (strcmp(vs_node_text(name, sizeof(name), vs_prop(oc, "name")),
		   f->name))
		return PB_OK;
	f->found = true;
	for (c = vs_child(vs_prop(oc, "childEntity"), NULL);
	     c && f->n < sizeof(f->members) / sizeof(f->members[0]);
	     c = vs_next(c, NULL))
		vs_moref_read(&f->members[f->n++], c);
	return PB_OK;
}

struct names {
	char *out;
	size_t len, at;
};

static enum pb_error on_name(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	struct names *n = arg;
	char name[256];

	(void)s;
	vs_node_text(name, sizeof(name), vs_prop(oc, "name"));
	if (n->at < n->len)
		n->at += (size_t)snprintf(n->out + n->at, n->len - n->at,
					  "%s%s", n->at ? ", " : "", name);
	return PB_OK;
}

enum pb_error vs_storage_pod_find(struct vs_session *s, const char *name,
				  char *members, size_t len)
{
	static const char *const paths[] = {"name", "childEntity", NULL};
	static const char *const npaths[] = {"name", NULL};
	struct pod_find *f = calloc(1, sizeof(*f));
	struct names nm = {members, len, 0};
	enum pb_error err;
	size_t i;

	members[0] = '\0';
	if (!f)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	f->name = name;
	/* a standalone ESXi host has no datastore clusters (nor the type) */
	err = vs_session_is_vcenter(s)
		      ? vs_retrieve_all(s, "StoragePod", paths, on_pod, f)
		      : PB_OK;
	for (i = 0; !err && i < f->n; i++)
		err = vs_retrieve_one(s, &f->members[i], npaths, on_name, &nm);
	if (!err && !f->found)
		err = PB_ERR_NOTFOUND;
	free(f);
	return err;
}

/* ---- namespace folders ---- */

enum pb_error vs_datastore_namespace(struct vs_session *s,
				     const struct vs_ds_detail *ds,
				     const char *folder, bool *made)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	*made = false;
	if (!s->sc.namespace_manager.value[0])
		return pb_fail(s->errbuf, PB_ERR_UNSUPPORTED,
			       "datastore %s: the server has no "
			       "DatastoreNamespaceManager to make folder %s",
			       ds->name, folder);
	err = vs_req_new(&r, "CreateDirectory", &s->sc.namespace_manager);
	if (!err && (!vs_add_moref(r.op, "datastore", &ds->ref) ||
		     !vs_add(r.op, "displayName", folder)))
		err = PB_ERR_NOMEM;
	if (!err)
		err = vs_call(s, &r, false, &doc, &ret);
	else
		pb_fail(s->errbuf, err, "out of memory");
	vs_req_dispose(&r);
	xmlFreeDoc(doc);
	if (err == PB_ERR_FAULT && !strcmp(s->fault, "FileAlreadyExists")) {
		s->errbuf[0] = '\0';
		return PB_OK;
	}
	*made = err == PB_OK;
	return err;
}
