/*
 * guest.c - guest operations through VMware Tools: file transfer (an
 * Initiate* call, then HTTP PUT or GET to the URL it returns: "*" from a
 * standalone ESXi, the VM's ESXi host by name from vCenter), directories,
 * and programs started and polled. Guest credentials come from the
 * environment.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vs_int.h"

static enum pb_error on_managers(struct vs_session *s,
				 const struct vs_objcontent *oc, void *arg)
{
	(void)arg;
	vs_moref_read(&s->guest_files, vs_prop(oc, "fileManager"));
	vs_moref_read(&s->guest_procs, vs_prop(oc, "processManager"));
	return PB_OK;
}

/* A request to a guest manager with vm and auth filled in. */
static enum pb_error guest_req(struct vs_session *s, struct vs_req *r,
			       const char *op, bool files,
			       const struct vs_vm_info *vm)
{
	static const char *const paths[] = {"fileManager", "processManager",
					    NULL};
	xmlNodePtr a;
	enum pb_error err;

	if (!s->cfg.guest_username || !s->cfg.guest_password)
		return pb_fail(s->errbuf, PB_ERR_INPUT,
			       "PROVBENCH_GUEST_USERNAME / "
			       "PROVBENCH_GUEST_PASSWORD: not set (or "
			       "GOVC_GUEST_LOGIN)");
	if (!s->guest_files.value[0]) {
		err = vs_retrieve_one(s, &s->sc.guest_operations_manager, paths,
				      on_managers, NULL);
		if (err)
			return err;
	}
	err = vs_req_new(r, op, files ? &s->guest_files : &s->guest_procs);
	if (err)
		return pb_fail(s->errbuf, err, "out of memory");
	a = vs_add_moref(r->op, "vm", &vm->ref)
		    ? vs_add_typed(r, r->op, "auth",
				   "NamePasswordAuthentication", NULL)
		    : NULL;
	if (!vs_add(a, "interactiveSession", "false") ||
	    !vs_add(a, "username", s->cfg.guest_username) ||
	    !vs_add(a, "password", s->cfg.guest_password)) {
		vs_req_dispose(r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	return PB_OK;
}

/* Send a guest request whose reply carries nothing we need. */
static enum pb_error guest_call(struct vs_session *s, struct vs_req *r,
				xmlDocPtr *doc, xmlNodePtr *ret)
{
	xmlDocPtr d = NULL;
	xmlNodePtr n;
	enum pb_error err =
		vs_call(s, r, false, doc ? doc : &d, ret ? ret : &n);

	vs_req_dispose(r);
	xmlFreeDoc(d);
	return err;
}

/* ---- where a transfer URL leads ---- */

/* scheme://authority/rest: the authority's host and port, and rest */
struct url_parts {
	char scheme[8];
	char host[256];
	char port[8];
	const char *rest;
};

static bool url_split(struct url_parts *u, const char *url)
{
	const char *a = strstr(url, "://"), *e, *c;

	memset(u, 0, sizeof(*u));
	if (!a || a - url >= (long)sizeof(u->scheme))
		return false;
	snprintf(u->scheme, sizeof(u->scheme), "%.*s", (int)(a - url), url);
	a += 3;
	e = a + strcspn(a, "/?");
	u->rest = e;
	if (*a == '[') { /* an IPv6 literal */
		c = memchr(a, ']', (size_t)(e - a));
		if (!c)
			return false;
		snprintf(u->host, sizeof(u->host), "%.*s", (int)(c + 1 - a), a);
		c++;
	} else {
		c = memchr(a, ':', (size_t)(e - a));
		snprintf(u->host, sizeof(u->host), "%.*s",
			 (int)((c ? c : e) - a), a);
	}
	if (c && c < e && *c == ':')
		snprintf(u->port, sizeof(u->port), "%.*s", (int)(e - c - 1),
			 c + 1);
	if (!u->port[0])
		snprintf(u->port, sizeof(u->port), "%s",
			 !strcmp(u->scheme, "http") ? "80" : "443");
	return u->host[0] != '\0';
}

/* "host" or "host:port" (PROVBENCH_GUEST_TRANSFER_HOST): port kept from
 * dflt when not given */
static void override_split(char *host, size_t hlen, char *port, size_t plen,
			   const char *v, const char *dflt)
{
	const char *c = strrchr(v, ':');

	if (c && !strchr(v, ']') && strchr(v, ':') == c) {
		snprintf(host, hlen, "%.*s", (int)(c - v), v);
		snprintf(port, plen, "%s", c + 1);
	} else {
		snprintf(host, hlen, "%s", v);
		snprintf(port, plen, "%s", dflt);
	}
}

struct host_facts {
	char name[256];
	char thumbprint[80];
	char mgmt[4][64]; /* selected management vmknic addresses */
	unsigned nmgmt;
};

/* nicType "management": its selected vmknics' addresses (govmomi's
 * internal.HostSystemManagementIPs) */
static void read_mgmt(struct host_facts *h, xmlNodePtr netconfig)
{
	xmlNodePtr nc, v, sel;
	char type[32], key[128], skey[128];

	for (nc = vs_child(netconfig, NULL); nc; nc = vs_next(nc, NULL)) {
		if (strcmp(vs_text(type, sizeof(type), nc, "nicType"),
			   "management"))
			continue;
		for (v = vs_child(nc, "candidateVnic"); v;
		     v = vs_next(v, "candidateVnic")) {
			vs_text(key, sizeof(key), v, "key");
			for (sel = vs_child(nc, "selectedVnic"); sel;
			     sel = vs_next(sel, "selectedVnic")) {
				vs_node_text(skey, sizeof(skey), sel);
				if (strcmp(key, skey) || h->nmgmt >= 4)
					continue;
				vs_text(h->mgmt[h->nmgmt], sizeof(h->mgmt[0]),
					vs_child(vs_child(v, "spec"), "ip"),
					"ipAddress");
				if (h->mgmt[h->nmgmt][0])
					h->nmgmt++;
			}
		}
	}
}

static enum pb_error on_host(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	struct host_facts *h = arg;
	char tp[128], err[PB_ERRBUF_SIZE] = "";

	(void)s;
	vs_node_text(h->name, sizeof(h->name), vs_prop(oc, "name"));
	vs_node_text(tp, sizeof(tp),
		     vs_prop(oc, "summary.config.sslThumbprint"));
	if (!tp[0] || vs_thumbprint_normalize(h->thumbprint,
					      sizeof(h->thumbprint), tp, err))
		h->thumbprint[0] = '\0';
	read_mgmt(h, vs_prop(oc, "config.virtualNicManagerInfo.netConfig"));
	return PB_OK;
}

static bool resolves(const char *name)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *ai = NULL;
	char bare[256];
	int rc;

	/* "[::1]" is an address already */
	snprintf(bare, sizeof(bare), "%.*s",
		 (int)strcspn(name[0] == '[' ? name + 1 : name, "]"),
		 name[0] == '[' ? name + 1 : name);
	rc = getaddrinfo(bare, NULL, &hints, &ai);
	if (ai)
		freeaddrinfo(ai);
	return rc == 0;
}

/* How to reach the ESXi host a vCenter URL names: found once per name. */
static enum pb_error route_for(struct vs_session *s,
			       const struct vs_vm_info *vm, const char *name,
			       struct vs_xfer_route **out)
{
	static const char *const paths[] = {
		"name", "summary.config.sslThumbprint",
		"config.virtualNicManagerInfo.netConfig", NULL};
	struct vs_xfer_route *r;
	struct host_facts h;
	enum pb_error err;
	unsigned i;

	for (i = 0; i < s->nroutes; i++)
		if (!strcmp(s->routes[i].name, name)) {
			*out = &s->routes[i];
			return PB_OK;
		}
	memset(&h, 0, sizeof(h));
	err = vs_retrieve_one(s, &vm->host, paths, on_host, &h);
	if (err)
		return err;
	r = &s->routes[s->nroutes < 8 ? s->nroutes++ : 7];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	/* the host serves transfers with its own certificate: with pinning,
	 * it is pinned to what vCenter reports for that host */
	if (s->cfg.thumbprint && !s->cfg.insecure) {
		if (!h.thumbprint[0])
			return pb_fail(s->errbuf, PB_ERR_TLS,
				       "host %s: vCenter reports no SSL "
				       "thumbprint for it, so its certificate "
				       "cannot be pinned for guest transfers; "
				       "trust it with PROVBENCH_CA_FILE "
				       "(vCenter's VMCA root) instead",
				       h.name);
		snprintf(r->pin, sizeof(r->pin), "%s", h.thumbprint);
	}
	if (s->cfg.guest_transfer_host) {
		snprintf(r->note, sizeof(r->note),
			 "%s via PROVBENCH_GUEST_TRANSFER_HOST=%s", name,
			 s->cfg.guest_transfer_host);
	} else if (resolves(name)) {
		snprintf(r->note, sizeof(r->note), "%s (resolves)", name);
	} else if (h.nmgmt == 1) {
		/* the inventory name may not resolve here: the host's one
		 * management address (govmomi does the same); the name
		 * stays in the URL, for TLS and the Host header */
		snprintf(r->addr, sizeof(r->addr), "%s", h.mgmt[0]);
		snprintf(r->note, sizeof(r->note),
			 "%s does not resolve: its management vmknic %s", name,
			 h.mgmt[0]);
	} else {
		s->nroutes--;
		return pb_fail(s->errbuf, PB_ERR_CONNECT,
			       "host %s, named in the guest-transfer URL, does "
			       "not resolve and has %u management addresses; "
			       "set PROVBENCH_GUEST_TRANSFER_HOST to one this "
			       "machine reaches",
			       name, h.nmgmt);
	}
	if (r->pin[0]) {
		size_t n = strlen(r->note);
		char pin[80];

		memcpy(pin, r->pin, sizeof(pin));
		snprintf(r->note + n, sizeof(r->note) - n,
			 ", pinned to the host's certificate %.16s...", pin);
	}
	*out = r;
	return PB_OK;
}

/*
 * The transfer URL as the server gave it, made reachable. Standalone ESXi
 * says "*", meaning the server called: PROVBENCH_URL's host and port (the
 * session's pin holds). vCenter names the VM's ESXi host, which serves
 * with its own certificate: pinned to its thumbprint, reached by name or,
 * when the name does not resolve, by its management address.
 * PROVBENCH_GUEST_TRANSFER_HOST (host or host:port) overrides the address.
 */
static enum pb_error transfer_url(struct vs_session *s,
				  const struct vs_vm_info *vm, const char *url,
				  char *out, size_t len, char *connect,
				  size_t clen, struct vs_xfer *x)
{
	struct url_parts u, sdk;
	struct vs_xfer_route *r = NULL;
	char host[256], port[16];
	enum pb_error err;

	connect[0] = '\0';
	x->connect_to = NULL;
	x->pin = NULL;
	if (!url_split(&u, url))
		return pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			       "guest transfer URL without a host");
	if (!strcmp(u.host, "*")) {
		url_split(&sdk, s->sdk_url);
		if (s->cfg.guest_transfer_host)
			override_split(host, sizeof(host), port, sizeof(port),
				       s->cfg.guest_transfer_host, sdk.port);
		else
			override_split(host, sizeof(host), port, sizeof(port),
				       sdk.host, sdk.port);
		snprintf(out, len, "%s://%s:%s%s", u.scheme, host, port,
			 u.rest);
		snprintf(s->transfer_note, sizeof(s->transfer_note),
			 "%s:%s (the URL said *: the server called)%s", host,
			 port,
			 s->cfg.guest_transfer_host
				 ? " via PROVBENCH_GUEST_TRANSFER_HOST"
				 : "");
		return PB_OK;
	}
	err = route_for(s, vm, u.host, &r);
	if (err)
		return err;
	x->pin = r->pin[0] ? r->pin : NULL;
	snprintf(s->transfer_note, sizeof(s->transfer_note), "%s", r->note);
	if (s->cfg.guest_transfer_host) {
		override_split(host, sizeof(host), port, sizeof(port),
			       s->cfg.guest_transfer_host, u.port);
		snprintf(out, len, "%s://%s:%s%s", u.scheme, host, port,
			 u.rest);
		return PB_OK;
	}
	snprintf(out, len, "%s", url);
	if (r->addr[0]) {
		snprintf(connect, clen, "%s:%s:%s%s%s:%s", u.host, u.port,
			 strchr(r->addr, ':') ? "[" : "", r->addr,
			 strchr(r->addr, ':') ? "]" : "", u.port);
		x->connect_to = connect;
	}
	return PB_OK;
}

