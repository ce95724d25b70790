/*
 * transport.c - HTTPS for the vSphere client: one libcurl easy handle
 * reused for keep-alive, certificate verification on by default, a CA file,
 * thumbprint pinning checked during the handshake (before a password is
 * sent), retries with backoff for idempotent calls only, and the debug
 * trace with secrets redacted.
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vs_int.h"

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct pb_buf *b = arg;

	if (pb_buf_add(b, ptr, size * nmemb))
		return 0; /* over the cap: curl aborts the transfer */
	return size * nmemb;
}

/* a digest as hex: "abcd..." (what pins compare), or "AB:CD:..." (how
 * vCenter shows sslThumbprint) */
static void digest_text(char *out, size_t len, const unsigned char *md,
			unsigned n, bool colons)
{
	size_t at = 0;
	unsigned i;

	out[0] = '\0';
	/* two digits, a colon before all but the first, the NUL after */
	for (i = 0; i < n && at + (colons && i ? 3 : 2) + 1 <= len; i++)
		at += (size_t)snprintf(out + at, len - at,
				       colons ? "%s%02X" : "%s%02x",
				       colons && i ? ":" : "", md[i]);
}

/* Both fingerprints of the peer's certificate, as text. */
static bool peer_digests(X509_STORE_CTX *x, char *sha1, size_t l1, char *sha256,
			 size_t l256, bool colons)
{
	X509 *cert = X509_STORE_CTX_get0_cert(x);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n;

	if (!cert)
		return false;
	if (X509_digest(cert, EVP_sha1(), md, &n))
		digest_text(sha1, l1, md, n, colons);
	if (X509_digest(cert, EVP_sha256(), md, &n))
		digest_text(sha256, l256, md, n, colons);
	return true;
}

/*
 * The pin is the identity: OpenSSL asks us instead of walking the chain,
 * and a self-signed ESXi certificate is accepted exactly when its SHA-1 or
 * SHA-256 fingerprint is the one configured.
 */
static int verify_pinned(X509_STORE_CTX *x, void *arg)
{
	struct vs_session *s = arg;

	if (!peer_digests(x, s->peer_sha1, sizeof(s->peer_sha1), s->peer_sha256,
			  sizeof(s->peer_sha256), false))
		return 0;
	const char *pin =
		s->transfer_pin[0] ? s->transfer_pin : s->cfg.thumbprint;

	if (!strcmp(pin, s->peer_sha1) || !strcmp(pin, s->peer_sha256))
		return 1;
	s->pin_failed = true;
	return 0;
}

static CURLcode on_ssl_ctx(CURL *curl, void *sslctx, void *arg)
{
	(void)curl;
	SSL_CTX_set_cert_verify_callback(sslctx, verify_pinned, arg);
	return CURLE_OK;
}

/* Every file of the CA list, concatenated: what libcurl verifies with. */
static enum pb_error load_cas(struct vs_session *s, struct pb_buf *pem)
{
	const char *p = s->cfg.ca_file, *e;
	char path[1024], *data;
	size_t len;

	while (p && *p) {
		e = strchr(p, ':');
		snprintf(path, sizeof(path), "%.*s",
			 (int)(e ? (size_t)(e - p) : strlen(p)), p);
		if (path[0]) {
			data = pb_slurp_file(path, &len);
			if (!data)
				return pb_fail(s->errbuf, PB_ERR_INPUT,
					       "PROVBENCH_CA_FILE: %s: %s",
					       path, strerror(errno));
			if (pb_buf_add(pem, data, len) ||
			    pb_buf_addstr(pem, "\n")) {
				free(data);
				return pb_fail(s->errbuf, PB_ERR_TOO_LARGE,
					       "PROVBENCH_CA_FILE: more than "
					       "16 MiB of certificates");
			}
			free(data);
		}
		if (!e)
			break;
		p = e + 1;
	}
	return PB_OK;
}

/* The TLS settings of a handle: the session's own and each transfer's. */
static enum pb_error tls_setup(struct vs_session *s, CURL *h)
{
	const struct vs_config *c = &s->cfg;
	struct pb_buf pem = PB_BUF_INIT(16u << 20);
	enum pb_error err = PB_OK;

