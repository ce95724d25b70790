/*
 * vs_int.h - internals of the vSphere client: the session handle, the
 * HTTP transport, SOAP envelopes and the XML helpers every call uses.
 */
#ifndef PB_VS_INT_H
#define PB_VS_INT_H

#include <curl/curl.h>
#include <libxml/tree.h>
#include <stdio.h>

#include "vsphere.h"

#define VS_NS_VIM  "urn:vim25"
#define VS_NS_SOAP "http://schemas.xmlsoap.org/soap/envelope/"
#define VS_NS_XSI  "http://www.w3.org/2001/XMLSchema-instance"
#define VS_NS_XSD  "http://www.w3.org/2001/XMLSchema"

/* A reply larger than this is not a vSphere reply. */
#define VS_REPLY_CAP (256u << 20)

struct vs_service {
	struct vs_moref root_folder;
	struct vs_moref property_collector;
	struct vs_moref view_manager;
	struct vs_moref session_manager;
	struct vs_moref search_index;
	struct vs_moref file_manager;
	struct vs_moref virtual_disk_manager;
	struct vs_moref guest_operations_manager;
	struct vs_moref license_manager;
	struct vs_moref namespace_manager; /* vCenter and ESXi 5.5+ */
	struct vs_moref perf_manager;
};

/* A request's bounds as it runs (watch.c): curl's progress callback. */
struct vs_watch {
	CURL *h;
	const char *op;
	char host[256];
	uint64_t reply_ns, extra_ns;
	uint64_t t0;   /* the request's last byte sent, or its start */
	uint64_t mark; /* the span under way began */
	curl_off_t mark_bytes, ul_last;
	bool replied, said;
	char why[400]; /* why it gave up; "" while it has not */
};

struct vs_session {
	struct vs_config cfg; /* a copy the session owns */
	CURL *curl;
	CURL *xfer; /* guest file transfers: other hosts, other options */
	char curl_err[CURL_ERROR_SIZE];
	struct curl_slist *headers;
	char sdk_url[1024];
	char soap_action[64];
	char api_version[16];
	struct vs_service sc;
	struct vs_about about;
	bool logged_in;
	/* log in again after the server dropped the session: session.c's,
	 * set at open; vs_call asks it on NotAuthenticated (the SOAP layer
	 * below the session knows no login) */
	enum pb_error (*renew)(struct vs_session *s);
	unsigned logins; /* a new session invalidates property filters */
	/* the login it shares with the other sessions of this server (a
	 * fleet's targets: one session on the server), and the one of its
	 * logins it last took */
	struct vs_login *login;
	unsigned login_gen;
	/* where its filters and waits go: a session sharing a login has a
	 * collector of its own (CreatePropertyCollector, as govmomi's
	 * property.Wait makes one), since another's WaitForUpdatesEx on
	 * the default one would take its updates; else the default */
	struct vs_moref collector;
	bool own_collector;
	unsigned round_trips;
	bool answered; /* the server has answered once: retries make sense */
	/* the last call got no reply at all (connection lost, timed out):
	 * a write may have been done or not */
	bool no_reply;
	bool fresh; /* the call under way is a vs_req.once write */
	/* the request under way, and a long poll's own wait (seconds) that
	 * its reply bound adds (WaitForUpdatesEx's maxWaitSeconds) */
	struct vs_watch watch;
	long wait_extra_s;
	unsigned trace_seq;
	/* TLS pinning: what the peer showed, for the mismatch message */
	char peer_sha1[41];
	char peer_sha256[65];
	bool pin_failed;
	char transfer_pin[80]; /* an ESXi host's own pin, during a transfer */
	struct vs_moref guest_files;
	struct vs_moref guest_procs;
	vs_request_hook hook;
	void *hook_arg;
	vs_progress_fn progress;
	void *progress_arg;
	long task_timeout_s;
	struct vs_task_times last_task;
	/* guest transfers: where each host name leads, found once */
	struct vs_xfer_route {
		char name[256]; /* the host as the URL names it */
		char addr[64];	/* where it is reached instead, or "" */
		char pin[80];	/* its own certificate's thumbprint */
		char note[300]; /* what was used and why */
	} routes[8];
	unsigned nroutes;
	char transfer_note[300];
	struct vs_moref pbm_profiles; /* SPBM's profile manager, once read */
	char fault[64];
	char errbuf[PB_ERRBUF_SIZE];
};