const char *vs_session_guest_user(const struct vs_session *s)
{
	return s->cfg.guest_username ? s->cfg.guest_username : "";
}

const char *vs_session_transfer_note(const struct vs_session *s)
{
	return s->transfer_note;
}

enum pb_error vs_guest_upload(struct vs_session *s, const struct vs_vm_info *vm,
			      const char *local, const char *guest_path,
			      unsigned mode, bool overwrite)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, attr;
	char url[2048], raw[2048], connect[400];
	struct vs_xfer x = {0};
	struct stat st;
	FILE *fp = NULL;
	enum pb_error err;

	s->errbuf[0] = '\0';
	fp = fopen(local, "rb");
	if (!fp || fstat(fileno(fp), &st))
		return pb_fail(s->errbuf, PB_ERR_INPUT, "%s: %s", local,
			       strerror(errno));
	err = guest_req(s, &r, "InitiateFileTransferToGuest", true, vm);
	if (err)
		goto out;
	/* each guest family its own attributes: a Windows guest's have no
	 * permissions (its directory's ACL says who may read) */
	attr = vs_add(r.op, "guestFilePath", guest_path)
		       ? vs_add_typed(&r, r.op, "fileAttributes",
				      vm->windows ? "GuestWindowsFileAttributes"
						  : "GuestPosixFileAttributes",
				      NULL)
		       : NULL;
	if (!attr ||
	    (!vm->windows && !vs_addf(attr, "permissions", "%u", mode)) ||
	    !vs_addf(r.op, "fileSize", "%lld", (long long)st.st_size) ||
	    !vs_add(r.op, "overwrite", overwrite ? "true" : "false")) {
		vs_req_dispose(&r);
		err = pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
		goto out;
	}
	err = guest_call(s, &r, &doc, &ret);
	if (err)
		goto out;
	vs_text(raw, sizeof(raw), ret, "returnval");
	err = transfer_url(s, vm, raw, url, sizeof(url), connect,
			   sizeof(connect), &x);
	if (!err) {
		x.url = url;
		x.up = fp;
		x.size = (uint64_t)st.st_size;
		err = vs_transfer(s, &x);
	}