	if (c->insecure) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	} else if (c->thumbprint) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
		/* the pin names the certificate; its host names do not
		 * matter (ESXi certificates rarely match the address used) */
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
		curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, s);
		/* the pin decides alone: no CA bundle parsed for every new
		 * connection (OpenSSL 3 takes ~20 ms of CPU a time) */
		curl_easy_setopt(h, CURLOPT_CAINFO, NULL);
		curl_easy_setopt(h, CURLOPT_CAPATH, NULL);
	} else if (c->ca_file) {
		err = load_cas(s, &pem);
		if (!err) {
			struct curl_blob blob = {pem.data, pem.len,
						 CURL_BLOB_COPY};

			curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &blob);
		}
	}
	if (c->tls_legacy) {
		/* OpenSSL 3 refuses TLS 1.0/1.1 and their SHA-1 signatures
		 * at its default security level: both allowed, on request */
		curl_easy_setopt(h, CURLOPT_SSLVERSION,
				 (long)CURL_SSLVERSION_TLSv1_0);
		curl_easy_setopt(h, CURLOPT_SSL_CIPHER_LIST,
				 "DEFAULT:@SECLEVEL=0");
	}
	pb_buf_dispose(&pem);
	return err;
}

enum pb_error vs_transport_init(struct vs_session *s)
{
	const struct vs_config *c = &s->cfg;
	CURL *h = curl_easy_init();
	enum pb_error err;

	if (!h)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "curl: cannot init");
	s->curl = h;
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, s->curl_err);
	/* HTTP/1.1, as govmomi and pyVmomi speak to vCenter and ESXi */
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(h, CURLOPT_COOKIEFILE, ""); /* session cookie */
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, c->request_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "provbench/" PB_VERSION);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https,http");
	/* a reply's start and pace are watched (watch.c) */
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, vs_watch_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, &s->watch);
	err = tls_setup(s, h);
	if (err)
		return err;
	s->headers = curl_slist_append(NULL,
				       "Content-Type: text/xml; charset=utf-8");
	if (!s->headers)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	return PB_OK;
}

void vs_transport_cleanup(struct vs_session *s)
{
	if (s->xfer)
		curl_easy_cleanup(s->xfer);
	s->xfer = NULL;
	if (s->curl)
		curl_easy_cleanup(s->curl);
	curl_slist_free_all(s->headers);
	s->curl = NULL;
	s->headers = NULL;
}

/* Replace the text of every <tag>...</tag> with *** (in place). */
static void redact(char *body, const char *tag)
{
	char open[64], close[64], *p = body, *q, *e;

	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	while ((p = strstr(p, open))) {
		p += strlen(open);
		e = strstr(p, close);
		if (!e)
			break;
		q = p;
		if (e - p >= 3) {
			memcpy(q, "***", 3);
			memmove(q + 3, e, strlen(e) + 1);
		} else {
			memset(q, '*', (size_t)(e - p));
		}
		p = q;
	}
}

/* A transfer URL's ticket (token=...) is as good as the guest password
 * for that file: replaced by *** wherever a URL carries one. */
static void redact_tokens(char *body)
{
	char *p = body, *e;

	while ((p = strstr(p, "token="))) {
		p += 6;
		e = p + strcspn(p, "&<\"' \n");
		if (e - p > 3) {
			memcpy(p, "***", 3);
			memmove(p + 3, e, strlen(e) + 1);
		}
		p += 3 < e - p ? 3 : e - p;
	}
}

/*
 * The trace keeps what diagnosis needs (device keys, extraConfig keys,
 * every property) and loses the secrets only: passwords in requests, the
 * session key in Login's reply (UserSession.key: a live session), the
 * session cookie SPBM requests carry, and transfer tickets.
 */
void vs_trace(struct vs_session *s, const char *op, const char *suffix,
	      const char *body, size_t len)
{
	char path[1200], *copy;
	int fd;

	if (!s->cfg.debug_dir || !body)
		return;
	copy = strndup(body, len);
	if (!copy)
		return;
	redact(copy, "password");
	if (!strcmp(op, "Login") || !strcmp(op, "LoginByToken") ||
	    !strcmp(op, "CloneSession"))
		redact(copy, "key");
	redact(copy, "sessionId");
	redact(copy, "vcSessionCookie"); /* SPBM's copy of the session */
	redact_tokens(copy);
	mkdir(s->cfg.debug_dir, 0700);
	snprintf(path, sizeof(path), "%s/%04u-%s.%s.xml", s->cfg.debug_dir,
		 s->trace_seq, op, suffix);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, copy, strlen(copy)) < 0)
			fprintf(stderr, "provbench: %s: %s\n", path,
				strerror(errno));
		close(fd);
	}
	explicit_bzero(copy, strlen(copy));
	free(copy);
}