/* ---- session.c ---- */

/* Log in once more after the server dropped the session (a shared login
 * is taken again once, for all its sessions). */
enum pb_error vs_session_renew(struct vs_session *s);

/* ---- watch.c ---- */

void vs_watch_start(struct vs_watch *w, CURL *h, const char *url,
		    const char *op, long reply_ms, long extra_s);
/* CURLOPT_XFERINFOFUNCTION's: nonzero, and w->why said, to give up */
int vs_watch_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
		      curl_off_t ultotal, curl_off_t ulnow);

/* ---- transport.c ---- */

enum pb_error vs_transport_init(struct vs_session *s);
void vs_transport_cleanup(struct vs_session *s);
/* tries of an idempotent call in all (vs_http) */
#define VS_HTTP_TRIES 3u

/*
 * POST body to the SDK endpoint (or GET url when body is NULL) into reply.
 * idempotent calls are tried VS_HTTP_TRIES times with backoff after a
 * connection error, a timeout or HTTP 502/503/504, each retry said on
 * stderr; a write never is.
 * *http_code gets the status. Errors: PB_ERR_CONNECT, PB_ERR_TLS, _TIMEOUT.
 */
enum pb_error vs_http(struct vs_session *s, const char *url, const char *op,
		      const char *action, const char *body, size_t len,
		      bool idempotent, struct pb_buf *reply, long *http_code);
/* A libcurl failure as the project's error, with the detail on s. */
enum pb_error vs_curl_error(struct vs_session *s, CURLcode rc, const char *url);
/* url without its query (where a transfer's ticket is), for messages */
void vs_url_safe(char *out, size_t len, const char *url);

/* One guest file transfer, PUT from up or GET into down. */
struct vs_xfer {
	const char *url;	/* as the server gave it, ticket and all */
	const char *connect_to; /* libcurl CONNECT_TO entry, or NULL */
	const char *pin;	/* the host's thumbprint; NULL: the session's */
	FILE *up;
	uint64_t size;
	FILE *down;
};

/* Non-2xx is PB_ERR_PROTOCOL "HTTP <code>: <first line of the body>". */
enum pb_error vs_transfer(struct vs_session *s, const struct vs_xfer *x);
void vs_trace(struct vs_session *s, const char *op, const char *suffix,
	      const char *body, size_t len);

/* ---- soap.c ---- */

/*
 * A request: the envelope document and the operation element inside its
 * Body, with _this set. Add children in schema order with the helpers.
 */
struct vs_req {
	xmlDocPtr doc;
	xmlNodePtr op;
	xmlNsPtr xsi;
	const char *name;
	/* it means something only in the session that sent it (a wait on
	 * that session's filters): after a new login it is not resent, and
	 * the call returns PB_OK with no reply */
	bool session_bound;
	/* SPBM's: vCenter's /pbm endpoint, urn:pbm, the session's cookie
	 * in the SOAP header (pbm.c) */
	bool pbm;
	/* a write that must not happen twice (a disk, a power operation, a
	 * guest process): sent over a connection of its own, so libcurl
	 * never resends it unseen (vs_http) */
	bool once;
};

/* A request to vCenter's storage policy service (SPBM). */
enum pb_error vs_req_new_pbm(struct vs_session *s, struct vs_req *r,
			     const char *op, const struct vs_moref *this_ref);