out:
	xmlFreeDoc(doc);
	if (fp)
		fclose(fp);
	return err;
}

enum pb_error vs_guest_download(struct vs_session *s,
				const struct vs_vm_info *vm,
				const char *guest_path, const char *local)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, rv;
	char url[2048], raw[2048], tmp[4200], connect[400];
	struct vs_xfer x = {0};
	uint64_t size;
	struct stat st;
	FILE *fp = NULL;
	enum pb_error err;

	s->errbuf[0] = '\0';
	err = guest_req(s, &r, "InitiateFileTransferFromGuest", true, vm);
	if (err)
		return err;
	if (!vs_add(r.op, "guestFilePath", guest_path)) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = guest_call(s, &r, &doc, &ret);
	if (err)
		goto out;
	rv = vs_child(ret, "returnval");
	size = vs_u64(rv, "size");
	vs_text(raw, sizeof(raw), rv, "url");
	err = transfer_url(s, vm, raw, url, sizeof(url), connect,
			   sizeof(connect), &x);
	if (err)
		goto out;
	/* a temporary file, renamed when complete: never a torn result */
	snprintf(tmp, sizeof(tmp), "%s.part", local);
	fp = fopen(tmp, "wb");
	if (!fp) {
		err = pb_fail(s->errbuf, PB_ERR_IO, "%s: %s", tmp,
			      strerror(errno));
		goto out;
	}
	x.url = url;
	x.down = fp;
	err = vs_transfer(s, &x);
	if ((fflush(fp) || fsync(fileno(fp))) && !err)
		err = pb_fail(s->errbuf, PB_ERR_IO, "%s: %s", tmp,
			      strerror(errno));
	fclose(fp);
	if (!err && (stat(tmp, &st) || (uint64_t)st.st_size != size))
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "guest file %s: got %lld of %llu bytes",
			      guest_path, (long long)st.st_size,
			      (unsigned long long)size);
	if (!err && rename(tmp, local))
		err = pb_fail(s->errbuf, PB_ERR_IO, "%s: %s", local,
			      strerror(errno));
	if (err)
		unlink(tmp);