/*
 * What is worth another try of an idempotent call: the connection failed,
 * was reset or timed out, or a proxy or the server said it is busy for
 * now (502, 503, 504: vCenter's reverse proxy answers 503 while vpxd
 * restarts or is overloaded). Never a write: its task may have begun.
 */
static bool retryable(CURLcode rc, long code)
{
	if (rc == CURLE_OK)
		return code == 502 || code == 503 || code == 504;
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_SEND_ERROR ||
	       rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING ||
	       rc == CURLE_PARTIAL_FILE || rc == CURLE_OPERATION_TIMEDOUT;
}

/* the probe's callback: note the certificate, accept it (nothing is sent
 * over this connection but the handshake) */
static int note_peer(X509_STORE_CTX *x, void *arg)
{
	struct vs_cert_id *id = arg;

	if (!peer_digests(x, id->sha1, sizeof(id->sha1), id->sha256,
			  sizeof(id->sha256), true))
		return 0;
	X509_NAME_oneline(X509_get_subject_name(X509_STORE_CTX_get0_cert(x)),
			  id->subject, sizeof(id->subject));
	return 1;
}

static CURLcode probe_ctx(CURL *curl, void *sslctx, void *arg)
{
	(void)curl;
	SSL_CTX_set_cert_verify_callback(sslctx, note_peer, arg);
	return CURLE_OK;
}

enum pb_error vs_cert_probe(struct vs_cert_id *out, const char *url,
			    bool tls_legacy, char *errbuf)
{
	char ebuf[CURL_ERROR_SIZE] = "", safe[1100];
	CURL *h = curl_easy_init();
	CURLcode rc;

	memset(out, 0, sizeof(*out));
	if (!h)
		return pb_fail(errbuf, PB_ERR_NOMEM, "out of memory");
	curl_easy_setopt(h, CURLOPT_URL, url);
	/* the handshake and no more: no request, no credentials */
	curl_easy_setopt(h, CURLOPT_CONNECT_ONLY, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, probe_ctx);
	curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, out);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 15000L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	if (tls_legacy) {
		curl_easy_setopt(h, CURLOPT_SSLVERSION,
				 (long)CURL_SSLVERSION_TLSv1_0);
		curl_easy_setopt(h, CURLOPT_SSL_CIPHER_LIST,
				 "DEFAULT:@SECLEVEL=0");
	}
	rc = curl_easy_perform(h);
	curl_easy_cleanup(h);
	if (!out->sha1[0]) {
		vs_url_safe(safe, sizeof(safe), url);
		return pb_fail(errbuf,
			       rc == CURLE_COULDNT_CONNECT ||
					       rc == CURLE_COULDNT_RESOLVE_HOST
				       ? PB_ERR_CONNECT
				       : PB_ERR_TLS,
			       "%s: no certificate seen: %s", safe,
			       ebuf[0] ? ebuf : curl_easy_strerror(rc));
	}
	return PB_OK;
}

/* Did the handshake fail because the server offers only old TLS? */
static bool tls_too_old(const char *detail)
{
	/* OpenSSL words it by where it gave up: the protocol itself, or the
	 * SHA-1 signatures that come with it (Debian's default level) */
	return strstr(detail, "protocol version") ||
	       strstr(detail, "legacy sigalg") ||
	       strstr(detail, "unsupported protocol") ||
	       strstr(detail, "no protocols available") ||
	       strstr(detail, "wrong version number");
}

enum pb_error vs_curl_error(struct vs_session *s, CURLcode rc, const char *url)
{
	char safe[1100];

