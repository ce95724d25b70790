/*
 * guest.c - guest operations through VMware Tools: file transfer (an
 * Initiate* call, then HTTP PUT or GET to the URL it returns, whose "*"
 * host is the VM's ESXi host), directories, and programs started and
 * waited for. Guest credentials come from the environment.
 */
#include <errno.h>
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

struct host_addr {
	char name[256];
	char thumbprint[80];
};

static enum pb_error on_host(struct vs_session *s,
			     const struct vs_objcontent *oc, void *arg)
{
	struct host_addr *h = arg;
	char tp[128], err[PB_ERRBUF_SIZE] = "";

	(void)s;
	vs_node_text(h->name, sizeof(h->name), vs_prop(oc, "name"));
	vs_node_text(tp, sizeof(tp),
		     vs_prop(oc, "summary.config.sslThumbprint"));
	if (!tp[0] || vs_thumbprint_normalize(h->thumbprint,
					      sizeof(h->thumbprint), tp, err))
		h->thumbprint[0] = '\0';
	return PB_OK;
}

/*
 * The transfer URL with its "*" host replaced: PROVBENCH_GUEST_TRANSFER_HOST
 * if set, else the VM's ESXi host as vCenter names it. With pinning, the
 * host's own certificate is pinned to the thumbprint vCenter reports for it
 * (ESXi hosts have their own certificates); without one, the session's.
 */
static enum pb_error transfer_url(struct vs_session *s,
				  const struct vs_vm_info *vm, char *out,
				  size_t len, const char *url)
{
	static const char *const paths[] = {
		"name", "summary.config.sslThumbprint", NULL};
	struct host_addr h = {"", ""};
	const char *star = strstr(url, "://*");
	enum pb_error err;

	s->transfer_pin[0] = '\0';
	if (!star) {
		snprintf(out, len, "%s", url);
		return PB_OK;
	}
	if (s->cfg.guest_transfer_host) {
		snprintf(h.name, sizeof(h.name), "%s",
			 s->cfg.guest_transfer_host);
	} else {
		err = vs_retrieve_one(s, &vm->host, paths, on_host, &h);
		if (err)
			return err;
		snprintf(s->transfer_pin, sizeof(s->transfer_pin), "%s",
			 h.thumbprint);
	}
	if (!h.name[0])
		return pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			       "no address for the VM's host; set "
			       "PROVBENCH_GUEST_TRANSFER_HOST");
	snprintf(out, len, "%.*s://%s%s", (int)(star - url), url, h.name,
		 star + 4);
	return PB_OK;
}

static size_t to_file(char *ptr, size_t size, size_t nmemb, void *arg)
{
	return fwrite(ptr, size, nmemb, arg);
}

/* PUT (fp to upload) or GET (fp to write) with the session's handle. */
static enum pb_error transfer(struct vs_session *s, const char *url, FILE *fp,
			      bool put, uint64_t size)
{
	CURL *h = s->curl;
	enum pb_error err = PB_OK;
	CURLcode rc;
	long code = 0;

	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
	if (put) {
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(h, CURLOPT_READDATA, fp);
		curl_easy_setopt(h, CURLOPT_READFUNCTION, NULL);
		curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
	} else {
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, to_file);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, fp);
	}
	s->round_trips++;
	rc = curl_easy_perform(h);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 0L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, s->headers);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (rc != CURLE_OK)
		err = vs_curl_error(s, rc, url); /* names the host's pin */
	else if (code < 200 || code >= 300)
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "guest transfer %s: HTTP %ld", url, code);
	s->transfer_pin[0] = '\0';
	return err;
}

enum pb_error vs_guest_upload(struct vs_session *s, const struct vs_vm_info *vm,
			      const char *local, const char *guest_path,
			      unsigned mode, bool overwrite)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret, attr;
	char url[2048], raw[2048];
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
	attr = vs_add(r.op, "guestFilePath", guest_path)
		       ? vs_add_typed(&r, r.op, "fileAttributes",
				      "GuestPosixFileAttributes", NULL)
		       : NULL;
	if (!attr || !vs_addf(attr, "permissions", "%u", mode) ||
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
	err = transfer_url(s, vm, url, sizeof(url), raw);
	if (!err)
		err = transfer(s, url, fp, true, (uint64_t)st.st_size);
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
	char url[2048], raw[2048], tmp[4200];
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
	err = transfer_url(s, vm, url, sizeof(url), raw);
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
	err = transfer(s, url, fp, false, 0);
	if (fflush(fp) || fsync(fileno(fp)))
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

static enum pb_error poll_process(struct vs_session *s,
				  const struct vs_vm_info *vm, int64_t pid,
				  bool *done, int *code)
{
	struct vs_req r;
	xmlDocPtr doc = NULL;
	xmlNodePtr ret;
	enum pb_error err;

	err = guest_req(s, &r, "ListProcessesInGuest", false, vm);
	if (err)
		return err;
	if (!vs_addf(r.op, "pids", "%lld", (long long)pid)) {
		vs_req_dispose(&r);
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	}
	err = guest_call(s, &r, &doc, &ret);
	if (!err && !vs_child(ret, "returnval"))
		err = pb_fail(s->errbuf, PB_ERR_NOTFOUND,
			      "guest process %lld: not found", (long long)pid);
	if (!err)
		*done = vs_process_read(ret, code);
	xmlFreeDoc(doc);
	return err;
}

enum pb_error vs_guest_wait(struct vs_session *s, const struct vs_vm_info *vm,
			    int64_t pid, long timeout_s,
			    volatile sig_atomic_t *stop, int *exit_code)
{
	/* no event announces a guest process's end: poll, backing off
	 * from 50 ms to 2 s so short runs return fast and long ones cost
	 * one call every 2 s */
	struct timespec nap = {0, 50000000L};
	time_t end = time(NULL) + timeout_s;
	bool done = false;
	enum pb_error err;

	s->errbuf[0] = '\0';
	for (;;) {
		err = poll_process(s, vm, pid, &done, exit_code);
		if (err || done)
			return err;
		if (stop && *stop)
			return pb_fail(s->errbuf, PB_ERR_INTERRUPTED,
				       "guest process %lld: wait interrupted",
				       (long long)pid);
		if (time(NULL) >= end)
			return pb_fail(s->errbuf, PB_ERR_TIMEOUT,
				       "guest process %lld: still running "
				       "after %ld s",
				       (long long)pid, timeout_s);
		nanosleep(&nap, NULL);
		nap.tv_nsec *= 2;
		if (nap.tv_nsec >= 1000000000L) {
			nap.tv_sec = 2;
			nap.tv_nsec = 0;
		}
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