out:
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_guest_mkdir(struct vs_session *s, const struct vs_vm_info *vm,
			     const char *path, bool parents)
{
	struct vs_req r;
	enum pb_error err;

	s->errbuf[0] = '\0';
	err = guest_req(s, &r, "MakeDirectoryInGuest", true, vm);
	if (err)
		return err;
	if (!vs_add(r.op, "directoryPath", path) ||
	    !vs_add(r.op, "createParentDirectories",
		    parents ? "true" : "false")) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	return guest_call(s, &r, NULL, NULL);
}

enum pb_error vs_guest_chmod(struct vs_session *s, const struct vs_vm_info *vm,
			     const char *path, unsigned mode)
{
	struct vs_req r;
	xmlNodePtr attrs;
	enum pb_error err;

	s->errbuf[0] = '\0';
	if (vm->windows)
		return pb_fail(s->errbuf, PB_ERR_UNSUPPORTED,
			       "%s: a Windows guest's files have no POSIX "
			       "permissions",
			       path);
	err = guest_req(s, &r, "ChangeFileAttributesInGuest", true, vm);
	if (err)
		return err;
	attrs = vs_add(r.op, "guestFilePath", path)
			? vs_add_typed(&r, r.op, "fileAttributes",
				       "GuestPosixFileAttributes", NULL)
			: NULL;
	if (!attrs || !vs_addf(attrs, "permissions", "%u", mode)) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	return guest_call(s, &r, NULL, NULL);
}