	vs_url_safe(safe, sizeof(safe), url);
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
		if (s->pin_failed)
			return pb_fail(s->errbuf, PB_ERR_TLS,
				       "%s: certificate thumbprint mismatch: "
				       "expected %s, server has SHA-1 %s, "
				       "SHA-256 %s",
				       safe,
				       s->transfer_pin[0] ? s->transfer_pin
							  : s->cfg.thumbprint,
				       s->peer_sha1, s->peer_sha256);
		if (strstr(s->curl_err, "subject name"))
			/* a CA vouches for it, for another name than the
			 * URL's: the name is what to change */
			return pb_fail(s->errbuf, PB_ERR_TLS,
				       "%s: the certificate is for another "
				       "name (%s): give PROVBENCH_URL a name "
				       "it names, or pin it with "
				       "PROVBENCH_THUMBPRINT",
				       safe, s->curl_err);
		if (tls_too_old(s->curl_err))
			return pb_fail(
				s->errbuf, PB_ERR_TLS,
				"%s: server offers only TLS 1.0/1.1, which "
				"OpenSSL refuses by default (ESXi 5.0 and 5.1 "
				"do this); set PROVBENCH_TLS_LEGACY=1 to allow "
				"it (%s)",
				safe, s->curl_err);
		{
			/* what the server showed, so the fix is one copy away once
		 * checked against the host's console (the probe sends
		 * nothing but a handshake) */
			struct vs_cert_id id;
			char why[CURL_ERROR_SIZE], pe[PB_ERRBUF_SIZE];

			snprintf(why, sizeof(why), "%s",
				 s->curl_err[0] ? s->curl_err
						: curl_easy_strerror(rc));
			if (vs_cert_probe(&id, url, s->cfg.tls_legacy, pe))
				return pb_fail(
					s->errbuf, PB_ERR_TLS,
					"%s: certificate not trusted (%s); set "
					"PROVBENCH_THUMBPRINT or "
					"PROVBENCH_CA_FILE",
					safe, why);
			return pb_fail(
				s->errbuf, PB_ERR_TLS,
				"%s: certificate not trusted (%s); it has "
				"SHA-1 %s, SHA-256 %s: once checked against "
				"the host's own, put one in "
				"PROVBENCH_THUMBPRINT, "
				"or set PROVBENCH_CA_FILE",
				safe, why, id.sha1, id.sha256);
		}
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_PROXY:
		/* curl's detail names the host and port */
		return pb_fail(s->errbuf, PB_ERR_CONNECT, "%s: %s", safe,
			       s->curl_err[0] ? s->curl_err
					      : curl_easy_strerror(rc));
	case CURLE_OPERATION_TIMEDOUT: {
		curl_off_t pre = 0;

		/* the handshakes did not finish: nothing was reached */
		if (s->watch.h)
			curl_easy_getinfo(s->watch.h,
					  CURLINFO_PRETRANSFER_TIME_T, &pre);
		if (!pre)
			return pb_fail(s->errbuf, PB_ERR_CONNECT,
				       "%s: no connection in %.0f s "
				       "(PROVBENCH_CONNECT_TIMEOUT): %s",
				       safe, s->cfg.connect_timeout_ms / 1e3,
				       s->curl_err[0] ? s->curl_err
						      : curl_easy_strerror(rc));
		return pb_fail(s->errbuf, PB_ERR_TIMEOUT, "%s: %s", safe,
			       s->curl_err[0] ? s->curl_err
					      : curl_easy_strerror(rc));
	}
	case CURLE_ABORTED_BY_CALLBACK:
		if (s->watch.why[0])
			return pb_fail(s->errbuf, PB_ERR_TIMEOUT, "%s",
				       s->watch.why);
		return pb_fail(s->errbuf, PB_ERR_INTERRUPTED, "%s: %s", safe,
			       curl_easy_strerror(rc));
	case CURLE_WRITE_ERROR:
		return pb_fail(s->errbuf, PB_ERR_TOO_LARGE,
			       "%s: reply larger than %u MiB", safe,
			       VS_REPLY_CAP >> 20);
	default:
		/* curl's detail says more ("transfer closed with 990 bytes
		 * remaining to read") than its code's name */
		return pb_fail(s->errbuf, PB_ERR_CONNECT, "%s: %s", safe,
			       s->curl_err[0] ? s->curl_err
					      : curl_easy_strerror(rc));
	}
}

void vs_url_safe(char *out, size_t len, const char *url)
{
	/* a transfer URL's query holds its token: never printed */
	snprintf(out, len, "%.*s", (int)strcspn(url, "?"), url);
}

