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

static void hex(char *out, const unsigned char *md, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[2 * n] = '\0';
}

/*
 * The pin is the identity: OpenSSL asks us instead of walking the chain,
 * and a self-signed ESXi certificate is accepted exactly when its SHA-1 or
 * SHA-256 fingerprint is the one configured.
 */
static int verify_pinned(X509_STORE_CTX *x, void *arg)
{
	struct vs_session *s = arg;
	X509 *cert = X509_STORE_CTX_get0_cert(x);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n;

	if (!cert)
		return 0;
	if (X509_digest(cert, EVP_sha1(), md, &n))
		hex(s->peer_sha1, md, n);
	if (X509_digest(cert, EVP_sha256(), md, &n))
		hex(s->peer_sha256, md, n);
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

enum pb_error vs_transport_init(struct vs_session *s)
{
	const struct vs_config *c = &s->cfg;
	CURL *h = curl_easy_init();

	if (!h)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "curl: cannot init");
	s->curl = h;
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_COOKIEFILE, ""); /* session cookie */
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, c->request_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "provbench/" PB_VERSION);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https,http");
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
	}
	if (c->ca_file && !c->thumbprint)
		curl_easy_setopt(h, CURLOPT_CAINFO, c->ca_file);
	s->headers = curl_slist_append(NULL,
				       "Content-Type: text/xml; charset=utf-8");
	if (!s->headers)
		return pb_fail(s->errbuf, PB_ERR_NOMEM, "out of memory");
	return PB_OK;
}

void vs_transport_cleanup(struct vs_session *s)
{
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
	/* passwords in requests, session keys in Login replies */
	redact(copy, "password");
	redact(copy, "key");
	redact(copy, "sessionId");
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
	free(copy);
}

static bool retryable(CURLcode rc)
{
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_SEND_ERROR ||
	       rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING ||
	       rc == CURLE_PARTIAL_FILE;
}

enum pb_error vs_curl_error(struct vs_session *s, CURLcode rc, const char *url)
{
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
				       url,
				       s->transfer_pin[0] ? s->transfer_pin
							  : s->cfg.thumbprint,
				       s->peer_sha1, s->peer_sha256);
		return pb_fail(s->errbuf, PB_ERR_TLS,
			       "%s: certificate not trusted (%s); set "
			       "PROVBENCH_THUMBPRINT or PROVBENCH_CA_FILE",
			       url, curl_easy_strerror(rc));
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return pb_fail(s->errbuf, PB_ERR_CONNECT, "%s: %s", url,
			       curl_easy_strerror(rc));
	case CURLE_OPERATION_TIMEDOUT:
		return pb_fail(s->errbuf, PB_ERR_TIMEOUT, "%s: %s", url,
			       curl_easy_strerror(rc));
	case CURLE_WRITE_ERROR:
		return pb_fail(s->errbuf, PB_ERR_TOO_LARGE,
			       "%s: reply larger than %u MiB", url,
			       VS_REPLY_CAP >> 20);
	default:
		return pb_fail(s->errbuf, PB_ERR_CONNECT, "%s: %s", url,
			       curl_easy_strerror(rc));
	}
}

enum pb_error vs_http(struct vs_session *s, const char *url, const char *op,
		      const char *body, size_t len, bool idempotent,
		      struct pb_buf *reply, long *http_code)
{
	char action[128];
	struct curl_slist *hdr = NULL;
	unsigned attempt;
	CURLcode rc = CURLE_OK;
	CURL *h = s->curl;

	*http_code = 0;
	if (body) {
		snprintf(action, sizeof(action), "SOAPAction: %s",
			 s->soap_action);
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
	for (attempt = 0; attempt < 4; attempt++) {
		if (attempt) {
			/* 0.25 s, 0.5 s, 1 s */
			struct timespec ts = {0, 250000000L << (attempt - 1)};

			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec = ts.tv_nsec / 1000000000L;
				ts.tv_nsec %= 1000000000L;
			}
			nanosleep(&ts, NULL);
		}
		pb_buf_reset(reply);
		s->round_trips++;
		rc = curl_easy_perform(h);
		if (rc == CURLE_OK || !idempotent || !retryable(rc))
			break;
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, s->headers);
	curl_slist_free_all(hdr);
	if (rc != CURLE_OK)
		return vs_curl_error(s, rc, url ? url : s->sdk_url);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, http_code);
	(void)op;
	return PB_OK;
}