enum pb_error vs_guest_remove(struct vs_session *s, const struct vs_vm_info *vm,
			      const char *path, bool directory)
{
	struct vs_req r;
	enum pb_error err;

	s->errbuf[0] = '\0';
	err = guest_req(s, &r,
			directory ? "DeleteDirectoryInGuest"
				  : "DeleteFileInGuest",
			true, vm);
	if (err)
		return err;
	if (!vs_add(r.op, directory ? "directoryPath" : "filePath", path) ||
	    (directory && !vs_add(r.op, "recursive", "true"))) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	return guest_call(s, &r, NULL, NULL);
}

enum pb_error vs_guest_start(struct vs_session *s, const struct vs_vm_info *vm,
			     const char *program, const char *args,
			     const char *workdir, int64_t *pid)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, spec;
	char buf[32];
	enum pb_error err;

	s->errbuf[0] = '\0';
	err = guest_req(s, &r, "StartProgramInGuest", false, vm);
	if (err)
		return err;
	spec = vs_add_typed(&r, r.op, "spec", "GuestProgramSpec", NULL);
	if (!vs_add(spec, "programPath", program) ||
	    !vs_add(spec, "arguments", args ? args : "") ||
	    (workdir && !vs_add(spec, "workingDirectory", workdir))) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	r.once = true; /* a second runner would write the disk too */
	err = guest_call(s, &r, &doc, &ret);
	if (!err)
		*pid = strtoll(vs_text(buf, sizeof(buf), ret, "returnval"),
			       NULL, 10);
	xmlFreeDoc(doc);
	return err;
}

/* One ListProcessesInGuest: *done and *code once the process ended. */
bool vs_process_read(xmlNodePtr ret, int *code)
{
	xmlNodePtr info = vs_child(ret, "returnval");
	char buf[32];

	if (!info || !vs_child(info, "endTime"))
		return false;
	*code = atoi(vs_text(buf, sizeof(buf), info, "exitCode"));
	return true;
}

enum pb_error vs_guest_poll(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid, bool *done, int *code)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	*done = false;
	s->errbuf[0] = '\0';
	err = guest_req(s, &r, "ListProcessesInGuest", false, vm);
	if (err)
		return err;
	if (!vs_addf(r.op, "pids", "%lld", (long long)pid)) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = guest_call(s, &r, &doc, &ret);
	/* Tools forget an exited process after about five minutes */
	if (!err && !vs_child(ret, "returnval"))
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "guest process %lld: not listed (never started, "
			      "or ended long enough ago that Tools forgot "
			      "it)",
			      (long long)pid);
	if (!err)
		*done = vs_process_read(ret, code);
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_guest_wait(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid, long timeout_s,
			    volatile sig_atomic_t *stop, int *exit_code)
{
	/* no event announces a guest process's end: poll, backing off from
	 * 0.1 s to 5 s (each poll is a guest login), checking for a stop
	 * every tenth of a second in between */
	uint64_t nap_ms = 100,
		 end = pb_now_ns() / 1000000 + (uint64_t)timeout_s * 1000;
	bool done = false;
	enum pb_error err;

	for (;;) {
		err = vs_guest_poll(s, vm, pid, &done, exit_code);
		if (err || done)
			return err;
		for (uint64_t t = 0; t < nap_ms; t += 100) {
			struct timespec ts = {0, 100000000L};

			if (stop && *stop)
				return pb_fail(s->errbuf, PB_ERR_INTERRUPTED,
					       "guest process %lld: wait "
					       "interrupted",
					       (long long)pid);
			if (pb_now_ns() / 1000000 >= end)
				return pb_fail(s->errbuf, PB_ERR_TIMEOUT,
					       "guest process %lld: still "
					       "running after %ld s",
					       (long long)pid, timeout_s);
			nanosleep(&ts, NULL);
		}
		nap_ms = nap_ms * 2 > 5000 ? 5000 : nap_ms * 2;
	}
}

enum pb_error vs_guest_kill(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid)
{
	struct vs_req r;
	enum pb_error err;

	s->errbuf[0] = '\0';
	err = guest_req(s, &r, "TerminateProcessInGuest", false, vm);
	if (err)
		return err;
	if (!vs_addf(r.op, "pid", "%lld", (long long)pid)) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	return guest_call(s, &r, NULL, NULL);
}