static size_t discard(char *ptr, size_t size, size_t nmemb, void *arg)
{
	(void)ptr;
	(void)arg;
	return size * nmemb;
}

enum pb_error vs_http(struct vs_session *s, const char *url, const char *op,
		      const char *action_for, const char *body, size_t len,
		      bool idempotent, struct pb_buf *reply, long *http_code)
{
	char action[128];
	struct curl_slist *hdr = NULL;
	unsigned attempt;
	CURLcode rc = CURLE_OK;
	CURL *h = s->curl;

	*http_code = 0;
	if (body) {
		snprintf(action, sizeof(action), "SOAPAction: %s",
			 action_for ? action_for : s->soap_action);
		hdr = curl_slist_append(NULL, action);
		if (!hdr || !curl_slist_append(hdr, "Content-Type: text/xml; "
						    "charset=utf-8")) {
			curl_slist_free_all(hdr);
			return pb_fail(s->errbuf, PB_ERR_NOMEM,
				       "out of memory");
		}
	}
	curl_easy_setopt(h, CURLOPT_URL, url ? url : s->sdk_url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	if (body) {
		curl_easy_setopt(h, CURLOPT_POST, 1L);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)len);
	} else {
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, reply);
	/* libcurl sends a request again by itself when a reused connection
	 * turns out dead before any reply ("Connection died, retrying a fresh
	 * connect"): for a write that already reached the server, that is a
	 * second disk. Such a write goes over a connection of its own, so a
	 * lost reply is ours to look into (disk.c), never resent unseen. */
	curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, s->fresh ? 1L : 0L);
	for (attempt = 1;; attempt++) {
		pb_buf_reset(reply);
		s->round_trips++;
		*http_code = 0;
		vs_watch_start(&s->watch, h, url ? url : s->sdk_url, op,
			       s->cfg.reply_timeout_ms, s->wait_extra_s);
		rc = curl_easy_perform(h);
		if (rc == CURLE_OK)
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, http_code);
		if (rc == CURLE_OK)
			s->answered = true;
		/* a server that never answered is a wrong URL or a host that
		 * is down: said at once, not after seconds of retries */
		if (!idempotent || !s->answered || attempt == VS_HTTP_TRIES ||
		    !retryable(rc, *http_code))
			break;
		/* bounded: 0.5 s, then 1 s; said, so a slow run is explained */
		{
			struct timespec ts = {attempt - 1,
					      attempt == 1 ? 500000000L : 0};
			char why[64];

			if (rc == CURLE_OK)
				snprintf(why, sizeof(why), "HTTP %ld",
					 *http_code);
			else
				snprintf(why, sizeof(why), "%s",
					 curl_easy_strerror(rc));
			fprintf(stderr,
				"provbench: warning: %s: %s from %s; trying "
				"again in %s s (try %u of %u)\n",
				op, why, s->sdk_url, attempt == 1 ? "0.5" : "1",
				attempt + 1, VS_HTTP_TRIES);
			nanosleep(&ts, NULL);
		}
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, s->headers);
	curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 0L);
	/* nothing of this call's frame stays in the handle */
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, NULL);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, NULL);
	curl_slist_free_all(hdr);
	if (rc != CURLE_OK)
		return vs_curl_error(s, rc, url ? url : s->sdk_url);
	return PB_OK;
}

/* ---- guest file transfers: a handle of their own ---- */

struct xfer_sink {
	CURL *h;
	FILE *down;	    /* a GET's file, for a 2xx reply */
	struct pb_buf body; /* any other reply body, capped */
};

static size_t on_xfer(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct xfer_sink *k = arg;
	long code = 0;

	curl_easy_getinfo(k->h, CURLINFO_RESPONSE_CODE, &code);
	if (k->down && code >= 200 && code < 300)
		return fwrite(ptr, size, nmemb, k->down);
	/* an error page: its start says what went wrong, the rest goes */
	pb_buf_add(&k->body, ptr, size * nmemb);
	return size * nmemb;
}

/* The first line of a reply body that says something once its markup
 * is removed ("<html><title>500 Internal ..." says "500 Internal ..."). */