enum pb_error vs_req_new(struct vs_req *r, const char *op,
			 const struct vs_moref *this_ref);
/* the same in another namespace than urn:vim25 (urn:pbm) */
enum pb_error vs_req_new_ns(struct vs_req *r, const char *op,
			    const struct vs_moref *this_ref, const char *ns);
void vs_req_dispose(struct vs_req *r);
/* Text child (escaped by libxml2); returns the node or NULL (no memory). */
xmlNodePtr vs_add(xmlNodePtr parent, const char *name, const char *text);
xmlNodePtr vs_addf(xmlNodePtr parent, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
xmlNodePtr vs_add_typed(struct vs_req *r, xmlNodePtr parent, const char *name,
			const char *xsi_type, const char *text);
xmlNodePtr vs_add_moref(xmlNodePtr parent, const char *name,
			const struct vs_moref *ref);

/*
 * Send the request, parse the reply, turn a SOAP fault into PB_ERR_FAULT
 * (or PB_ERR_LOGIN for InvalidLogin / NotAuthenticated) with the type in
 * s->fault. On success *reply is the parsed document and *ret the
 * response element (the child of Body). A NotAuthenticated reply makes
 * one new login and one retry.
 */
enum pb_error vs_call(struct vs_session *s, struct vs_req *r, bool idempotent,
		      xmlDocPtr *reply, xmlNodePtr *ret);

/* A call made while cleaning up (DestroyView, Logout): the reply is
 * dropped and an error already on the session is kept. */
enum pb_error vs_call_cleanup(struct vs_session *s, struct vs_req *r);

/*
 * Parse a SOAP reply body. Exposed for unit tests and fuzzing: a fault
 * fills fault_type and the message into errbuf.
 */
enum pb_error vs_reply_parse(xmlDocPtr *doc, xmlNodePtr *ret, const char *body,
			     size_t len, char *fault_type, size_t ftlen,
			     char *errbuf);

/* ---- XML reading ---- */

bool vs_is(xmlNodePtr n, const char *name);
xmlNodePtr vs_child(xmlNodePtr n, const char *name);
xmlNodePtr vs_next(xmlNodePtr n, const char *name); /* next sibling */
/* Text of a child into buf ("" if absent); returns buf. */
char *vs_text(char *buf, size_t len, xmlNodePtr parent, const char *name);
char *vs_node_text(char *buf, size_t len, xmlNodePtr n);
uint64_t vs_u64(xmlNodePtr parent, const char *name);
int vs_bool(xmlNodePtr parent, const char *name); /* -1 absent */
void vs_moref_read(struct vs_moref *out, xmlNodePtr n);
/* xsi:type of n without a prefix, or "" */
char *vs_xsi_type(char *buf, size_t len, xmlNodePtr n);

/* ---- session.c ---- */

enum pb_error vs_login(struct vs_session *s);
/*
 * The version to speak from a vimServiceVersions.xml: the newest dotted
 * one provbench knows, skipping internal ids (vCenter 8.0.2+). Exposed for
 * unit tests with canned files.
 */
enum pb_error vs_versions_pick(char *out, size_t len, const char *xml,
			       size_t xlen);
/* Is the version spoken at least version ("5.5")? */
bool vs_api_at_least(const struct vs_session *s, const char *version);

/* ---- property collector (inventory.c) ---- */

/*
 * One object's properties from RetrievePropertiesEx: the "propSet" nodes,
 * name -> val. Pages are followed with ContinueRetrievePropertiesEx.
 */
struct vs_objcontent {
	struct vs_moref obj;
	xmlNodePtr props; /* first propSet child of the objects node */
};

typedef enum pb_error (*vs_object_fn)(struct vs_session *s,
				      const struct vs_objcontent *oc,
				      void *arg);

/* Properties of every object of type under the root folder. */
enum pb_error vs_retrieve_all(struct vs_session *s, const char *type,
			      const char *const *paths, vs_object_fn fn,
			      void *arg);
/* Properties of one object. */
enum pb_error vs_retrieve_one(struct vs_session *s, const struct vs_moref *obj,
			      const char *const *paths, vs_object_fn fn,
			      void *arg);
/* The val node of property name in an object's propSets, or NULL. */
xmlNodePtr vs_prop(const struct vs_objcontent *oc, const char *name);

/*
 * Readers of one reply, apart from the calls that fetch it: the client
 * uses them, and so do the fuzz targets (tests/fuzz), which feed them
 * hostile replies. returnval is the response's returnval element.
 */
/* fn for every "objects" of a RetrievePropertiesEx returnval */
enum pb_error vs_each_object(struct vs_session *s, xmlNodePtr returnval,
			     vs_object_fn fn, void *arg);
/* The VirtualDisks of a VM's config.hardware.device (*out: caller frees) */
enum pb_error vs_disks_read(struct vs_session *s, xmlNodePtr returnval,
			    struct vs_disk **out, size_t *n);
/* A task's state and progress, from RetrievePropertiesEx (updates false)
 * or WaitForUpdatesEx (true); a task in error returns PB_ERR_FAULT with
 * the fault in s->fault and its message in s->errbuf. */
enum pb_error vs_task_read(struct vs_session *s, xmlNodePtr returnval,
			   bool updates, char *state, size_t slen,
			   int *progress);
/* ListProcessesInGuest: has the process ended, and with which code. */
bool vs_process_read(xmlNodePtr ret, int *code);
/* Where a VM's devices leave a SCSI controller unit free (every device
 * counts: a SCSI CD-ROM holds its unit as a disk does). */
enum pb_error vs_devices_free_unit(struct vs_session *s, xmlNodePtr returnval,
				   int want_ctl, int *ctl, int *unit);

/* ---- lun.c ---- */

/* QueryConfigTarget for a host (its compute resource's browser): *target
 * is the ConfigTarget in *doc, which the caller frees. */
enum pb_error vs_config_target(struct vs_session *s,
			       const struct vs_moref *host, xmlDocPtr *doc,
			       xmlNodePtr *target);
/* offered: in the ConfigTarget's scsiDisk list. */
void vs_luns_mark_offered(struct vs_lun *luns, size_t n, xmlNodePtr target);

/* ---- waiting for properties, and tasks (task.c) ---- */

/*
 * Told of each property value (the initial ones, then every change);
 * returns true once what is waited for has happened.
 */
typedef bool (*vs_change_fn)(const char *name, xmlNodePtr val, void *arg);

/*
 * Wait until fn says so: one read of paths first, then a property filter
 * and WaitForUpdatesEx (never a sleep loop). A session that had to log in
 * again has lost its filters: the filter is made anew and the state read
 * in full again. PB_ERR_TIMEOUT after timeout_s (the caller says what).
 */
enum pb_error vs_wait_props(struct vs_session *s, const struct vs_moref *obj,
			    const char *const *paths, vs_change_fn fn,
			    void *arg, long timeout_s);

/* A task to its end; its times go to s->last_task. */
enum pb_error vs_task_wait(struct vs_session *s, const struct vs_moref *task,
			   long timeout_s);
/* A method that returns a task, and the task to its end. */
enum pb_error vs_call_task(struct vs_session *s, struct vs_req *r);

/* xsd:dateTime ("2023-12-14T06:53:33.763524Z", "+02:00") as Unix time;
 * NaN when it is not one. */
double vs_datetime(const char *s);

/* ---- perf.c ---- */

/* QueryPerf's reply (ret: the response element; NULL: no samples), for
 * unit tests and fuzzing */
enum pb_error vs_perf_read(struct vs_session *s, xmlNodePtr ret,
			   const struct vs_perf_counters *pc,
			   const char *const *inst,
			   struct vs_perf_samples *out);

#endif