static void first_line(char *out, size_t len, const struct pb_buf *b)
{
	const char *p = b->data ? b->data : "";
	bool tag = false;
	size_t n = 0;

	for (; *p && n == 0; p++) {
		for (; *p && *p != '\n' && n + 1 < len; p++) {
			if (*p == '<' || *p == '>') {
				tag = *p == '<';
				if (n && out[n - 1] != ' ')
					out[n++] = ' ';
			} else if (!tag && *p != '\r' &&
				   (n || (*p != ' ' && *p != '\t'))) {
				out[n++] = *p;
			}
		}
		while (n && out[n - 1] == ' ')
			n--;
		if (!*p)
			break;
	}
	out[n] = '\0';
	if (!n)
		snprintf(out, len, "(no message)");
}

enum pb_error vs_transfer(struct vs_session *s, const struct vs_xfer *x)
{
	struct xfer_sink k = {.down = x->down, .body = PB_BUF_INIT(64 * 1024)};
	struct curl_slist *hdr = NULL, *to = NULL;
	char safe[1100], why[256];
	enum pb_error err = PB_OK;
	CURLcode rc;
	long code = 0;
	CURL *h;

	if (!s->xfer) {
		s->xfer = curl_easy_init();
		if (!s->xfer)
			return pb_fail(s->errbuf, PB_ERR_NOMEM,
				       "curl: cannot init");
		curl_easy_setopt(s->xfer, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(s->xfer, CURLOPT_ERRORBUFFER, s->curl_err);
		curl_easy_setopt(s->xfer, CURLOPT_HTTP_VERSION,
				 (long)CURL_HTTP_VERSION_1_1);
		curl_easy_setopt(s->xfer, CURLOPT_CONNECTTIMEOUT_MS,
				 s->cfg.connect_timeout_ms);
		curl_easy_setopt(s->xfer, CURLOPT_USERAGENT,
				 "provbench/" PB_VERSION);
		curl_easy_setopt(s->xfer, CURLOPT_PROTOCOLS_STR, "https,http");
		curl_easy_setopt(s->xfer, CURLOPT_NOPROGRESS, 0L);
		curl_easy_setopt(s->xfer, CURLOPT_XFERINFOFUNCTION,
				 vs_watch_progress);
		curl_easy_setopt(s->xfer, CURLOPT_XFERINFODATA, &s->watch);
		err = tls_setup(s, s->xfer);
		if (err)
			return err;
	}
	h = k.h = s->xfer;
	vs_url_safe(safe, sizeof(safe), x->url);
	s->curl_err[0] = '\0';
	s->pin_failed = false;
	snprintf(s->transfer_pin, sizeof(s->transfer_pin), "%s",
		 x->pin ? x->pin : "");
	/* no 100-continue round trip before the body: hostd does not
	 * need it, and it costs a second per upload with some */
	hdr = curl_slist_append(NULL, "Expect:");
	if (x->connect_to)
		to = curl_slist_append(NULL, x->connect_to);
	if (!hdr || (x->connect_to && !to)) {
		err = pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
		goto out;
	}
	curl_easy_setopt(h, CURLOPT_URL, x->url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_CONNECT_TO, to);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, s->cfg.request_timeout_ms);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_xfer);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &k);
	if (x->up) {
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(h, CURLOPT_READFUNCTION, NULL);
		curl_easy_setopt(h, CURLOPT_READDATA, x->up);
		curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE,
				 (curl_off_t)x->size);
	} else {
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
	}
	s->round_trips++;
	vs_watch_start(&s->watch, h, x->url, "guest transfer",
		       s->cfg.reply_timeout_ms, 0);
	rc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (rc != CURLE_OK) {
		err = vs_curl_error(s, rc, x->url); /* names the host's pin */
	} else if (code < 200 || code >= 300) {
		first_line(why, sizeof(why), &k.body);
		err = pb_fail(s->errbuf, PB_ERR_PROTOCOL,
			      "guest transfer %s: HTTP %ld: %s", safe, code,
			      why);
	}
out:
	/* nothing of this call's frame stays in the handle */
	curl_easy_setopt(h, CURLOPT_UPLOAD, 0L);
	curl_easy_setopt(h, CURLOPT_READDATA, NULL);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, NULL);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(h, CURLOPT_CONNECT_TO, NULL);
	curl_slist_free_all(hdr);
	curl_slist_free_all(to);
	pb_buf_dispose(&k.body);
	s->transfer_pin[0] = '\0';
	return err;
}
